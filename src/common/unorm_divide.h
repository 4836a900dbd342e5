// The expansion of unsigned normalized integers, x / (2^bits - 1), for four values in SSE
// registers without a division: x times the reciprocal in double, rounded to float, is the
// correctly rounded quotient that a division gives, at a fraction of divps's latency. Used where
// a texture unit or render backend expands stored integers (or filtered sums of them).
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>

namespace tessera {

// x / d for four x with reciprocals r = 1.0 / d in double (channels 0-1 in `low`, 2-3 in `high`),
// exact to the bit when each x is N / 2^16 for an integer 0 <= N < 2^24 and each d is odd and
// below 2^16 (every stored unorm integer, and every bilinear sum of them with weights that are
// multiples of 1/256). Why: a quotient that is not a float lies at least 2^-24 / d > 2^-40 of its
// magnitude away from the nearest rounding midpoint (reaching one would need d to divide a power
// of two), while the double product errs by at most 2^-52 of it, so both round alike.
// tests/common/unorm_divide_test.cpp checks every N for every field width up to 10 bits.
[[gnu::always_inline]] inline __m128 divideUnorm4(__m128 x, __m128d low, __m128d high) {
  const __m128d lo = _mm_mul_pd(_mm_cvtps_pd(x), low);
  const __m128d hi = _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), high);
  return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}
// The same with one divisor for all four values.
[[gnu::always_inline]] inline __m128 divideUnorm4(__m128 x, double reciprocal) {
  const __m128d r = _mm_set1_pd(reciprocal);
  return divideUnorm4(x, r, r);
}

}  // namespace tessera
#endif
