#include "gpu/rb/color_format.h"

#include <cmath>
#include <cstring>

namespace tessera::gpu::rb {

uint32_t bytesPerPixel(ColorFormat f) {
  return layoutOf(f).bytes;
}

uint32_t channelBits(ColorFormat f, uint8_t writeMask) {
  const ColorLayout& l = layoutOf(f);
  uint32_t bits = 0;
  for (int c = 0; c < 4; ++c)
    if ((writeMask >> c) & 1) bits |= ((1u << l.bits[c]) - 1u) << l.shift[c];
  return bits;
}

uint8_t storedChannels(ColorFormat f) {
  const ColorLayout& l = layoutOf(f);
  uint8_t m = 0;
  for (int c = 0; c < 4; ++c)
    if (l.bits[c] != 0) m |= static_cast<uint8_t>(1u << c);
  return m;
}

void toRgba8(ColorFormat f, const uint8_t* stored, size_t pixels, uint8_t* rgba) {
  const ColorLayout& l = layoutOf(f);
  if (f == ColorFormat::RGBA8) {  // stored as R, G, B, A bytes already
    std::memcpy(rgba, stored, pixels * 4);
    return;
  }
  // Every value of each channel expanded to 8 bits (v * 255 / max, rounded) once per call, so
  // converting a frame is table lookups; an absent channel reads as 255.
  uint8_t expand[4][256];
  uint32_t mask[4];
  for (int c = 0; c < 4; ++c) {
    mask[c] = (1u << l.bits[c]) - 1u;
    for (uint32_t v = 0; v <= mask[c]; ++v)
      expand[c][v] =
          l.bits[c] == 0 ? 255 : static_cast<uint8_t>((v * 510 + mask[c]) / (2 * mask[c]));
  }
  for (size_t p = 0; p < pixels; ++p) {
    const uint32_t v = loadPixel(stored + p * l.bytes, l.bytes);
    for (int c = 0; c < 4; ++c) rgba[p * 4 + c] = expand[c][(v >> l.shift[c]) & mask[c]];
  }
}

}  // namespace tessera::gpu::rb
