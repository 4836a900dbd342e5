// A warp's 32-lane bit mask and its row form (one 32-bit word per lane, ~0 or 0), both ways.
// The shader core converts between them at every divergent branch: a condition row becomes the
// branch's mask, and a new exec mask becomes the select row that masked writes read. Four lanes
// a step in SSE2 (the baseline of x86-64) instead of a shift and an OR per lane; the step itself
// (laneMask4) is also how the render backend's quad paths spread a quad's pixel mask.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tessera {

// Bit l set when word l of `row` (32 words) is nonzero: a float row's bits, so -0.0 counts as
// set and NaN as set, as the interpreter's boolean rows read.
inline uint32_t laneMaskOf(const void* row) {
#if defined(__SSE2__)
  const auto* p = static_cast<const __m128i*>(row);
  const __m128i zero = _mm_setzero_si128();
  uint32_t zeros = 0;
  for (int g = 0; g < 8; ++g) {
    const __m128i v = _mm_loadu_si128(p + g);
    zeros |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero))))
             << (4 * g);
  }
  return ~zeros;
#else
  uint32_t words[32];
  std::memcpy(words, row, sizeof words);
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= uint32_t{words[l] != 0} << l;
  return m;
#endif
}

#if defined(__SSE2__)
// Four lanes from bits 0..3 of `mask` (higher bits are ignored): lane i is ~0 when bit i is set,
// else 0. A quad's pixel mask as the render backend's SSE quad paths use it.
inline __m128i laneMask4(uint32_t mask) {
  const __m128i bits = _mm_setr_epi32(1, 2, 4, 8);
  return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(static_cast<int>(mask)), bits), bits);
}
#endif

// Word l of `row` (32 words) set to ~0 when bit l of `mask` is set, else 0.
inline void laneRowOf(uint32_t mask, void* row) {
#if defined(__SSE2__)
  auto* p = static_cast<__m128i*>(row);
  for (int g = 0; g < 8; ++g) _mm_storeu_si128(p + g, laneMask4(mask >> (4 * g)));
#else
  uint32_t words[32];
  for (int l = 0; l < 32; ++l) words[l] = 0u - ((mask >> l) & 1u);
  std::memcpy(row, words, sizeof words);
#endif
}

}  // namespace tessera
