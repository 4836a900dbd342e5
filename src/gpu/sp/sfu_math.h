// Shader processor (sp/): the SFU's exp2 and log2. A GPU's special function unit evaluates them
// with its own approximation, not a host library's, and so does Tessera's: range reduction to
// an exponent and a short polynomial, every step a plain IEEE operation (no fused multiply-add)
// and written without branches, so a warp's 32 lanes vectorize and every host gives the same
// bits. Both are within 3 ulp of the correctly rounded result over the whole float range, the
// precision GLSL ES 3.00 §4.5.1 asks of exp2 and log2 (tests/sp/alu_test.cpp sweeps it);
// docs/isa.md states the special cases.
#pragma once
#include <bit>
#include <cstdint>

namespace tessera::gpu::sp {

// The constants of both approximations, also read by their compiled form (host_code.cpp).
namespace sfu {
inline constexpr float kSmallestNormal = 1.17549435e-38f;
inline constexpr float kTwo23 = 8388608.0f;  // 2^23: scales denormals up; rounds to an integer
inline constexpr uint32_t kSqrtTwoMantissa = 0x003504f3u;  // the mantissa bits of sqrt(2)
inline constexpr float kTwoOverLn2 = 2.88539008f;
// log2's series in t^2: 1/3, 1/5, 1/7, 1/9.
inline constexpr float kLog2Series[4] = {0.333333333f, 0.2f, 0.142857143f, 0.111111111f};
inline constexpr float kExp2Clamp = 200.0f;
inline constexpr float kLn2 = 0.693147181f;
// exp's series: 1/k! for k = 0..7.
inline constexpr float kExpSeries[8] = {
    1.0f, 1.0f, 0.5f, 0.166666667f, 0.0416666667f, 0.00833333333f, 0.00138888889f, 0.000198412698f};
}  // namespace sfu

// log2(x): -inf at ±0, NaN below 0 and for NaN, +inf at +inf. Denormals are exact inputs.
inline float sfuLog2(float x) {
  // Denormals are scaled into the normal range first (2^23 x, and 23 off the exponent).
  // Every operation runs on every lane and the special cases are selected at the end, so the
  // loop has no branch to keep it from vectorizing.
  const bool tiny = x < sfu::kSmallestNormal;  // below the smallest normal (and ±0, negatives)
  const float scaled = x * sfu::kTwo23;
  const float xs = tiny ? scaled : x;
  const uint32_t bits = std::bit_cast<uint32_t>(xs);
  int32_t e = static_cast<int32_t>(bits >> 23) - 127 - (tiny ? 23 : 0);
  // The mantissa m in [1, 2), folded into [sqrt(1/2), sqrt(2)) so that t below stays small.
  const uint32_t mant = bits & 0x007fffffu;
  const bool high = mant > sfu::kSqrtTwoMantissa;  // m > sqrt(2)
  const float m = std::bit_cast<float>(mant | (high ? 0x3f000000u : 0x3f800000u));
  e += high ? 1 : 0;
  // ln(m) = 2 atanh(t), t = (m - 1) / (m + 1), |t| <= 0.1716: the series to t^9 leaves
  // under 2e-9 of relative error.
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  // log2(m) = c t + c t^3 (1/3 + t^2/5 + t^4/7 + t^6/9) with c = 2 / ln 2: the leading term
  // is rounded once and the rest is a small correction to it.
  constexpr float c = sfu::kTwoOverLn2;
  constexpr const float* k = sfu::kLog2Series;
  const float tail = t2 * (k[0] + t2 * (k[1] + t2 * (k[2] + t2 * k[3])));
  const float log2m = c * t + (c * t) * tail;
  const float r = static_cast<float>(e) + log2m;
  // Special cases last, as selects: +inf stays, 0 is -inf, negatives and NaN are NaN.
  const float inf = std::bit_cast<float>(0x7f800000u);
  const bool isInf = x == inf, isZero = x == 0.0f, positive = x > 0.0f, isNan = x != x;
  const float otherwise = isNan ? x : std::bit_cast<float>(0x7fc00000u);
  const float finite = positive ? r : otherwise;
  const float nonZero = isInf ? inf : finite;
  return isZero ? -inf : nonZero;
}

// 2^x: 0 below -150 and at -inf, +inf from 128, NaN for NaN; exact at integers.
inline float sfuExp2(float x) {
  // Clamped so the exponent fits an integer (NaN clamps to -200 and is put back at the end).
  const bool isNan = x != x;
  const float low = x > -sfu::kExp2Clamp ? x : -sfu::kExp2Clamp;
  const float xc = low < sfu::kExp2Clamp ? low : sfu::kExp2Clamp;
  // n = round(xc) by adding and removing 2^23 (ties to even); f in [-1/2, 1/2].
  const bool negative = xc < 0.0f;
  const float a = negative ? -xc : xc;
  const float ra = (a + sfu::kTwo23) - sfu::kTwo23;
  const float n = negative ? -ra : ra;
  const float y = (xc - n) * sfu::kLn2;  // f ln 2, |y| <= 0.347
  // e^y to y^7/7!: under 6e-9 of relative error.
  constexpr const float* e = sfu::kExpSeries;
  const float p =
      e[0] + y * (e[1] + y * (e[2] + y * (e[3] + y * (e[4] + y * (e[5] + y * (e[6] + y * e[7]))))));
  // 2^n in two normal factors, so that results down in the denormals (and overflow to
  // infinity) round once, in the last multiply.
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni >> 1, n2 = ni - n1;
  const float s1 = std::bit_cast<float>(static_cast<uint32_t>(n1 + 127) << 23);
  const float s2 = std::bit_cast<float>(static_cast<uint32_t>(n2 + 127) << 23);
  const float r = p * s1 * s2;
  return isNan ? x : r;
}

}  // namespace tessera::gpu::sp
