#include "gpu/tex/compressed/astc.h"

#include <algorithm>
#include <cstring>

#include "gpu/tex/compressed/astc_ise.h"

namespace tessera::gpu::tex {
namespace {

using astc::BitSource;
using astc::iseBits;

// The weight grid and precision a block mode (bits 0..10) selects.
struct BlockMode {
  bool valid = false;
  uint32_t width = 0, height = 0, range = 0;  // weight ISE range 0..11
  bool dualPlane = false;
};

// The specification's 2D block mode table. R (3 bits, 2..7) and the high-precision bit H pick
// the weight range; A and B size the grid.
BlockMode decodeBlockMode(uint32_t m) {
  auto b = [m](uint32_t i) { return m >> i & 1; };
  BlockMode bm;
  uint32_t r;
  const uint32_t a = m >> 5 & 3;
  bool highPrecision = b(9) != 0;
  bm.dualPlane = b(10) != 0;
  if ((m & 3) != 0) {
    r = b(1) << 2 | b(0) << 1 | b(4);
    const uint32_t bb = m >> 7 & 3;
    switch (m >> 2 & 3) {
      case 0:
        bm.width = bb + 4, bm.height = a + 2;
        break;
      case 1:
        bm.width = bb + 8, bm.height = a + 2;
        break;
      case 2:
        bm.width = a + 2, bm.height = bb + 8;
        break;
      default:
        if (b(8) == 0)
          bm.width = a + 2, bm.height = b(7) + 6;
        else
          bm.width = b(7) + 2, bm.height = a + 2;
        break;
    }
  } else {
    r = b(3) << 2 | b(2) << 1 | b(4);
    if ((m & 0xf) == 0) return bm;  // reserved (the void extent is tested before)
    switch (m >> 7 & 3) {
      case 0:
        bm.width = 12, bm.height = a + 2;
        break;
      case 1:
        bm.width = a + 2, bm.height = 12;
        break;
      case 2:
        bm.width = a + 6, bm.height = (m >> 9 & 3) + 6;
        highPrecision = false, bm.dualPlane = false;  // bits 9, 10 are part of B
        break;
      default:
        if (a == 0)
          bm.width = 6, bm.height = 10;
        else if (a == 1)
          bm.width = 10, bm.height = 6;
        else
          return bm;  // reserved
        break;
    }
  }
  if (r < 2) return bm;
  bm.range = (r - 2) + (highPrecision ? 6 : 0);
  bm.valid = true;
  return bm;
}

int32_t clampByte(int32_t v) {
  return std::clamp(v, 0, 255);
}

// bit_transfer_signed of the base+offset modes: a gets the offset (-32..31), b the base.
void bitTransferSigned(int32_t& a, int32_t& b) {
  b = (b >> 1) | (a & 0x80);
  a = (a >> 1) & 0x3f;
  if (a & 0x20) a -= 0x40;
}

using Rgba = std::array<int32_t, 4>;
Rgba blueContract(int32_t r, int32_t g, int32_t b, int32_t a) {
  return {(r + b) >> 1, (g + b) >> 1, b, a};
}

// The LDR colour endpoint modes; returns false for the HDR modes (2, 3, 7, 11, 14, 15).
bool decodeEndpoints(uint32_t cem, const uint8_t* vu, Rgba& e0, Rgba& e1) {
  int32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = vu[i];
  switch (cem) {
    case 0:  // luminance, direct
      e0 = {v[0], v[0], v[0], 255}, e1 = {v[1], v[1], v[1], 255};
      return true;
    case 1: {  // luminance, base + offset
      const int32_t l0 = (v[0] >> 2) | (v[1] & 0xc0);
      const int32_t l1 = std::min(l0 + (v[1] & 0x3f), 255);
      e0 = {l0, l0, l0, 255}, e1 = {l1, l1, l1, 255};
      return true;
    }
    case 4:  // luminance + alpha, direct
      e0 = {v[0], v[0], v[0], v[2]}, e1 = {v[1], v[1], v[1], v[3]};
      return true;
    case 5: {  // luminance + alpha, base + offset
      bitTransferSigned(v[1], v[0]);
      bitTransferSigned(v[3], v[2]);
      const int32_t l1 = clampByte(v[0] + v[1]);
      e0 = {v[0], v[0], v[0], v[2]}, e1 = {l1, l1, l1, clampByte(v[2] + v[3])};
      return true;
    }
    case 6:  // RGB, base + scale
      e0 = {(v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 255};
      e1 = {v[0], v[1], v[2], 255};
      return true;
    case 8:     // RGB, direct
    case 12: {  // RGBA, direct
      const bool alpha = cem == 12;
      const int32_t a0 = alpha ? v[6] : 255, a1 = alpha ? v[7] : 255;
      if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
        e0 = {v[0], v[2], v[4], a0}, e1 = {v[1], v[3], v[5], a1};
      } else {
        e0 = blueContract(v[1], v[3], v[5], a1), e1 = blueContract(v[0], v[2], v[4], a0);
      }
      return true;
    }
    case 9:     // RGB, base + offset
    case 13: {  // RGBA, base + offset
      const bool alpha = cem == 13;
      bitTransferSigned(v[1], v[0]);
      bitTransferSigned(v[3], v[2]);
      bitTransferSigned(v[5], v[4]);
      if (alpha) bitTransferSigned(v[7], v[6]);
      const int32_t a0 = alpha ? v[6] : 255, a1 = alpha ? v[6] + v[7] : 255;
      if (v[1] + v[3] + v[5] >= 0) {
        e0 = {v[0], v[2], v[4], a0}, e1 = {v[0] + v[1], v[2] + v[3], v[4] + v[5], a1};
      } else {
        e0 = blueContract(v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
        e1 = blueContract(v[0], v[2], v[4], a0);
      }
      for (int c = 0; c < 4; ++c) e0[c] = clampByte(e0[c]), e1[c] = clampByte(e1[c]);
      return true;
    }
    case 10:  // RGB, base + scale, plus two alphas
      e0 = {(v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]};
      e1 = {v[0], v[1], v[2], v[5]};
      return true;
    default:
      return false;
  }
}

AstcBlock errorBlock() {
  return AstcBlock{};  // Kind::Error
}

AstcBlock voidExtent(const BitSource& src) {
  // Bit 9 set: HDR (FP16) colour, which the LDR profile rejects; bits 10, 11 are reserved 1s.
  if (src.read(9, 1) != 0) {
    AstcBlock e = errorBlock();
    e.hdr = true;
    return e;
  }
  if (src.read(10, 2) != 3) return errorBlock();
  const uint32_t s0 = src.read(12, 13), s1 = src.read(25, 13), t0 = src.read(38, 13),
                 t1 = src.read(51, 13);
  const bool allOnes = s0 == 0x1fff && s1 == 0x1fff && t0 == 0x1fff && t1 == 0x1fff;
  if (!allOnes && (s0 >= s1 || t0 >= t1)) return errorBlock();
  AstcBlock b;
  b.kind = AstcBlock::Kind::VoidExtent;
  for (uint32_t c = 0; c < 4; ++c)
    b.endpoints[0][0][c] = static_cast<uint16_t>(src.read(64 + 16 * c, 16));
  return b;
}

}  // namespace

AstcBlock parseAstcBlock(uint32_t bw, uint32_t bh, const uint8_t* block) {
  BitSource src;
  std::memcpy(src.bytes.data(), block, 16);
  const uint32_t mode = src.read(0, 11);
  if ((mode & 0x1ff) == 0x1fc) return voidExtent(src);
  const BlockMode bm = decodeBlockMode(mode);
  if (!bm.valid || bm.width > bw || bm.height > bh) return errorBlock();
  AstcBlock b;
  b.partitions = static_cast<uint8_t>(src.read(11, 2) + 1);
  b.dualPlane = bm.dualPlane;
  b.gridWidth = static_cast<uint8_t>(bm.width);
  b.gridHeight = static_cast<uint8_t>(bm.height);
  const uint32_t planes = bm.dualPlane ? 2 : 1;
  const uint32_t weightCount = bm.width * bm.height * planes;
  if (weightCount > 64 || (bm.dualPlane && b.partitions == 4)) return errorBlock();
  const uint32_t weightBits = iseBits(weightCount, bm.range);
  if (weightBits < 24 || weightBits > 96) return errorBlock();

  // Colour endpoint modes: one for all partitions, or a class and per-partition offsets whose
  // extra bits sit just below the weights.
  uint32_t extraCemBits = 0, colourStart = 17;
  if (b.partitions == 1) {
    b.cem[0] = static_cast<uint8_t>(src.read(13, 4));
  } else {
    colourStart = 29;
    b.partitionSeed = static_cast<uint16_t>(src.read(13, 10));
    const uint32_t selector = src.read(23, 2);
    if (selector == 0) {
      const uint32_t cem = src.read(25, 4);
      for (uint32_t p = 0; p < b.partitions; ++p) b.cem[p] = static_cast<uint8_t>(cem);
    } else {
      extraCemBits = 3 * b.partitions - 4;
      const uint32_t field =
          src.read(25, 4) | src.read(128 - weightBits - extraCemBits, extraCemBits) << 4;
      for (uint32_t p = 0; p < b.partitions; ++p) {
        const uint32_t c = field >> p & 1, m = field >> (b.partitions + 2 * p) & 3;
        b.cem[p] = static_cast<uint8_t>((selector - 1 + c) << 2 | m);
      }
    }
  }
  const uint32_t belowWeights = 128 - weightBits - extraCemBits;
  if (bm.dualPlane) b.plane2Component = static_cast<uint8_t>(src.read(belowWeights - 2, 2));
  const uint32_t colourEnd = belowWeights - (bm.dualPlane ? 2 : 0);

  uint32_t values = 0;
  for (uint32_t p = 0; p < b.partitions; ++p) values += ((b.cem[p] >> 2) + 1) * 2;
  if (values > 18 || colourEnd <= colourStart) return errorBlock();
  // The colour values use the finest range that fits in the bits left; 6 levels at least.
  const uint32_t colourBits = colourEnd - colourStart;
  uint32_t colourRange = 20;
  while (colourRange >= 4 && iseBits(values, colourRange) > colourBits) --colourRange;
  if (colourRange < 4) return errorBlock();
  // decodeEndpoints reads 8 values whatever the mode: room past the last partition's.
  std::array<uint8_t, 18 + 8> colour{};
  BitSource colourSrc = src;
  // A trit or quint group cut short by the end of the sequence reads its missing bits as 0.
  colourSrc.limit = colourStart + iseBits(values, colourRange);
  astc::decodeIse(colourSrc, colourStart, values, colourRange, colour.data());
  for (uint32_t i = 0; i < values; ++i) colour[i] = astc::unquantizeColor(colour[i], colourRange);
  uint32_t at = 0;
  for (uint32_t p = 0; p < b.partitions; ++p) {
    Rgba e0, e1;
    if (!decodeEndpoints(b.cem[p], colour.data() + at, e0, e1)) {
      AstcBlock e = errorBlock();
      e.hdr = true;
      return e;
    }
    at += ((b.cem[p] >> 2) + 1) * 2;
    for (uint32_t c = 0; c < 4; ++c) {
      // LDR, not sRGB: UNORM8 endpoints widen to UNORM16 by replication.
      b.endpoints[p][0][c] = static_cast<uint16_t>(e0[c] * 257);
      b.endpoints[p][1][c] = static_cast<uint16_t>(e1[c] * 257);
    }
  }

  // Weights are stored bit-reversed from the top of the block down.
  BitSource reversed;
  for (uint32_t i = 0; i < 16; ++i) {
    uint8_t v = block[15 - i], r = 0;
    for (int k = 0; k < 8; ++k) r = static_cast<uint8_t>(r << 1 | (v >> k & 1));
    reversed.bytes[i] = r;
  }
  reversed.limit = weightBits;
  std::array<uint8_t, 64> raw{};
  astc::decodeIse(reversed, 0, weightCount, bm.range, raw.data());
  for (uint32_t i = 0; i < weightCount; ++i)
    b.weights[i % planes][i / planes] = astc::unquantizeWeight(raw[i], bm.range);
  b.kind = AstcBlock::Kind::Normal;
  return b;
}

uint32_t astcPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partitions,
                       bool smallBlock) {
  if (partitions <= 1) return 0;
  if (smallBlock) x <<= 1, y <<= 1, z <<= 1;
  seed += (partitions - 1) * 1024;
  uint32_t h = seed;  // the specification's hash52
  h ^= h >> 15;
  h -= h << 17;
  h += h << 7;
  h += h << 4;
  h ^= h >> 5;
  h += h << 16;
  h ^= h >> 7;
  h ^= h >> 3;
  h ^= h << 6;
  h ^= h >> 17;
  uint32_t s[12];
  for (uint32_t i = 0; i < 8; ++i) s[i] = h >> (4 * i) & 0xf;
  s[8] = h >> 18 & 0xf, s[9] = h >> 22 & 0xf, s[10] = h >> 26 & 0xf;
  s[11] = ((h >> 30) | (h << 2)) & 0xf;
  for (uint32_t& v : s) v *= v;
  uint32_t sh1, sh2;
  if (seed & 1) {
    sh1 = (seed & 2) ? 4 : 5;
    sh2 = partitions == 3 ? 6 : 5;
  } else {
    sh1 = partitions == 3 ? 6 : 5;
    sh2 = (seed & 2) ? 4 : 5;
  }
  const uint32_t sh3 = (seed & 0x10) ? sh1 : sh2;
  for (uint32_t i = 0; i < 8; ++i) s[i] >>= (i & 1) ? sh2 : sh1;
  for (uint32_t i = 8; i < 12; ++i) s[i] >>= sh3;
  const uint32_t a = (s[0] * x + s[1] * y + s[10] * z + (h >> 14)) & 0x3f;
  const uint32_t b = (s[2] * x + s[3] * y + s[11] * z + (h >> 10)) & 0x3f;
  const uint32_t c = partitions >= 3 ? (s[4] * x + s[5] * y + s[8] * z + (h >> 6)) & 0x3f : 0;
  const uint32_t d = partitions >= 4 ? (s[6] * x + s[7] * y + s[9] * z + (h >> 2)) & 0x3f : 0;
  if (a >= b && a >= c && a >= d) return 0;
  if (b >= c && b >= d) return 1;
  return c >= d ? 2 : 3;
}

std::array<uint16_t, 4> astcTexel(const AstcBlock& b, uint32_t bw, uint32_t bh, uint32_t x,
                                  uint32_t y) {
  if (b.kind == AstcBlock::Kind::Error) return {0xffff, 0, 0xffff, 0xffff};
  if (b.kind == AstcBlock::Kind::VoidExtent) return b.endpoints[0][0];
  const uint32_t p = astcPartition(b.partitionSeed, x, y, 0, b.partitions, bw * bh < 31);
  // Weight infill: the texel's position on the weight grid in 1/16ths, then a bilinear blend
  // of the four grid weights around it.
  const uint32_t ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
  const uint32_t gw = b.gridWidth, gh = b.gridHeight;
  const uint32_t gs = (ds * x * (gw - 1) + 32) >> 6, gt = (dt * y * (gh - 1) + 32) >> 6;
  const uint32_t js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
  const uint32_t v0 = js + jt * gw;
  const uint32_t w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
  uint32_t weight[2] = {0, 0};
  for (uint32_t plane = 0; plane < (b.dualPlane ? 2u : 1u); ++plane) {
    const auto& w = b.weights[plane];
    weight[plane] =
        (w[v0] * w00 + w[v0 + 1] * w01 + w[v0 + gw] * w10 + w[v0 + gw + 1] * w11 + 8) >> 4;
  }
  std::array<uint16_t, 4> out;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t w = b.dualPlane && c == b.plane2Component ? weight[1] : weight[0];
    const uint32_t c0 = b.endpoints[p][0][c], c1 = b.endpoints[p][1][c];
    out[c] = static_cast<uint16_t>((c0 * (64 - w) + c1 * w + 32) >> 6);
  }
  return out;
}

