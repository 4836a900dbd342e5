// Texture unit (tex/): the specialized quad lookups of quad_filter.cpp on the AVX2 path, two quads
// (eight pixels) at a time. The work is split in steps over the pair's eight lanes: footprints
// (coordinates, wrapping, weights and byte offsets in 256-bit registers), the texture cache's
// lookups, the texel loads (a pixel row's span shuffled, 8-byte row loads, or a word per lane), and
// the decode, filter and unorm expansion.
//
// Every lane's arithmetic is the SSE kernel's, operation for operation, except the unorm
// expansion, whose FMA form gives the same correctly rounded quotient (divideUnorm8); so the
// results are the same to the bit. The cache ends in the same state with the same counts as the
// general filter's lookups leave it: a pair whose texels all lie on lines that are the most
// recently used of their sets is counted as hits in one step (each of those lookups is a hit that
// changes no recency order, so their order cannot matter); a pair whose distinct lines lie in
// different sets has each line looked up once (each set sees one line, so the order cannot
// matter either); any other pair is looked up texel by texel in the general filter's order.
#include <immintrin.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "common/lane_count.h"
#include "common/simd.h"
#include "common/unorm_divide.h"
#include "gpu/tex/quad_coords.h"
#include "gpu/tex/quad_filter.h"
#include "gpu/tex/tex_wrap.h"
#include "gpu/tex/texel_format.h"

namespace tessera::gpu::tex::detail {
#if TESSERA_AVX2_CLONES
// The kernels may use FMA (every AVX2 path has it, common/simd.h): for divideUnorm8, and in
// bilinearBytes8, whose products and sums are exact integers.
#define TESSERA_TEX_AVX2 [[gnu::target("avx2,fma"), gnu::always_inline]] inline
namespace {

// quad_coords.h's steps for eight coordinates (see there for why each is the scalar one).
TESSERA_TEX_AVX2 __m256i floorToInt8(__m256 x) {
  const __m256i t = _mm256_cvttps_epi32(x);
  return _mm256_add_epi32(t,
                          _mm256_castps_si256(_mm256_cmp_ps(_mm256_cvtepi32_ps(t), x, _CMP_GT_OQ)));
}
TESSERA_TEX_AVX2 __m256 belowExact8(__m256 x) {
  return _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), _mm256_set1_ps(quad::kExact),
                       _CMP_LT_OQ);
}
TESSERA_TEX_AVX2 __m256 fraction8(__m256 x) {
  return _mm256_and_ps(belowExact8(x), _mm256_sub_ps(x, _mm256_cvtepi32_ps(floorToInt8(x))));
}
TESSERA_TEX_AVX2 __m256 texelCoord8(Wrap w, __m256 s, int32_t size) {
  const __m256 n = _mm256_set1_ps(static_cast<float>(size));
  if (w == Wrap::Repeat) return _mm256_mul_ps(fraction8(s), n);
  if (w == Wrap::MirroredRepeat) {
    const __m256 half = _mm256_mul_ps(s, _mm256_set1_ps(0.5f));
    const __m256 reduced = _mm256_sub_ps(
        s, _mm256_mul_ps(_mm256_set1_ps(2.0f), _mm256_cvtepi32_ps(floorToInt8(half))));
    return _mm256_mul_ps(_mm256_and_ps(belowExact8(half), reduced), n);
  }
  const __m256 c = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(s, n), _mm256_set1_ps(-16.0f)),
                                 _mm256_add_ps(n, _mm256_set1_ps(16.0f)));
  return _mm256_and_ps(_mm256_cmp_ps(s, s, _CMP_EQ_OQ), c);
}
// wrapIndex for eight indices: CLAMP_TO_EDGE in registers, the periodic modes lane by lane for
// indices outside the level.
TESSERA_TEX_AVX2 __m256i wrap8(Wrap w, __m256i i, int32_t size) {
  const __m256i last = _mm256_set1_epi32(size - 1);
  if (w == Wrap::ClampToEdge)
    return _mm256_min_epi32(_mm256_max_epi32(i, _mm256_setzero_si256()), last);
  const __m256i outside =
      _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), i), _mm256_cmpgt_epi32(i, last));
  if (_mm256_testz_si256(outside, outside)) return i;
  alignas(32) int32_t v[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(v), i);
  for (int32_t& x : v) x = wrapIndex(w, x, size);
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(v));
}

// wrap8(w, floorToInt8(texelCoord8(w, s, size)), size), the NEAREST texel index, in fewer steps.
// A periodic mode's texel coordinate is never negative, so truncation is its floor. CLAMP_TO_EDGE
// clamps the coordinate to [0, size - 1] before truncating instead of its index after flooring,
// which gives the same index; a NaN coordinate, which texelCoord8 reads as 0, is 0 by the
// maximum (vmaxps returns its second operand when either is NaN).
TESSERA_TEX_AVX2 __m256i nearestIndex8(Wrap w, __m256 s, int32_t size) {
  if (w != Wrap::ClampToEdge) return wrap8(w, _mm256_cvttps_epi32(texelCoord8(w, s, size)), size);
  const __m256 c = _mm256_max_ps(_mm256_mul_ps(s, _mm256_set1_ps(static_cast<float>(size))),
                                 _mm256_setzero_ps());
  return _mm256_cvttps_epi32(_mm256_min_ps(c, _mm256_set1_ps(static_cast<float>(size - 1))));
}

// The byte offset of texel `i` of a row starting at texel `row`.
template <uint32_t Bytes>
TESSERA_TEX_AVX2 __m256i texelOffset(__m256i row, __m256i i) {
  const __m256i x = _mm256_add_epi32(row, i);
  if constexpr (Bytes == 1) return x;
  if constexpr (Bytes == 2) return _mm256_slli_epi32(x, 1);
  if constexpr (Bytes == 3) return _mm256_add_epi32(_mm256_slli_epi32(x, 1), x);
  if constexpr (Bytes == 4) return _mm256_slli_epi32(x, 2);
}

// F filters its stored integers, and each of its channels is a constant or a byte of the word:
// its bilinear sums can be made in integers (bilinearBytes8).
template <TexFormat F>
constexpr bool kByteChannels = [] {
  if (!filtersStoredIntegers(F)) return false;
  for (const PackedField& f : kPackedLayouts[static_cast<size_t>(F)])
    if (f.bits != 0 && (f.bits != 8 || f.shift % 8 != 0)) return false;
  return true;
}();

// One level's taps for the pair's eight pixels: each tap's byte offset in the level (00 10 01 11,
// filterLevel's order; NEAREST has one), and for bilinear taps the sub-texel fractions (in
// 1 / kSubTexelScale: the weight of the right column and of the bottom row) and the weights made
// of them (but for a format of byte channels, whose sums take the fractions: bilinearBytes8).
// A footprint's rows: NEAREST's one, bilinear's two.
template <int Taps>
inline constexpr int kRowsOf = Taps == 1 ? 1 : 2;

template <int Taps>
struct Footprint8 {
  __m256i off[Taps];
  __m256 w[Taps];
  __m256i fu, fv;
};

// A bilinear footprint's sub-texel fractions, the low kSubTexelBits of `uf` and `vf` (the texel
// coordinates less a half, in 1 / kSubTexelScale), and unless F's sums take the fractions
// (kByteChannels) the weights made of them as filterLevel makes them: each a multiple of 2^-16,
// exactly.
template <TexFormat F>
TESSERA_TEX_AVX2 void bilinearWeights(__m256i uf, __m256i vf, Footprint8<4>& f) {
  const __m256i mask = _mm256_set1_epi32(kSubTexelScale - 1);
  f.fu = _mm256_and_si256(uf, mask);
  f.fv = _mm256_and_si256(vf, mask);
  if constexpr (kByteChannels<F>) return;
  const __m256 subTexel = _mm256_set1_ps(1.0f / static_cast<float>(kSubTexelScale));
  const __m256 a = _mm256_mul_ps(_mm256_cvtepi32_ps(f.fu), subTexel);
  const __m256 b = _mm256_mul_ps(_mm256_cvtepi32_ps(f.fv), subTexel);
  const __m256 ones = _mm256_set1_ps(1.0f);
  const __m256 na = _mm256_sub_ps(ones, a), nb = _mm256_sub_ps(ones, b);
  f.w[0] = _mm256_mul_ps(na, nb);
  f.w[1] = _mm256_mul_ps(a, nb);
  f.w[2] = _mm256_mul_ps(na, b);
  f.w[3] = _mm256_mul_ps(a, b);
}

