#include "gpu/tex/compressed/etc.h"

#include <algorithm>
#include <array>

#include "gpu/tex/compressed/etc_tables.h"

namespace tessera::gpu::tex {
namespace {

using etc::kDistance;
using etc::kEacModifiers;
using etc::kIntensity;

uint64_t load64be(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}
uint32_t bits(uint64_t v, uint32_t lo, uint32_t count) {
  return static_cast<uint32_t>(v >> lo) & ((1u << count) - 1u);
}
int32_t signExtend3(uint32_t v) {
  return static_cast<int32_t>(v << 29) >> 29;
}
uint8_t clamp255(int32_t v) {
  return static_cast<uint8_t>(std::clamp(v, 0, 255));
}
uint8_t expand4(uint32_t v) {
  return static_cast<uint8_t>(v << 4 | v);
}
uint8_t expand5(uint32_t v) {
  return static_cast<uint8_t>(v << 3 | v >> 2);
}

// The 2-bit pixel index (msb << 1 | lsb) of texel (x, y): msbs in bits 16..31, lsbs in 0..15.
uint32_t pixelIndex(uint64_t v, uint32_t x, uint32_t y) {
  const uint32_t i = x * 4 + y;
  return bits(v, 16 + i, 1) << 1 | bits(v, i, 1);
}

Rgba8 rgb(int32_t r, int32_t g, int32_t b) {
  return {clamp255(r), clamp255(g), clamp255(b), 255};
}

// Individual and differential modes: two sub-blocks with a base colour and a modifier table.
Rgba8 decodeSubBlocks(uint64_t v, uint32_t x, uint32_t y, bool differential, bool opaque) {
  const bool flip = bits(v, 32, 1) != 0;
  const bool second = flip ? y >= 2 : x >= 2;
  uint8_t base[3];
  for (uint32_t c = 0; c < 3; ++c) {
    const uint32_t hi = 59 - 8 * c;  // R at 63..56, G at 55..48, B at 47..40
    if (differential) {
      const uint32_t b5 = bits(v, hi, 5);
      base[c] = expand5(
          second ? static_cast<uint32_t>(static_cast<int32_t>(b5) + signExtend3(bits(v, hi - 3, 3)))
                 : b5);
    } else {
      base[c] = expand4(second ? bits(v, hi - 3, 4) : bits(v, hi + 1, 4));
    }
  }
  const uint32_t table = bits(v, second ? 34 : 37, 3);
  const uint32_t index = pixelIndex(v, x, y);
  // Punch-through with the opaque bit clear: index 10 is transparent and 00 adds nothing
  // (Annex C.1.3).
  if (!opaque && index == 2) return {0, 0, 0, 0};
  int32_t m = kIntensity[table][index & 1];
  if (index & 2) m = -m;
  if (!opaque && index == 0) m = 0;
  return rgb(base[0] + m, base[1] + m, base[2] + m);
}

Rgba8 paint(const Rgba8& c, int32_t d) {
  return rgb(c.r + d, c.g + d, c.b + d);
}

Rgba8 decodeT(uint64_t v, uint32_t x, uint32_t y, bool opaque) {
  const Rgba8 c1 = {expand4(bits(v, 59, 2) << 2 | bits(v, 56, 2)), expand4(bits(v, 52, 4)),
                    expand4(bits(v, 48, 4)), 255};
  const Rgba8 c2 = {expand4(bits(v, 44, 4)), expand4(bits(v, 40, 4)), expand4(bits(v, 36, 4)), 255};
  const int32_t d = kDistance[bits(v, 34, 2) << 1 | bits(v, 32, 1)];
  const uint32_t index = pixelIndex(v, x, y);
  if (!opaque && index == 2) return {0, 0, 0, 0};
  switch (index) {
    case 0:
      return c1;
    case 1:
      return paint(c2, d);
    case 2:
      return c2;
    default:
      return paint(c2, -d);
  }
}

Rgba8 decodeH(uint64_t v, uint32_t x, uint32_t y, bool opaque) {
  const uint32_t r1 = bits(v, 59, 4), g1 = bits(v, 56, 3) << 1 | bits(v, 52, 1),
                 b1 = bits(v, 51, 1) << 3 | bits(v, 47, 3);
  const uint32_t r2 = bits(v, 43, 4), g2 = bits(v, 39, 4), b2 = bits(v, 35, 4);
  // The distance's lowest bit is implied by the order of the two base colours.
  const uint32_t order = (r1 << 8 | g1 << 4 | b1) >= (r2 << 8 | g2 << 4 | b2) ? 1 : 0;
  const int32_t d = kDistance[bits(v, 34, 1) << 2 | bits(v, 32, 1) << 1 | order];
  const Rgba8 c1 = {expand4(r1), expand4(g1), expand4(b1), 255};
  const Rgba8 c2 = {expand4(r2), expand4(g2), expand4(b2), 255};
  const uint32_t index = pixelIndex(v, x, y);
  if (!opaque && index == 2) return {0, 0, 0, 0};
  switch (index) {
    case 0:
      return paint(c1, d);
    case 1:
      return paint(c1, -d);
    case 2:
      return paint(c2, d);
    default:
      return paint(c2, -d);
  }
}

// Planar: three colours (origin, horizontal, vertical) extrapolated over the block.
Rgba8 decodePlanar(uint64_t v, uint32_t x, uint32_t y) {
  auto e6 = [](uint32_t c) { return static_cast<int32_t>(c << 2 | c >> 4); };
  auto e7 = [](uint32_t c) { return static_cast<int32_t>(c << 1 | c >> 6); };
  const int32_t o[3] = {e6(bits(v, 57, 6)), e7(bits(v, 56, 1) << 6 | bits(v, 49, 6)),
                        e6(bits(v, 48, 1) << 5 | bits(v, 43, 2) << 3 | bits(v, 39, 3))};
  const int32_t h[3] = {e6(bits(v, 34, 5) << 1 | bits(v, 32, 1)), e7(bits(v, 25, 7)),
                        e6(bits(v, 19, 6))};
  const int32_t w[3] = {e6(bits(v, 13, 6)), e7(bits(v, 6, 7)), e6(bits(v, 0, 6))};
  int32_t c[3];
  const auto xi = static_cast<int32_t>(x), yi = static_cast<int32_t>(y);
  for (int k = 0; k < 3; ++k) c[k] = (xi * (h[k] - o[k]) + yi * (w[k] - o[k]) + 4 * o[k] + 2) >> 2;
  return rgb(c[0], c[1], c[2]);
}

// A differential block's second base colour leaves 0..31 in one channel: T (red), H (green)
// or planar (blue) in ETC2.
bool overflows(uint64_t v, uint32_t hi) {
  const int32_t c = static_cast<int32_t>(bits(v, hi, 5)) + signExtend3(bits(v, hi - 3, 3));
  return c < 0 || c > 31;
}

// The mode of the block whose 64 bits are `v`.
EtcMode modeOf(uint64_t v, EtcVariant variant) {
  if (variant != EtcVariant::PunchThrough && bits(v, 33, 1) == 0) return EtcMode::Individual;
  if (variant == EtcVariant::Etc1) return EtcMode::Differential;
  if (overflows(v, 59)) return EtcMode::T;
  if (overflows(v, 51)) return EtcMode::H;
  if (overflows(v, 43)) return EtcMode::Planar;
  return EtcMode::Differential;
}

}  // namespace

EtcMode etcModeOf(const uint8_t* block, EtcVariant variant) {
  return modeOf(load64be(block), variant);
}

Rgba8 decodeEtcColor(const uint8_t* block, uint32_t x, uint32_t y, EtcVariant variant) {
  const uint64_t v = load64be(block);
  const bool opaque = variant != EtcVariant::PunchThrough || bits(v, 33, 1) != 0;
  switch (modeOf(v, variant)) {
    case EtcMode::Individual:
      return decodeSubBlocks(v, x, y, false, true);
    case EtcMode::Differential:
      return decodeSubBlocks(v, x, y, true, opaque);
    case EtcMode::T:
      return decodeT(v, x, y, opaque);
    case EtcMode::H:
      return decodeH(v, x, y, opaque);
    case EtcMode::Planar:
      return decodePlanar(v, x, y);  // always opaque
  }
  return {0, 0, 0, 0};
}

namespace {
// Base, multiplier, table and the texel's 3-bit index of an EAC block.
struct EacTexel {
  uint32_t base, multiplier;
  int32_t modifier;
};
EacTexel eacTexel(const uint8_t* block, uint32_t x, uint32_t y) {
  const uint64_t v = load64be(block);
  const uint32_t index = bits(v, 45 - 3 * (x * 4 + y), 3);
  return {bits(v, 56, 8), bits(v, 52, 4), kEacModifiers[bits(v, 48, 4)][index]};
}
}  // namespace

uint8_t decodeEacAlpha(const uint8_t* block, uint32_t x, uint32_t y) {
  const EacTexel t = eacTexel(block, x, y);
  return clamp255(static_cast<int32_t>(t.base) + t.modifier * static_cast<int32_t>(t.multiplier));
}

int32_t decodeEac11(const uint8_t* block, uint32_t x, uint32_t y, bool isSigned) {
  const EacTexel t = eacTexel(block, x, y);
  // A zero multiplier stands for 1/8: the modifier is added unscaled.
  const int32_t m =
      t.multiplier == 0 ? t.modifier : t.modifier * static_cast<int32_t>(t.multiplier) * 8;
  if (!isSigned) return std::clamp(static_cast<int32_t>(t.base) * 8 + 4 + m, 0, 2047);
  // The signed base is a two's complement byte; -128 reads as -127.
  const int32_t base = std::max<int32_t>(static_cast<int8_t>(t.base), -127);
  return std::clamp(base * 8 + m, -1023, 1023);
}

void decodeEtcTexelRaw(TexFormat f, const uint8_t* block, uint32_t x, uint32_t y, float raw[4]) {
  auto put = [&](const Rgba8& c) { raw[0] = c.r, raw[1] = c.g, raw[2] = c.b, raw[3] = c.a; };
  auto eac = [&](const uint8_t* b, bool isSigned) {
    return static_cast<float>(decodeEac11(b, x, y, isSigned));
  };
  switch (f) {
    case TexFormat::ETC1_RGB8:
      return put(decodeEtcColor(block, x, y, EtcVariant::Etc1));
    case TexFormat::ETC2_RGB8:
      return put(decodeEtcColor(block, x, y, EtcVariant::Etc2));
    case TexFormat::ETC2_RGB8A1:
      return put(decodeEtcColor(block, x, y, EtcVariant::PunchThrough));
    case TexFormat::ETC2_RGBA8: {
      Rgba8 c = decodeEtcColor(block + 8, x, y, EtcVariant::Etc2);
      c.a = decodeEacAlpha(block, x, y);
      return put(c);
    }
    case TexFormat::EAC_R11:
    case TexFormat::EAC_R11_SNORM:
      raw[0] = eac(block, f == TexFormat::EAC_R11_SNORM);
      raw[1] = raw[2] = 0.0f, raw[3] = 1.0f;
      return;
    case TexFormat::EAC_RG11:
    case TexFormat::EAC_RG11_SNORM:
      raw[0] = eac(block, f == TexFormat::EAC_RG11_SNORM);
      raw[1] = eac(block + 8, f == TexFormat::EAC_RG11_SNORM);
      raw[2] = 0.0f, raw[3] = 1.0f;
      return;
    default:
      raw[0] = raw[1] = raw[2] = 0.0f, raw[3] = 1.0f;
  }
}

std::array<float, 4> etcTexelScale(TexFormat f) {
  switch (f) {
    case TexFormat::EAC_R11:
      return {2047.0f, 1.0f, 1.0f, 1.0f};
    case TexFormat::EAC_R11_SNORM:
      return {1023.0f, 1.0f, 1.0f, 1.0f};
    case TexFormat::EAC_RG11:
      return {2047.0f, 2047.0f, 1.0f, 1.0f};
    case TexFormat::EAC_RG11_SNORM:
      return {1023.0f, 1023.0f, 1.0f, 1.0f};
    default:
      return {255.0f, 255.0f, 255.0f, 255.0f};
  }
}

void decodeEtcTexel(TexFormat f, const uint8_t* block, uint32_t x, uint32_t y, float out[4]) {
  decodeEtcTexelRaw(f, block, x, y, out);
  const std::array<float, 4> scale = etcTexelScale(f);
  for (int c = 0; c < 4; ++c) out[c] /= scale[c];
}

}  // namespace tessera::gpu::tex
