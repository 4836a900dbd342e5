// Texture unit (tex/): ASTC's bounded integer sequence encoding (ISE) and the quantization
// ranges it encodes, shared by the colour endpoint and weight decoders.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::gpu::tex::astc {

// The 21 ranges in the specification's order: values are m bits with an optional trit or quint
// on top (range 0 is 2 levels, 20 is 256).
struct IseRange {
  uint8_t bits, trits, quints;
  uint32_t levels() const { return (1u << bits) * (trits ? 3u : quints ? 5u : 1u); }
};
inline constexpr std::array<IseRange, 21> kIseRanges = {{
    {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {0, 0, 1}, {1, 1, 0}, {3, 0, 0}, {1, 0, 1},
    {2, 1, 0}, {4, 0, 0}, {2, 0, 1}, {3, 1, 0}, {5, 0, 0}, {3, 0, 1}, {4, 1, 0},
    {6, 0, 0}, {4, 0, 1}, {5, 1, 0}, {7, 0, 0}, {5, 0, 1}, {6, 1, 0}, {8, 0, 0},
}};

// Bits an ISE stream of `count` values of range `range` occupies.
constexpr uint32_t iseBits(uint32_t count, uint32_t range) {
  const IseRange& r = kIseRanges[range];
  return count * r.bits + (r.trits ? (8 * count + 4) / 5 : 0) +
         (r.quints ? (7 * count + 2) / 3 : 0);
}

// A 128-bit block read as a little-endian bit string; bits at or beyond `limit` read as 0.
struct BitSource {
  std::array<uint8_t, 16> bytes;
  uint32_t limit = 128;
  uint32_t read(uint32_t pos, uint32_t count) const {
    uint32_t v = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t b = pos + i;
      if (b < limit) v |= static_cast<uint32_t>(bytes[b >> 3] >> (b & 7) & 1) << i;
    }
    return v;
  }
};

// Decodes `count` values of `range` starting at bit `start` (at most 64 values).
void decodeIse(const BitSource&, uint32_t start, uint32_t count, uint32_t range, uint8_t* out);

// Unquantization of a value of `range` to a colour endpoint (0..255) or a weight (0..64).
uint8_t unquantizeColor(uint32_t value, uint32_t range);
uint8_t unquantizeWeight(uint32_t value, uint32_t range);

}  // namespace tessera::gpu::tex::astc
