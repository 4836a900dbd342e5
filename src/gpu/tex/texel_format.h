// Texture unit (tex/): the storage block of every format and the unorm expansion of every texel
// format to RGBA float (GLES 2.0 §3.6.2 table 3.8 for the luminance/alpha formats, c / (2^n - 1)
// per channel); integer formats expand to the bit patterns of their int32/uint32 channel values.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>

#include "common/half_float.h"
#include "gpu/tex/compressed/astc.h"
#include "gpu/tex/compressed/etc.h"
#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

// Storage unit of every format, in TexFormat order: 1x1 blocks of the texel size for the
// uncompressed formats; ETC/EAC blocks are 4x4 texels in 8 bytes (16 with two sub-blocks) and
// ASTC blocks always 16 bytes whatever their footprint.
inline constexpr std::array<TexelBlock, kTexFormatCount> kTexelBlocks = {{
    {1, 1, 4},     // RGBA8
    {1, 1, 3},     // RGB8
    {1, 1, 2},     // RGB565
    {1, 1, 2},     // RGBA4444
    {1, 1, 2},     // RGBA5551
    {1, 1, 1},     // L8
    {1, 1, 1},     // A8
    {1, 1, 2},     // LA8
    {1, 1, 2},     // D16
    {1, 1, 4},     // D24S8: depth in bits 0..23, stencil in 24..31
    {1, 1, 1},     // R8I
    {1, 1, 1},     // R8UI
    {1, 1, 2},     // RG8I
    {1, 1, 2},     // RG8UI
    {1, 1, 4},     // RGBA8I
    {1, 1, 4},     // RGBA8UI
    {1, 1, 2},     // R16I
    {1, 1, 2},     // R16UI
    {1, 1, 8},     // RGBA16I
    {1, 1, 8},     // RGBA16UI
    {1, 1, 4},     // R32I
    {1, 1, 4},     // R32UI
    {1, 1, 16},    // RGBA32I
    {1, 1, 16},    // RGBA32UI
    {4, 4, 8},     // ETC1_RGB8
    {4, 4, 8},     // ETC2_RGB8
    {4, 4, 16},    // ETC2_RGBA8
    {4, 4, 8},     // ETC2_RGB8A1
    {4, 4, 8},     // EAC_R11
    {4, 4, 8},     // EAC_R11_SNORM
    {4, 4, 16},    // EAC_RG11
    {4, 4, 16},    // EAC_RG11_SNORM
    {4, 4, 16},    // ASTC_4x4
    {5, 4, 16},    // ASTC_5x4
    {5, 5, 16},    // ASTC_5x5
    {6, 5, 16},    // ASTC_6x5
    {6, 6, 16},    // ASTC_6x6
    {8, 5, 16},    // ASTC_8x5
    {8, 6, 16},    // ASTC_8x6
    {8, 8, 16},    // ASTC_8x8
    {10, 5, 16},   // ASTC_10x5
    {10, 6, 16},   // ASTC_10x6
    {10, 8, 16},   // ASTC_10x8
    {10, 10, 16},  // ASTC_10x10
    {12, 10, 16},  // ASTC_12x10
    {12, 12, 16},  // ASTC_12x12
    {1, 1, 8},     // RGBA16F
    {1, 1, 6},     // RGB16F
    {1, 1, 4},     // LA16F
    {1, 1, 2},     // L16F
    {1, 1, 2},     // A16F
    {1, 1, 16},    // RGBA32F
    {1, 1, 12},    // RGB32F
    {1, 1, 8},     // LA32F
    {1, 1, 4},     // L32F
    {1, 1, 4},     // A32F
}};

// Float formats: the GLES 2.0 base format (how channels map to RGBA, §3.6.2 Table 3.8) and the
// bytes per channel, in TexFormat order from RGBA16F.
enum class BaseFormat : uint8_t { Rgba, Rgb, LuminanceAlpha, Luminance, Alpha };
struct FloatLayout {
  BaseFormat base;
  uint8_t channelBytes;  // 2: IEEE half, 4: IEEE single
};
inline constexpr std::array<FloatLayout, 10> kFloatLayouts = {{
    {BaseFormat::Rgba, 2},
    {BaseFormat::Rgb, 2},
    {BaseFormat::LuminanceAlpha, 2},
    {BaseFormat::Luminance, 2},
    {BaseFormat::Alpha, 2},
    {BaseFormat::Rgba, 4},
    {BaseFormat::Rgb, 4},
    {BaseFormat::LuminanceAlpha, 4},
    {BaseFormat::Luminance, 4},
    {BaseFormat::Alpha, 4},
}};

// Integer formats: channels per texel, bits per channel and signedness, in TexFormat order
// from R8I. Channels are little-endian, red first.
struct IntegerLayout {
  uint8_t channels, bits;
  bool isSigned;
};
inline constexpr std::array<IntegerLayout, 14> kIntegerLayouts = {{
    {1, 8, true},    // R8I
    {1, 8, false},   // R8UI
    {2, 8, true},    // RG8I
    {2, 8, false},   // RG8UI
    {4, 8, true},    // RGBA8I
    {4, 8, false},   // RGBA8UI
    {1, 16, true},   // R16I
    {1, 16, false},  // R16UI
    {4, 16, true},   // RGBA16I
    {4, 16, false},  // RGBA16UI
    {1, 32, true},   // R32I
    {1, 32, false},  // R32UI
    {4, 32, true},   // RGBA32I
    {4, 32, false},  // RGBA32UI
}};

