// The expansion of unsigned normalized integers, x / (2^bits - 1), without a division: for four
// values in SSE registers, x times the reciprocal in double, rounded to float, is the correctly
// rounded quotient that a division gives, at a fraction of divps's latency; for eight on the AVX2
// path, an FMA-corrected float quotient is the same float. Used where a texture unit or render
// backend expands stored integers (or filtered sums of them).
#pragma once
#if defined(__SSE2__)
#include <immintrin.h>

namespace tessera {

// x / d for four x with reciprocals r = 1.0 / d in double,
// exact to the bit when each x is N / 2^16 for an integer 0 <= N < 2^24 and each d is odd and
// below 2^16 (every stored unorm integer, and every bilinear sum of them with weights that are
// multiples of 1/256). Why: a quotient that is not a float lies at least 2^-24 / d > 2^-40 of its
// magnitude away from the nearest rounding midpoint (reaching one would need d to divide a power
// of two), while the double product errs by at most 2^-52 of it, so both round alike.
// tests/common/unorm_divide_test.cpp checks every N for every field width up to 10 bits. A depth
// texture's stored integers (d = 2^16 - 1 or 2^24 - 1, divided one by one, never summed first) are
// exact too: such a quotient lies at least 2^-49 of its magnitude from a midpoint; the test checks
// every one.
//
// The four products are one GCC generic vector of doubles: the baseline build splits it into two
// SSE2 halves, and the AVX2 clones (common/simd.h) that inline this keep it in one register.
namespace detail {
using Double4 = double __attribute__((vector_size(32)));
using Float4 = float __attribute__((vector_size(16)));
// By reference: a 32-byte vector passed by value would change the ABI between the baseline build
// and the AVX2 clones (clang's -Wpsabi).
[[gnu::always_inline]] inline __m128 divideUnorm4(__m128 x, const Double4& reciprocals) {
  const Double4 q = __builtin_convertvector(static_cast<Float4>(x), Double4) * reciprocals;
  return static_cast<__m128>(__builtin_convertvector(q, Float4));
}
}  // namespace detail
// `reciprocals` holds four doubles, channel 0 first.
[[gnu::always_inline]] inline __m128 divideUnorm4(__m128 x, const double* reciprocals) {
  detail::Double4 r;
  __builtin_memcpy(&r, reciprocals, sizeof r);
  return detail::divideUnorm4(x, r);
}
// The same with one divisor for all four values.
[[gnu::always_inline]] inline __m128 divideUnorm4(__m128 x, double reciprocal) {
  const detail::Double4 r = detail::Double4{} + reciprocal;
  return detail::divideUnorm4(x, r);
}

#if defined(__x86_64__) && defined(__GNUC__)
// x / d for eight x on the AVX2 path, with d = 2^bits - 1 for a field of at most 10 bits and
// 0 <= x <= 2d: the same floats as divideUnorm4, in three single-precision operations instead of
// eight double ones. q = x * (1/d) is within an ulp of the quotient; its remainder x - q d is
// exact in one FMA; and q + remainder * (1/d), rounded once, is then the correctly rounded
// quotient (Markstein's correction step, which needs 1/d itself correctly rounded, as the float
// division gives it). Checked over every float from 0 to 2d for 1, 2, 4, 5, 6, 8 and 10 bits;
// tests/common/unorm_divide_test.cpp compares every value a filter meets with divideUnorm4, and
// every 16- and 24-bit depth with the division.
//
// With `scale` a power of two (x * scale neither overflowing nor subnormal), the quotient of
// x * scale, without a multiplication: the scale goes into the reciprocal and out of the divisor,
// which scales q and the remainder exactly, so every rounding is the unscaled one's.
[[gnu::target("avx2,fma"), gnu::always_inline]] inline __m256 divideUnorm8(__m256 x, float d,
                                                                           float scale = 1.0f) {
  const __m256 divisor = _mm256_set1_ps(d / scale), reciprocal = _mm256_set1_ps(1.0f / d * scale);
  const __m256 q = _mm256_mul_ps(x, reciprocal);
  return _mm256_fmadd_ps(_mm256_fnmadd_ps(q, divisor, x), reciprocal, q);
}
#endif

}  // namespace tessera
#endif