template <TexFormat F, Filter FL>
TESSERA_TEX_AVX2 void footprint8(const Level& lv, __m256 s, __m256 t, Wrap ws, Wrap wt,
                                 TexelOffset offset, Footprint8<FL == Filter::Nearest ? 1 : 4>& f) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  const __m256i width = _mm256_set1_epi32(lv.width);
  if (FL == Filter::Nearest && offset.u == 0 && offset.v == 0) {
    const __m256i row = _mm256_mullo_epi32(nearestIndex8(wt, t, lv.height), width);
    f.off[0] = texelOffset<bytes>(row, nearestIndex8(ws, s, lv.width));
    return;
  }
  const __m256 u =
      _mm256_add_ps(texelCoord8(ws, s, lv.width), _mm256_set1_ps(static_cast<float>(offset.u)));
  const __m256 v =
      _mm256_add_ps(texelCoord8(wt, t, lv.height), _mm256_set1_ps(static_cast<float>(offset.v)));
  if constexpr (FL == Filter::Nearest) {
    const __m256i row = _mm256_mullo_epi32(wrap8(wt, floorToInt8(v), lv.height), width);
    f.off[0] = texelOffset<bytes>(row, wrap8(ws, floorToInt8(u), lv.width));
  } else {
    const __m256 scale = _mm256_set1_ps(static_cast<float>(kSubTexelScale));
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i uf = floorToInt8(_mm256_mul_ps(_mm256_sub_ps(u, _mm256_set1_ps(0.5f)), scale));
    const __m256i vf = floorToInt8(_mm256_mul_ps(_mm256_sub_ps(v, _mm256_set1_ps(0.5f)), scale));
    const __m256i iu = _mm256_srai_epi32(uf, kSubTexelBits);
    const __m256i iv = _mm256_srai_epi32(vf, kSubTexelBits);
    const __m256i i0 = wrap8(ws, iu, lv.width), i1 = wrap8(ws, _mm256_add_epi32(iu, one), lv.width);
    const __m256i row0 = _mm256_mullo_epi32(wrap8(wt, iv, lv.height), width);
    const __m256i row1 = _mm256_mullo_epi32(wrap8(wt, _mm256_add_epi32(iv, one), lv.height), width);
    f.off[0] = texelOffset<bytes>(row0, i0);
    f.off[1] = texelOffset<bytes>(row0, i1);
    f.off[2] = texelOffset<bytes>(row1, i0);
    f.off[3] = texelOffset<bytes>(row1, i1);
    bilinearWeights<F>(uf, vf, f);
  }
}

// Each lane's sign bit.
TESSERA_TEX_AVX2 uint32_t laneBits(__m256i v) {
  return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(v)));
}

// The lanes of `lines` (relative to `baseLine`) are each the most recently used line of its set.
// Mostly a pair's top-row pixels (lanes 0, 1, 4, 5) share one line and its bottom-row pixels
// (2, 3, 6, 7) another: then those two are tested, otherwise each lane's set is read (gathered).
TESSERA_TEX_AVX2 bool allMostRecent(__m256i lines, uint64_t baseLine, const CacheProbe& cache,
                                    uint32_t lanes) {
  const __m256i rows =
      _mm256_permutevar8x32_epi32(lines, _mm256_setr_epi32(0, 0, 2, 2, 0, 0, 2, 2));
  if ((laneBits(_mm256_cmpeq_epi32(lines, rows)) & lanes) == lanes)
    return cache.mostRecent(baseLine + static_cast<uint32_t>(_mm256_cvtsi256_si32(lines))) &&
           cache.mostRecent(baseLine + static_cast<uint32_t>(_mm256_extract_epi32(lines, 2)));
  const __m256i base = _mm256_set1_epi64x(static_cast<long long>(baseLine));
  const __m256i mask = _mm256_set1_epi64x(static_cast<long long>(cache.setMask()));
  const auto* fronts = reinterpret_cast<const long long*>(cache.fronts());
  uint32_t same = 0;
  for (int half = 0; half < 2; ++half) {
    const __m128i part = half ? _mm256_extracti128_si256(lines, 1) : _mm256_castsi256_si128(lines);
    const __m256i line = _mm256_add_epi64(_mm256_cvtepu32_epi64(part), base);
    const __m256i front = _mm256_i64gather_epi64(fronts, _mm256_and_si256(line, mask), 8);
    same |= static_cast<uint32_t>(
                _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(front, line))))
            << (4 * half);
  }
  return (same & lanes) == lanes;
}

// The pair's cache lookups when every line the active lanes' texels touch is the most recently
// used of its set: then each lookup is a hit that changes nothing, and they are counted at once (a
// texel on two lines is two lookups). Returns false, having counted nothing, when a line is not,
// or when the texels touch more lines than are worth testing one by one.
template <TexFormat F, int Taps, int Count>
TESSERA_TEX_AVX2 bool allRecentHits(const Level (&levels)[Count],
                                    const Footprint8<Taps> (&fp)[Count], uint32_t lanes,
                                    CacheProbe& cache) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  constexpr int kMaxLines = 8;
  const uint32_t shift = cache.lineShift();
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const int lastLane = 31 - std::countl_zero(lanes);
  const uint64_t perTap = static_cast<uint64_t>(std::popcount(lanes));
  uint64_t lookups = 0, lastLine = 0;
  for (int k = 0; k < Count; ++k) {
    const GpuAddress address = levels[k].address;
    const uint64_t baseLine = address >> shift;
    const __m256i rem = _mm256_set1_epi32(static_cast<int>(address & ((uint64_t{1} << shift) - 1)));
    // The common case: each of a lane's rows (its NEAREST texel, or a bilinear row's two
    // neighbouring texels) lies on one line. Those lines are tested all at once.
    constexpr int kRows = kRowsOf<Taps>;
    __m256i rowLine[kRows], oneLine = _mm256_set1_epi32(-1);
    for (int r = 0; r < kRows; ++r) {
      const __m256i first = fp[k].off[2 * r], last = fp[k].off[2 * r + (Taps == 1 ? 0 : 1)];
      rowLine[r] = _mm256_srl_epi32(_mm256_add_epi32(rem, first), count);
      const __m256i end = _mm256_srl_epi32(
          _mm256_add_epi32(rem, _mm256_add_epi32(last, _mm256_set1_epi32(bytes - 1))), count);
      oneLine = _mm256_and_si256(oneLine, _mm256_cmpeq_epi32(rowLine[r], end));
      if constexpr (Taps == 4)
        oneLine = _mm256_and_si256(
            oneLine, _mm256_cmpeq_epi32(last, _mm256_add_epi32(first, _mm256_set1_epi32(bytes))));
    }
    if ((laneBits(oneLine) & lanes) == lanes) {
      for (int r = 0; r < kRows; ++r)
        if (!allMostRecent(rowLine[r], baseLine, cache, lanes)) return false;
      lookups += perTap * Taps;
      lastLine = baseLine + static_cast<uint32_t>(_mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(
                                rowLine[kRows - 1], _mm256_set1_epi32(lastLane))));
      continue;
    }
    // Otherwise each tap's first and last line, relative to the level's first.
    __m256i lines[2 * Taps];
    uint32_t pending[2 * Taps];
    for (int tap = 0; tap < Taps; ++tap) {
      const __m256i first = _mm256_add_epi32(rem, fp[k].off[tap]);
      lines[2 * tap] = _mm256_srl_epi32(first, count);
      lines[2 * tap + 1] =
          _mm256_srl_epi32(_mm256_add_epi32(first, _mm256_set1_epi32(bytes - 1)), count);
      const uint32_t split = ~laneBits(_mm256_cmpeq_epi32(lines[2 * tap], lines[2 * tap + 1]));
      lookups += perTap + static_cast<uint64_t>(std::popcount(split & lanes));
      pending[2 * tap] = pending[2 * tap + 1] = lanes;
    }
    // Each distinct line once: test it, and strike it from every lane that touches it.
    int tested = 0;
    for (int e = 0; e < 2 * Taps; ++e) {
      while (pending[e]) {
        // The lane is picked in registers: a load from a vector just stored would wait for the
        // store.
        const __m256i same =
            _mm256_permutevar8x32_epi32(lines[e], _mm256_set1_epi32(std::countr_zero(pending[e])));
        const auto line = static_cast<uint32_t>(_mm256_cvtsi256_si32(same));
        if (++tested > kMaxLines || !cache.mostRecent(baseLine + line)) return false;
        for (int o = e; o < 2 * Taps; ++o)
          pending[o] &= ~laneBits(_mm256_cmpeq_epi32(lines[o], same));
      }
    }
    lastLine = baseLine + static_cast<uint32_t>(_mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(
                              lines[2 * Taps - 1], _mm256_set1_epi32(lastLane))));
  }
  cache.countRecentHits(lookups, lastLine);
  return true;
}

