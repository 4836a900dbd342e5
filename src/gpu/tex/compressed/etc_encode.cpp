// ETC2 RGB8 and EAC alpha encoding (OpenGL ES 3.0 Annex C read backwards): for each flip, the
// two sub-blocks' average colours quantized as individual (4-bit) and differential (5-bit + 3-bit
// delta) base colours, each sub-block with the modifier table and per-texel modifiers of least
// squared error. Differential blocks are only emitted when the delta fits, so an ETC2 decoder
// never reads them as T, H or planar.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "gpu/tex/compressed/encode.h"
#include "gpu/tex/compressed/etc_tables.h"

namespace tessera::gpu::tex {
namespace {

using etc::kEacModifiers;
using etc::kIntensity;

int32_t clamp255(int32_t v) {
  return std::clamp(v, 0, 255);
}
int32_t expand4(int32_t v) {
  return v << 4 | v;
}
int32_t expand5(int32_t v) {
  return v << 3 | v >> 2;
}

// Texel (x, y) of a block given row-major (y * 4 + x).
const uint8_t* texel(const uint8_t* t, uint32_t x, uint32_t y) {
  return t + (y * 4 + x) * 4;
}

// The texels of sub-block `second` for a flip: 2x4 side by side (flip 0) or 4x2 stacked.
bool inSecond(bool flip, uint32_t x, uint32_t y) {
  return flip ? y >= 2 : x >= 2;
}

struct SubChoice {
  int64_t error = INT64_MAX;
  uint32_t table = 0;
  std::array<uint8_t, 16> index{};  // per texel (x * 4 + y), 2-bit modifier selector
};

// Best table and modifiers for the texels of one sub-block around the expanded base colour.
SubChoice fitSubBlock(const uint8_t* t, bool flip, bool second, const int32_t base[3]) {
  SubChoice best;
  for (uint32_t table = 0; table < 8; ++table) {
    SubChoice c;
    c.table = table, c.error = 0;
    const int32_t mods[4] = {kIntensity[table][0], kIntensity[table][1], -kIntensity[table][0],
                             -kIntensity[table][1]};
    for (uint32_t x = 0; x < 4; ++x)
      for (uint32_t y = 0; y < 4; ++y) {
        if (inSecond(flip, x, y) != second) continue;
        const uint8_t* p = texel(t, x, y);
        int64_t bestErr = INT64_MAX;
        for (uint32_t m = 0; m < 4; ++m) {
          int64_t e = 0;
          for (int ch = 0; ch < 3; ++ch) {
            const int64_t d = clamp255(base[ch] + mods[m]) - p[ch];
            e += d * d;
          }
          if (e < bestErr) bestErr = e, c.index[x * 4 + y] = static_cast<uint8_t>(m);
        }
        c.error += bestErr;
      }
    if (c.error < best.error) best = c;
  }
  return best;
}

void average(const uint8_t* t, bool flip, bool second, float out[3]) {
  float sum[3] = {0, 0, 0};
  for (uint32_t x = 0; x < 4; ++x)
    for (uint32_t y = 0; y < 4; ++y) {
      if (inSecond(flip, x, y) != second) continue;
      for (int ch = 0; ch < 3; ++ch) sum[ch] += texel(t, x, y)[ch];
    }
  for (int ch = 0; ch < 3; ++ch) out[ch] = sum[ch] / 8.0f;
}

void putBits(uint64_t& v, uint32_t lo, uint32_t count, uint32_t value) {
  v |= (uint64_t{value} & ((uint64_t{1} << count) - 1)) << lo;
}

std::array<uint8_t, 8> store64be(uint64_t v) {
  std::array<uint8_t, 8> b{};
  for (int i = 0; i < 8; ++i) b[static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (56 - 8 * i));
  return b;
}

// A quantized base colour and the best fit of a sub-block around it.
struct Candidate {
  int32_t q[3];
  SubChoice fit;
};

// The sub-block's base colours to try: its average quantized to `bits`, and that colour one step
// darker and lighter in every channel (the modifiers are symmetric, so a shifted base can fit a
// skewed distribution better), each with its best table and modifiers.
std::vector<Candidate> candidates(const uint8_t* t, bool flip, bool second, int bits) {
  float avg[3];
  average(t, flip, second, avg);
  const int32_t top = (1 << bits) - 1;
  int32_t q0[3];
  for (int ch = 0; ch < 3; ++ch)
    q0[ch] =
        std::clamp(static_cast<int32_t>(avg[ch] * static_cast<float>(top) / 255 + 0.5f), 0, top);
  std::vector<Candidate> out;
  for (int step = -1; step <= 1; ++step) {
    Candidate c{{q0[0] + step, q0[1] + step, q0[2] + step}, {}};
    if (std::min({c.q[0], c.q[1], c.q[2]}) < 0 || std::max({c.q[0], c.q[1], c.q[2]}) > top)
      continue;
    int32_t base[3];
    for (int ch = 0; ch < 3; ++ch) base[ch] = bits == 5 ? expand5(c.q[ch]) : expand4(c.q[ch]);
    c.fit = fitSubBlock(t, flip, second, base);
    out.push_back(c);
  }
  return out;
}

}  // namespace

// For each flip, individual mode takes each sub-block's best candidate; differential mode the
// best pair whose second colour is within the 3-bit delta (-4..3) of the first.
std::array<uint8_t, 8> encodeEtc2RgbBlock(const uint8_t t[16 * 4]) {
  int64_t bestError = INT64_MAX;
  uint64_t best = 0;
  for (int flip = 0; flip < 2; ++flip) {
    for (int differential = 0; differential < 2; ++differential) {
      const int bits = differential ? 5 : 4;
      const auto first = candidates(t, flip != 0, false, bits);
      const auto second = candidates(t, flip != 0, true, bits);
      const Candidate *a = nullptr, *b = nullptr;
      int64_t error = INT64_MAX;
      for (const Candidate& x : first)
        for (const Candidate& y : second) {
          if (differential) {
            bool fits = true;
            for (int ch = 0; ch < 3; ++ch)
              fits = fits && y.q[ch] - x.q[ch] >= -4 && y.q[ch] - x.q[ch] <= 3;
            if (!fits) continue;
          }
          if (x.fit.error + y.fit.error < error) error = x.fit.error + y.fit.error, a = &x, b = &y;
        }
      if (!a || error >= bestError) continue;
      bestError = error;
      uint64_t v = 0;
      for (int ch = 0; ch < 3; ++ch) {
        const uint32_t hi = 59 - 8 * static_cast<uint32_t>(ch);
        if (differential) {
          putBits(v, hi, 5, static_cast<uint32_t>(a->q[ch]));
          putBits(v, hi - 3, 3, static_cast<uint32_t>(b->q[ch] - a->q[ch]));
        } else {
          putBits(v, hi + 1, 4, static_cast<uint32_t>(a->q[ch]));
          putBits(v, hi - 3, 4, static_cast<uint32_t>(b->q[ch]));
        }
      }
      putBits(v, 37, 3, a->fit.table);
      putBits(v, 34, 3, b->fit.table);
      putBits(v, 33, 1, static_cast<uint32_t>(differential));
      putBits(v, 32, 1, static_cast<uint32_t>(flip));
      for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t x = i / 4, y = i % 4;
        const uint32_t m = inSecond(flip != 0, x, y) ? b->fit.index[i] : a->fit.index[i];
        putBits(v, 16 + i, 1, m >> 1);
        putBits(v, i, 1, m & 1);
      }
      best = v;
    }
  }
  return store64be(best);
}

