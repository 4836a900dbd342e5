// The texture unit's specialized 2D filters (one instance per GLES 2 colour or depth format, filter
// and pair of wrap modes) against its general filter: every result, to the bit, and every counter
// the same, over random texels, coordinates, derivatives, offsets, filters and wrap modes, with and
// without the texture cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

#include "common/simd.h"
#include "gpu/tex/quad_filter.h"
#include "gpu/tex/tex_wrap.h"
#include "tex_fixture.h"

namespace tessera::gpu::tex::testing {
namespace {

// Every format with specialized filters.
constexpr auto kFormats = detail::kQuadFormats;
constexpr Wrap kWraps[] = {Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat};

bool sameStats(const TexStats& a, const TexStats& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The same random texels in each fixture's memory: the descriptors for the fast and the general
// unit.
std::pair<TextureDescriptor, TextureDescriptor> randomTextures(TexFixture& fast,
                                                               TexFixture& general,
                                                               TexFormat format, uint32_t width,
                                                               uint32_t height, uint32_t levels,
                                                               std::mt19937& rng) {
  TextureDescriptor d;
  d.format = format;
  d.width = width;
  d.height = height;
  d.levels = levels;
  std::vector<uint8_t> bytes(totalBytes(d));
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(byte(rng));
  return {fast.make(format, width, height, levels, bytes),
          general.make(format, width, height, levels, bytes)};
}

TEST(SpecializedFilters, MatchTheGeneralFilterToTheBit) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> coord(-2.5f, 3.5f), step(-0.3f, 0.3f), bias(-1.0f, 2.0f);
  std::uniform_int_distribution<int> offset(-8, 7);
  for (const bool cached : {false, true}) {
    TexFixture fast, general;
    general.unit.setSpecializedFilters(false);
    if (cached) {
      fast.unit.configureCache({1024, 64, 2});
      general.unit.configureCache({1024, 64, 2});
    }
    for (TexFormat format : kFormats) {
      auto [a, b] = randomTextures(fast, general, format, 13, 7, 3, rng);
      for (int combo = 0; combo < 2 * 2 * 3 * 9; ++combo) {
        for (TextureDescriptor* x : {&a, &b}) {
          x->magFilter = combo % 2 ? Filter::Linear : Filter::Nearest;
          x->minFilter = combo / 2 % 2 ? Filter::Linear : Filter::Nearest;
          x->mipFilter = static_cast<MipFilter>(combo / 4 % 3);
          x->wrapS = kWraps[combo / 12 % 3];
          x->wrapT = kWraps[combo / 36 % 3];
        }
        for (int quad = 0; quad < 8; ++quad) {
          float s[4], t[4];
          s[0] = coord(rng), t[0] = coord(rng);
          const float dsdx = step(rng), dtdx = step(rng), dsdy = step(rng), dtdy = step(rng);
          s[1] = s[0] + dsdx, t[1] = t[0] + dtdx;
          s[2] = s[0] + dsdy, t[2] = t[0] + dtdy;
          s[3] = s[1] + dsdy, t[3] = t[1] + dtdy;
          const TexelOffset off{offset(rng), offset(rng), 0};
          const float lodBias = bias(rng);
          float outFast[4][4], outGeneral[4][4];
          fast.unit.sampleQuad(a, s, t, lodBias, outFast, off);
          general.unit.sampleQuad(b, s, t, lodBias, outGeneral, off);
          ASSERT_EQ(std::memcmp(outFast, outGeneral, sizeof outFast), 0)
              << "format " << static_cast<int>(format) << " combination " << combo;
          float lodFast[4], lodGeneral[4];
          fast.unit.sampleLod(a, s[0], t[0], lodBias, lodFast, off);
          general.unit.sampleLod(b, s[0], t[0], lodBias, lodGeneral, off);
          ASSERT_EQ(std::memcmp(lodFast, lodGeneral, sizeof lodFast), 0)
              << "format " << static_cast<int>(format) << " combination " << combo;
        }
      }
    }
    EXPECT_TRUE(sameStats(fast.unit.stats(), general.unit.stats()));
    EXPECT_GT(fast.unit.stats().texelFetches, 0u);
    if (cached) {
      EXPECT_GT(fast.unit.stats().hits, 0u);
    }
  }
}

// A warp's lookups in one call (the shader core's path): each sampled quad's rows hold what the
// general filter gives that quad alone, the other quads' rows are left as they were, and every
// counter is the same, for any set of quads, with each quad choosing its own levels (alone or
// alike with its neighbours, the same two levels blended by weights of its own) and with the
// quads sharing the draw's one level (no mipmaps, one filter: one kernel call a warp).
TEST(SpecializedFilters, WarpLookupsMatchTheGeneralFilterQuadByQuad) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> coord(-1.5f, 2.5f), step(-0.2f, 0.2f), bias(-1.0f, 2.0f);
  std::uniform_int_distribution<uint32_t> mask(0, 255);
  TexFixture fast, general;
  general.unit.setSpecializedFilters(false);
  fast.unit.configureCache({2048, 64, 4});
  general.unit.configureCache({2048, 64, 4});
  constexpr int kQuads = 8;
  for (TexFormat format : kFormats) {
    auto [a, b] = randomTextures(fast, general, format, 16, 11, 4, rng);
    // Magnification, minification and mip filters: the first three choose levels per quad.
    constexpr struct {
      Filter mag, min;
      MipFilter mip;
    } kFilterSets[] = {{Filter::Linear, Filter::Nearest, MipFilter::None},
                       {Filter::Linear, Filter::Linear, MipFilter::Nearest},
                       {Filter::Linear, Filter::Nearest, MipFilter::Linear},
                       {Filter::Linear, Filter::Linear, MipFilter::Linear},
                       {Filter::Nearest, Filter::Nearest, MipFilter::None},
                       {Filter::Linear, Filter::Linear, MipFilter::None}};
    constexpr int kSets = sizeof kFilterSets / sizeof kFilterSets[0];
    for (int combo = 0; combo < kSets * 3 * 3; ++combo) {
      for (TextureDescriptor* x : {&a, &b}) {
        x->magFilter = kFilterSets[combo % kSets].mag;
        x->minFilter = kFilterSets[combo % kSets].min;
        x->mipFilter = kFilterSets[combo % kSets].mip;
        x->wrapS = kWraps[combo / kSets % 3];
        x->wrapT = kWraps[combo / kSets / 3 % 3];
      }
      // Every other combination gives all quads one bias and footprints a little apart, so that
      // neighbours choose the same levels and share kernel calls, with each quad's own blend
      // between the levels.
      const bool sameFootprint = combo % 2 == 0;
      const float sharedDx = step(rng), sharedDy = step(rng), sharedBias = bias(rng);
      float s[4 * kQuads], t[4 * kQuads], lodBias[kQuads];
      for (int q = 0; q < kQuads; ++q) {
        const float x = coord(rng), y = coord(rng);
        const float apart = 1.0f + 0.02f * static_cast<float>(q);
        const float dx = sameFootprint ? sharedDx * apart : step(rng),
                    dy = sameFootprint ? sharedDy * apart : step(rng);
        for (int p = 0; p < 4; ++p) {
          s[4 * q + p] = x + static_cast<float>(p & 1) * dx;
          t[4 * q + p] = y + static_cast<float>(p >> 1) * dy;
        }
        lodBias[q] = sameFootprint ? sharedBias : bias(rng);
      }
      const uint32_t quads = mask(rng);
      float rows[4][4 * kQuads];
      std::fill(&rows[0][0], &rows[0][0] + 4 * 4 * kQuads, -7.0f);
      float* const out[4] = {rows[0], rows[1], rows[2], rows[3]};
      fast.unit.sampleQuads(a, s, t, lodBias, quads, out);
      for (int q = 0; q < kQuads; ++q) {
        float want[4][4];
        if ((quads >> q) & 1) general.unit.sampleQuad(b, s + 4 * q, t + 4 * q, lodBias[q], want);
        for (int p = 0; p < 4; ++p)
          for (int ch = 0; ch < 4; ++ch) {
            const float expected = (quads >> q) & 1 ? want[p][ch] : -7.0f;
            ASSERT_EQ(std::memcmp(&rows[ch][4 * q + p], &expected, sizeof expected), 0)
                << "format " << static_cast<int>(format) << " combination " << combo << " quad "
                << q << " pixel " << p << " channel " << ch;
          }
      }
    }
  }
  EXPECT_TRUE(sameStats(fast.unit.stats(), general.unit.stats()));
  EXPECT_GT(fast.unit.stats().misses, 0u);
  EXPECT_GT(fast.unit.stats().hits, 0u);
}

// A shader sampling two textures in turn, warp by warp, with neighbouring pixels' coordinates
// (coherent pairs, unlike the random quads above): the two textures' lines compete for the
// cache's few sets, so many of a pair's lookups hit lines that are not the most recent of their
// sets, and the kernels must leave each set in the order the lookups one by one would. Every
// result, counter and set's contents must be what the general filter leaves, quad by quad (a
// kernel looking up a bilinear footprint's rows in the other order fails here).
TEST(SpecializedFilters, InterleavedTexturesReorderTheCacheAsTheGeneralFilter) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> origin(-4.0f, 36.0f), scale(0.4f, 3.0f);
  std::uniform_int_distribution<uint32_t> mask(1, 255);
  // Few sets, so that a pair's lines often share one and the order of their reordering counts;
  // down to one set, and to one and two ways, fewer lines than one pixel's footprint can touch.
  constexpr TexCacheConfig kCaches[] = {{2048, 64, 4}, {512, 64, 4}, {512, 32, 8},
                                        {256, 64, 4},  {256, 64, 1}, {256, 32, 2}};
  constexpr int kCacheCount = sizeof kCaches / sizeof kCaches[0];
  // NEAREST, bilinear, and trilinear (two levels blended) once minified.
  constexpr int kFilters = 3;
  for (int combo = 0; combo < kFilters * kCacheCount; ++combo) {
    const int filter = combo % kFilters;
    TexFixture fast, general;
    general.unit.setSpecializedFilters(false);
    for (TexFixture* f : {&fast, &general}) f->unit.configureCache(kCaches[combo / kFilters]);
    auto [a1, a2] = randomTextures(fast, general, TexFormat::RGBA8, 32, 32, 6, rng);
    auto [b1, b2] = randomTextures(fast, general, TexFormat::RGB8, 32, 32, 6, rng);
    for (TextureDescriptor* d : {&a1, &a2, &b1, &b2}) {
      d->magFilter = d->minFilter = filter == 0 ? Filter::Nearest : Filter::Linear;
      d->mipFilter = filter == 2 ? MipFilter::Linear : MipFilter::None;
      d->wrapS = d->wrapT = Wrap::ClampToEdge;
    }
    constexpr int kQuads = 8;  // 4 across, 2 down: the kernels pair quads 0 and 1, 2 and 3, ...
    for (int warp = 0; warp < 400; ++warp) {
      const float x0 = origin(rng), y0 = origin(rng), step = scale(rng);
      float s[4 * kQuads], t[4 * kQuads], bias[kQuads] = {};
      for (int q = 0; q < kQuads; ++q)
        for (int p = 0; p < 4; ++p) {
          s[4 * q + p] = (x0 + step * static_cast<float>(2 * (q % 4) + (p & 1))) / 32.0f;
          t[4 * q + p] = (y0 + step * static_cast<float>(2 * (q / 4) + (p >> 1))) / 32.0f;
        }
      // Every other warp has some quads off, so that pairs of one quad occur.
      const uint32_t quads = warp % 2 ? mask(rng) : (1u << kQuads) - 1;
      for (const auto& [fastTex, generalTex] : {std::pair{&a1, &a2}, std::pair{&b1, &b2}}) {
        float rows[4][4 * kQuads];
        float* const out[4] = {rows[0], rows[1], rows[2], rows[3]};
        fast.unit.sampleQuads(*fastTex, s, t, bias, quads, out);
        for (int q = 0; q < kQuads; ++q) {
          if (((quads >> q) & 1) == 0) continue;
          float want[4][4];
          general.unit.sampleQuad(*generalTex, s + 4 * q, t + 4 * q, 0.0f, want);
          for (int p = 0; p < 4; ++p)
            for (int ch = 0; ch < 4; ++ch)
              ASSERT_EQ(std::memcmp(&rows[ch][4 * q + p], &want[p][ch], sizeof(float)), 0)
                  << "combination " << combo << " warp " << warp << " quad " << q;
        }
      }
    }
    EXPECT_TRUE(sameStats(fast.unit.stats(), general.unit.stats())) << "combination " << combo;
    EXPECT_GT(fast.unit.stats().misses, 0u);
    EXPECT_GT(fast.unit.stats().hits, fast.unit.stats().misses);
    const TextureCache& cache = fast.unit.cache();
    for (uint32_t set = 0; set < cache.sets(); ++set)
      EXPECT_EQ(cache.setContents(set), general.unit.cache().setContents(set))
          << "combination " << combo << " set " << set;
  }
}

