#include "texdecode/block_gen.h"

#include <algorithm>

namespace tessera::texdecode {
namespace {

uint64_t random64(std::mt19937& rng) {
  return uint64_t{rng()} << 32 | rng();
}
Block8 store64be(uint64_t v) {
  Block8 b{};
  for (int i = 0; i < 8; ++i) b[static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (56 - 8 * i));
  return b;
}
void put(uint64_t& v, uint32_t lo, uint32_t count, uint64_t value) {
  const uint64_t mask = ((uint64_t{1} << count) - 1) << lo;
  v = (v & ~mask) | ((value << lo) & mask);
}

// A 5-bit base and 3-bit signed delta whose sum stays in 0..31 (or leaves it).
void baseAndDelta(std::mt19937& rng, bool overflow, uint32_t& base, uint32_t& delta) {
  for (;;) {
    base = rng() % 32, delta = rng() % 8;
    const int32_t d = delta >= 4 ? static_cast<int32_t>(delta) - 8 : static_cast<int32_t>(delta);
    const int32_t sum = static_cast<int32_t>(base) + d;
    if ((sum < 0 || sum > 31) == overflow) return;
  }
}

}  // namespace

Block8 makeEtcBlock(std::mt19937& rng, EtcBlockKind kind, bool bit33) {
  uint64_t v = random64(rng);
  if (kind == EtcBlockKind::Random) return store64be(v);
  put(v, 33, 1, kind == EtcBlockKind::Individual ? 0 : (bit33 ? 1 : 0));
  if (kind == EtcBlockKind::Individual) return store64be(v);
  // Differential colours: R at 63..56, G at 55..48, B at 47..40; the first one that overflows
  // picks T (red), H (green) or planar (blue).
  const int overflowChannel = kind == EtcBlockKind::T        ? 0
                              : kind == EtcBlockKind::H      ? 1
                              : kind == EtcBlockKind::Planar ? 2
                                                             : 3;
  for (int c = 0; c < 3; ++c) {
    uint32_t base, delta;
    baseAndDelta(rng, c == overflowChannel, base, delta);
    const auto hi = static_cast<uint32_t>(59 - 8 * c);
    put(v, hi, 5, base);
    put(v, hi - 3, 3, delta);
    if (c == overflowChannel) break;  // later channels are free bits of the mode
  }
  return store64be(v);
}

Block8 makeEacBlock(std::mt19937& rng, int table, int multiplier) {
  uint64_t v = random64(rng);
  if (table >= 0) put(v, 48, 4, static_cast<uint64_t>(table));
  if (multiplier >= 0) put(v, 52, 4, static_cast<uint64_t>(multiplier));
  return store64be(v);
}

uint32_t astcIseBits(uint32_t count, uint32_t range) {
  // {bits, trits, quints} of the 21 ranges.
  static constexpr uint8_t kRanges[21][3] = {
      {1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {0, 0, 1}, {1, 1, 0}, {3, 0, 0}, {1, 0, 1},
      {2, 1, 0}, {4, 0, 0}, {2, 0, 1}, {3, 1, 0}, {5, 0, 0}, {3, 0, 1}, {4, 1, 0},
      {6, 0, 0}, {4, 0, 1}, {5, 1, 0}, {7, 0, 0}, {5, 0, 1}, {6, 1, 0}, {8, 0, 0}};
  const uint8_t* r = kRanges[range];
  return count * r[0] + (r[1] ? (8 * count + 4) / 5 : 0) + (r[2] ? (7 * count + 2) / 3 : 0);
}

namespace {

constexpr uint32_t kLdrModes[] = {0, 1, 4, 5, 6, 8, 9, 10, 12, 13};

// The bit budget of a parameter set: weight bits, extra CEM bits, colour bits available.
struct Budget {
  uint32_t weightBits, extraCem, colourBits, values;
};
Budget budget(const AstcParams& p) {
  Budget b{};
  const uint32_t count = p.gridW * p.gridH * (p.dualPlane ? 2 : 1);
  b.weightBits = astcIseBits(count, p.weightRange);
  const bool sameCem = std::all_of(p.cem.begin(), p.cem.begin() + p.partitions,
                                   [&](uint32_t c) { return c == p.cem[0]; });
  b.extraCem = p.partitions > 1 && !sameCem ? 3 * p.partitions - 4 : 0;
  const uint32_t start = p.partitions == 1 ? 17 : 29;
  const int32_t end = 128 - static_cast<int32_t>(b.weightBits + b.extraCem) - (p.dualPlane ? 2 : 0);
  b.colourBits = end > static_cast<int32_t>(start) ? static_cast<uint32_t>(end) - start : 0;
  for (uint32_t i = 0; i < p.partitions; ++i) b.values += (p.cem[i] / 4 + 1) * 2;
  return b;
}

// The 11-bit block mode of a grid, or -1 when no layout holds it.
int32_t blockMode(const AstcParams& p) {
  const uint32_t r = p.weightRange % 6 + 2, h = p.weightRange / 6, d = p.dualPlane ? 1 : 0;
  const uint32_t w = p.gridW, g = p.gridH;
  const uint32_t r0 = r & 1, r1 = r >> 1 & 1, r2 = r >> 2 & 1;
  const uint32_t high = d << 10 | h << 9;
  // Layouts with R in bits 0, 1 (and 4).
  const uint32_t lowR = r0 << 4 | r2 << 1 | r1;
  if (w >= 4 && w <= 7 && g >= 2 && g <= 5)
    return static_cast<int32_t>(high | (w - 4) << 7 | (g - 2) << 5 | lowR);
  if (w >= 8 && w <= 11 && g >= 2 && g <= 5)
    return static_cast<int32_t>(high | (w - 8) << 7 | (g - 2) << 5 | 1 << 2 | lowR);
  if (w >= 2 && w <= 5 && g >= 8 && g <= 11)
    return static_cast<int32_t>(high | (g - 8) << 7 | (w - 2) << 5 | 2 << 2 | lowR);
  if (w >= 2 && w <= 5 && g >= 6 && g <= 7)
    return static_cast<int32_t>(high | (g - 6) << 7 | (w - 2) << 5 | 3 << 2 | lowR);
  if (w >= 2 && w <= 3 && g >= 2 && g <= 5)
    return static_cast<int32_t>(high | 1 << 8 | (w - 2) << 7 | (g - 2) << 5 | 3 << 2 | lowR);
  // Layouts with R in bits 2, 3 (and 4), bits 0, 1 zero.
  const uint32_t midR = r0 << 4 | r2 << 3 | r1 << 2;
  if (w == 12 && g >= 2 && g <= 5) return static_cast<int32_t>(high | (g - 2) << 5 | midR);
  if (g == 12 && w >= 2 && w <= 5) return static_cast<int32_t>(high | 1 << 7 | (w - 2) << 5 | midR);
  if (w == 6 && g == 10) return static_cast<int32_t>(high | 3 << 7 | midR);
  if (w == 10 && g == 6) return static_cast<int32_t>(high | 3 << 7 | 1 << 5 | midR);
  if (d == 0 && h == 0 && w >= 6 && w <= 9 && g >= 6 && g <= 9)
    return static_cast<int32_t>((g - 6) << 9 | 2 << 7 | (w - 6) << 5 | midR);
  return -1;
}

void setBits(Block16& b, uint32_t lo, uint32_t count, uint32_t value) {
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t bit = lo + i;
    const auto byte = static_cast<size_t>(bit >> 3);
    const auto mask = static_cast<uint8_t>(1u << (bit & 7));
    b[byte] = static_cast<uint8_t>((value >> i & 1) ? (b[byte] | mask) : (b[byte] & ~mask));
  }
}

}  // namespace

AstcParams randomAstcParams(std::mt19937& rng, uint32_t bw, uint32_t bh) {
  for (;;) {
    AstcParams p{};
    p.gridW = 2 + rng() % (bw - 1);
    p.gridH = 2 + rng() % (bh - 1);
    p.weightRange = rng() % 12;
    p.dualPlane = rng() % 4 == 0;
    p.partitions = 1 + rng() % 4;
    if (p.dualPlane && p.partitions == 4) continue;
    // Partitions share a class pair in the encoding: modes of classes c and c + 1 only.
    const uint32_t first = kLdrModes[rng() % std::size(kLdrModes)];
    const bool same = rng() % 2 == 0;
    for (uint32_t i = 0; i < p.partitions; ++i) {
      uint32_t m = first;
      if (!same && i > 0) {
        for (;;) {
          m = kLdrModes[rng() % std::size(kLdrModes)];
          const uint32_t lo = std::min(m / 4, first / 4), hi = std::max(m / 4, first / 4);
          if (hi - lo <= 1) break;
        }
      }
      p.cem[i] = m;
    }
    // All partitions' classes must be c or c + 1 with c the smallest.
    uint32_t minClass = 3, maxClass = 0;
    for (uint32_t i = 0; i < p.partitions; ++i)
      minClass = std::min(minClass, p.cem[i] / 4), maxClass = std::max(maxClass, p.cem[i] / 4);
    if (maxClass - minClass > 1) continue;
    if (p.gridW * p.gridH * (p.dualPlane ? 2 : 1) > 64 || blockMode(p) < 0) continue;
    const Budget b = budget(p);
    if (b.weightBits < 24 || b.weightBits > 96 || b.values > 18) continue;
    if (b.colourBits < (13 * b.values + 4) / 5) continue;  // the 6-level range must fit
    return p;
  }
}

Block16 makeAstcBlock(std::mt19937& rng, const AstcParams& p) {
  Block16 b{};
  for (auto& byte : b) byte = static_cast<uint8_t>(rng());
  setBits(b, 0, 11, static_cast<uint32_t>(blockMode(p)));
  setBits(b, 11, 2, p.partitions - 1);
  const Budget bud = budget(p);
  if (p.partitions == 1) {
    setBits(b, 13, 4, p.cem[0]);
  } else if (bud.extraCem == 0) {
    setBits(b, 23, 2, 0);
    setBits(b, 25, 4, p.cem[0]);
  } else {
    uint32_t minClass = 3;
    for (uint32_t i = 0; i < p.partitions; ++i) minClass = std::min(minClass, p.cem[i] / 4);
    minClass = std::min(minClass, 2u);  // the base class is 0..2; class 3 is base 2 plus one
    uint32_t field = 0;                 // C bits, then M bits
    for (uint32_t i = 0; i < p.partitions; ++i) {
      field |= (p.cem[i] / 4 - minClass) << i;
      field |= (p.cem[i] % 4) << (p.partitions + 2 * i);
    }
    setBits(b, 23, 2, minClass + 1);
    setBits(b, 25, 4, field & 15);
    setBits(b, 128 - bud.weightBits - bud.extraCem, bud.extraCem, field >> 4);
  }
  return b;
}

Block16 makeAstcVoidExtent(uint16_t r, uint16_t g, uint16_t bl, uint16_t a) {
  Block16 b{};
  setBits(b, 0, 12, 0xdfc);  // void extent, LDR, reserved bits set
  for (uint32_t i = 0; i < 4; ++i) setBits(b, 12 + 13 * i, 13, 0x1fff);
  const uint16_t c[4] = {r, g, bl, a};
  for (uint32_t i = 0; i < 4; ++i) setBits(b, 64 + 16 * i, 16, c[i]);
  return b;
}

}  // namespace tessera::texdecode
