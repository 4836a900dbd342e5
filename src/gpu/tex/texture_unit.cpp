#include "gpu/tex/texture_unit.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "common/counter_sum.h"
#include "common/lane_count.h"
#include "common/simd.h"
#include "gpu/tex/cube_face.h"
#include "gpu/tex/lod_log2.h"
#include "gpu/tex/tex_wrap.h"
#include "gpu/tex/texel_format.h"

namespace tessera::gpu::tex {
namespace {

// Largest texture edge the unit addresses; texel indices and wrap arithmetic stay in int32.
constexpr uint32_t kMaxTextureSize = 16384;

// The depth comparison of OpenGL ES 3.0 §3.8.16: 1 when `ref OP texel` holds, else 0.
float compareDepth(CompareFunc f, float ref, float texel) {
  switch (f) {
    case CompareFunc::Never:
      return 0.0f;
    case CompareFunc::Less:
      return ref < texel ? 1.0f : 0.0f;
    case CompareFunc::Equal:
      return ref == texel ? 1.0f : 0.0f;
    case CompareFunc::LEqual:
      return ref <= texel ? 1.0f : 0.0f;
    case CompareFunc::Greater:
      return ref > texel ? 1.0f : 0.0f;
    case CompareFunc::NotEqual:
      return ref != texel ? 1.0f : 0.0f;
    case CompareFunc::GEqual:
      return ref >= texel ? 1.0f : 0.0f;
    case CompareFunc::Always:
      return 1.0f;
  }
  return 0.0f;
}

// A texel address with kSubTexelBits of fraction, as filtering hardware has (D3D10-class units:
// 8 bits): the lower index and the weight of the upper one, an exact multiple of 1/256.
struct Tap {
  int32_t i;
  float weight;
};
inline Tap linearTap(float u) {
  const int32_t uf = static_cast<int32_t>(std::floor((u - 0.5f) * kSubTexelScale));
  return {uf >> kSubTexelBits,
          static_cast<float>(uf & (kSubTexelScale - 1)) / static_cast<float>(kSubTexelScale)};
}

// Point, bilinear or (3D) trilinear sample of one level (GLES 2.0 §3.7.7, eq. 3.20-3.22: weights
// from the fraction of u - 1/2, v - 1/2, w - 1/2). With `ref`, each texel is replaced by its
// comparison result before the weights apply (OpenGL ES 3.0 §3.8.16). Returns the number of
// texels fetched. One instance per format, so that decoding a texel is a few inlined loads
// rather than a switch per texel.
template <TexFormat F>
uint32_t filterLevel(const TextureDescriptor& d, const Level& lv, Filter filter, float s, float t,
                     float r, const float* ref, TexelOffset offset, float out[4]) {
  constexpr TexelBlock block = kTexelBlocks[static_cast<size_t>(F)];
  const bool volume = d.volume;
  const float u = texelCoord(d.wrapS, s, lv.width) + static_cast<float>(offset.u);
  const float v = texelCoord(d.wrapT, t, lv.height) + static_cast<float>(offset.v);
  const float w = volume ? texelCoord(d.wrapR, r, lv.depth) + static_cast<float>(offset.w) : 0.5f;
  // The unorm formats (the GLES 2 colour formats, ETC/EAC, ASTC) are read as the integers
  // they store, with what each channel is divided by to expand it; the others as they expand.
  constexpr bool kStoredIntegers = filtersStoredIntegers(F);
  std::array<float, 4> scale{1.0f, 1.0f, 1.0f, 1.0f};
  if constexpr (isCompressedFormat(F)) {
    scale = blockTexelScale(F);
  } else if constexpr (isPackedColorFormat(F)) {
    for (int ch = 0; ch < 4; ++ch)
      scale[ch] = fieldScale(kPackedLayouts[static_cast<size_t>(F)][ch]);
  }
  auto stored = [&](int32_t i, int32_t j, int32_t k, float c[4]) __attribute__((always_inline)) {
    if constexpr (isCompressedFormat(F)) {
      // The block the texel lives in, in rows of blocks; the decoder picks the texel out of it.
      const auto ui = static_cast<uint32_t>(i), uj = static_cast<uint32_t>(j);
      const size_t blocksX = (static_cast<size_t>(lv.width) + block.width - 1) / block.width;
      const size_t blocksY = (static_cast<size_t>(lv.height) + block.height - 1) / block.height;
      const size_t index =
          (static_cast<size_t>(k) * blocksY + uj / block.height) * blocksX + ui / block.width;
      if (lv.cache) lv.cache->access(lv.address + index * block.bytes, block.bytes);
      decodeBlockTexelRaw(F, lv.texels + index * block.bytes, ui % block.width, uj % block.height,
                          c);
    } else {
      const size_t index =
          (static_cast<size_t>(k) * static_cast<size_t>(lv.height) + static_cast<size_t>(j)) *
              static_cast<size_t>(lv.width) +
          static_cast<size_t>(i);
      if (lv.cache) lv.cache->access(lv.address + index * block.bytes, block.bytes);
      if constexpr (isPackedColorFormat(F))
        rawChannels<F>(loadPackedWord<F>(lv.texels + index * block.bytes), c);
      else
        decodeTexel(F, lv.texels + index * block.bytes, c);
    }
  };
  auto texel = [&](int32_t i, int32_t j, int32_t k, float c[4]) __attribute__((always_inline)) {
    stored(i, j, k, c);
    if constexpr (kStoredIntegers)
      for (int ch = 0; ch < 4; ++ch) c[ch] /= scale[ch];
    // Only depth formats compare (sample() passes no reference for others), so the colour
    // instances carry no per-texel test.
    if constexpr (isDepthFormat(F)) {
      if (ref != nullptr) {
        c[0] = c[1] = c[2] = compareDepth(d.compareFunc, *ref, c[0]);
        c[3] = 1.0f;
      }
    }
  };
  if (filter == Filter::Nearest) {
    const int32_t i = wrapIndex(d.wrapS, static_cast<int32_t>(std::floor(u)), lv.width);
    const int32_t j = wrapIndex(d.wrapT, static_cast<int32_t>(std::floor(v)), lv.height);
    const int32_t k =
        volume ? wrapIndex(d.wrapR, static_cast<int32_t>(std::floor(w)), lv.depth) : 0;
    texel(i, j, k, out);
    return 1;
  }
  const Tap tu = linearTap(u), tv = linearTap(v);
  const int32_t i0 = wrapIndex(d.wrapS, tu.i, lv.width),
                i1 = wrapIndex(d.wrapS, tu.i + 1, lv.width);
  const int32_t j0 = wrapIndex(d.wrapT, tv.i, lv.height);
  const int32_t j1 = wrapIndex(d.wrapT, tv.i + 1, lv.height);
  const float a = tu.weight, b = tv.weight;
  const float w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
  // Unorm texels are filtered as the integers they store and expanded once per channel, as a
  // texture unit filters them in fixed point: one division per channel, not one per texel.
  auto bilinear = [&](int32_t k, float c[4]) __attribute__((always_inline)) {
    float t00[4], t10[4], t01[4], t11[4];
    // A depth comparison applies per texel, before the weights.
    auto read = [&](int32_t i, int32_t j, float to[4]) __attribute__((always_inline)) {
      if constexpr (kStoredIntegers)
        stored(i, j, k, to);
      else
        texel(i, j, k, to);
    };
    read(i0, j0, t00);
    read(i1, j0, t10);
    read(i0, j1, t01);
    read(i1, j1, t11);
    for (int ch = 0; ch < 4; ++ch) {
      c[ch] = w00 * t00[ch] + w10 * t10[ch] + w01 * t01[ch] + w11 * t11[ch];
      if constexpr (kStoredIntegers) c[ch] /= scale[ch];
    }
  };
  if (!volume) {
    bilinear(0, out);
    return 4;
  }
  // 3D: two bilinear slices blended by the 8-bit fraction along r.
  const Tap tw = linearTap(w);
  float near[4], far[4];
  bilinear(wrapIndex(d.wrapR, tw.i, lv.depth), near);
  bilinear(wrapIndex(d.wrapR, tw.i + 1, lv.depth), far);
  for (int ch = 0; ch < 4; ++ch) out[ch] = (1 - tw.weight) * near[ch] + tw.weight * far[ch];
  return 8;
}

using FilterFn = uint32_t (*)(const TextureDescriptor&, const Level&, Filter, float, float, float,
                              const float*, TexelOffset, float[4]);

template <size_t... I>
constexpr std::array<FilterFn, sizeof...(I)> filterTable(std::index_sequence<I...>) {
  return {&filterLevel<static_cast<TexFormat>(I)>...};
}
constexpr auto kFilters = filterTable(std::make_index_sequence<kTexelBlocks.size()>());

// Without mipmaps and with one filter for both, lambda chooses nothing: level 0, that filter.
bool lodChooses(const TextureDescriptor& d) {
  return d.mipFilter != MipFilter::None || d.magFilter != d.minFilter;
}

}  // namespace

float TextureUnit::quadLod(const TextureDescriptor& d, const float s[4], const float t[4],
                           float bias) {
  const float w = static_cast<float>(d.width), h = static_cast<float>(d.height);
  const float dudx = (s[1] - s[0]) * w, dvdx = (t[1] - t[0]) * h;
  const float dudy = (s[2] - s[0]) * w, dvdy = (t[2] - t[0]) * h;
  // §3.7.7 eq. 3.17 with the "max of the two lengths" approximation of rho; log2 of a length
  // is half the log2 of its square, which saves the square roots.
  const float rho2 = std::max(dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy);
  return 0.5f * lodLog2(rho2) + bias;
}

float TextureUnit::quadLod3(const TextureDescriptor& d, const float s[4], const float t[4],
                            const float r[4], float bias) {
  const float w = static_cast<float>(d.width), h = static_cast<float>(d.height),
              z = static_cast<float>(d.depth);
  const float dudx = (s[1] - s[0]) * w, dvdx = (t[1] - t[0]) * h, dwdx = (r[1] - r[0]) * z;
  const float dudy = (s[2] - s[0]) * w, dvdy = (t[2] - t[0]) * h, dwdy = (r[2] - r[0]) * z;
  // OpenGL ES 3.0 §3.8.9 eq. 3.19 with the same "max of the two lengths" as 2D.
  const float rho = std::max(std::sqrt(dudx * dudx + dvdx * dvdx + dwdx * dwdx),
                             std::sqrt(dudy * dudy + dvdy * dvdy + dwdy * dwdy));
  return lodLog2(rho) + bias;
}

// EXT_texture_filter_anisotropic: Px and Py are the lengths of the x and y derivative vectors in
// texels; N = min(ceil(Pmax / Pmin), maxAnisotropy) probes spread along the longer one, each
// filtered at lambda' = log2(Pmax / N), so the level follows the footprint's minor axis.
TextureUnit::Footprint TextureUnit::anisotropicFootprint(const TextureDescriptor& d,
                                                         const float s[4], const float t[4],
                                                         float bias) {
  const float w = static_cast<float>(d.width), h = static_cast<float>(d.height);
  const float dsdx = s[1] - s[0], dtdx = t[1] - t[0], dsdy = s[2] - s[0], dtdy = t[2] - t[0];
  const float px = std::sqrt(dsdx * w * dsdx * w + dtdx * h * dtdx * h);
  const float py = std::sqrt(dsdy * w * dsdy * w + dtdy * h * dtdy * h);
  const float pmax = std::max(px, py), pmin = std::min(px, py);
  Footprint fp{1, lodLog2(pmax) + bias, 0.0f, 0.0f};
  // Magnified (or degenerate) footprints and isotropic samplers keep the isotropic lambda.
  if (d.maxAnisotropy <= 1 || !(pmax > 1.0f) || !std::isfinite(pmax)) return fp;
  const float ratio = pmin > 0.0f ? std::ceil(pmax / pmin) : static_cast<float>(kMaxAnisotropy);
  const uint32_t maxProbes = std::min<uint32_t>(d.maxAnisotropy, kMaxAnisotropy);
  fp.probes = ratio >= static_cast<float>(maxProbes) ? maxProbes
                                                     : std::max(1u, static_cast<uint32_t>(ratio));
  if (fp.probes == 1) return fp;
  fp.lambda = lodLog2(pmax / static_cast<float>(fp.probes)) + bias;
  const bool xMajor = px >= py;
  fp.ds = xMajor ? dsdx : dsdy;
  fp.dt = xMajor ? dtdx : dtdy;
  return fp;
}

// Probe i of N sits at i / (N + 1) - 1/2 of the major axis around the pixel's centre, so the
// probes cover the pixel's footprint evenly; the result is their average.
void TextureUnit::sampleProbes(const TextureDescriptor& d, const uint8_t* texels,
                               const LevelChoice& lc, const Footprint& fp, const TexCoord& c,
                               bool shadow, TexelOffset offset, float out[4]) {
  if (fp.probes <= 1) return sampleOne(d, texels, lc, c, shadow, offset, out);
  float sum[4] = {0, 0, 0, 0};
  for (uint32_t i = 1; i <= fp.probes; ++i) {
    const float k = static_cast<float>(i) / static_cast<float>(fp.probes + 1) - 0.5f;
    TexCoord probe = c;
    probe.s += k * fp.ds;
    probe.t += k * fp.dt;
    float v[4];
    sampleOne(d, texels, lc, probe, shadow, offset, v);
    for (int ch = 0; ch < 4; ++ch) sum[ch] += v[ch];
  }
  stats_.samples -= fp.probes - 1;  // one filtered result per pixel, whatever the probes
  for (int ch = 0; ch < 4; ++ch) out[ch] = sum[ch] / static_cast<float>(fp.probes);
}

const uint8_t* TextureUnit::map(const TextureDescriptor& d) {
  if (d.width > kMaxTextureSize || d.height > kMaxTextureSize || d.depth > kMaxTextureSize ||
      static_cast<size_t>(d.format) >= kTexelBlocks.size()) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "texture descriptor at 0x%llx is invalid (%ux%u, format %u)",
                  static_cast<unsigned long long>(d.base), d.width, d.height,
                  static_cast<unsigned>(d.format));
    throw GpuFault(FaultKind::BadState, d.base, BusClient::Texture, msg);
  }
  return mapTable(d, levelTable(d));
}