namespace detail {
inline uint16_t load16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
// Channel c of an integer texel as the 32 bits the shader reads (sign-extended for signed).
inline uint32_t integerChannel(const IntegerLayout& f, const uint8_t* p, uint32_t c) {
  switch (f.bits) {
    case 8:
      return f.isSigned ? static_cast<uint32_t>(int32_t{static_cast<int8_t>(p[c])}) : p[c];
    case 16: {
      const uint16_t v = load16(p + 2 * c);
      return f.isSigned ? static_cast<uint32_t>(int32_t{static_cast<int16_t>(v)}) : v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, p + 4 * c, 4);
      return v;
    }
  }
}
inline float floatChannel(const FloatLayout& f, const uint8_t* p, uint32_t c) {
  if (f.channelBytes == 2) return tessera::halfToFloat(load16(p + 2 * c));
  float v;
  std::memcpy(&v, p + 4 * c, 4);
  return v;
}
}  // namespace detail

// The GLES 2 colour formats (RGBA8 to LA8) and the depth formats read as one little-endian word
// per texel: for each of R, G, B, A the shift and width of its field, expanded as
// c / (2^bits - 1); width 0 is a constant channel. A depth texture reads as (d, d, d, 1)
// (OES_depth_texture), D24S8's stencil bits outside the field. One table for decodeTexel, the
// general filter and the quad kernels.
struct PackedField {
  uint8_t shift, bits;
  float constant;
};
using PackedLayout = std::array<PackedField, 4>;
// The GLES 2 colour formats of kPackedLayouts (RGBA8 to LA8).
constexpr bool isPackedColorFormat(TexFormat f) {
  return f <= TexFormat::LA8;
}
inline constexpr std::array<PackedLayout, 10> kPackedLayouts = [] {
  constexpr PackedField zero{0, 0, 0.0f}, one{0, 0, 1.0f};
  constexpr PackedField r8{0, 8, 0}, g8{8, 8, 0}, b8{16, 8, 0}, a8{24, 8, 0};
  constexpr PackedField d16{0, 16, 0}, d24{0, 24, 0};
  return std::array<PackedLayout, 10>{{
      {{r8, g8, b8, a8}},                               // RGBA8
      {{r8, g8, b8, one}},                              // RGB8
      {{{11, 5, 0}, {5, 6, 0}, {0, 5, 0}, one}},        // RGB565: red in the high bits
      {{{12, 4, 0}, {8, 4, 0}, {4, 4, 0}, {0, 4, 0}}},  // RGBA4444
      {{{11, 5, 0}, {6, 5, 0}, {1, 5, 0}, {0, 1, 0}}},  // RGBA5551
      {{r8, r8, r8, one}},                              // L8: luminance to R, G, B
      {{zero, zero, zero, r8}},                         // A8
      {{r8, r8, r8, g8}},                               // LA8
      {{d16, d16, d16, one}},                           // D16
      {{d24, d24, d24, one}},                           // D24S8: stencil in bits 24..31
  }};
}();
static_assert(static_cast<size_t>(TexFormat::D24S8) + 1 == kPackedLayouts.size());
// Whether a format's texels are filtered as the integers they store and each channel of the sum
// expanded once, as a texture unit filters unorm texels in fixed point (the packed colour formats,
// ETC/EAC, ASTC). A depth texture's texels are expanded first and then filtered: a comparison
// replaces each expanded texel before the weights apply (OpenGL ES 3.0 §3.8.16). The general
// filter and the quad kernels both order their arithmetic by this.
constexpr bool filtersStoredIntegers(TexFormat f) {
  return isPackedColorFormat(f) || isCompressedFormat(f);
}
// What a field's stored integer is divided by to expand it (1 for a constant channel).
constexpr float fieldScale(const PackedField& f) {
  return f.bits == 0 ? 1.0f : static_cast<float>((1u << f.bits) - 1u);
}

// The texel at p as its word (3-byte texels are read byte by byte: the last texel of a buffer
// has no fourth byte).
template <TexFormat F>
__attribute__((always_inline)) inline uint32_t loadPackedWord(const uint8_t* p) {
  constexpr uint32_t bytes = kTexelBlocks[static_cast<size_t>(F)].bytes;
  if constexpr (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  } else if constexpr (bytes == 3) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16;
  } else if constexpr (bytes == 2) {
    return detail::load16(p);
  } else {
    return p[0];
  }
}