// The pair's lookups texel by texel, in the general filter's order (lane by lane, each lane's
// levels in turn, a bilinear footprint row by row). Each lane's footprint rows are measured in
// registers first: a row whose texels lie side by side on one line (nearly all) is that many
// lookups of the line in a row (CacheProbe::lookUpLineAvx2); the others, a texel across two lines
// or a row split by wrapping, are looked up texel by texel.
template <TexFormat F, int Taps, int Count>
TESSERA_TEX_AVX2 void lookUpInOrder(const Level (&levels)[Count],
                                    const Footprint8<Taps> (&fp)[Count], uint32_t lanes,
                                    CacheProbe& cache) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  constexpr int kRows = kRowsOf<Taps>, kPerRow = Taps / kRows;
  const uint32_t shift = cache.lineShift();
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  alignas(32) uint32_t line[Count][kRows][8];  // a row's first line, from the level's first
  alignas(32) uint32_t off[Count][Taps][8];
  uint32_t oneLine[Count][kRows];  // the lanes whose row lies on one line
  uint64_t baseLine[Count];
  for (int k = 0; k < Count; ++k) {
    const GpuAddress address = levels[k].address;
    baseLine[k] = address >> shift;
    const __m256i rem = _mm256_set1_epi32(static_cast<int>(address & ((uint64_t{1} << shift) - 1)));
    for (int r = 0; r < kRows; ++r) {
      const __m256i lo = fp[k].off[kPerRow * r], hi = fp[k].off[kPerRow * r + kPerRow - 1];
      const __m256i first = _mm256_srl_epi32(_mm256_add_epi32(rem, lo), count);
      const __m256i last = _mm256_srl_epi32(
          _mm256_add_epi32(rem, _mm256_add_epi32(hi, _mm256_set1_epi32(bytes - 1))), count);
      __m256i one = _mm256_cmpeq_epi32(first, last);
      if constexpr (kPerRow == 2)
        one = _mm256_and_si256(
            one, _mm256_cmpeq_epi32(hi, _mm256_add_epi32(lo, _mm256_set1_epi32(bytes))));
      _mm256_store_si256(reinterpret_cast<__m256i*>(line[k][r]), first);
      oneLine[k][r] = laneBits(one);
    }
    for (int tap = 0; tap < Taps; ++tap)
      _mm256_store_si256(reinterpret_cast<__m256i*>(off[k][tap]), fp[k].off[tap]);
  }
  uint32_t simple = lanes;  // the lanes whose every row lies on one line
  for (int k = 0; k < Count; ++k)
    for (int r = 0; r < kRows; ++r) simple &= oneLine[k][r];
  for (; lanes; lanes &= lanes - 1) {
    const int l = std::countr_zero(lanes);
    if ((simple >> l) & 1u) {
#pragma GCC unroll 4
      for (int k = 0; k < Count; ++k)
#pragma GCC unroll 2
        for (int r = 0; r < kRows; ++r) cache.lookUpLineAvx2(baseLine[k] + line[k][r][l], kPerRow);
      continue;
    }
    for (int k = 0; k < Count; ++k) {
      for (int r = 0; r < kRows; ++r) {
        if ((oneLine[k][r] >> l) & 1u) {
          cache.lookUpLineAvx2(baseLine[k] + line[k][r][l], kPerRow);
        } else {
          for (int tap = kPerRow * r; tap < kPerRow * (r + 1); ++tap)
            cache.access(levels[k].address + off[k][tap][l], bytes);
        }
      }
    }
  }
}

// The words at eight byte offsets of `texels`, one scalar load each instead of a gather: on an
// AMD host the gather held 39% of the nearest-filter kernel's samples, and these loads ran
// glmark2's nearest-filtered texture scene 4% faster.
TESSERA_TEX_AVX2 __m256i loadWords8(const uint8_t* texels, __m256i off) {
  alignas(32) uint32_t o[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(o), off);
  auto word = [&](int l) {
    int v;
    std::memcpy(&v, texels + o[l], 4);
    return v;
  };
  return _mm256_setr_epi32(word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7));
}

// Whether a lane's texel word at one of the byte offsets `off` would pass the level's end (its
// last word starts at `lastWord`): narrower texels near the end are read texel by texel.
template <int Taps>
TESSERA_TEX_AVX2 bool wordsPastEnd(const __m256i (&off)[Taps], __m256i lastWord) {
  __m256i beyond = _mm256_setzero_si256();
  for (const __m256i& o : off) beyond = _mm256_or_si256(beyond, _mm256_cmpgt_epi32(o, lastWord));
  return !_mm256_testz_si256(beyond, beyond);
}

// The words of eight texels at byte offsets `off` of a level. A texel narrower than a word is
// loaded as the word it starts (the decode reads only its own bytes) unless that word would
// pass the level's end.
template <TexFormat F>
TESSERA_TEX_AVX2 __m256i texelWords(const Level& lv, __m256i off, int32_t lastWord) {
  if constexpr (kTexelBlocks[static_cast<size_t>(F)].bytes < 4) {
    if (wordsPastEnd<1>({off}, _mm256_set1_epi32(lastWord))) {
      alignas(32) uint32_t at[8], words[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(at), off);
      for (int l = 0; l < 8; ++l) words[l] = loadPackedWord<F>(lv.texels + at[l]);
      return _mm256_load_si256(reinterpret_cast<const __m256i*>(words));
    }
  }
  return loadWords8(lv.texels, off);
}

// Each channel's stored integers of eight texels (raw4 of quad_filter.cpp).
template <TexFormat F>
TESSERA_TEX_AVX2 void raw8(__m256i words, __m256 (&out)[4]) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  for (int ch = 0; ch < 4; ++ch) {
    const PackedField f = layout[ch];
    if (f.bits == 0) {
      out[ch] = _mm256_set1_ps(f.constant);
      continue;
    }
    out[ch] = _mm256_cvtepi32_ps(
        _mm256_and_si256(_mm256_srli_epi32(words, f.shift),
                         _mm256_set1_epi32(static_cast<int>((1u << f.bits) - 1u))));
  }
}

// Each channel of `c`, times `scale` (a power of two, folded into the division exactly), divided
// by its field's scale (a constant channel stays as it is).
template <TexFormat F>
TESSERA_TEX_AVX2 void expand8(__m256 (&c)[4], float scale = 1.0f) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  for (int ch = 0; ch < 4; ++ch)
    if (layout[ch].bits != 0) c[ch] = divideUnorm8(c[ch], fieldScale(layout[ch]), scale);
}

// Each 16-bit half of the lanes of `upper` and `lower` (a column's texel in the top and bottom
// row) weighted by `top` and `bottom`, whose sum is kSubTexelScale: at most 255 x 256, so
// neither a product nor the sum leaves 16 bits.
TESSERA_TEX_AVX2 __m256i lerpHalves(__m256i upper, __m256i lower, __m256i top, __m256i bottom) {
  return _mm256_add_epi16(_mm256_mullo_epi16(upper, top), _mm256_mullo_epi16(lower, bottom));
}

// The 16-bit halves of `even` or `odd` that hold byte shift / 8 of the texel: bytes 0 and 2 are
// the low and high halves of `even`, bytes 1 and 3 of `odd`.
TESSERA_TEX_AVX2 __m256 byteHalf(__m256i even, __m256i odd, uint32_t shift) {
  const __m256i v = shift % 16 == 0 ? even : odd;
  return _mm256_cvtepi32_ps(shift >= 16 ? _mm256_srli_epi32(v, 16)
                                        : _mm256_and_si256(v, _mm256_set1_epi32(0xffff)));
}

// The bilinear sums of a format of byte channels (kByteChannels) in integers: each column's two
// texels weighted by the vertical fraction in 16 bits, two channels to a lane; then the two
// columns by the horizontal one in floats, whose products and sums are integers below 2^24. Every
// step is exact, as each of filterLevel's float products and sums of 8-bit integers and weights
// that are multiples of 2^-16 is: so the sums are the same to the bit, in fewer operations. The
// sums are left in units of kBilinearByteSum, which the expansion folds into its division.
inline constexpr float kBilinearByteSum =
    1.0f / static_cast<float>(kSubTexelScale * kSubTexelScale);
