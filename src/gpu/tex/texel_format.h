// Texture unit (tex/): bytes per texel and the unorm expansion of every texel format to RGBA
// float (GLES 2.0 §3.6.2 table 3.8 for the luminance/alpha formats, c / (2^n - 1) per channel).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

inline constexpr std::array<uint8_t, 10> kBytesPerTexel = {
    4,  // RGBA8
    3,  // RGB8
    2,  // RGB565
    2,  // RGBA4444
    2,  // RGBA5551
    1,  // L8
    1,  // A8
    2,  // LA8
    2,  // D16
    4,  // D24S8: depth in bits 0..23, stencil in 24..31
};

namespace detail {
inline float unorm(uint32_t v, uint32_t bits) {
  return static_cast<float>(v) / static_cast<float>((1u << bits) - 1u);
}
// c / 255 for every byte, correctly rounded as the division is: a load instead of a divide for
// the common 8-bit channels.
inline constexpr std::array<float, 256> kUnorm8 = [] {
  std::array<float, 256> t{};
  for (uint32_t v = 0; v < 256; ++v) t[v] = static_cast<float>(v) / 255.0f;
  return t;
}();
inline uint16_t load16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
}  // namespace detail

// Expands the texel at p. Packed 16-bit formats are little-endian with red in the high bits.
inline void decodeTexel(TexFormat f, const uint8_t* p, float out[4]) {
  using detail::kUnorm8;
  using detail::unorm;
  switch (f) {
    case TexFormat::RGBA8:
      out[0] = kUnorm8[p[0]], out[1] = kUnorm8[p[1]], out[2] = kUnorm8[p[2]],
      out[3] = kUnorm8[p[3]];
      return;
    case TexFormat::RGB8:
      out[0] = kUnorm8[p[0]], out[1] = kUnorm8[p[1]], out[2] = kUnorm8[p[2]], out[3] = 1.0f;
      return;
    case TexFormat::RGB565: {
      const uint32_t v = detail::load16(p);
      out[0] = unorm(v >> 11, 5), out[1] = unorm((v >> 5) & 63, 6), out[2] = unorm(v & 31, 5);
      out[3] = 1.0f;
      return;
    }
    case TexFormat::RGBA4444: {
      const uint32_t v = detail::load16(p);
      out[0] = unorm(v >> 12, 4), out[1] = unorm((v >> 8) & 15, 4);
      out[2] = unorm((v >> 4) & 15, 4), out[3] = unorm(v & 15, 4);
      return;
    }
    case TexFormat::RGBA5551: {
      const uint32_t v = detail::load16(p);
      out[0] = unorm(v >> 11, 5), out[1] = unorm((v >> 6) & 31, 5);
      out[2] = unorm((v >> 1) & 31, 5), out[3] = static_cast<float>(v & 1);
      return;
    }
    case TexFormat::L8:
      out[0] = out[1] = out[2] = kUnorm8[p[0]], out[3] = 1.0f;
      return;
    case TexFormat::A8:
      out[0] = out[1] = out[2] = 0.0f, out[3] = kUnorm8[p[0]];
      return;
    case TexFormat::LA8:
      out[0] = out[1] = out[2] = kUnorm8[p[0]], out[3] = kUnorm8[p[1]];
      return;
    case TexFormat::D16:
      out[0] = out[1] = out[2] = unorm(detail::load16(p), 16), out[3] = 1.0f;
      return;
    case TexFormat::D24S8: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      out[0] = out[1] = out[2] = unorm(v & 0xffffff, 24), out[3] = 1.0f;
      return;
    }
  }
  out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
}

}  // namespace tessera::gpu::tex