const uint8_t* TextureUnit::mapTable(const TextureDescriptor& d, LevelTable& t) {
  // The whole mip chain is validated once, so no texel fetch can leave its buffer object. Inside
  // a GPU run the buffer objects are pinned and the pointer is kept until the next reset;
  // outside one (the unit driven on its own) a BO may be released between calls.
  if (t.texels) return t.texels;
  const uint8_t* texels = memory_.span(BusClient::Texture, d.base, t.total).data();
  if (memory_.pinned()) t.texels = texels;
  return texels;
}

namespace {
bool sameLayout(const TextureDescriptor& a, const TextureDescriptor& b) {
  return a.base == b.base && a.format == b.format && a.width == b.width && a.height == b.height &&
         a.levels == b.levels && a.depth == b.depth && a.cube == b.cube && a.volume == b.volume &&
         a.array == b.array;
}
}  // namespace

TextureUnit::LevelTable& TextureUnit::levelTable(const TextureDescriptor& d) {
  // A warp's lookups mostly come back to the texture of the previous one.
  if (lastTable_ < tablesUsed_ && sameLayout(tables_[lastTable_].key, d))
    return tables_[lastTable_];
  for (uint32_t i = 0; i < tablesUsed_; ++i)
    if (sameLayout(tables_[i].key, d)) return tables_[lastTable_ = i];
  lastTable_ = nextTable_;
  LevelTable& t = tables_[nextTable_];
  nextTable_ = (nextTable_ + 1) % tables_.size();
  if (tablesUsed_ < tables_.size()) ++tablesUsed_;
  t.key = d;
  t.texels = nullptr;
  t.setUp = false;
  t.total = totalBytes(d);
  t.count = std::min(d.levels, kTableLevels);
  // Bounded by the table's size itself, which g++ 12 sees (with the sanitizers it cannot follow
  // t.count and warns of an overrun).
  for (uint32_t l = 0; l < kTableLevels && l < t.count; ++l) {
    t.offset[l] = levelOffset(d, l);
    t.width[l] = static_cast<int32_t>(levelExtent(d.width, l));
    t.height[l] = static_cast<int32_t>(levelExtent(d.height, l));
    t.depth[l] = static_cast<int32_t>(d.volume ? levelExtent(d.depth, l) : 1);
    t.faceBytes[l] = imageBytes(d.format, levelExtent(d.width, l), levelExtent(d.height, l));
  }
  return t;
}

