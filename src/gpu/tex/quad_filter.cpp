#include "gpu/tex/quad_filter.h"

#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "common/lane_count.h"
#include "common/simd.h"
#include "common/unorm_divide.h"
#include "gpu/tex/quad_coords.h"
#include "gpu/tex/tex_wrap.h"
#include "gpu/tex/texel_format.h"

namespace tessera::gpu::tex {

#if defined(__SSE2__)
namespace {

// Four pixels' texels, one channel per register.
struct Texels4 {
  __m128 c[4];
};

// Each channel's stored integers of four texels (rawChannels side by side).
template <TexFormat F>
[[gnu::always_inline]] inline Texels4 raw4(__m128i words) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  Texels4 out;
  for (int ch = 0; ch < 4; ++ch) {
    const PackedField f = layout[ch];
    if (f.bits == 0) {
      out.c[ch] = _mm_set1_ps(f.constant);
      continue;
    }
    const __m128i field = _mm_and_si128(_mm_srli_epi32(words, f.shift),
                                        _mm_set1_epi32(static_cast<int>((1u << f.bits) - 1u)));
    out.c[ch] = _mm_cvtepi32_ps(field);
  }
  return out;
}

// Each channel of `raw` divided by its field's scale (a constant channel stays as it is).
template <TexFormat F>
[[gnu::always_inline]] inline Texels4 expand4(const Texels4& raw) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  Texels4 out;
  for (int ch = 0; ch < 4; ++ch)
    out.c[ch] =
        layout[ch].bits == 0 ? raw.c[ch] : divideUnorm4(raw.c[ch], 1.0 / fieldScale(layout[ch]));
  return out;
}

// wrapIndex for four indices. CLAMP_TO_EDGE clamps in registers; the periodic modes keep indices
// inside the level (every mode's first case) and wrap the others one by one.
[[gnu::always_inline]] inline __m128i wrap4(Wrap w, __m128i i, int32_t size) {
  const __m128i last = _mm_set1_epi32(size - 1);
  if (w == Wrap::ClampToEdge) {
    const __m128i low = _mm_and_si128(i, _mm_cmpgt_epi32(i, _mm_setzero_si128()));
    const __m128i over = _mm_cmpgt_epi32(low, last);
    return _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, low));
  }
  const __m128i outside =
      _mm_or_si128(_mm_cmplt_epi32(i, _mm_setzero_si128()), _mm_cmpgt_epi32(i, last));
  if (_mm_movemask_epi8(outside) == 0) return i;
  alignas(16) int32_t v[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(v), i);
  for (int32_t& x : v) x = wrapIndex(w, x, size);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(v));
}

// Where one level's texels are: for NEAREST the texel of each pixel, for LINEAR the two columns
// and rows of each pixel's footprint with its four weights (00 10 01 11, filterLevel's order).
struct Footprint {
  alignas(16) int32_t i0[4], i1[4], j0[4], j1[4];
  __m128 w[4];
};

template <Filter FL>
[[gnu::always_inline]] inline void footprint(const Level& lv, __m128 s, __m128 t, Wrap ws, Wrap wt,
                                             TexelOffset offset, Footprint& f) {
  const __m128 u =
      _mm_add_ps(quad::texelCoord(ws, s, lv.width), _mm_set1_ps(static_cast<float>(offset.u)));
  const __m128 v =
      _mm_add_ps(quad::texelCoord(wt, t, lv.height), _mm_set1_ps(static_cast<float>(offset.v)));
  auto put = [](int32_t* to, __m128i x) { _mm_store_si128(reinterpret_cast<__m128i*>(to), x); };
  if constexpr (FL == Filter::Nearest) {
    put(f.i0, wrap4(ws, quad::floorToInt(u), lv.width));
    put(f.j0, wrap4(wt, quad::floorToInt(v), lv.height));
  } else {
    const quad::Taps tu = quad::linearTaps(u), tv = quad::linearTaps(v);
    const __m128i one = _mm_set1_epi32(1);
    put(f.i0, wrap4(ws, tu.index, lv.width));
    put(f.i1, wrap4(ws, _mm_add_epi32(tu.index, one), lv.width));
    put(f.j0, wrap4(wt, tv.index, lv.height));
    put(f.j1, wrap4(wt, _mm_add_epi32(tv.index, one), lv.height));
    const __m128 a = tu.weight, b = tv.weight, ones = _mm_set1_ps(1.0f);
    const __m128 na = _mm_sub_ps(ones, a), nb = _mm_sub_ps(ones, b);
    f.w[0] = _mm_mul_ps(na, nb);
    f.w[1] = _mm_mul_ps(a, nb);
    f.w[2] = _mm_mul_ps(na, b);
    f.w[3] = _mm_mul_ps(a, b);
  }
}