template <TexFormat F>
TESSERA_TEX_AVX2 void bilinearBytes8(const __m256i (&words)[4], __m256i fu, __m256i fv,
                                     __m256 (&sum)[4]) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  const __m256i bytes02 = _mm256_set1_epi32(0x00ff00ff);
  const __m256i bottom = _mm256_or_si256(fv, _mm256_slli_epi32(fv, 16));
  const __m256i top = _mm256_sub_epi16(_mm256_set1_epi16(kSubTexelScale), bottom);
  // Per column (left: taps 0 and 2, right: 1 and 3), bytes 0 and 2, then 1 and 3, of its texels
  // (a format without channels in bytes 1 and 3 leaves `odd` unread, and the compiler drops it).
  __m256i even[2], odd[2];
  for (int c = 0; c < 2; ++c) {
    even[c] = lerpHalves(_mm256_and_si256(words[c], bytes02),
                         _mm256_and_si256(words[c + 2], bytes02), top, bottom);
    odd[c] = lerpHalves(_mm256_and_si256(_mm256_srli_epi32(words[c], 8), bytes02),
                        _mm256_and_si256(_mm256_srli_epi32(words[c + 2], 8), bytes02), top, bottom);
  }
  const __m256 right = _mm256_cvtepi32_ps(fu);
  const __m256 left = _mm256_sub_ps(_mm256_set1_ps(static_cast<float>(kSubTexelScale)), right);
  for (int ch = 0; ch < 4; ++ch) {
    const PackedField f = layout[ch];
    if (f.bits == 0) {
      sum[ch] = _mm256_set1_ps(f.constant);
      continue;
    }
    const __m256 l = byteHalf(even[0], odd[0], f.shift), r = byteHalf(even[1], odd[1], f.shift);
    sum[ch] = _mm256_fmadd_ps(r, right, _mm256_mul_ps(l, left));
  }
}

// A footprint's texels (words[tap]) weighted by its weights (NEAREST: its one texel) and
// expanded, in the general filter's order (filtersStoredIntegers): a colour format's stored
// integers are filtered, then expanded once per channel; a depth texture's texels are expanded,
// then filtered.
template <TexFormat F, int Taps>
TESSERA_TEX_AVX2 void filtered8(const __m256i (&words)[Taps], const Footprint8<Taps>& fp,
                                __m256 (&sum)[4]) {
  constexpr bool kExpandFirst = !filtersStoredIntegers(F);
  if constexpr (Taps == 4 && kByteChannels<F>) {
    bilinearBytes8<F>(words, fp.fu, fp.fv, sum);
    return expand8<F>(sum, kBilinearByteSum);
  }
  const __m256(&w)[Taps] = fp.w;
  raw8<F>(words[0], sum);
  if constexpr (kExpandFirst) expand8<F>(sum);
  if constexpr (Taps == 4) {
    for (int ch = 0; ch < 4; ++ch) sum[ch] = _mm256_mul_ps(w[0], sum[ch]);
    for (int tap = 1; tap < 4; ++tap) {
      __m256 texel[4];
      raw8<F>(words[tap], texel);
      if constexpr (kExpandFirst) expand8<F>(texel);
      for (int ch = 0; ch < 4; ++ch)
        sum[ch] = _mm256_add_ps(sum[ch], _mm256_mul_ps(w[tap], texel[ch]));
    }
  }
  if constexpr (!kExpandFirst) expand8<F>(sum);
}

// A row's eight lanes where both quads are active; otherwise the active quad's four twice (the
// caller's rows may end after it).
TESSERA_TEX_AVX2 __m256 activeLanes(const float* row, uint32_t active) {
  if (active == 3) return _mm256_loadu_ps(row);
  const __m128 quad = _mm_loadu_ps(active == 1 ? row : row + 4);
  return _mm256_set_m128(quad, quad);
}

// The words of the two texels of each lane's bilinear row when they lie side by side (offsets
// `lo` and lo + Bytes): one 8-byte load per lane instead of two word loads (loadWords8). A texel
// narrower than a word comes as the word it starts, as loadWords8 gives it.
template <uint32_t Bytes>
TESSERA_TEX_AVX2 void rowPair(const uint8_t* texels, __m256i lo, __m256i& left, __m256i& right) {
  alignas(32) uint32_t o[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(o), lo);
  auto two = [&](int l) {
    long long v;
    std::memcpy(&v, texels + o[l], 8);
    return v;
  };
  const __m256i a = _mm256_set_epi64x(two(5), two(4), two(1), two(0));
  const __m256i b = _mm256_set_epi64x(two(7), two(6), two(3), two(2));
  // The low words of each 64-bit lane of a then b (a lambda would not take the AVX2 target).
  const __m256i ra = _mm256_srli_epi64(a, 8 * Bytes), rb = _mm256_srli_epi64(b, 8 * Bytes);
  left = _mm256_castps_si256(
      _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
  right = _mm256_castps_si256(
      _mm256_shuffle_ps(_mm256_castsi256_ps(ra), _mm256_castsi256_ps(rb), _MM_SHUFFLE(2, 0, 2, 0)));
}

// Non-zero in each lane whose bilinear rows (off[0..3]: the top row's left and right texel, then
// the bottom row's) are not two texels side by side, as at a clamped or wrapped edge.
template <uint32_t Bytes>
TESSERA_TEX_AVX2 __m256i apart(const __m256i (&off)[4]) {
  const __m256i step = _mm256_set1_epi32(static_cast<int>(Bytes));
  return _mm256_or_si256(_mm256_xor_si256(off[1], _mm256_add_epi32(off[0], step)),
                         _mm256_xor_si256(off[3], _mm256_add_epi32(off[2], step)));
}

// The words of a bilinear footprint's texels (off[0..3]: the top row's left and right, then the
// bottom row's) when each row's two lie side by side, as they do except at a clamped or wrapped
// edge: two 8-byte loads per lane. False (nothing loaded) otherwise, or when a load would pass
// `lastLoad`, the level's last 8-byte start (a row of texels narrower than a word).
template <TexFormat F, int Taps>
TESSERA_TEX_AVX2 bool rowPairs(const uint8_t* texels, const __m256i (&off)[Taps], __m256i lastLoad,
                               __m256i (&words)[Taps]) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  if constexpr (Taps == 4) {
    __m256i bad = apart<bytes>(off);
    // Four-byte texels side by side end within the level; narrower ones may not.
    if constexpr (bytes < 4)
      bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi32(off[0], lastLoad),
                                                 _mm256_cmpgt_epi32(off[2], lastLoad)));
    if (!_mm256_testz_si256(bad, bad)) return false;
    rowPair<bytes>(texels, off[0], words[0], words[1]);
    rowPair<bytes>(texels, off[2], words[2], words[3]);
    return true;
  }
  return false;
}

// The width of the span one load reads for a pixel row of a pair (spanWords): a 32-byte load
// whose words a lane permute picks for four-byte texels, 16 bytes broadcast to both halves
// whose bytes a byte shuffle picks for narrower ones.
template <uint32_t Bytes>
inline constexpr int32_t kSpanBytes = Bytes == 4 ? 32 : 16;

// The words of each lane's texel at byte offset `lo` (and with Taps 4, of the texel after it, in
// `right`) when each of the pair's two pixel rows (lanes 0, 1, 4, 5 and 2, 3, 6, 7) reads
// within one span from its lowest offset, as magnified and one-to-one lookups do: one load per
// row and a shuffle instead of eight word loads per tap (loadWords8). A texel narrower than a
// word comes as the word it starts, as loadWords8 gives it (the bytes past the
// span's end are others of the span: the decode reads only the texel's own). False (nothing
// loaded) when a row spreads wider, or a span would pass `lastSpan`, the level's last start of
// a span.
template <uint32_t Bytes, int Taps>
TESSERA_TEX_AVX2 bool spanWords(const uint8_t* texels, __m256i lo, int64_t lastSpan, __m256i& left,
                                __m256i& right) {
  constexpr int32_t kSpan = kSpanBytes<Bytes>;
  // The last texel's start: a four-byte texel's word must be one of the span's eight; a
  // narrower texel's bytes must lie in the span.
  constexpr int32_t kLastStart = kSpan - static_cast<int32_t>(Bytes) * (Taps == 4 ? 2 : 1);
  const __m256i side = _mm256_min_epu32(
      lo, _mm256_permutevar8x32_epi32(lo, _mm256_setr_epi32(1, 0, 3, 2, 5, 4, 7, 6)));
  const __m256i rowMin = _mm256_min_epu32(
      side, _mm256_permutevar8x32_epi32(side, _mm256_setr_epi32(4, 5, 6, 7, 0, 1, 2, 3)));
  const __m256i d = _mm256_sub_epi32(lo, rowMin);
  const __m256i wide = _mm256_cmpgt_epi32(d, _mm256_set1_epi32(kLastStart));
  if (!_mm256_testz_si256(wide, wide)) return false;
  const int64_t top = _mm256_cvtsi256_si32(rowMin), bottom = _mm256_extract_epi32(rowMin, 2);
  if (top > lastSpan || bottom > lastSpan) return false;
  constexpr int kBottomLanes = 0xcc;
  if constexpr (Bytes == 4) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(texels + top));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(texels + bottom));
    const __m256i at = _mm256_srli_epi32(d, 2);
    left = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, at),
                              _mm256_permutevar8x32_epi32(b, at), kBottomLanes);
    if constexpr (Taps == 4) {
      const __m256i next = _mm256_add_epi32(at, _mm256_set1_epi32(1));
      right = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, next),
                                 _mm256_permutevar8x32_epi32(b, next), kBottomLanes);
    }
  } else {
    const __m256i a = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(texels + top)));
    const __m256i b = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(texels + bottom)));
    // Each lane's byte offset in its four bytes, plus 0, 1, 2, 3.
    const __m256i ctrl =
        _mm256_add_epi8(_mm256_shuffle_epi8(d, _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8,
                                                                12, 12, 12, 12, 0, 0, 0, 0, 4, 4, 4,
                                                                4, 8, 8, 8, 8, 12, 12, 12, 12)),
                        _mm256_set1_epi32(0x03020100));
    left = _mm256_blend_epi32(_mm256_shuffle_epi8(a, ctrl), _mm256_shuffle_epi8(b, ctrl),
                              kBottomLanes);
    if constexpr (Taps == 4) {
      const __m256i next = _mm256_add_epi8(ctrl, _mm256_set1_epi8(static_cast<char>(Bytes)));
      right = _mm256_blend_epi32(_mm256_shuffle_epi8(a, next), _mm256_shuffle_epi8(b, next),
                                 kBottomLanes);
    }
  }
  return true;
}