TextureUnit::LevelTable& TextureUnit::warpSetup(const TextureDescriptor& d) {
  // Mostly the descriptor of the previous lookup, set up already: one comparison of its bytes.
  if (LevelTable& last = tables_[lastTable_];
      lastTable_ < tablesUsed_ && last.setUp && last.sampler == d)
    return last;
  LevelTable& t = levelTable(d);
  if (t.setUp && t.sampler == d) return t;
  t.sampler = d;
  t.kernels[0] = quadKernel(d, Filter::Nearest);
  t.kernels[1] = quadKernel(d, Filter::Linear);
  t.lodMatters = lodChooses(d);
  if (!t.lodMatters) chooseLevels(d, t, 0.0f, t.fixed);
  t.setUp = true;
  return t;
}

// The levels a lookup filters (GLES 2.0 §3.7.7-3.7.8), chosen once per lambda: all four pixels
// of a quad share it, so a quad pays for the choice and the level addresses once.
TextureUnit::LevelChoice TextureUnit::chooseLevels(const TextureDescriptor& d, float lambda) {
  LevelChoice lc;
  chooseLevels(d, levelTable(d), lambda, lc);
  return lc;
}

void TextureUnit::chooseLevels(const TextureDescriptor& d, const LevelTable& table, float lambda,
                               LevelChoice& lc) {
  if (lambda != lambda) lambda = 0.0f;  // NaN derivatives: sample level 0
  // §3.7.7: the switch-over point c is 1/2 only for LINEAR magnification with a
  // NEAREST_MIPMAP_* minification filter, otherwise 0.
  const bool halfC = d.magFilter == Filter::Linear && d.minFilter == Filter::Nearest &&
                     d.mipFilter != MipFilter::None;
  const float c = halfC ? 0.5f : 0.0f;
  const uint32_t q = d.levels - 1;  // levels clamped to [0, q]
  lc = {};
  lc.filter = d.minFilter;
  lc.count = 1;
  if (lambda <= c || d.mipFilter == MipFilter::None) {
    lc.filter = lambda <= c ? d.magFilter : d.minFilter;
  } else if (d.mipFilter == MipFilter::Nearest) {
    // §3.7.8: d = ceil(lambda + 1/2) - 1 for lambda > 1/2, else the base level.
    const float level = lambda <= 0.5f ? 0.0f : std::ceil(lambda + 0.5f) - 1.0f;
    lc.level[0] = level >= static_cast<float>(q) ? q : static_cast<uint32_t>(level);
  } else if (lambda >= static_cast<float>(q)) {
    lc.level[0] = q;
  } else {
    // Linear between levels floor(lambda) and floor(lambda)+1 by frac(lambda) (eq. 3.23).
    const float fl = std::floor(lambda);
    lc.level[0] = static_cast<uint32_t>(fl);
    lc.level[1] = lc.level[0] + 1;
    lc.blend = std::floor((lambda - fl) * kSubTexelScale) / kSubTexelScale;
    lc.count = 2;
  }
  for (int k = 0; k < lc.count; ++k) {
    const uint32_t l = lc.level[k];
    if (l < table.count) {
      lc.offset[k] = table.offset[l];
      lc.width[k] = table.width[l];
      lc.height[k] = table.height[l];
      lc.depth[k] = table.depth[l];
      // Only cube faces and array layers are addressed by face.
      lc.faceBytes[k] = d.cube || d.array ? table.faceBytes[l] : 0;
      continue;
    }
    lc.offset[k] = levelOffset(d, lc.level[k]);
    lc.width[k] = static_cast<int32_t>(levelExtent(d.width, lc.level[k]));
    lc.height[k] = static_cast<int32_t>(levelExtent(d.height, lc.level[k]));
    lc.depth[k] = static_cast<int32_t>(d.volume ? levelExtent(d.depth, lc.level[k]) : 1);
    // Only cube faces and array layers are addressed by face (3D slices are filtered inside
    // the level), so a 2D lookup skips the size computation.
    lc.faceBytes[k] = d.cube || d.array ? imageBytes(d.format, levelExtent(d.width, lc.level[k]),
                                                     levelExtent(d.height, lc.level[k]))
                                        : 0;
  }
}