// Texel (i, j) of a level as its word, looked up in the cache.
template <TexFormat F>
[[gnu::always_inline]] inline uint32_t fetchWord(const Level& lv, int32_t i, int32_t j,
                                                 CacheProbe& cache) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  const size_t index =
      static_cast<size_t>(j) * static_cast<size_t>(lv.width) + static_cast<size_t>(i);
  if (cache.enabled()) cache.access(lv.address + index * bytes, bytes);
  return loadPackedWord<F>(lv.texels + index * bytes);
}

// Texels (i, j) and (i + 1, j) of a level as their words (the second in `next`), looked up in
// the cache in that order.
template <TexFormat F>
[[gnu::always_inline]] inline __m128i pairWord(const Level& lv, int32_t i, int32_t j,
                                               CacheProbe& cache, __m128i& next) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  const size_t index =
      static_cast<size_t>(j) * static_cast<size_t>(lv.width) + static_cast<size_t>(i);
  if (cache.enabled()) cache.accessRun(lv.address + index * bytes, bytes, 2);
  const uint8_t* at = lv.texels + index * bytes;
  next = _mm_cvtsi32_si128(static_cast<int>(loadPackedWord<F>(at + bytes)));
  return _mm_cvtsi32_si128(static_cast<int>(loadPackedWord<F>(at)));
}

// One quad: its four pixels from s[0..3], t[0..3] into out[channel][0..3].
template <TexFormat F, Filter FL, int Count>
[[gnu::always_inline]] inline void filterQuad(const Level (&levels)[Count], float blend,
                                              const float* s4, const float* t4, Wrap ws, Wrap wt,
                                              TexelOffset offset, CacheProbe& cache,
                                              float* const* out, int lane) {
  constexpr int kTaps = FL == Filter::Nearest ? 1 : 4;
  const __m128 s = _mm_loadu_ps(s4), t = _mm_loadu_ps(t4);
  Footprint fp[Count];
  for (int k = 0; k < Count; ++k) footprint<FL>(levels[k], s, t, ws, wt, offset, fp[k]);
  // The general filter walks pixel by pixel, each pixel's levels in turn: the cache sees the
  // texels in that order. Each word is kept in a register of its own until the four pixels are
  // gathered (a vector loaded from four scalar stores would wait for store forwarding).
  __m128i words[Count][kTaps][4];
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) {
    for (int k = 0; k < Count; ++k) {
      const Level& lv = levels[k];
      const Footprint& f = fp[k];
      auto word = [&](int32_t i, int32_t j) __attribute__((always_inline)) {
        return _mm_cvtsi32_si128(static_cast<int>(fetchWord<F>(lv, i, j, cache)));
      };
      if constexpr (kTaps == 1) {
        words[k][0][p] = word(f.i0[p], f.j0[p]);
      } else if (f.i1[p] == f.i0[p] + 1) {
        // The footprint's two texels of a row are neighbours in memory: one cache test each row.
        words[k][0][p] = pairWord<F>(lv, f.i0[p], f.j0[p], cache, words[k][1][p]);
        words[k][2][p] = pairWord<F>(lv, f.i0[p], f.j1[p], cache, words[k][3][p]);
      } else {
        words[k][0][p] = word(f.i0[p], f.j0[p]);
        words[k][1][p] = word(f.i1[p], f.j0[p]);
        words[k][2][p] = word(f.i0[p], f.j1[p]);
        words[k][3][p] = word(f.i1[p], f.j1[p]);
      }
    }
  }
  // A colour format's stored integers are filtered, then expanded once per channel; a depth
  // texture's texels are expanded, then filtered (filtersStoredIntegers).
  constexpr bool kExpandFirst = !filtersStoredIntegers(F);
  auto texels = [&](int k, int tap) __attribute__((always_inline)) {
    const __m128i* w = words[k][tap];
    const Texels4 raw =
        raw4<F>(_mm_unpacklo_epi64(_mm_unpacklo_epi32(w[0], w[1]), _mm_unpacklo_epi32(w[2], w[3])));
    return kExpandFirst ? expand4<F>(raw) : raw;
  };
  Texels4 level[Count];
  for (int k = 0; k < Count; ++k) {
    Texels4 sum;
    if constexpr (kTaps == 1) {
      sum = texels(k, 0);
    } else {
      const Texels4 t00 = texels(k, 0), t10 = texels(k, 1), t01 = texels(k, 2), t11 = texels(k, 3);
      const __m128* w = fp[k].w;
      for (int ch = 0; ch < 4; ++ch) {
        __m128 c = _mm_add_ps(_mm_mul_ps(w[0], t00.c[ch]), _mm_mul_ps(w[1], t10.c[ch]));
        c = _mm_add_ps(c, _mm_mul_ps(w[2], t01.c[ch]));
        sum.c[ch] = _mm_add_ps(c, _mm_mul_ps(w[3], t11.c[ch]));
      }
    }
    level[k] = kExpandFirst ? sum : expand4<F>(sum);
  }
  for (int ch = 0; ch < 4; ++ch) {
    __m128 c = level[0].c[ch];
    if constexpr (Count == 2)
      c = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(1 - blend), c),
                     _mm_mul_ps(_mm_set1_ps(blend), level[1].c[ch]));
    _mm_storeu_ps(out[ch] + lane, c);
  }
}