// A footprint's words (spanWords, row by row): false, with nothing loaded, when a lane's
// bilinear row is not two texels side by side or a row spreads wider than a span.
template <TexFormat F, int Taps>
TESSERA_TEX_AVX2 bool spanTaps(const uint8_t* texels, const __m256i (&off)[Taps], int64_t lastSpan,
                               __m256i (&words)[Taps]) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  if constexpr (Taps == 1) {
    return spanWords<bytes, 1>(texels, off[0], lastSpan, words[0], words[0]);
  } else {
    const __m256i bad = apart<bytes>(off);
    return _mm256_testz_si256(bad, bad) &&
           spanWords<bytes, 4>(texels, off[0], lastSpan, words[0], words[1]) &&
           spanWords<bytes, 4>(texels, off[2], lastSpan, words[2], words[3]);
  }
}

template <size_t I, Filter FL, int Count>
[[gnu::target("avx2,fma")]] uint32_t filterPairs(const QuadLookup& q) {
  constexpr TexFormat F = kQuadFormats[I];
  constexpr int kTaps = FL == Filter::Nearest ? 1 : 4;
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  Level levels[Count];
  int32_t lastWord[Count];
  for (int k = 0; k < Count; ++k) {
    levels[k] = q.level[k];
    const int64_t levelBytes = int64_t{levels[k].width} * levels[k].height * bytes;
    // Offsets are 32-bit lanes: a level of 2 GiB or more takes the SSE kernel.
    if (levelBytes > INT32_MAX) return sseQuadFilter(I, FL)(q);
    lastWord[k] = static_cast<int32_t>(levelBytes - 4);
  }
  CacheProbe cache(levels[0].cache);
  const Wrap ws = q.wrapS, wt = q.wrapT;
  for (int pair = 0; pair < 4; ++pair) {
    const uint32_t active = (q.quads >> (2 * pair)) & 3u;
    if (active == 0) continue;
    const int lane = 8 * pair;
    const uint32_t lanes = (active & 1u ? 0x0fu : 0u) | (active & 2u ? 0xf0u : 0u);
    const __m256 s = activeLanes(q.s + lane, active), t = activeLanes(q.t + lane, active);
    Footprint8<kTaps> fp[Count];
    for (int k = 0; k < Count; ++k) footprint8<F, FL>(levels[k], s, t, ws, wt, q.offset, fp[k]);
    // The texels are loaded before the cache's model runs, which then hides their latency.
    __m256i words[Count][kTaps];
    for (int k = 0; k < Count; ++k)
      if (!spanTaps<F>(levels[k].texels, fp[k].off, lastWord[k] + 4 - kSpanBytes<bytes>,
                       words[k]) &&
          !rowPairs<F>(levels[k].texels, fp[k].off, _mm256_set1_epi32(lastWord[k] - 4), words[k]))
        for (int tap = 0; tap < kTaps; ++tap)
          words[k][tap] = texelWords<F>(levels[k], fp[k].off[tap], lastWord[k]);
    if (cache.enabled() && !allRecentHits<F>(levels, fp, lanes, cache))
      lookUpInOrder<F>(levels, fp, lanes, cache);
    __m256 level[Count][4];
    for (int k = 0; k < Count; ++k) filtered8<F>(words[k], fp[k], level[k]);
    // Each quad's own weight of level[1] (the active quad's twice when one is).
    __m256 blend = _mm256_setzero_ps();
    if constexpr (Count == 2) {
      const float b0 = q.blend[2 * pair + (active == 2)], b1 = q.blend[2 * pair + (active != 1)];
      blend = _mm256_set_m128(_mm_set1_ps(b1), _mm_set1_ps(b0));
    }
    const __m256 keep = _mm256_sub_ps(_mm256_set1_ps(1.0f), blend);
    for (int ch = 0; ch < 4; ++ch) {
      __m256 c = level[0][ch];
      if constexpr (Count == 2)
        c = _mm256_add_ps(_mm256_mul_ps(keep, c), _mm256_mul_ps(blend, level[1][ch]));
      float* to = q.out[ch] + lane;
      if (active == 3) {
        _mm256_storeu_ps(to, c);
      } else if (active == 1) {
        _mm_storeu_ps(to, _mm256_castps256_ps128(c));
      } else {
        _mm_storeu_ps(to + 4, _mm256_extractf128_ps(c, 1));
      }
    }
  }
  cache.finish();
  return static_cast<uint32_t>(laneCount(q.quads) * 4 * kTaps * Count);
}

// The lines of a pair's texture-cache lookups when they are few (filterWarp): the level's place
// among the cache lines, and each group's first line and, where touched, the next.
struct PairLines {
  __m256i first, last;  // the level's offset in its first line, of a texel's first and last byte
  __m128i shift;        // log2 of the line size
  uint64_t baseLine;    // the level's first line
};
// Whether four lines (relative to `baseLine`) are each the most recently used of its set, and
// line k + 1 too where bit k of `needNext` is set. A line's set and the next set are read with one
// 16-byte load of the sets' fronts (CacheProbe::fronts() mirrors the first set after the last).
TESSERA_TEX_AVX2 bool frontsHold(__m128i rel, uint32_t needNext, uint64_t baseLine,
                                 const CacheProbe& cache) {
  const __m256i line = _mm256_add_epi64(_mm256_cvtepu32_epi64(rel),
                                        _mm256_set1_epi64x(static_cast<long long>(baseLine)));
  const __m256i set =
      _mm256_and_si256(line, _mm256_set1_epi64x(static_cast<long long>(cache.setMask())));
  const __m128i lo = _mm256_castsi256_si128(set), hi = _mm256_extracti128_si256(set, 1);
  const uint64_t* fronts = cache.fronts();
  auto at = [fronts](long long s) { return reinterpret_cast<const __m128i*>(fronts + s); };
  // Lines 0 and 2, then 1 and 3, each beside the line after it.
  const __m256i front02 = _mm256_loadu2_m128i(at(_mm_cvtsi128_si64(hi)), at(_mm_cvtsi128_si64(lo)));
  const __m256i front13 =
      _mm256_loadu2_m128i(at(_mm_extract_epi64(hi, 1)), at(_mm_extract_epi64(lo, 1)));
  const __m256i next = _mm256_add_epi64(line, _mm256_set1_epi64x(1));
  const uint32_t held02 = static_cast<uint32_t>(_mm256_movemask_pd(
      _mm256_castsi256_pd(_mm256_cmpeq_epi64(front02, _mm256_unpacklo_epi64(line, next)))));
  const uint32_t held13 = static_cast<uint32_t>(_mm256_movemask_pd(
      _mm256_castsi256_pd(_mm256_cmpeq_epi64(front13, _mm256_unpackhi_epi64(line, next)))));
  // Bits: a line, the line after it, the other line, the line after that.
  const uint32_t need02 = 0b0101u | (needNext & 1u) << 1 | (needNext & 4u) << 1;
  const uint32_t need13 = 0b0101u | (needNext & 2u) | (needNext & 8u);
  return (held02 & need02) == need02 && (held13 & need13) == need13;
}

// Of a pair's lane bits, whether some lane of its top pixel row (lanes 0, 1, 4, 5: bit 0) and of
// its bottom one (2, 3, 6, 7: bit 1) is set.
inline uint32_t pixelRowsBits(uint32_t lanes) {
  return static_cast<uint32_t>((lanes & 0x33u) != 0) | static_cast<uint32_t>((lanes & 0xccu) != 0)
                                                           << 1;
}

