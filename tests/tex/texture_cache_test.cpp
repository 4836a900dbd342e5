// The texture cache: set-associative LRU over texel addresses, its counters, the bytes it
// charges to the bus, and that it never changes a sampled value.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/simd.h"
#include "gpu/tex/texel_format.h"
#include "gpu/tex/texture_cache.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

void expectConsistent(const TexCacheStats& s, uint32_t line) {
  EXPECT_EQ(s.hits + s.misses, s.lookups);
  EXPECT_EQ(s.missBytes, s.misses * line);
}

TEST(TexCache, ConfigurationRules) {
  EXPECT_EQ(texCacheProblem({0, 64, 4}), nullptr);  // no cache
  EXPECT_EQ(texCacheProblem({4096, 64, 4}), nullptr);
  EXPECT_NE(texCacheProblem({4096, 8, 4}), nullptr);         // line too small
  EXPECT_NE(texCacheProblem({4096, 48, 4}), nullptr);        // not a power of two
  EXPECT_NE(texCacheProblem({4096, 64, 0}), nullptr);        // no ways
  EXPECT_NE(texCacheProblem({3 * 64 * 4, 64, 4}), nullptr);  // 3 sets
  EXPECT_NE(texCacheProblem({100, 64, 1}), nullptr);         // not whole lines
  EXPECT_THROW(TextureCache({4096, 48, 4}), std::invalid_argument);
  EXPECT_EQ(TextureCache({4096, 64, 4}).sets(), 16u);
}

TEST(TexCache, StreamingMissesOncePerLine) {
  TextureCache c({1024, 64, 2});
  // 4-byte texels read in address order: the first texel of every line misses, the other 15 hit.
  const GpuAddress base = 0x10000;
  uint64_t bus = 0;
  for (uint32_t i = 0; i < 4096; ++i) bus += c.access(base + 4 * i, 4);
  EXPECT_EQ(c.stats().lookups, 4096u);
  EXPECT_EQ(c.stats().misses, 4096u * 4 / 64);
  EXPECT_EQ(c.stats().hits, 4096u - 256);
  EXPECT_EQ(bus, 256u * 64);
  expectConsistent(c.stats(), 64);
}

TEST(TexCache, ReuseHits) {
  TextureCache c({1024, 64, 2});
  // A working set of 8 lines (512 bytes) fits: after the first pass every access hits.
  for (int pass = 0; pass < 10; ++pass)
    for (uint32_t i = 0; i < 128; ++i) c.access(0x20000 + 4 * i, 4);
  EXPECT_EQ(c.stats().misses, 8u);
  EXPECT_EQ(c.stats().hits, 10u * 128 - 8);
  expectConsistent(c.stats(), 64);
}

TEST(TexCache, StraddlingFetchLooksUpBothLines) {
  TextureCache c({1024, 16, 1});
  EXPECT_EQ(c.access(0x1000 + 14, 4), 32u);  // bytes 14..17: lines 0 and 1
  EXPECT_EQ(c.stats().lookups, 2u);
  EXPECT_EQ(c.access(0x1000 + 16, 4), 0u);
  EXPECT_EQ(c.stats().hits, 1u);
}

TEST(TexCache, LruEvictionOrderPerSet) {
  // 4 sets of 2 ways of 16-byte lines: lines 0, 4, 8, 12 ... all map to set 0.
  TextureCache c({128, 16, 2});
  ASSERT_EQ(c.sets(), 4u);
  auto line = [](uint64_t n) { return GpuAddress{0x4000 + 16 * n}; };
  c.access(line(0), 4);
  c.access(line(4), 4);
  EXPECT_EQ(c.setContents(0), (std::vector<GpuAddress>{line(4), line(0)}));
  c.access(line(0), 4);  // hit: line 0 becomes the most recent
  EXPECT_EQ(c.setContents(0), (std::vector<GpuAddress>{line(0), line(4)}));
  c.access(line(8), 4);  // miss: evicts line 4, the least recently used
  EXPECT_EQ(c.setContents(0), (std::vector<GpuAddress>{line(8), line(0)}));
  EXPECT_EQ(c.access(line(4), 4), 16u);  // was evicted
  EXPECT_EQ(c.access(line(8), 4), 0u);   // still there
  EXPECT_EQ(c.access(line(0), 4), 16u);  // evicted by line 4
  // Other sets were untouched.
  EXPECT_TRUE(c.setContents(1).empty());
  c.access(line(1), 4);
  EXPECT_EQ(c.setContents(1), (std::vector<GpuAddress>{line(1)}));
  expectConsistent(c.stats(), 16);
}