void TextureUnit::sample(const TextureDescriptor& d, const uint8_t* texels, const LevelChoice& lc,
                         uint32_t face, float s, float t, float r, const float* ref,
                         TexelOffset offset, float out[4]) {
  const float ss[1] = {s}, ts[1] = {t};
  float result[1][4];
  samplePixels(d, texels, lc, face, 1, ss, ts, r, ref, offset, result);
  std::copy(result[0], result[0] + 4, out);
}

void TextureUnit::levelsOf(const TextureDescriptor& d, const uint8_t* texels, const LevelChoice& lc,
                           uint32_t face, Level out[2]) {
  TextureCache* cache = cache_.enabled() ? &cache_ : nullptr;
  for (int k = 0; k < lc.count; ++k) {
    const uint64_t at = lc.offset[k] + face * lc.faceBytes[k];
    Level& l = out[k];
    l.texels = texels + at;
    l.width = lc.width[k];
    l.height = lc.height[k];
    l.depth = lc.depth[k];
    l.address = d.base + at;
    l.cache = cache;
  }
}

QuadFilterFn TextureUnit::quadKernel(const TextureDescriptor& d, Filter filter) const {
  return useQuad2D_ && !d.volume ? quadFilter(d.format, filter) : nullptr;
}

void TextureUnit::chargeTexels(const TextureDescriptor& d, uint32_t fetched, uint64_t missBytes) {
  stats_.texelFetches += fetched;
  // With a cache the bus carries the lines that missed; without one every texel goes to memory,
  // a texel of a compressed format costing the whole block it lives in (docs/textures.md).
  fetchedBytes_ += cache_.enabled()
                       ? cache_.stats().missBytes - missBytes
                       : uint64_t{fetched} * kTexelBlocks[static_cast<size_t>(d.format)].bytes;
}