// How many of eight lanes have their first line `f` and last line `e` apart: texels across two
// lines, each two lookups.
TESSERA_TEX_AVX2 uint32_t crossings(__m256i f, __m256i e) {
  return static_cast<uint32_t>(laneCount(~laneBits(_mm256_cmpeq_epi32(f, e)) & 0xffu));
}

// One footprint row's lanes (their lines f to e) against `base`, each lane's group's first line:
// how far each starts and ends from it ORed into `spread` (within that line and the next: bit 0
// at most), and the lanes that reach the line after it.
TESSERA_TEX_AVX2 uint32_t reachFromBase(__m256i f, __m256i e, __m256i base, __m256i& spread) {
  const __m256i reach = _mm256_sub_epi32(e, base);
  spread = _mm256_or_si256(spread, _mm256_or_si256(_mm256_sub_epi32(f, base), reach));
  return laneBits(_mm256_cmpeq_epi32(reach, _mm256_set1_epi32(1)));
}

// What pairLines found.
enum class PairLinesResult { Spread, Recent, Listed };

// Each footprint row's first and last line (f and e, from the level's first) for the pair's eight
// lanes: of a NEAREST texel, or of a bilinear row's two texels. False when a bilinear row's two
// lie apart (at a clamped or wrapped edge).
template <uint32_t Bytes, int Taps>
TESSERA_TEX_AVX2 bool rowLines(const PairLines& p, const __m256i (&off)[Taps],
                               __m256i (&f)[kRowsOf<Taps>], __m256i (&e)[kRowsOf<Taps>]) {
  __m256i apart = _mm256_setzero_si256();
  for (int r = 0; r < kRowsOf<Taps>; ++r) {
    const __m256i lo = off[2 * r], hi = off[2 * r + Taps / 4];
    f[r] = _mm256_srl_epi32(_mm256_add_epi32(p.first, lo), p.shift);
    e[r] = _mm256_srl_epi32(_mm256_add_epi32(p.last, hi), p.shift);
    if constexpr (Taps == 4)
      apart = _mm256_or_si256(apart,
                              _mm256_xor_si256(hi, _mm256_add_epi32(lo, _mm256_set1_epi32(Bytes))));
  }
  return _mm256_testz_si256(apart, apart);
}

// The pair's lookup count, given its rows' lines (rowLines): a lookup per texel, and one more per
// texel across two lines (which only a three-byte texel can be).
template <uint32_t Bytes, int Taps>
TESSERA_TEX_AVX2 uint64_t pairLookups(const PairLines& p, const __m256i (&off)[Taps],
                                      const __m256i (&f)[kRowsOf<Taps>],
                                      const __m256i (&e)[kRowsOf<Taps>]) {
  uint32_t split = 0;
  if constexpr (Bytes == 3) {
    for (int r = 0; r < kRowsOf<Taps>; ++r) {
      if constexpr (Taps == 1) {
        split += crossings(f[r], e[r]);
      } else {
        const __m256i lo = off[2 * r], hi = off[2 * r + 1];
        const __m256i e0 = _mm256_srl_epi32(_mm256_add_epi32(p.last, lo), p.shift);
        const __m256i f1 = _mm256_srl_epi32(_mm256_add_epi32(p.first, hi), p.shift);
        split += crossings(f[r], e0) + crossings(f1, e[r]);
      }
    }
  }
  return 8 * Taps + split;
}

// Each footprint row of each lane (its lines f and e from rowLines) within the line of its
// group's first lane and the next one: the `groups` groups are the pair's two pixel rows (lanes
// 0, 1, 4, 5 and 2, 3, 6, 7) or each quad's two rows (lanes 0, 1, then 2, 3, ...). Spread (nothing
// done) when a row spreads wider. Otherwise, when every line is the most recent of its set, the
// pair's `lookups` are counted as hits (Recent), else each group's lines are put in lines[0..n)
// (Listed).
template <int Rows>
TESSERA_TEX_AVX2 PairLinesResult pairLines(const PairLines& p, const __m256i (&f)[Rows],
                                           const __m256i (&e)[Rows], int groups, uint64_t lookups,
                                           CacheProbe& cache, uint64_t* lines, int& n) {
  const __m256i groupFirst = groups == 2 ? _mm256_setr_epi32(0, 0, 2, 2, 0, 0, 2, 2)
                                         : _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6);
  __m256i spread = _mm256_setzero_si256();
  uint32_t reaching[Rows];
  for (int r = 0; r < Rows; ++r)
    reaching[r] = reachFromBase(f[r], e[r], _mm256_permutevar8x32_epi32(f[r], groupFirst), spread);
  if (!_mm256_testz_si256(spread, _mm256_set1_epi32(~1))) return PairLinesResult::Spread;
  // Per row, bit g: some lane of group g reaches the line after the group's first.
  uint32_t next[Rows];
  for (int r = 0; r < Rows; ++r) {
    const uint32_t lanes = reaching[r];
    if (groups == 2) {
      next[r] = pixelRowsBits(lanes);
    } else {
      const uint32_t quad = lanes | lanes >> 1;
      next[r] = (quad & 1u) | (quad >> 1 & 2u) | (quad >> 2 & 4u) | (quad >> 3 & 8u);
    }
  }
  // The groups' first lines, four at a time: with two groups both rows' (a single row twice).
  const __m256i firstLanes = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  bool recent = true;
  if (groups == 2) {
    const __m256i rows = _mm256_permute2x128_si256(f[0], f[Rows - 1], 0x20);
    recent = frontsHold(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(rows, firstLanes)),
                        next[0] | next[Rows - 1] << 2, p.baseLine, cache);
  } else {
    for (int r = 0; r < Rows && recent; ++r)
      recent = frontsHold(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(f[r], firstLanes)),
                          next[r], p.baseLine, cache);
  }
  if (recent) {
    // Any line of the pair may stand for the last one looked up: each leads its set.
    cache.countRecentHits(lookups,
                          p.baseLine + static_cast<uint32_t>(_mm256_cvtsi256_si32(f[Rows - 1])));
    return PairLinesResult::Recent;
  }
  n = 0;
  for (int r = 0; r < Rows; ++r) {
    alignas(32) uint32_t bases[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(bases), f[r]);
    for (int g = 0; g < groups; ++g) {
      lines[n++] = p.baseLine + bases[2 * g];
      if ((next[r] >> g) & 1u) lines[n++] = p.baseLine + bases[2 * g] + 1;
    }
  }
  return PairLinesResult::Listed;
}

// The least of the lanes of `lo` (in `first`), and how far above it the greatest of `hi`'s lies:
// the halves, then pairs of lanes, then lanes swapped.
TESSERA_TEX_AVX2 uint32_t lineSpan(__m256i lo, __m256i hi, uint32_t& first) {
  lo = _mm256_min_epu32(lo, _mm256_permute4x64_epi64(lo, 0x4e));
  hi = _mm256_max_epu32(hi, _mm256_permute4x64_epi64(hi, 0x4e));
  lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0x4e));
  hi = _mm256_max_epu32(hi, _mm256_shuffle_epi32(hi, 0x4e));
  lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0xb1));
  hi = _mm256_max_epu32(hi, _mm256_shuffle_epi32(hi, 0xb1));
  first = static_cast<uint32_t>(_mm256_cvtsi256_si32(lo));
  return static_cast<uint32_t>(_mm256_cvtsi256_si32(hi)) - first;
}

// The pair's `lookups` when its rows' lines (rowLines) span fewer lines than the cache has sets,
// and than 64: then no two of its distinct lines share a set, and each is looked up once
// (CacheProbe::lookUpDistinctAvx2), wherever the pair's texels lie. False, with nothing done,
// when they span more. Most pairs of a texture drawn near its size come here, turned or not.
template <int Rows>
TESSERA_TEX_AVX2 bool lookUpWindow(const PairLines& p, const __m256i (&f)[Rows],
                                   const __m256i (&e)[Rows], uint64_t lookups, CacheProbe& cache) {
  __m256i lo = f[0], hi = e[0];
  if constexpr (Rows == 2) {
    lo = _mm256_min_epu32(lo, f[1]);
    hi = _mm256_max_epu32(hi, e[1]);
  }
  uint32_t first;
  const uint32_t span = lineSpan(lo, hi, first);
  if (span >= 64 || span > cache.setMask()) return false;
  lo = _mm256_set1_epi32(static_cast<int>(first));
  // Bit k: some lane's row starts or ends on line first + k.
  __m256i bits = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi64x(1);
  for (int r = 0; r < Rows; ++r) {
    for (const __m256i line : {f[r], e[r]}) {
      const __m256i k = _mm256_sub_epi32(line, lo);
      bits = _mm256_or_si256(
          bits, _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(k))));
      bits = _mm256_or_si256(
          bits, _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(k, 1))));
    }
  }
  bits = _mm256_or_si256(bits, _mm256_permute4x64_epi64(bits, 0x4e));
  bits = _mm256_or_si256(bits, _mm256_shuffle_epi32(bits, 0x4e));
  cache.lookUpDistinctAvx2(p.baseLine + first,
                           static_cast<uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(bits))),
                           lookups);
  return true;
}

