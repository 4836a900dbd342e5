// Render backend (rb/): colour-buffer pixel formats as one table of channel widths and bit
// positions, from which packing, unpacking and per-channel write masks all derive.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/unorm_divide.h"
#include "gpu/rb/rb_state.h"

namespace tessera::gpu::rb {

static_assert(std::endian::native == std::endian::little, "pixels are stored little-endian");

struct ColorLayout {
  uint8_t bytes;
  uint8_t bits[4];   // R, G, B, A; 0 = channel absent (reads as 1)
  uint8_t shift[4];  // bit position in the little-endian pixel word
};

// RGBA8 is bytes R,G,B,A, i.e. R in the low byte of the word; the 16-bit formats follow
// GL_UNSIGNED_SHORT_5_6_5 / 4_4_4_4 / 5_5_5_1 with red in the high bits.
inline constexpr std::array<ColorLayout, 4> kColorLayouts = {{
    {4, {8, 8, 8, 8}, {0, 8, 16, 24}},  // RGBA8
    {2, {5, 6, 5, 0}, {11, 5, 0, 0}},   // RGB565
    {2, {4, 4, 4, 4}, {12, 8, 4, 0}},   // RGBA4444
    {2, {5, 5, 5, 1}, {11, 6, 1, 0}},   // RGBA5551
}};

constexpr bool channelsFitAByte() {
  for (const ColorLayout& l : kColorLayouts)
    for (uint8_t b : l.bits)
      if (b > 8) return false;
  return true;
}
static_assert(channelsFitAByte(), "toRgba8 expands channels of at most 8 bits by table");

inline const ColorLayout& layoutOf(ColorFormat f) {
  return kColorLayouts[static_cast<size_t>(f)];
}

// Pixels are 2 or 4 bytes (the table above); fixed-size copies compile to single loads and stores.
inline uint32_t loadPixel(const uint8_t* p, uint32_t bytes) {
  if (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline void storePixel(uint8_t* p, uint32_t bytes, uint32_t v) {
  if (bytes == 4) {
    std::memcpy(p, &v, 4);
    return;
  }
  const auto h = static_cast<uint16_t>(v);
  std::memcpy(p, &h, 2);
}

// Writes `value` (its low `bytes`, 2 or 4) to every pixel of the half-open rectangle: a clear
// that replaces whole pixels. The loops index in size_t with a constant pixel size, so that the
// compiler turns them into vector stores.
inline void fillRect(SurfaceView v, int x0, int y0, int x1, int y1, uint32_t bytes,
                     uint32_t value) {
  const auto n = static_cast<size_t>(x1 - x0);
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = v.pixel(x0, y, bytes);
    if (bytes == 4) {
      for (size_t x = 0; x < n; ++x) std::memcpy(row + 4 * x, &value, 4);
    } else {
      const auto h = static_cast<uint16_t>(value);
      for (size_t x = 0; x < n; ++x) std::memcpy(row + 2 * x, &h, 2);
    }
  }
}

// A format's channels as the per-pixel paths use them: scales and positions read from the layout
// table once (per draw or clear), so packing a pixel is a few multiplies and shifts.
class PixelCodec {
 public:
  explicit PixelCodec(ColorFormat f) {
    const ColorLayout& l = layoutOf(f);
    bytePerChannel_ = true;
    for (int c = 0; c < 4; ++c) {
      mask_[c] = (1u << l.bits[c]) - 1u;
      max_[c] = static_cast<float>(mask_[c]);
      shift_[c] = l.shift[c];
      divisor_[c] = mask_[c] != 0 ? max_[c] : 1.0f;
      reciprocal_[c] = 1.0 / static_cast<double>(divisor_[c]);
      absent_[c] = mask_[c] != 0 ? 0.0f : 1.0f;
      bytePerChannel_ = bytePerChannel_ && l.bits[c] == 8 && l.shift[c] == 8 * c;
    }
  }
  // Float [0,1] (already clamped) to unorm: floor(c * (2^n - 1) + 0.5) per channel. An absent
  // channel has scale 0 and adds nothing (0.5 and NaN both convert to 0).
  uint32_t pack(const float rgba[4]) const {
    uint32_t v = 0;
    for (int c = 0; c < 4; ++c) {
      // Round to nearest: the value is in [0, 1], so truncating x + 1/2 is floor(x + 1/2).
      const float scaled = rgba[c] * max_[c] + 0.5f;
      v |= (scaled > 0.0f ? static_cast<uint32_t>(scaled) : 0u) << shift_[c];
    }
    return v;
  }
  // An absent channel reads as 1: 0 / 1 + 1. A present one adds +0, which changes no value, so
  // the four channels are one branch-free expression, a vector divide.
  void unpack(uint32_t pixel, float rgba[4]) const {
#if defined(__SSE2__)
    _mm_storeu_ps(rgba, unpack4(pixel));
#else
    for (int c = 0; c < 4; ++c)
      rgba[c] = static_cast<float>((pixel >> shift_[c]) & mask_[c]) / divisor_[c] + absent_[c];
#endif
  }

#if defined(__SSE2__)
  // The same with the channels in one register; the division is divideUnorm4's multiplication,
  // which gives its quotient to the bit.
  __m128 unpack4(uint32_t pixel) const {
    int32_t v[4];
    for (int c = 0; c < 4; ++c) v[c] = static_cast<int32_t>((pixel >> shift_[c]) & mask_[c]);
    return expand4(_mm_setr_epi32(v[0], v[1], v[2], v[3]));
  }
  // unpack4 of channels already taken apart (one integer per lane, R to A).
  __m128 expand4(__m128i channels) const {
    const __m128 q = divideUnorm4(_mm_cvtepi32_ps(channels), reciprocal_);
    return _mm_add_ps(q, _mm_loadu_ps(absent_));
  }
  // pack() of the channels in one register. A format of four bytes R, G, B, A (RGBA8) narrows
  // the four truncated values to bytes at once; every value is in [0, 255], so saturation never
  // changes one. The others pack channel by channel.
  uint32_t pack4(__m128 rgba) const {
    if (!bytePerChannel_) {
      alignas(16) float c[4];
      _mm_store_ps(c, rgba);
      return pack(c);
    }
    const __m128i words = _mm_packs_epi32(quantize4(rgba), _mm_setzero_si128());
    return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(words, words)));
  }
  // pack()'s rounded channel values, one per lane, before they are shifted into place.
  __m128i quantize4(__m128 rgba) const {
    const __m128 scaled = _mm_add_ps(_mm_mul_ps(rgba, _mm_loadu_ps(max_)), _mm_set1_ps(0.5f));
    return _mm_and_si128(_mm_cvttps_epi32(scaled),
                         _mm_castps_si128(_mm_cmpgt_ps(scaled, _mm_setzero_ps())));
  }
#endif
  // Channel c is byte c of the pixel (RGBA8).
  bool bytePerChannel() const {
    return bytePerChannel_;
  }

 private:
  float max_[4], divisor_[4], absent_[4];
  double reciprocal_[4];  // 1 / divisor_, for divideUnorm4
  uint32_t mask_[4], shift_[4];
  bool bytePerChannel_;  // RGBA8: channel c is byte c
};

// Memory bits of the channels selected by a colorWriteMask (bit0 R .. bit3 A).
uint32_t channelBits(ColorFormat, uint8_t writeMask);
// Channels the format stores, as a colorWriteMask.
uint8_t storedChannels(ColorFormat);

inline uint32_t packColor(ColorFormat f, const float rgba[4]) {
  return PixelCodec(f).pack(rgba);
}
inline void unpackColor(ColorFormat f, uint32_t pixel, float rgba[4]) {
  PixelCodec(f).unpack(pixel, rgba);
}
// `pixels` stored pixels as 8-bit RGBA: a channel c of n bits reads round(c * 255 / (2^n - 1)),
// an absent one 255 (how glReadPixels and presentation see a colour buffer).
void toRgba8(ColorFormat, const uint8_t* stored, size_t pixels, uint8_t* rgba);

}  // namespace tessera::gpu::rb