void TextureUnit::samplePixels(const TextureDescriptor& d, const uint8_t* texels,
                               const LevelChoice& lc, uint32_t face, int pixels, const float* s,
                               const float* t, float r, const float* ref, TexelOffset offset,
                               float (*out)[4]) {
  stats_.samples += static_cast<uint64_t>(pixels);
  const uint64_t missBytes = cache_.stats().missBytes;
  // Filled in place: a copied Level would be read back as vectors from scalar stores, which
  // waits for store forwarding on every call.
  Level levels[2];
  levelsOf(d, texels, lc, face, levels);
  uint32_t fetched = 0;
  if (const QuadFilterFn quad = pixels == 4 && !ref ? quadKernel(d, lc.filter) : nullptr) {
    float rows[4][4];
    float* const rowPtrs[4] = {rows[0], rows[1], rows[2], rows[3]};
    fetched = quad({levels, lc.count, &lc.blend, s, t, 1u, offset, d.wrapS, d.wrapT, rowPtrs});
    for (int p = 0; p < 4; ++p)
      for (int ch = 0; ch < 4; ++ch) out[p][ch] = rows[ch][p];
    return chargeTexels(d, fetched, missBytes);
  }
  const FilterFn filter = kFilters[static_cast<size_t>(d.format)];
  for (int p = 0; p < pixels; ++p) {
    fetched += filter(d, levels[0], lc.filter, s[p], t[p], r, ref, offset, out[p]);
    if (lc.count == 2) {
      float t2[4];
      fetched += filter(d, levels[1], lc.filter, s[p], t[p], r, ref, offset, t2);
      for (int ch = 0; ch < 4; ++ch) out[p][ch] = (1 - lc.blend) * out[p][ch] + lc.blend * t2[ch];
    }
  }
  chargeTexels(d, fetched, missBytes);
}

// An incomplete texture samples as (0, 0, 0, 1) without touching memory (GLES 2.0 §3.8.2). For
// integer formats too the one is the float 1.0, so an integer sampler reads 0x3f800000 in alpha:
// OpenGL ES 3.0 leaves the integer case unsaid, and Mesa's drivers return this.
bool TextureUnit::incomplete(const TextureDescriptor& d, float (*out)[4], int pixels) {
  if (isComplete(d)) return false;
  stats_.samples += static_cast<uint64_t>(pixels);
  for (int p = 0; p < pixels; ++p) out[p][0] = out[p][1] = out[p][2] = 0.0f, out[p][3] = 1.0f;
  return true;
}

// The bytes of one call's texel fetches go to the bus in one transaction.
void TextureUnit::chargeFetches() {
  stats_.bytesFetched += fetchedBytes_;
  // Most calls hit in the cache throughout: nothing for the bus to count.
  if (fetchedBytes_ != 0) memory_.countRead(BusClient::Texture, fetchedBytes_);
  chargeCacheStats();
}

void TextureUnit::chargeCacheStats() {
  const TexCacheStats& c = cache_.stats();
  stats_.lookups = merged_.lookups + c.lookups;
  stats_.hits = merged_.hits + c.hits;
  stats_.misses = merged_.misses + c.misses;
  stats_.missBytes = merged_.missBytes + c.missBytes;
}