// Every set's recency order and the counters against a plain list per set, for the a630's eight
// ways and others, over lookups that hit at every depth of a set, miss, and fill empty ways.
TEST(TexCache, SetsKeepTheOrderOfAListPerSet) {
  for (uint32_t ways : {8u, 4u, 3u}) {
    constexpr uint32_t kLine = 64, kSets = 4;
    TextureCache c({kLine * ways * kSets, kLine, ways});
    std::vector<std::vector<GpuAddress>> ref(kSets);
    uint64_t misses = 0;
    std::mt19937 rng(ways);
    for (int i = 0; i < 20000; ++i) {
      // 12 lines a set: more than the ways, so each set both hits deep and evicts.
      const uint64_t lineNo = rng() % (kSets * 12);
      const GpuAddress a = 0x40000 + lineNo * kLine + rng() % (kLine - 4);
      std::vector<GpuAddress>& set = ref[lineNo % kSets];
      const GpuAddress tag = a & ~GpuAddress{kLine - 1};
      const auto at = std::find(set.begin(), set.end(), tag);
      const bool hit = at != set.end();
      if (hit) set.erase(at);
      if (!hit && set.size() == ways) set.pop_back();
      misses += !hit;
      set.insert(set.begin(), tag);
      ASSERT_EQ(c.access(a, 4), hit ? 0u : kLine) << "lookup " << i << " ways " << ways;
    }
    for (uint32_t s = 0; s < kSets; ++s) EXPECT_EQ(c.setContents(s), ref[s]) << "set " << s;
    EXPECT_EQ(c.stats().misses, misses);
    EXPECT_EQ(c.stats().lookups, 20000u);
    expectConsistent(c.stats(), kLine);
  }
}

TEST(TexCache, InvalidateEmptiesEveryLine) {
  TextureCache c({256, 16, 2});
  c.access(0x8000, 4);
  EXPECT_EQ(c.access(0x8000, 4), 0u);
  c.invalidate();
  EXPECT_EQ(c.access(0x8000, 4), 16u);
  EXPECT_EQ(c.stats().misses, 2u);
}

// A filter loop's probe makes the lookups access() makes: over a stream of single fetches and
// runs that revisit lines, straddle lines and evict, the counters and every set's recency order
// are the same, also when the probe's previous line has since been evicted and come back.
TEST(TexCache, AProbeLooksUpWhatAccessLooksUp) {
  TextureCache direct({512, 32, 2}), probed({512, 32, 2});
  std::mt19937 rng(5);
  std::uniform_int_distribution<uint32_t> address(0, 4095), size(1, 6), runLength(1, 3);
  CacheProbe probe(&probed);
  ASSERT_TRUE(probe.enabled());
  for (int i = 0; i < 20000; ++i) {
    // Mostly near the previous fetch, sometimes anywhere (which evicts).
    const GpuAddress at = 0x8000 + (i % 7 == 0 ? address(rng) : (address(rng) % 96) + 64 * (i % 5));
    const uint32_t bytes = size(rng), count = runLength(rng);
    for (uint32_t k = 0; k < count; ++k) direct.access(at + k * bytes, bytes);
    if (count == 1)
      probe.access(at, bytes);
    else
      probe.accessRun(at, bytes, count);
  }
  probe.finish();
  EXPECT_EQ(std::memcmp(&direct.stats(), &probed.stats(), sizeof(TexCacheStats)), 0);
  EXPECT_GT(direct.stats().hits, direct.stats().misses);
  for (uint32_t set = 0; set < direct.sets(); ++set)
    EXPECT_EQ(direct.setContents(set), probed.setContents(set)) << "set " << set;
  EXPECT_FALSE(CacheProbe(nullptr).enabled());
  TextureCache none({0, 64, 4});
  EXPECT_FALSE(CacheProbe(&none).enabled());
}

#if TESSERA_AVX2_CLONES
// The probe's AVX2 lookups of `lines`: each line once by lookUpLineAvx2 (count lookups of it in a
// row), or, for a group, all its lines by lookUpDistinctAvx2.
struct LineGroup {
  uint64_t base, lines, lookups;
};
[[gnu::target("avx2")]] void lookUpAvx2(CacheProbe& probe, const std::vector<LineGroup>& groups) {
  for (const LineGroup& g : groups) {
    if (std::popcount(g.lines) == 1 && g.lookups <= 2)
      probe.lookUpLineAvx2(g.base + std::countr_zero(g.lines), static_cast<uint32_t>(g.lookups));
    else
      probe.lookUpDistinctAvx2(g.base, g.lines, g.lookups);
  }
  probe.finish();
}