// Whole warps of coherent pixels, as a draw without mipmaps samples: eight quads side by side in
// pairs, or stacked (as a warp gathers quads from a triangle's narrow rows), mapped onto the
// texture magnified or minified, turned, across its edges (the wrap modes) and across cache lines
// (3-byte texels straddle them). The specialized lookups count a pair's lookups at once when they
// are few lines; results, counters and every set's contents must be what the general filter
// leaves, for every format, filter, pair of wrap modes and cache geometry.
TEST(SpecializedFilters, WholeWarpsMatchTheGeneralFilterAndItsCache) {
  std::mt19937 rng(4242);
  std::uniform_int_distribution<uint32_t> someQuads(1, 0xfeu);
  std::uniform_real_distribution<float> origin(-6.0f, 40.0f), scale(0.3f, 2.5f), turn(-0.6f, 0.6f);
  constexpr TexCacheConfig kCaches[] = {
      {0, 64, 4}, {32768, 64, 8}, {512, 64, 4}, {256, 32, 2}, {512, 16, 2}};
  constexpr int kQuads = 8;
  int direct = 0;
  for (const TexCacheConfig& cache : kCaches) {
    TexFixture fast, general;
    general.unit.setSpecializedFilters(false);
    fast.unit.configureCache(cache);
    general.unit.configureCache(cache);
    for (TexFormat format : kFormats) {
      // 37 texels across: rows that end inside cache lines; 64: rows that share sets; 256 and
      // 512: a warp's rows 64 lines apart, in one set of the a630's 64, or spread over more
      // lines than it has sets.
      for (uint32_t width : {37u, 64u, 256u, 512u}) {
        auto [a, b] = randomTextures(fast, general, format, width, 29, 1, rng);
        // As in a GPU run: the memory pinned, so that the unit may keep the set-up of a warp.
        const GpuMemory::ViewScope pinned(fast.memory, fast.memory.view());
        for (int combo = 0; combo < 2 * 3 * 3; ++combo) {
          for (TextureDescriptor* x : {&a, &b}) {
            x->magFilter = x->minFilter = combo % 2 ? Filter::Linear : Filter::Nearest;
            x->mipFilter = MipFilter::None;
            x->wrapS = kWraps[combo / 2 % 3];
            x->wrapT = kWraps[combo / 6 % 3];
          }
          float last[4] = {};  // the last warp's x0, y0, step and angle
          for (int warp = 0; warp < 24; ++warp) {
            float x0 = origin(rng), y0 = origin(rng), step = scale(rng);
            float angle = warp % 3 == 0 ? turn(rng) : 0.0f;
            // Some warps go back over the last one's texels, a texel or two to the side, so that
            // their lines mostly lead their sets and a few come new.
            if (warp % 6 == 5) {
              x0 = last[0] + (warp % 12 == 5 ? 1.5f : -2.0f);
              y0 = last[1];
              step = last[2];
              angle = last[3];
            }
            last[0] = x0, last[1] = y0, last[2] = step, last[3] = angle;
            const float c = std::cos(angle) * step, sn = std::sin(angle) * step;
            const bool stacked = warp % 4 == 1;
            // Some warps upside down: their lower texel rows come first in the general order.
            const float down = warp % 3 == 1 ? -1.0f : 1.0f;
            float s[4 * kQuads], t[4 * kQuads], bias[kQuads] = {};
            for (int q = 0; q < kQuads; ++q) {
              // Side by side: 4 quads across, 2 down; stacked: 1 across, 8 down.
              const int qx = stacked ? 0 : q % 4, qy = stacked ? q : q / 4;
              for (int p = 0; p < 4; ++p) {
                const float px = static_cast<float>(2 * qx + (p & 1));
                const float py = static_cast<float>(2 * qy + (p >> 1));
                s[4 * q + p] = (x0 + c * px - sn * py) / static_cast<float>(width);
                t[4 * q + p] = (y0 + sn * px + down * c * py) / 29.0f;
              }
            }
            float rows[4][4 * kQuads];
            float* const out[4] = {rows[0], rows[1], rows[2], rows[3]};
            // Every other warp takes the shader core's shortcut when the unit offers it: the
            // set-up of a lookup before, the kernel called at once (sampleWarp). One in four
            // does so for some of its quads; one in four writes its results over its
            // coordinates, as a shader core does when the destination registers hold them.
            const uint32_t quads = warp % 4 == 1 ? someQuads(rng) : (1u << kQuads) - 1;
            const bool over = warp % 4 == 3;
            if (over) {
              std::memcpy(rows[2], s, sizeof s);
              std::memcpy(rows[0], t, sizeof t);
            }
            if (warp % 2 == 0 ||
                !fast.unit.sampleWarp(a, over ? rows[2] : s, over ? rows[0] : t, quads, out)) {
              fast.unit.sampleQuads(a, s, t, bias, quads, out);
            } else {
              ++direct;
            }
            for (int q = 0; q < kQuads; ++q) {
              if (!((quads >> q) & 1u)) continue;
              float want[4][4];
              general.unit.sampleQuad(b, s + 4 * q, t + 4 * q, 0.0f, want);
              for (int p = 0; p < 4; ++p)
                for (int ch = 0; ch < 4; ++ch)
                  ASSERT_EQ(std::memcmp(&rows[ch][4 * q + p], &want[p][ch], sizeof(float)), 0)
                      << "format " << static_cast<int>(format) << " width " << width
                      << " combination " << combo << " warp " << warp << " quad " << q;
            }
          }
        }
      }
    }
    EXPECT_TRUE(sameStats(fast.unit.stats(), general.unit.stats())) << "cache " << cache.bytes;
    EXPECT_GT(fast.unit.stats().texelFetches, 0u);
    if (cache.bytes != 0) {
      EXPECT_GT(fast.unit.stats().misses, 0u);
      EXPECT_GT(fast.unit.stats().hits, fast.unit.stats().misses);
      for (uint32_t set = 0; set < fast.unit.cache().sets(); ++set)
        EXPECT_EQ(fast.unit.cache().setContents(set), general.unit.cache().setContents(set))
            << "cache " << cache.bytes << " set " << set;
    }
  }
  if (simdPath() == SimdPath::Avx2) {
    EXPECT_GT(direct, 0);
  }
}