void TextureUnit::addStats(const TexStats& s) {
  addCounters(stats_, s);
  merged_.lookups += s.lookups;
  merged_.hits += s.hits;
  merged_.misses += s.misses;
  merged_.missBytes += s.missBytes;
}

void TextureUnit::sampleQuad(const TextureDescriptor& d, const float s[4], const float t[4],
                             float lodBias, float out[4][4], TexelOffset offset) {
  ++stats_.quads;
  if (incomplete(d, out, 4)) return;
  const uint8_t* texels = map(d);
  if (d.maxAnisotropy > 1 && targetOf(d) == TexTarget::Tex2D) {
    const Footprint fp = anisotropicFootprint(d, s, t, lodBias);
    const LevelChoice lc = chooseLevels(d, fp.lambda);
    fetchedBytes_ = 0;
    for (int p = 0; p < 4; ++p)
      sampleProbes(d, texels, lc, fp, {s[p], t[p], 0.0f, 0.0f}, false, offset, out[p]);
    return chargeFetches();
  }
  const bool lodMatters = lodChooses(d);
  const LevelChoice lc = chooseLevels(d, lodMatters ? quadLod(d, s, t, lodBias) : 0.0f);
  fetchedBytes_ = 0;
  samplePixels(d, texels, lc, 0, 4, s, t, 0.0f, nullptr, offset, out);
  chargeFetches();
}

void TextureUnit::sampleQuads(const TextureDescriptor& d, const float* s, const float* t,
                              const float* bias, uint32_t quads, float* const out[4],
                              TexelOffset offset) {
  auto scatter = [&](int q, const float(*pixels)[4]) {
    for (int p = 0; p < 4; ++p)
      for (int ch = 0; ch < 4; ++ch) out[ch][4 * q + p] = pixels[p][ch];
  };
  if (!isComplete(d) || (d.maxAnisotropy > 1 && targetOf(d) == TexTarget::Tex2D)) {
    for (; quads; quads &= quads - 1) {
      const int q = std::countr_zero(quads);
      float pixels[4][4];
      sampleQuad(d, s + 4 * q, t + 4 * q, bias[q], pixels, offset);
      scatter(q, pixels);
    }
    return;
  }
  LevelTable& table = warpSetup(d);  // looked up once for the warp's quads
  const uint8_t* texels = mapTable(d, table);
  const bool lodMatters = table.lodMatters;
  const LevelChoice& fixed = table.fixed;
  const QuadFilterFn* kernels = table.kernels;
  // Without a level of detail (one level, one filter) every quad has the draw's choice: the warp
  // is one kernel call, the path of most lookups, kept short.
  if (!lodMatters && kernels[0] != nullptr) {
    Level levels[2];
    levelsOf(d, texels, fixed, 0, levels);
    const QuadFilterFn kernel = kernels[static_cast<size_t>(fixed.filter)];
    // The next lookups of this descriptor may skip this set-up (sampleWarp).
    if (fixed.count == 1 && offset.u == 0 && offset.v == 0 && memory_.pinned())
      if (const QuadFilterFn warp = warpFilter(d.format, fixed.filter, d.wrapS, d.wrapT);
          warp != nullptr && !keepsWarp(d)) {
        warps_[nextWarp_] = {d, warp, kernel, levels[0]};
        nextWarp_ = (nextWarp_ + 1) % kWarpLookups;
      }
    return callKernel(d, kernel,
                      {levels, fixed.count, nullptr, s, t, quads, offset, d.wrapS, d.wrapT, out});
  }
  // Quad q's levels: the draw's fixed choice, or its own made in `own` (in place: a returned
  // copy would be read back as vectors from scalar stores, a store-forwarding wait per quad).
  auto choice = [&](int q, LevelChoice& own) -> const LevelChoice& {
    if (!lodMatters) return fixed;
    chooseLevels(d, table, quadLod(d, s + 4 * q, t + 4 * q, bias[q]), own);
    return own;
  };
  fetchedBytes_ = 0;
  if (kernels[0] == nullptr) {
    for (; quads; quads &= quads - 1) {
      const int q = std::countr_zero(quads);
      ++stats_.quads;
      float pixels[4][4];
      LevelChoice own;
      samplePixels(d, texels, choice(q, own), 0, 4, s + 4 * q, t + 4 * q, 0.0f, nullptr, offset,
                   pixels);
      scatter(q, pixels);
    }
    return chargeFetches();
  }
  // The specialized lookups write the rows directly. A quad's level of detail and level choice
  // run on the active SIMD path (the AVX2 clone rounds without library calls).
  const uint64_t missBytes = cache_.stats().missBytes;
  uint32_t fetched = 0;
  const uint64_t count = static_cast<uint64_t>(laneCount(quads));
  // Quads that follow one another with the same choice go to the kernel in one call: magnified
  // ones or neighbours of one minification. The texels still meet the cache quad by quad in lane
  // order.
  withSimdPath([&] {
    Level levels[2];
    float blend[kWarpQuads];  // each quad's weight of its run's second level
    auto flush = [&](const LevelChoice& run, uint32_t runQuads) {
      levelsOf(d, texels, run, 0, levels);
      fetched += kernels[static_cast<size_t>(run.filter)](
          {levels, run.count, blend, s, t, runQuads, offset, d.wrapS, d.wrapT, out});
    };
    // The run's key stays in registers: comparing with the run's copy, stored a moment before,
    // would wait on store forwarding every quad.
    LevelChoice run{}, own;
    LevelChoice::Key runKey{};
    uint32_t runQuads = 0;
    for (; quads; quads &= quads - 1) {
      const int q = std::countr_zero(quads);
      const LevelChoice& lc = choice(q, own);
      const LevelChoice::Key key = lc.key();
      blend[q] = lc.blend;
      if (runQuads != 0 && key == runKey) {
        runQuads |= 1u << q;
        continue;
      }
      if (runQuads != 0) flush(run, runQuads);
      run = lc;
      runKey = key;
      runQuads = 1u << q;
    }
    if (runQuads != 0) flush(run, runQuads);
  });
  stats_.quads += count;
  stats_.samples += 4 * count;
  chargeTexels(d, fetched, missBytes);
  chargeFetches();
}

