// Texture unit (tex/): the coordinate arithmetic of a bilinear lookup for the four pixels of a
// quad at once, in SSE2 registers. Every step is the scalar one of tex_wrap.h and
// texture_unit.cpp's linearTap, operation for operation, so each pixel's texel indices and
// weights are the same to the bit (tests/tex/specialized_filter_test.cpp checks the results).
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>

#include <cstdint>

#include "gpu/tex/tex_wrap.h"

namespace tessera::gpu::tex::quad {

inline constexpr float kExact = 8388608.0f;  // 2^23: every float at least this large is an integer

// floor() of floats that lie within int32 (the caller's range): truncation, one less where it
// rounded a negative fraction up.
[[gnu::always_inline]] inline __m128i floorToInt(__m128 x) {
  const __m128i t = _mm_cvttps_epi32(x);
  return _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), x)));
}

// Lanes with |x| < 2^23 (false for NaN): below it a float may have a fraction.
[[gnu::always_inline]] inline __m128 belowExact(__m128 x) {
  return _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), x), _mm_set1_ps(kExact));
}

// x - floor(x) for |x| < 2^23; 0 where |x| is larger (x is then an integer), infinite or NaN,
// which is reduceCoord's result for those.
[[gnu::always_inline]] inline __m128 fraction(__m128 x) {
  return _mm_and_ps(belowExact(x), _mm_sub_ps(x, _mm_cvtepi32_ps(floorToInt(x))));
}

// texelCoord(w, s, size) for four coordinates.
[[gnu::always_inline]] inline __m128 texelCoord(Wrap w, __m128 s, int32_t size) {
  const __m128 n = _mm_set1_ps(static_cast<float>(size));
  if (w == Wrap::Repeat) {
    return _mm_mul_ps(fraction(s), n);
  } else if (w == Wrap::MirroredRepeat) {
    // s - 2 floor(s/2) as reduceCoord computes it; where |s/2| >= 2^23 (or s is infinite or
    // NaN) s/2 is an integer and the reduction is 0.
    const __m128 half = _mm_mul_ps(s, _mm_set1_ps(0.5f));
    const __m128 reduced =
        _mm_sub_ps(s, _mm_mul_ps(_mm_set1_ps(2.0f), _mm_cvtepi32_ps(floorToInt(half))));
    return _mm_mul_ps(_mm_and_ps(belowExact(half), reduced), n);
  } else {
    // clamp(s n, -16, n + 16); NaN reads 0.
    const __m128 c = _mm_min_ps(_mm_max_ps(_mm_mul_ps(s, n), _mm_set1_ps(-16.0f)),
                                _mm_add_ps(n, _mm_set1_ps(16.0f)));
    return _mm_and_ps(_mm_cmpeq_ps(s, s), c);
  }
}

// linearTap for four texel coordinates: the lower texel index and the weight of the upper one.
struct Taps {
  __m128i index;
  __m128 weight;
};
[[gnu::always_inline]] inline Taps linearTaps(__m128 u) {
  const __m128 scale = _mm_set1_ps(static_cast<float>(kSubTexelScale));
  const __m128i uf = floorToInt(_mm_mul_ps(_mm_sub_ps(u, _mm_set1_ps(0.5f)), scale));
  return {
      _mm_srai_epi32(uf, kSubTexelBits),
      _mm_div_ps(_mm_cvtepi32_ps(_mm_and_si128(uf, _mm_set1_epi32(kSubTexelScale - 1))), scale)};
}

}  // namespace tessera::gpu::tex::quad
#endif
