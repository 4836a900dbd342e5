// IEEE 754 binary16 to float, exactly (every half is a float): vertex attributes
// (OES_vertex_half_float) and half-float textures (OES_texture_half_float) both read halves.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace tessera {

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: man × 2^-24
    const float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

}  // namespace tessera