// The AVX2 path's set search (four and eight ways compared at once, others in a loop) and its
// lookups of a group of lines in different sets leave every set as the general lookups do, with
// the same counts: for the same lines, a group's looked up in its own shuffled order.
TEST(TexCache, AvxLookupsMatchTheGeneralOnes) {
  if (hostSimdPath() != SimdPath::Avx2) GTEST_SKIP() << "no AVX2 on this processor";
  for (const TexCacheConfig config :
       {TexCacheConfig{32768, 64, 8}, TexCacheConfig{2048, 64, 4}, TexCacheConfig{512, 32, 2}}) {
    TextureCache direct(config), probed(config);
    CacheProbe probe(&probed);
    const uint64_t sets = direct.sets();
    std::mt19937 rng(11);
    std::vector<LineGroup> groups;
    uint64_t near = 1000;
    for (int i = 0; i < 40000; ++i) {
      // Mostly lines near the last ones; sometimes anywhere in twice the cache's lines, so that
      // lines come back at every depth of their sets, or after they left.
      near = i % 9 == 0 ? 64 + rng() % (2 * sets * config.ways) : near + rng() % 5 - 2;
      const uint64_t span = std::min<uint64_t>(sets, 64);
      LineGroup g{near, 0, 0};
      if (i % 3 == 0) {
        g.lines = uint64_t{1} << (rng() % span);
        g.lookups = 1 + rng() % 2;
      } else {
        for (int k = 0, n = 1 + static_cast<int>(rng() % 6); k < n; ++k)
          g.lines |= uint64_t{1} << (rng() % span);
        g.lookups = static_cast<uint64_t>(std::popcount(g.lines)) + rng() % 9;
      }
      groups.push_back(g);
      std::vector<uint64_t> order;
      for (uint64_t rest = g.lines; rest; rest &= rest - 1)
        order.push_back(g.base + std::countr_zero(rest));
      std::shuffle(order.begin(), order.end(), rng);
      // Each line once, then the lookups left over as hits on lines just looked up.
      for (uint64_t line : order) direct.access(line * direct.config().lineBytes, 1);
      for (uint64_t k = order.size(); k < g.lookups; ++k)
        direct.access(order[k % order.size()] * direct.config().lineBytes, 1);
    }
    lookUpAvx2(probe, groups);
    EXPECT_EQ(std::memcmp(&direct.stats(), &probed.stats(), sizeof(TexCacheStats)), 0)
        << config.ways << " ways";
    EXPECT_GT(direct.stats().misses, 1000u);
    for (uint32_t set = 0; set < direct.sets(); ++set)
      ASSERT_EQ(direct.setContents(set), probed.setContents(set)) << "set " << set;
  }
}
#endif

TEST(TexCache, DisabledChargesTheBytesAndCountsNothing) {
  TextureCache c;
  EXPECT_FALSE(c.enabled());
  EXPECT_EQ(c.access(0x1000, 16), 16u);
  EXPECT_EQ(c.stats().lookups, 0u);
}

// A 64x64 RGBA8 texture with a gradient, sampled over a screen of quads that magnify it.
struct Scene {
  TextureDescriptor d;
  std::vector<float> pixels;
};

std::vector<uint8_t> gradient(uint32_t w, uint32_t h) {
  std::vector<uint8_t> t(size_t{w} * h * 4);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = &t[(size_t{y} * w + x) * 4];
      p[0] = static_cast<uint8_t>(x * 4), p[1] = static_cast<uint8_t>(y * 4);
      p[2] = static_cast<uint8_t>(x ^ y), p[3] = 255;
    }
  return t;
}

// Samples a 128x128 screen covering the texture (bilinear, 2x magnified) quad by quad.
std::vector<float> drawQuads(TexFixture& fx, const TextureDescriptor& d, uint32_t screen) {
  std::vector<float> out;
  for (uint32_t y = 0; y < screen; y += 2)
    for (uint32_t x = 0; x < screen; x += 2) {
      float s[4], t[4], texel[4][4];
      for (int p = 0; p < 4; ++p) {
        s[p] = (static_cast<float>(x + (p & 1)) + 0.5f) / static_cast<float>(screen);
        t[p] = (static_cast<float>(y + (p >> 1)) + 0.5f) / static_cast<float>(screen);
      }
      fx.unit.sampleQuad(d, s, t, 0.0f, texel);
      for (auto& px : texel) out.insert(out.end(), px, px + 4);
    }
  return out;
}

