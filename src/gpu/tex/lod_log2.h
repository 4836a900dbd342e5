// Texture unit (tex/): the log2 of the level-of-detail computation. A texture unit does not
// call a math library: it looks the mantissa up in a small table and interpolates, which is
// what this does, 256 segments over [1, 2). The interpolation errs by under 3e-6 (then the sum
// rounds to float), far finer than the 1/256 steps the level blend is quantized to
// (kSubTexelScale), and the result is exact at powers of two, so a footprint of a power-of-two
// size picks its level exactly.
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace tessera::gpu::tex {

namespace detail {
// log2(1 + i/256) for i = 0..256, computed at compile time (ln by the atanh series, in double),
// so the table is the same on every host.
constexpr std::array<float, 257> makeLodLog2Table() {
  std::array<float, 257> table{};
  for (int i = 0; i <= 256; ++i) {
    const double m = 1.0 + i / 256.0, t = (m - 1.0) / (m + 1.0), t2 = t * t;
    double term = t, ln = 0.0;
    for (int k = 0; k < 40; ++k, term *= t2) ln += term / (2 * k + 1);
    table[static_cast<size_t>(i)] = static_cast<float>(2.0 * ln / 0.69314718055994530942);
  }
  return table;
}
inline constexpr std::array<float, 257> kLodLog2 = makeLodLog2Table();
}  // namespace detail

// log2(x): -inf at 0, +inf at +inf, NaN below 0 and for NaN (the level choice then samples the
// base level).
inline float lodLog2(float x) {
  if (!(x > 0.0f))
    return x == 0.0f ? -std::numeric_limits<float>::infinity()
                     : std::numeric_limits<float>::quiet_NaN();
  if (x == std::numeric_limits<float>::infinity()) return x;
  int32_t bias = 127;
  if (x < std::numeric_limits<float>::min()) {  // denormal: scaled by 2^23 first
    x *= 8388608.0f;
    bias += 23;
  }
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const uint32_t mant = bits & 0x007fffffu;
  const uint32_t i = mant >> 15;                                           // the segment
  const float f = static_cast<float>(mant & 0x7fffu) * (1.0f / 32768.0f);  // within it
  const float lo = detail::kLodLog2[i], hi = detail::kLodLog2[i + 1];
  return static_cast<float>(static_cast<int32_t>(bits >> 23) - bias) + (lo + f * (hi - lo));
}

}  // namespace tessera::gpu::tex