// The cache lookups of a pair of a whole warp (filterWarp). When its lines span less than the
// sets (lookUpWindow), each distinct line is looked up once. Otherwise, when pairLines finds the
// pair's lines few and each the most recent of its set, every lookup is a hit that changes nothing
// (the groups are the pair's pixel rows when its quads lie side by side, otherwise each quad's
// rows: a warp's quads may stack); and when some line is not (a miss, or a hit further back) but
// the distinct lines lie in different sets, each set sees one line: its first lookup is looked
// up, every later one is a hit on the line it left at the front, whatever the order. Otherwise
// (or when a bilinear row's texels lie apart) the pair is looked up in the general order
// (lookUpInOrder).
template <TexFormat F, int Taps>
TESSERA_TEX_AVX2 void lookUpWarpPair(const Level& lv, const __m256i (&off)[Taps],
                                     const PairLines& geometry, CacheProbe& cache) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  constexpr int kRows = kRowsOf<Taps>;
  __m256i f[kRows], e[kRows];
  if (rowLines<bytes>(geometry, off, f, e)) {
    const uint64_t lookups = pairLookups<bytes>(geometry, off, f, e);
    if (lookUpWindow(geometry, f, e, lookups, cache)) return;
    uint64_t lines[8 * kRows];
    int n = 0;
    PairLinesResult found = pairLines(geometry, f, e, 2, lookups, cache, lines, n);
    if (found == PairLinesResult::Spread)
      found = pairLines(geometry, f, e, 4, lookups, cache, lines, n);
    if (found == PairLinesResult::Recent) return;
    if (found == PairLinesResult::Listed) {
      bool ownSets = true;
      int distinct = 0;
      for (int i = 0; i < n; ++i) {
        bool seen = false;
        for (int j = 0; j < distinct; ++j) {
          seen |= lines[i] == lines[j];
          ownSets &= lines[i] == lines[j] || ((lines[i] ^ lines[j]) & cache.setMask()) != 0;
        }
        if (!seen) lines[distinct++] = lines[i];
      }
      if (ownSets) {
        for (int i = 0; i < distinct; ++i) cache.lookUpLineAvx2(lines[i]);
        return cache.countRecentHits(lookups - static_cast<uint64_t>(distinct),
                                     lines[distinct - 1]);
      }
    }
  }
  // Lines of several sets, or more lines than a few: the general order, which tests a row on one
  // line in one step (a pair of a minified texture mostly comes here).
  const Level levels[1] = {lv};
  Footprint8<Taps> fp[1];
  for (int tap = 0; tap < Taps; ++tap) fp[0].off[tap] = off[tap];
  lookUpInOrder<F>(levels, fp, 0xffu, cache);
}

// Whether no two lines of a mask of 128 (bit k of words[k / 64]: the k-th line from the first)
// share one of `sets` sets (a power of two): folded onto the sets, `sets` bits at a time, the
// mask overlaps itself nowhere.
inline bool ownSets(const uint64_t (&words)[2], uint64_t sets) {
  if (sets >= 128) return true;
  const uint64_t mask = sets == 64 ? ~uint64_t{0} : (uint64_t{1} << sets) - 1;
  uint64_t seen = 0;
  for (uint64_t at = 0; at < 128; at += sets) {
    const uint64_t chunk = words[at / 64] >> (at % 64) & mask;
    if ((seen & chunk) != 0) return false;
    seen |= chunk;
  }
  return true;
}

// The first lines of the two pixel rows (lanes 0 and 2) of two groups of a pair's lanes.
TESSERA_TEX_AVX2 __m128i rowFirsts(__m256i a, __m256i b) {
  const __m256i rowLanes = _mm256_setr_epi32(0, 2, 0, 2, 0, 2, 0, 2);
  return _mm_unpacklo_epi64(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a, rowLanes)),
                            _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, rowLanes)));
}

// The cache lookups of a whole warp at once (filterWarp), when in each pair every footprint row
// of each of its pixel rows (lanes 0, 1, 4, 5 and 2, 3, 6, 7) lies within the line of the row's
// first lane and the next one (bilinear rows of two texels side by side): those lines, at most
// two per pixel row and footprint row, are then all the warp touches. When they span fewer than
// 128 lines and no two of them share a set (ownSets), each set sees one line: whatever the order,
// its first lookup finds the line (or fills it) and every later one hits it at the front. Each
// distinct line is then looked up once (CacheProbe::lookUpDistinctAvx2), the other lookups being
// hits, from a 128-bit mask of the lines built in registers. When they span more, but every one
// of them is the most recent of its set, each lookup is a hit that changes nothing, and all are
// counted at once. False, with nothing counted, otherwise (two lines in one set cannot both lead
// it); the pairs are then looked up one by one (lookUpWarpPair). Most warps of a texture drawn
// near its size or magnified come here: a few tests a warp instead of a pair.
template <uint32_t Bytes, int Taps>
TESSERA_TEX_AVX2 bool warpLookups(const PairLines& p, const Footprint8<Taps> (&fp)[4],
                                  CacheProbe& cache) {
  constexpr int kRows = kRowsOf<Taps>, kGroups = 4 * kRows;
  const __m256i rowFirst = _mm256_setr_epi32(0, 0, 2, 2, 0, 0, 2, 2);
  // Per pair and footprint row (a group): each lane's first line, and bits 0 and 1: the line
  // after the first of its top and of its bottom pixel row is touched.
  __m256i first[kGroups];
  uint32_t next[kGroups];
  __m256i spread = _mm256_setzero_si256(), lo = _mm256_set1_epi32(-1), hi = _mm256_setzero_si256();
  uint64_t lookups = 0;
  for (int pair = 0; pair < 4; ++pair) {
    __m256i f[kRows], e[kRows];
    if (!rowLines<Bytes>(p, fp[pair].off, f, e)) return false;
    lookups += pairLookups<Bytes>(p, fp[pair].off, f, e);
    for (int r = 0; r < kRows; ++r) {
      first[kRows * pair + r] = f[r];
      next[kRows * pair + r] = pixelRowsBits(
          reachFromBase(f[r], e[r], _mm256_permutevar8x32_epi32(f[r], rowFirst), spread));
      lo = _mm256_min_epu32(lo, f[r]);
      hi = _mm256_max_epu32(hi, e[r]);
    }
  }
  if (!_mm256_testz_si256(spread, _mm256_set1_epi32(~1))) return false;
  uint32_t low;
  const uint32_t span = lineSpan(lo, hi, low);
  lo = _mm256_set1_epi32(static_cast<int>(low));
  if (span < 128) {
    // Bit k of the two words: line low + k, and low + 64 + k, is touched.
    __m256i bits[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    const __m256i one = _mm256_set1_epi64x(1), word = _mm256_set1_epi64x(64);
    for (int g = 0; g < kGroups; g += 4) {
      const __m256i k = _mm256_sub_epi32(_mm256_set_m128i(rowFirsts(first[g + 2], first[g + 3]),
                                                          rowFirsts(first[g], first[g + 1])),
                                         lo);
      const uint32_t after = next[g] | next[g + 1] << 2 | next[g + 2] << 4 | next[g + 3] << 6;
      const __m256i step =
          _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(after)),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                           _mm256_set1_epi32(1));
      for (const __m256i line : {k, _mm256_add_epi32(k, step)}) {
        for (const __m128i part :
             {_mm256_castsi256_si128(line), _mm256_extracti128_si256(line, 1)}) {
          const __m256i wide = _mm256_cvtepu32_epi64(part);
          bits[0] = _mm256_or_si256(bits[0], _mm256_sllv_epi64(one, wide));
          bits[1] = _mm256_or_si256(bits[1], _mm256_sllv_epi64(one, _mm256_sub_epi64(wide, word)));
        }
      }
    }
    uint64_t words[2];
    for (int w = 0; w < 2; ++w) {
      const __m256i b = _mm256_or_si256(bits[w], _mm256_permute4x64_epi64(bits[w], 0x4e));
      words[w] = static_cast<uint64_t>(_mm_cvtsi128_si64(
          _mm256_castsi256_si128(_mm256_or_si256(b, _mm256_shuffle_epi32(b, 0x4e)))));
    }
    // Lines fewer than the sets apart never share one.
    if (span > cache.setMask() && !ownSets(words, cache.setMask() + 1)) return false;
    const auto upper = static_cast<uint64_t>(std::popcount(words[1]));
    cache.lookUpDistinctAvx2(p.baseLine + low, words[0], lookups - upper);
    if (words[1] != 0) cache.lookUpDistinctAvx2(p.baseLine + low + 64, words[1], upper);
    return true;
  }
  for (int g = 0; g < kGroups; g += 2)
    if (!frontsHold(rowFirsts(first[g], first[g + 1]), next[g] | next[g + 1] << 2, p.baseLine,
                    cache))
      return false;
  cache.countRecentHits(lookups, p.baseLine + low);
  return true;
}