// The lookup's quads in order, with the levels copied and the cache's geometry read once.
template <TexFormat F, Filter FL, int Count>
uint32_t filterQuads(const QuadLookup& q) {
  constexpr int kTaps = FL == Filter::Nearest ? 1 : 4;
  Level levels[Count];
  for (int k = 0; k < Count; ++k) levels[k] = q.level[k];
  CacheProbe cache(levels[0].cache);  // both levels share the cache
  const TexelOffset offset = q.offset;
  const Wrap ws = q.wrapS, wt = q.wrapT;
  for (uint32_t quads = q.quads; quads; quads &= quads - 1) {
    const int lane = 4 * std::countr_zero(quads);
    const float blend = Count == 2 ? q.blend[lane / 4] : 0.0f;
    filterQuad<F, FL, Count>(levels, blend, q.s + lane, q.t + lane, ws, wt, offset, cache, q.out,
                             lane);
  }
  cache.finish();
  return static_cast<uint32_t>(laneCount(q.quads) * 4 * kTaps * Count);
}

template <TexFormat F, Filter FL>
uint32_t filterQuadLevels(const QuadLookup& q) {
  return q.count == 2 ? filterQuads<F, FL, 2>(q) : filterQuads<F, FL, 1>(q);
}

template <size_t... I>
constexpr auto filterTable(std::index_sequence<I...>) {
  return std::array<std::array<QuadFilterFn, 2>, sizeof...(I)>{
      {{&filterQuadLevels<detail::kQuadFormats[I], Filter::Nearest>,
        &filterQuadLevels<detail::kQuadFormats[I], Filter::Linear>}...}};
}
constexpr auto kFilters = filterTable(std::make_index_sequence<detail::kQuadFormats.size()>());

// The kernel of the path active at the call (a texture unit keeps its kernels across calls, and
// the path may change in between).
template <size_t I, Filter FL>
uint32_t onActivePath(const QuadLookup& q) {
#if TESSERA_AVX2_CLONES
  if (simdPath() == SimdPath::Avx2) return detail::avx2QuadFilter(I, FL)(q);
#endif
  return kFilters[I][static_cast<size_t>(FL)](q);
}
template <size_t... I>
constexpr auto dispatchTable(std::index_sequence<I...>) {
  return std::array<std::array<QuadFilterFn, 2>, sizeof...(I)>{
      {{&onActivePath<I, Filter::Nearest>, &onActivePath<I, Filter::Linear>}...}};
}
constexpr auto kDispatch = dispatchTable(std::make_index_sequence<detail::kQuadFormats.size()>());

}  // namespace

QuadFilterFn quadFilter(TexFormat format, Filter filter) {
  for (size_t f = 0; f < detail::kQuadFormats.size(); ++f)
    if (detail::kQuadFormats[f] == format) return kDispatch[f][static_cast<size_t>(filter)];
  return nullptr;
}

QuadFilterFn detail::sseQuadFilter(size_t format, Filter filter) {
  return kFilters[format][static_cast<size_t>(filter)];
}

QuadFilterFn warpFilter(TexFormat format, Filter filter, Wrap ws, Wrap wt) {
#if TESSERA_AVX2_CLONES
  if (simdPath() != SimdPath::Avx2) return nullptr;
  for (size_t f = 0; f < detail::kQuadFormats.size(); ++f)
    if (detail::kQuadFormats[f] == format) return detail::avx2WarpFilter(f, filter, ws, wt);
#else
  (void)format, (void)filter, (void)ws, (void)wt;
#endif
  return nullptr;
}
#else
QuadFilterFn quadFilter(TexFormat, Filter) {
  return nullptr;
}
QuadFilterFn warpFilter(TexFormat, Filter, Wrap, Wrap) {
  return nullptr;
}
#endif

}  // namespace tessera::gpu::tex