namespace {

// A few parsed blocks per thread, keyed by their bits and footprint: a bilinear footprint, a
// quad and the next quad along a span mostly hit the same blocks.
struct CachedBlock {
  std::array<uint8_t, 16> bits{};
  uint8_t bw = 0, bh = 0;
  AstcBlock block;
};
constexpr uint32_t kCacheEntries = 4;
struct BlockCache {
  std::array<CachedBlock, kCacheEntries> entries;
  uint32_t next = 0;
};
thread_local BlockCache tCache;

const AstcBlock& cachedBlock(uint32_t bw, uint32_t bh, const uint8_t* block) {
  for (const CachedBlock& e : tCache.entries) {
    if (e.bw == bw && e.bh == bh && std::memcmp(e.bits.data(), block, 16) == 0) return e.block;
  }
  CachedBlock& e = tCache.entries[tCache.next];
  tCache.next = (tCache.next + 1) % kCacheEntries;
  std::memcpy(e.bits.data(), block, 16);
  e.bw = static_cast<uint8_t>(bw), e.bh = static_cast<uint8_t>(bh);
  e.block = parseAstcBlock(bw, bh, block);
  return e.block;
}

}  // namespace

void decodeAstcTexelRaw(uint32_t bw, uint32_t bh, const uint8_t* block, uint32_t x, uint32_t y,
                        float raw[4]) {
  const std::array<uint16_t, 4> c = astcTexel(cachedBlock(bw, bh, block), bw, bh, x, y);
  for (int i = 0; i < 4; ++i) raw[i] = static_cast<float>(c[i]);
}

void decodeAstcTexel(uint32_t bw, uint32_t bh, const uint8_t* block, uint32_t x, uint32_t y,
                     float out[4]) {
  decodeAstcTexelRaw(bw, bh, block, x, y, out);
  for (int i = 0; i < 4; ++i) out[i] /= 65535.0f;
}

}  // namespace tessera::gpu::tex