// The quad paths reduce and floor coordinates in SIMD registers: NaN, infinities, signed zeros,
// values beyond 2^23 (already integers) and far outside the texture must wrap or clamp to the
// texels the scalar path picks.
TEST(SpecializedFilters, MatchTheGeneralFilterOnSpecialCoordinates) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {nan,         inf,          -inf,        0.0f,        -0.0f,
                           1.0f,        -1.0f,        0.5f,        -0.5f,       8388608.0f,
                           -8388608.0f, 8388607.5f,   -8388607.5f, 16777216.0f, 3.0e9f,
                           -3.0e9f,     1.0e30f,      -1.0e30f,    1.0e-40f,    -1.0e-40f,
                           0.99999994f, -0.99999994f, 1.00000012f, 7.5f,        -7.5f};
  constexpr int kCount = sizeof special / sizeof special[0];
  TexFixture fast, general;
  general.unit.setSpecializedFilters(false);
  fast.unit.configureCache({1024, 64, 2});
  general.unit.configureCache({1024, 64, 2});
  std::vector<uint8_t> bytes;
  for (TexFormat format : kFormats) {
    TextureDescriptor d;
    d.format = format;
    d.width = 5;
    d.height = 3;
    d.levels = 1;
    bytes.assign(totalBytes(d), 0);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
    TextureDescriptor a = fast.make(format, 5, 3, 1, bytes);
    TextureDescriptor b = general.make(format, 5, 3, 1, bytes);
    for (int combo = 0; combo < 2 * 3 * 3; ++combo) {
      for (TextureDescriptor* x : {&a, &b}) {
        x->magFilter = x->minFilter = combo % 2 ? Filter::Linear : Filter::Nearest;
        x->mipFilter = MipFilter::None;
        x->wrapS = kWraps[combo / 2 % 3];
        x->wrapT = kWraps[combo / 6 % 3];
      }
      for (int i = 0; i < kCount; ++i) {
        // Every pixel of the quad takes a different pair, so each SIMD lane meets each value.
        float s[4], t[4];
        for (int p = 0; p < 4; ++p) {
          s[p] = special[(i + p) % kCount];
          t[p] = special[(i + 3 * p + 1) % kCount];
        }
        float outFast[4][4], outGeneral[4][4];
        fast.unit.sampleQuad(a, s, t, 0.0f, outFast, {});
        general.unit.sampleQuad(b, s, t, 0.0f, outGeneral, {});
        ASSERT_EQ(std::memcmp(outFast, outGeneral, sizeof outFast), 0)
            << "format " << static_cast<int>(format) << " combination " << combo << " value " << i;
      }
    }
  }
  EXPECT_TRUE(sameStats(fast.unit.stats(), general.unit.stats()));
}