bool TextureUnit::sampleWarp(const TextureDescriptor& d, const float* s, const float* t,
                             uint32_t quads, float* const out[4]) {
  const WarpLookup* warp = keepsWarp(d);
  if (warp == nullptr || simdPath() != SimdPath::Avx2) return false;
  callKernel(d, quads == 0xffu ? warp->kernel : warp->quadKernel,
             {&warp->level, 1, nullptr, s, t, quads, {}, d.wrapS, d.wrapT, out});
  return true;
}

void TextureUnit::callKernel(const TextureDescriptor& d, QuadFilterFn kernel,
                             const QuadLookup& lookup) {
  fetchedBytes_ = 0;
  const uint64_t missBytes = cache_.stats().missBytes;
  const uint32_t fetched = kernel(lookup);
  const auto count =
      static_cast<uint64_t>(lookup.quads == 0xffu ? kWarpQuads : laneCount(lookup.quads));
  stats_.quads += count;
  stats_.samples += 4 * count;
  chargeTexels(d, fetched, missBytes);
  chargeFetches();
}

void TextureUnit::sampleLod(const TextureDescriptor& d, float s, float t, float lod, float out[4],
                            TexelOffset offset) {
  if (incomplete(d, reinterpret_cast<float(*)[4]>(out), 1)) return;
  const uint8_t* texels = map(d);
  fetchedBytes_ = 0;
  sample(d, texels, chooseLevels(d, lod), 0, s, t, 0.0f, nullptr, offset, out);
  chargeFetches();
}

void TextureUnit::fetch(const TextureDescriptor& d, int32_t i, int32_t j, int32_t k, int32_t level,
                        float out[4]) {
  ++stats_.samples;
  out[0] = out[1] = out[2] = out[3] = 0.0f;
  if (!isComplete(d) || level < 0 || static_cast<uint32_t>(level) >= d.levels) return;
  const auto lvl = static_cast<uint32_t>(level);
  const int32_t w = static_cast<int32_t>(levelExtent(d.width, lvl));
  const int32_t h = static_cast<int32_t>(levelExtent(d.height, lvl));
  const int32_t layers = d.volume || d.array ? static_cast<int32_t>(layerCount(d, lvl)) : 1;
  if (i < 0 || j < 0 || k < 0 || i >= w || j >= h || k >= layers) return;
  const TexelBlock b = kTexelBlocks[static_cast<size_t>(d.format)];
  const auto ui = static_cast<uint32_t>(i), uj = static_cast<uint32_t>(j);
  const size_t blocksX = (static_cast<size_t>(w) + b.width - 1) / b.width;
  const uint64_t offset = faceOffset(d, lvl, static_cast<uint32_t>(k)) +
                          (uj / b.height * blocksX + ui / b.width) * b.bytes;
  const uint8_t* at = map(d) + offset;
  if (isCompressedFormat(d.format))
    decodeBlockTexel(d.format, at, ui % b.width, uj % b.height, out);
  else
    decodeTexel(d.format, at, out);
  ++stats_.texelFetches;
  fetchedBytes_ = cache_.access(d.base + offset, b.bytes);
  chargeFetches();
}

namespace {

// A cube face is filtered as a 2D texture clamped at its edges (no filtering across faces).
TextureDescriptor faceView(const TextureDescriptor& d) {
  TextureDescriptor f = d;
  f.wrapS = f.wrapT = Wrap::ClampToEdge;
  return f;
}

}  // namespace

void TextureUnit::sampleQuadCube(const TextureDescriptor& d, const float x[4], const float y[4],
                                 const float z[4], float lodBias, float out[4][4]) {
  ++stats_.quads;
  if (incomplete(d, out, 4)) return;
  const uint8_t* texels = map(d);
  const TextureDescriptor f = faceView(d);
  // The LOD comes from all four directions projected on the first pixel's face, so that a quad
  // that straddles an edge still has continuous coordinates to differentiate.
  const CubeCoord first = cubeFace(x[0], y[0], z[0]);
  float s[4], t[4];
  for (int p = 0; p < 4; ++p) projectOnFace(first.face, x[p], y[p], z[p], s[p], t[p]);
  const LevelChoice lc = chooseLevels(f, quadLod(f, s, t, lodBias));
  fetchedBytes_ = 0;
  for (int p = 0; p < 4; ++p) {
    const CubeCoord c = cubeFace(x[p], y[p], z[p]);
    sample(f, texels, lc, c.face, c.s, c.t, 0.0f, nullptr, {}, out[p]);
  }
  chargeFetches();
}

