// ASTC LDR encoding, the simplest block the decoder reads exactly: one partition, a 4x4 grid of
// 3-bit weights (block mode 0x053) and endpoints at full 8-bit precision (colour range 256,
// which the bits left over always select). Opaque blocks use CEM 8 (RGB direct, 6 values, 48
// bits); blocks with alpha CEM 12 (RGBA direct, 8 values, 64 bits) with 2-bit weights (block
// mode 0x042), since 3-bit weights would leave too few bits for 8-bit endpoints.
// Endpoints are the extremes of the block's texels along their principal axis; each texel's
// ideal weight is its projection on that segment, and a grid weight is the average of the
// texels' ideal weights, each texel counted by how much the decoder's infill gives it of that
// grid point.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpu/tex/compressed/encode.h"

namespace tessera::gpu::tex {
namespace {

constexpr uint32_t kGrid = 4;  // weight grid 4x4 for every footprint

// The weights (quarters of 16ths) texel (s, t) takes from the four grid points around it, as the
// decoder's infill computes them (the specification's decimation): grid index and factor pairs.
struct Infill {
  uint32_t index[4];
  uint32_t factor[4];  // sum 16
};
Infill infill(uint32_t bw, uint32_t bh, uint32_t s, uint32_t t) {
  const uint32_t ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
  const uint32_t gs = (ds * s * (kGrid - 1) + 32) >> 6, gt = (dt * t * (kGrid - 1) + 32) >> 6;
  const uint32_t js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
  const uint32_t w11 = (fs * ft + 8) >> 4;
  Infill f{};
  f.index[0] = jt * kGrid + js;
  f.index[1] = f.index[0] + 1;
  f.index[2] = f.index[0] + kGrid;
  f.index[3] = f.index[2] + 1;
  f.factor[0] = 16 - fs - ft + w11;
  f.factor[1] = fs - w11;
  f.factor[2] = ft - w11;
  f.factor[3] = w11;
  for (uint32_t& i : f.index) i = std::min(i, kGrid * kGrid - 1);
  return f;
}

struct BitWriter {
  std::array<uint8_t, 16> bytes{};
  void put(uint32_t at, uint32_t count, uint32_t value) {
    for (uint32_t i = 0; i < count; ++i)
      if (value >> i & 1) bytes[(at + i) / 8] |= static_cast<uint8_t>(1u << ((at + i) % 8));
  }
  // The weight stream is written from bit 127 down, bit-reversed.
  void putReversed(uint32_t streamBit, uint32_t count, uint32_t value) {
    for (uint32_t i = 0; i < count; ++i)
      if (value >> i & 1) put(127 - (streamBit + i), 1, 1);
  }
};

}  // namespace

std::array<uint8_t, 16> encodeAstcBlock(uint32_t bw, uint32_t bh, const uint8_t* texels) {
  const uint32_t n = bw * bh;
  bool alpha = false;
  float mean[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) mean[c] += texels[i * 4 + static_cast<uint32_t>(c)];
    alpha = alpha || texels[i * 4 + 3] != 255;
  }
  for (float& m : mean) m /= static_cast<float>(n);
  const int channels = alpha ? 4 : 3;
  // Principal axis by a few power iterations on the covariance.
  float cov[4][4] = {};
  for (uint32_t i = 0; i < n; ++i)
    for (int a = 0; a < channels; ++a)
      for (int b = 0; b < channels; ++b)
        cov[a][b] += (texels[i * 4 + static_cast<uint32_t>(a)] - mean[a]) *
                     (texels[i * 4 + static_cast<uint32_t>(b)] - mean[b]);
  float axis[4] = {1, 1, 1, 1};
  for (int it = 0; it < 8; ++it) {
    float next[4] = {0, 0, 0, 0}, len = 0;
    for (int a = 0; a < channels; ++a) {
      for (int b = 0; b < channels; ++b) next[a] += cov[a][b] * axis[b];
      len += next[a] * next[a];
    }
    if (!(len > 1e-6f)) break;
    len = std::sqrt(len);
    for (int a = 0; a < channels; ++a) axis[a] = next[a] / len;
  }
  float lo = 0, hi = 0;
  for (uint32_t i = 0; i < n; ++i) {
    float p = 0;
    for (int c = 0; c < channels; ++c)
      p += (texels[i * 4 + static_cast<uint32_t>(c)] - mean[c]) * axis[c];
    lo = std::min(lo, p), hi = std::max(hi, p);
  }
  int32_t e[2][4];
  for (int c = 0; c < 4; ++c) {
    e[0][c] = c < channels
                  ? std::clamp(static_cast<int32_t>(std::lround(mean[c] + lo * axis[c])), 0, 255)
                  : 255;
    e[1][c] = c < channels
                  ? std::clamp(static_cast<int32_t>(std::lround(mean[c] + hi * axis[c])), 0, 255)
                  : 255;
  }
  // The decoder swaps endpoints whose second sums lower than the first (blue contraction):
  // keep the order it reads as is, flipping the weights instead.
  int32_t s0 = 0, s1 = 0;
  for (int c = 0; c < 3; ++c) s0 += e[0][c], s1 += e[1][c];
  const bool swap = s1 < s0;
  if (swap) std::swap(e[0], e[1]);
  // Ideal weight per texel: its position between the endpoints, 0..1.
  float d[4], dd = 0;
  for (int c = 0; c < channels; ++c)
    d[c] = static_cast<float>(e[1][c] - e[0][c]), dd += d[c] * d[c];
  std::vector<float> ideal(n, 0.0f);
  for (uint32_t i = 0; i < n && dd > 0; ++i) {
    float p = 0;
    for (int c = 0; c < channels; ++c)
      p += (static_cast<float>(texels[i * 4 + static_cast<uint32_t>(c)]) -
            static_cast<float>(e[0][c])) *
           d[c];
    ideal[i] = std::clamp(p / dd, 0.0f, 1.0f);
  }
  float sum[kGrid * kGrid] = {}, count[kGrid * kGrid] = {};
  for (uint32_t t = 0; t < bh; ++t)
    for (uint32_t s = 0; s < bw; ++s) {
      const Infill f = infill(bw, bh, s, t);
      for (int k = 0; k < 4; ++k) {
        sum[f.index[k]] += static_cast<float>(f.factor[k]) * ideal[t * bw + s];
        count[f.index[k]] += static_cast<float>(f.factor[k]);
      }
    }
  const uint32_t weightBits = alpha ? 2 : 3, levels = (1u << weightBits) - 1;
  BitWriter w;
  w.put(0, 11, alpha ? 0x042 : 0x053);  // 4x4 grid; R = 4 (0..3) or 7 (0..7), H = 0
  w.put(11, 2, 0);                      // one partition
  w.put(13, 4, alpha ? 12 : 8);         // CEM: LDR RGBA direct or LDR RGB direct
  // Colour values (range 256: plain bytes) r0 r1 g0 g1 b0 b1 [a0 a1] from bit 17.
  for (int c = 0; c < channels; ++c) {
    w.put(17 + 16 * static_cast<uint32_t>(c), 8, static_cast<uint32_t>(e[0][c]));
    w.put(25 + 16 * static_cast<uint32_t>(c), 8, static_cast<uint32_t>(e[1][c]));
  }
  for (uint32_t g = 0; g < kGrid * kGrid; ++g) {
    const float v = count[g] > 0 ? sum[g] / count[g] : 0.0f;
    const auto q = static_cast<uint32_t>(std::lround(v * static_cast<float>(levels)));
    w.putReversed(g * weightBits, weightBits, q);
  }
  return w.bytes;
}