// The kernels' bilinear sums of byte channels are made in integers (16-bit column sums, then
// the rows in floats), where the general filter sums floats: each sum must be the same at every
// pair of sub-texel fractions, with texels of the extreme bytes (the largest sums) and mixed
// ones, so that no 16-bit sum overflows and no float step rounds.
TEST(SpecializedFilters, BilinearSumsMatchAtEverySubTexelFraction) {
  TexFixture fast, general;
  general.unit.setSpecializedFilters(false);
  const uint8_t patterns[][4] = {{0xff, 0xff, 0xff, 0xff},
                                 {0xff, 0x00, 0x00, 0xff},
                                 {0x00, 0xff, 0xff, 0x00},
                                 {0x13, 0xfe, 0x80, 0x7f}};
  for (TexFormat format : kFormats) {
    for (const auto& pattern : patterns) {
      // A 2x2 texture: the footprint of every lookup below is all four texels.
      TextureDescriptor d;
      d.format = format;
      d.width = d.height = 2;
      d.levels = 1;
      std::vector<uint8_t> bytes(totalBytes(d));
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = pattern[(i + i / 4) % 4];
      TextureDescriptor a = fast.make(format, 2, 2, 1, bytes);
      TextureDescriptor b = general.make(format, 2, 2, 1, bytes);
      for (TextureDescriptor* x : {&a, &b}) {
        x->magFilter = x->minFilter = Filter::Linear;
        x->mipFilter = MipFilter::None;
        x->wrapS = x->wrapT = Wrap::ClampToEdge;
      }
      // Texel coordinate 0.5 + k / 256 is fraction k of the first texel: s = (128 + k) / 512.
      for (int fv = 0; fv < kSubTexelScale; ++fv) {
        for (int fu = 0; fu < kSubTexelScale; fu += 4) {
          float s[4], t[4];
          for (int p = 0; p < 4; ++p) {
            s[p] = static_cast<float>(128 + fu + p) / 512.0f;
            t[p] = static_cast<float>(128 + (fv + 64 * p) % kSubTexelScale) / 512.0f;
          }
          float outFast[4][4], outGeneral[4][4];
          fast.unit.sampleQuad(a, s, t, 0.0f, outFast, {});
          general.unit.sampleQuad(b, s, t, 0.0f, outGeneral, {});
          ASSERT_EQ(std::memcmp(outFast, outGeneral, sizeof outFast), 0)
              << "format " << static_cast<int>(format) << " fractions " << fu << ", " << fv;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera::gpu::tex::testing