// EAC (Annex C.1.4): alpha = clamp(base + modifier * multiplier); every table and multiplier
// with the base at the middle of the block's range and a step either side.
std::array<uint8_t, 8> encodeEacAlphaBlock(const uint8_t t[16 * 4]) {
  int32_t lo = 255, hi = 0;
  for (uint32_t i = 0; i < 16; ++i)
    lo = std::min<int32_t>(lo, t[i * 4 + 3]), hi = std::max<int32_t>(hi, t[i * 4 + 3]);
  int64_t bestError = INT64_MAX;
  uint64_t best = 0;
  const int32_t mid = (lo + hi + 1) / 2;
  for (int32_t base = std::max(0, mid - 4); base <= std::min(255, mid + 4); ++base)
    for (uint32_t table = 0; table < 16; ++table)
      for (uint32_t mul = 1; mul < 16; ++mul) {
        int64_t error = 0;
        uint64_t indices = 0;
        for (uint32_t x = 0; x < 4 && error < bestError; ++x)
          for (uint32_t y = 0; y < 4; ++y) {
            const int32_t a = t[(y * 4 + x) * 4 + 3];
            int64_t e = INT64_MAX;
            uint32_t pick = 0;
            for (uint32_t m = 0; m < 8; ++m) {
              const int64_t d =
                  clamp255(base + kEacModifiers[table][m] * static_cast<int32_t>(mul)) - a;
              if (d * d < e) e = d * d, pick = m;
            }
            error += e;
            indices |= uint64_t{pick} << (45 - 3 * (x * 4 + y));
          }
        if (error >= bestError) continue;
        bestError = error;
        best = uint64_t(static_cast<uint32_t>(base)) << 56 | uint64_t{mul} << 52 |
               uint64_t{table} << 48 | indices;
      }
  return store64be(best);
}

}  // namespace tessera::gpu::tex