std::vector<uint8_t> encodeImage(TexFormat f, std::span<const uint8_t> rgba, uint32_t width,
                                 uint32_t height) {
  if (rgba.size() != size_t{width} * height * 4)
    throw std::invalid_argument("encodeImage: the pixels are not width x height RGBA8 texels");
  if (f != TexFormat::ETC2_RGB8 && f != TexFormat::ETC2_RGBA8 && !isAstcFormat(f))
    throw std::invalid_argument("encodeImage: no encoder for this format");
  const TexelBlock b = texelBlock(f);
  const uint32_t bx = (width + b.width - 1) / b.width, by = (height + b.height - 1) / b.height;
  std::vector<uint8_t> out;
  out.reserve(size_t{bx} * by * b.bytes);
  std::vector<uint8_t> block(size_t{b.width} * b.height * 4);
  for (uint32_t j = 0; j < by; ++j)
    for (uint32_t i = 0; i < bx; ++i) {
      for (uint32_t y = 0; y < b.height; ++y)
        for (uint32_t x = 0; x < b.width; ++x) {
          const uint32_t sx = std::min(width - 1, i * b.width + x);
          const uint32_t sy = std::min(height - 1, j * b.height + y);
          std::copy_n(&rgba[(size_t{sy} * width + sx) * 4], 4,
                      &block[(size_t{y} * b.width + x) * 4]);
        }
      if (isAstcFormat(f)) {
        const auto bits = encodeAstcBlock(b.width, b.height, block.data());
        out.insert(out.end(), bits.begin(), bits.end());
        continue;
      }
      if (f == TexFormat::ETC2_RGBA8) {
        const auto a = encodeEacAlphaBlock(block.data());
        out.insert(out.end(), a.begin(), a.end());
      }
      const auto c = encodeEtc2RgbBlock(block.data());
      out.insert(out.end(), c.begin(), c.end());
    }
  return out;
}

}  // namespace tessera::gpu::tex