TEST(TexCacheUnit, NoCacheIsTheOldBehaviourAndImagesMatch) {
  TexFixture plain, cached;
  cached.unit.configureCache({4096, 64, 4});
  const auto bytes = gradient(64, 64);
  const auto d0 = plain.make(TexFormat::RGBA8, 64, 64, 1, bytes);
  const auto d1 = cached.make(TexFormat::RGBA8, 64, 64, 1, bytes);
  const auto a = drawQuads(plain, d0, 128);
  const auto b = drawQuads(cached, d1, 128);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);  // bit-exact
  // No cache: every bilinear texel is charged its 4 bytes, as before the cache existed.
  const TexStats& p = plain.unit.stats();
  EXPECT_EQ(p.texelFetches, 128u * 128 * 4);
  EXPECT_EQ(p.bytesFetched, p.texelFetches * 4);
  EXPECT_EQ(plain.memory.stats()[BusClient::Texture].readBytes, p.bytesFetched);
  EXPECT_EQ(p.lookups, 0u);
  EXPECT_EQ(p.misses, 0u);
  // The cache: the 16 KiB texture does not fit 4 KiB, but each line is fetched about once as
  // the screen sweeps it row by row (bilinear rows reuse the lines of the row above).
  const TexStats& c = cached.unit.stats();
  EXPECT_EQ(c.texelFetches, p.texelFetches);
  EXPECT_EQ(c.lookups, c.texelFetches);  // aligned 4-byte texels never straddle a line
  EXPECT_EQ(c.hits + c.misses, c.lookups);
  EXPECT_EQ(c.missBytes, c.misses * 64);
  EXPECT_EQ(c.bytesFetched, c.missBytes);
  EXPECT_EQ(cached.memory.stats()[BusClient::Texture].readBytes, c.missBytes);
  EXPECT_GE(c.missBytes, 64u * 64 * 4);      // every line at least once
  EXPECT_LE(c.missBytes, 2u * 64 * 64 * 4);  // and not much more
  EXPECT_LT(c.bytesFetched * 10, p.bytesFetched);
}

TEST(TexCacheUnit, CompressedBlocksAreLookedUpWhole) {
  TexFixture fx;
  fx.unit.configureCache({1024, 64, 4});
  // A 16x16 ETC2 texture: 16 blocks of 8 bytes, 128 bytes = 2 lines.
  std::vector<uint8_t> blocks(16 * 8, 0);
  auto d = fx.make(TexFormat::ETC2_RGB8, 16, 16, 1, blocks);
  d.magFilter = d.minFilter = Filter::Nearest;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) fx.lod(d, (x + 0.5f) / 16, (y + 0.5f) / 16, 0);
  EXPECT_EQ(fx.unit.stats().lookups, 256u);
  EXPECT_EQ(fx.unit.stats().misses, 2u);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 128u);
}

TEST(TexCacheUnit, TexelFetchGoesThroughTheCache) {
  TexFixture fx;
  fx.unit.configureCache({1024, 64, 4});
  const auto d = fx.make(TexFormat::RGBA8, 64, 64, 1, gradient(64, 64));
  float out[4];
  for (int i = 0; i < 16; ++i) fx.unit.fetch(d, i, 0, 0, out);
  EXPECT_EQ(fx.unit.stats().lookups, 16u);
  EXPECT_EQ(fx.unit.stats().misses, 1u);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 64u);
}

TEST(TexCacheUnit, ResetStatsInvalidatesAndConfigureKeepsAnEqualCache) {
  TexFixture fx;
  fx.unit.configureCache({1024, 64, 4});
  const auto d = fx.make(TexFormat::RGBA8, 64, 64, 1, gradient(64, 64));
  float out[4];
  fx.unit.fetch(d, 0, 0, 0, out);
  fx.unit.configureCache({1024, 64, 4});  // unchanged: keeps its lines
  fx.unit.fetch(d, 1, 0, 0, out);
  EXPECT_EQ(fx.unit.stats().hits, 1u);
  fx.unit.resetStats();  // a new submission: the host may have written texture memory
  EXPECT_EQ(fx.unit.stats().lookups, 0u);
  fx.unit.fetch(d, 1, 0, 0, out);
  EXPECT_EQ(fx.unit.stats().misses, 1u);
  EXPECT_THROW(fx.unit.configureCache({1024, 24, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::gpu::tex