// The lookup of a whole warp (eight quads) from one level without a texel offset, with REPEAT or
// CLAMP_TO_EDGE on each axis, fixed when compiled: the common call of a draw without mipmaps. The
// same lookups as filterPairs and the same arithmetic, in straight-line code with the level's
// constants in registers, and the cache's lookups of the whole warp (warpLookups) or of a pair
// (lookUpWarpPair) mostly done at once. A pair whose words would pass the level's end goes
// through filterPairs.
template <size_t I, Filter FL, Wrap WS, Wrap WT>
[[gnu::target("avx2,fma")]] uint32_t filterWarp(const QuadLookup& q) {
  constexpr TexFormat F = kQuadFormats[I];
  constexpr int kTaps = FL == Filter::Nearest ? 1 : 4;
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  const Level lv = q.level[0];
  const int64_t levelBytes = int64_t{lv.width} * lv.height * bytes;
  if (levelBytes > INT32_MAX) return sseQuadFilter(I, FL)(q);
  const __m256i lastWord = _mm256_set1_epi32(static_cast<int32_t>(levelBytes - 4));
  const __m256i lastLoad = _mm256_set1_epi32(static_cast<int32_t>(levelBytes - 8));
  const int64_t lastSpan = levelBytes - kSpanBytes<bytes>;
  const __m256i width = _mm256_set1_epi32(lv.width);
  const __m256i one = _mm256_set1_epi32(1);
  CacheProbe cache(lv.cache);
  const bool cached = cache.enabled();
  const uint32_t shift = cached ? cache.lineShift() : 0;
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const uint64_t baseLine = lv.address >> shift;
  const auto rem = static_cast<int>(lv.address & ((uint64_t{1} << shift) - 1));
  const __m256i first = _mm256_set1_epi32(rem), last = _mm256_set1_epi32(rem + int{bytes} - 1);
  const PairLines geometry{first, last, count, baseLine};
  float* const out[4] = {q.out[0], q.out[1], q.out[2], q.out[3]};
  // Every pair's footprint first, so that the cache can look up the whole warp at once
  // (warpLookups) when no texel word passes the level's end (bit p of `pastEnd`: one of pair p's
  // does).
  Footprint8<kTaps> fps[4];
  uint32_t pastEnd = 0;
  for (int pair = 0; pair < 4; ++pair) {
    const __m256 s = _mm256_loadu_ps(q.s + 8 * pair), t = _mm256_loadu_ps(q.t + 8 * pair);
    __m256i(&off)[kTaps] = fps[pair].off;
    if constexpr (kTaps == 1) {
      const __m256i row = _mm256_mullo_epi32(nearestIndex8(WT, t, lv.height), width);
      off[0] = texelOffset<bytes>(row, nearestIndex8(WS, s, lv.width));
    } else {
      const __m256 scale = _mm256_set1_ps(static_cast<float>(kSubTexelScale));
      const __m256 half = _mm256_set1_ps(0.5f);
      const __m256i uf =
          floorToInt8(_mm256_mul_ps(_mm256_sub_ps(texelCoord8(WS, s, lv.width), half), scale));
      const __m256i vf =
          floorToInt8(_mm256_mul_ps(_mm256_sub_ps(texelCoord8(WT, t, lv.height), half), scale));
      const __m256i iu = _mm256_srai_epi32(uf, kSubTexelBits);
      const __m256i iv = _mm256_srai_epi32(vf, kSubTexelBits);
      const __m256i i0 = wrap8(WS, iu, lv.width),
                    i1 = wrap8(WS, _mm256_add_epi32(iu, one), lv.width);
      const __m256i row0 = _mm256_mullo_epi32(wrap8(WT, iv, lv.height), width);
      const __m256i row1 =
          _mm256_mullo_epi32(wrap8(WT, _mm256_add_epi32(iv, one), lv.height), width);
      off[0] = texelOffset<bytes>(row0, i0);
      off[1] = texelOffset<bytes>(row0, i1);
      off[2] = texelOffset<bytes>(row1, i0);
      off[3] = texelOffset<bytes>(row1, i1);
      bilinearWeights<F>(uf, vf, fps[pair]);
    }
    if constexpr (bytes < 4) pastEnd |= static_cast<uint32_t>(wordsPastEnd(off, lastWord)) << pair;
  }
  const bool warpCounted = cached && pastEnd == 0 && warpLookups<bytes>(geometry, fps, cache);
  for (int pair = 0; pair < 4; ++pair) {
    const int lane = 8 * pair;
    const Footprint8<kTaps>& fp = fps[pair];
    const __m256i(&off)[kTaps] = fp.off;
    // Words that would pass the level's end are read texel by texel in filterPairs.
    if (((pastEnd >> pair) & 1u) != 0) {
      cache.finish();
      QuadLookup alone = q;
      alone.quads = 3u << (2 * pair);
      filterPairs<I, FL, 1>(alone);
      // The line the probe saw last may no longer lead its set.
      cache = CacheProbe(lv.cache);
      continue;
    }
    __m256i words[kTaps];
    if (!spanTaps<F>(lv.texels, off, lastSpan, words) &&
        !rowPairs<F>(lv.texels, off, lastLoad, words))
      for (int tap = 0; tap < kTaps; ++tap) words[tap] = loadWords8(lv.texels, off[tap]);
    if (cached && !warpCounted) lookUpWarpPair<F>(lv, off, geometry, cache);
    __m256 sum[4];
    filtered8<F>(words, fp, sum);
    for (int ch = 0; ch < 4; ++ch) _mm256_storeu_ps(out[ch] + lane, sum[ch]);
  }
  cache.finish();
  return 32 * kTaps;
}

// The whole-warp kernel of a pair of wrap modes (REPEAT or CLAMP_TO_EDGE), or null.
template <size_t I, Filter FL>
QuadFilterFn warpKernel(Wrap ws, Wrap wt) {
  static constexpr QuadFilterFn kKernels[2][2] = {
      {&filterWarp<I, FL, Wrap::Repeat, Wrap::Repeat>,
       &filterWarp<I, FL, Wrap::Repeat, Wrap::ClampToEdge>},
      {&filterWarp<I, FL, Wrap::ClampToEdge, Wrap::Repeat>,
       &filterWarp<I, FL, Wrap::ClampToEdge, Wrap::ClampToEdge>}};
  if (ws == Wrap::MirroredRepeat || wt == Wrap::MirroredRepeat) return nullptr;
  return kKernels[ws == Wrap::ClampToEdge][wt == Wrap::ClampToEdge];
}

template <size_t I, Filter FL>
uint32_t filterPairLevels(const QuadLookup& q) {
  if (q.count == 1 && q.quads == 0xffu && q.offset.u == 0 && q.offset.v == 0)
    if (const QuadFilterFn warp = warpKernel<I, FL>(q.wrapS, q.wrapT)) return warp(q);
  return q.count == 2 ? filterPairs<I, FL, 2>(q) : filterPairs<I, FL, 1>(q);
}

template <size_t... I>
constexpr auto pairTable(std::index_sequence<I...>) {
  return std::array<std::array<QuadFilterFn, 2>, sizeof...(I)>{
      {{&filterPairLevels<I, Filter::Nearest>, &filterPairLevels<I, Filter::Linear>}...}};
}
constexpr auto kPairFilters = pairTable(std::make_index_sequence<kQuadFormats.size()>());

}  // namespace

QuadFilterFn avx2QuadFilter(size_t format, Filter filter) {
  return kPairFilters[format][static_cast<size_t>(filter)];
}

QuadFilterFn avx2WarpFilter(size_t format, Filter filter, Wrap ws, Wrap wt) {
  static constexpr auto kWarp = [] {
    std::array<std::array<QuadFilterFn (*)(Wrap, Wrap), 2>, kQuadFormats.size()> t{};
    [&]<size_t... I>(std::index_sequence<I...>) {
      ((t[I] = {&warpKernel<I, Filter::Nearest>, &warpKernel<I, Filter::Linear>}), ...);
    }
    (std::make_index_sequence<kQuadFormats.size()>());
    return t;
  }();
  return kWarp[format][static_cast<size_t>(filter)](ws, wt);
}
#endif

}  // namespace tessera::gpu::tex::detail