// Each channel's stored integer (a constant channel: its value), to be divided by fieldScale.
template <TexFormat F>
__attribute__((always_inline)) inline void rawChannels(uint32_t word, float raw[4]) {
  constexpr PackedLayout layout = kPackedLayouts[static_cast<size_t>(F)];
  for (int ch = 0; ch < 4; ++ch) {
    const PackedField f = layout[ch];
    raw[ch] =
        f.bits == 0 ? f.constant : static_cast<float>((word >> f.shift) & ((1u << f.bits) - 1u));
  }
}

// Expands the texel at p of a format of kPackedLayouts.
template <TexFormat F>
__attribute__((always_inline)) inline void decodePacked(const uint8_t* p, float out[4]) {
  rawChannels<F>(loadPackedWord<F>(p), out);
  for (int ch = 0; ch < 4; ++ch) out[ch] /= fieldScale(kPackedLayouts[static_cast<size_t>(F)][ch]);
}

// Expands the texel at p. Packed 16-bit formats are little-endian with red in the high bits.
// Always inlined: the filters call it with a constant format, which folds the switch away.
__attribute__((always_inline)) inline void decodeTexel(TexFormat f, const uint8_t* p,
                                                       float out[4]) {
  switch (f) {
    case TexFormat::RGBA8:
      return decodePacked<TexFormat::RGBA8>(p, out);
    case TexFormat::RGB8:
      return decodePacked<TexFormat::RGB8>(p, out);
    case TexFormat::RGB565:
      return decodePacked<TexFormat::RGB565>(p, out);
    case TexFormat::RGBA4444:
      return decodePacked<TexFormat::RGBA4444>(p, out);
    case TexFormat::RGBA5551:
      return decodePacked<TexFormat::RGBA5551>(p, out);
    case TexFormat::L8:
      return decodePacked<TexFormat::L8>(p, out);
    case TexFormat::A8:
      return decodePacked<TexFormat::A8>(p, out);
    case TexFormat::LA8:
      return decodePacked<TexFormat::LA8>(p, out);
    case TexFormat::D16:
      return decodePacked<TexFormat::D16>(p, out);
    case TexFormat::D24S8:
      return decodePacked<TexFormat::D24S8>(p, out);
    default:
      break;
  }
  if (isIntegerFormat(f)) {
    const IntegerLayout& layout =
        kIntegerLayouts[static_cast<size_t>(f) - static_cast<size_t>(TexFormat::R8I)];
    uint32_t v[4] = {0, 0, 0, 1};  // OpenGL ES 3.0 Table 3.24: missing G, B are 0, A is 1
    for (uint32_t c = 0; c < layout.channels; ++c) v[c] = detail::integerChannel(layout, p, c);
    for (int c = 0; c < 4; ++c) std::memcpy(&out[c], &v[c], 4);
    return;
  }
  if (isFloatFormat(f)) {
    const FloatLayout& layout =
        kFloatLayouts[static_cast<size_t>(f) - static_cast<size_t>(TexFormat::RGBA16F)];
    // Table 3.8: luminance is replicated to R, G, B; missing alpha is 1, missing colour 0.
    switch (layout.base) {
      case BaseFormat::Rgba:
        for (uint32_t c = 0; c < 4; ++c) out[c] = detail::floatChannel(layout, p, c);
        return;
      case BaseFormat::Rgb:
        for (uint32_t c = 0; c < 3; ++c) out[c] = detail::floatChannel(layout, p, c);
        out[3] = 1.0f;
        return;
      case BaseFormat::LuminanceAlpha:
        out[0] = out[1] = out[2] = detail::floatChannel(layout, p, 0);
        out[3] = detail::floatChannel(layout, p, 1);
        return;
      case BaseFormat::Luminance:
        out[0] = out[1] = out[2] = detail::floatChannel(layout, p, 0), out[3] = 1.0f;
        return;
      case BaseFormat::Alpha:
        out[0] = out[1] = out[2] = 0.0f, out[3] = detail::floatChannel(layout, p, 0);
        return;
    }
  }
  out[0] = out[1] = out[2] = 0.0f, out[3] = 1.0f;
}

// Texel (x, y) of the compressed block at `block` (x, y within the block's footprint) as the
// integers it stores, and what each channel is divided by to expand it.
inline void decodeBlockTexelRaw(TexFormat f, const uint8_t* block, uint32_t x, uint32_t y,
                                float raw[4]) {
  if (isEtcFormat(f)) return decodeEtcTexelRaw(f, block, x, y, raw);
  const TexelBlock b = kTexelBlocks[static_cast<size_t>(f)];
  decodeAstcTexelRaw(b.width, b.height, block, x, y, raw);
}
inline std::array<float, 4> blockTexelScale(TexFormat f) {
  return isEtcFormat(f) ? etcTexelScale(f)
                        : std::array<float, 4>{65535.0f, 65535.0f, 65535.0f, 65535.0f};
}
// The same texel expanded.
inline void decodeBlockTexel(TexFormat f, const uint8_t* block, uint32_t x, uint32_t y,
                             float out[4]) {
  decodeBlockTexelRaw(f, block, x, y, out);
  const std::array<float, 4> scale = blockTexelScale(f);
  for (int c = 0; c < 4; ++c) out[c] /= scale[c];
}

}  // namespace tessera::gpu::tex