void TextureUnit::sampleLodCube(const TextureDescriptor& d, float x, float y, float z, float lod,
                                float out[4]) {
  if (incomplete(d, reinterpret_cast<float(*)[4]>(out), 1)) return;
  const uint8_t* texels = map(d);
  fetchedBytes_ = 0;
  const CubeCoord c = cubeFace(x, y, z);
  const TextureDescriptor f = faceView(d);
  sample(f, texels, chooseLevels(f, lod), c.face, c.s, c.t, 0.0f, nullptr, {}, out);
  chargeFetches();
}

void TextureUnit::sampleOne(const TextureDescriptor& d, const uint8_t* texels,
                            const LevelChoice& lc, const TexCoord& c, bool shadow,
                            TexelOffset offset, float out[4]) {
  // OpenGL ES 3.0 §3.8.16: the reference is clamped to [0, 1] for fixed-point depth formats
  // (all of Tessera's); comparison applies to depth textures only.
  const bool compare = shadow && d.compare && isDepthFormat(d.format);
  const float ref = std::clamp(c.ref, 0.0f, 1.0f);
  const float* refp = compare ? &ref : nullptr;
  switch (targetOf(d)) {
    case TexTarget::Tex2D:
      return sample(d, texels, lc, 0, c.s, c.t, 0.0f, refp, offset, out);
    case TexTarget::Tex3D:
      return sample(d, texels, lc, 0, c.s, c.t, c.r, refp, offset, out);
    case TexTarget::Array2D: {
      // §3.8.10: layer = clamp(floor(r + 1/2), 0, layers - 1); NaN takes layer 0.
      const float layer = std::floor(c.r + 0.5f);
      const uint32_t l = !(layer > 0.0f)                            ? 0
                         : layer >= static_cast<float>(d.depth - 1) ? d.depth - 1
                                                                    : static_cast<uint32_t>(layer);
      return sample(d, texels, lc, l, c.s, c.t, 0.0f, refp, offset, out);
    }
    case TexTarget::Cube: {
      const CubeCoord f = cubeFace(c.s, c.t, c.r);
      return sample(faceView(d), texels, lc, f.face, f.s, f.t, 0.0f, refp, {}, out);
    }
  }
}

void TextureUnit::sampleQuadVec(const TextureDescriptor& d, const TexCoord coord[4], bool shadow,
                                float lodBias, float out[4][4], TexelOffset offset) {
  ++stats_.quads;
  if (incomplete(d, out, 4)) return;
  const uint8_t* texels = map(d);
  float s[4], t[4], r[4];
  for (int p = 0; p < 4; ++p) s[p] = coord[p].s, t[p] = coord[p].t, r[p] = coord[p].r;
  float lambda = 0.0f;
  switch (targetOf(d)) {
    case TexTarget::Cube: {
      // As sampleQuadCube: the directions projected on the first pixel's face.
      const CubeCoord first = cubeFace(s[0], t[0], r[0]);
      float fs[4], ft[4];
      for (int p = 0; p < 4; ++p) projectOnFace(first.face, s[p], t[p], r[p], fs[p], ft[p]);
      lambda = quadLod(d, fs, ft, lodBias);
      break;
    }
    case TexTarget::Tex3D:
      lambda = quadLod3(d, s, t, r, lodBias);
      break;
    default:  // 2D and 2D arrays: the layer takes no part in the level of detail
      if (d.maxAnisotropy > 1) {
        // Anisotropic filtering applies to 2D footprints: 2D textures and 2D array layers.
        const Footprint fp = anisotropicFootprint(d, s, t, lodBias);
        const LevelChoice lc = chooseLevels(d, fp.lambda);
        fetchedBytes_ = 0;
        for (int p = 0; p < 4; ++p)
          sampleProbes(d, texels, lc, fp, coord[p], shadow, offset, out[p]);
        return chargeFetches();
      }
      lambda = quadLod(d, s, t, lodBias);
      break;
  }
  const LevelChoice lc = chooseLevels(d, lambda);
  fetchedBytes_ = 0;
  for (int p = 0; p < 4; ++p) sampleOne(d, texels, lc, coord[p], shadow, offset, out[p]);
  chargeFetches();
}

void TextureUnit::sampleLodVec(const TextureDescriptor& d, const TexCoord& coord, bool shadow,
                               float lod, float out[4], TexelOffset offset) {
  if (incomplete(d, reinterpret_cast<float(*)[4]>(out), 1)) return;
  const uint8_t* texels = map(d);
  fetchedBytes_ = 0;
  sampleOne(d, texels, chooseLevels(d, lod), coord, shadow, offset, out);
  chargeFetches();
}

}  // namespace tessera::gpu::tex
