// Colour path of the render backend: formats, rounding, every blend factor and equation
// against a double-precision reference, write masks, clears and byte counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gpu/rb/color_format.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {
namespace {

// A 4x4 colour surface at window origin (-2, 6) (as in a GMEM bin).
struct ColorSurface {
  ColorFormat format;
  std::vector<uint8_t> bytes;
  explicit ColorSurface(ColorFormat f) : format(f), bytes(16 * 4, 0) {}
  SurfaceView view() { return {bytes.data(), 4 * bytesPerPixel(format), -2, 6}; }
  uint32_t at(int x, int y) {
    return loadPixel(view().pixel(x, y, bytesPerPixel(format)), bytesPerPixel(format));
  }
  void set(int x, int y, uint32_t v) {
    storePixel(view().pixel(x, y, bytesPerPixel(format)), bytesPerPixel(format), v);
  }
};

void fill(float rgba[4][4], float r, float g, float b, float a) {
  for (int i = 0; i < 4; ++i) rgba[i][0] = r, rgba[i][1] = g, rgba[i][2] = b, rgba[i][3] = a;
}

TEST(RbColorFormat, LayoutAndBytes) {
  EXPECT_EQ(bytesPerPixel(ColorFormat::RGBA8), 4u);
  EXPECT_EQ(bytesPerPixel(ColorFormat::RGB565), 2u);
  EXPECT_EQ(bytesPerPixel(ColorFormat::RGBA4444), 2u);
  EXPECT_EQ(bytesPerPixel(ColorFormat::RGBA5551), 2u);
  const float red[4] = {1, 0, 0, 0}, blue[4] = {0, 0, 1, 1};
  EXPECT_EQ(packColor(ColorFormat::RGB565, red), 0xF800u);
  EXPECT_EQ(packColor(ColorFormat::RGBA4444, red), 0xF000u);
  EXPECT_EQ(packColor(ColorFormat::RGBA5551, red), 0xF800u);
  EXPECT_EQ(packColor(ColorFormat::RGBA5551, blue), 0x003Fu);
  EXPECT_EQ(packColor(ColorFormat::RGBA8, blue), 0xFFFF0000u);  // bytes 00 00 FF FF
  ColorSurface s(ColorFormat::RGB565);
  s.set(0, 7, 0xF800u);
  EXPECT_EQ(s.bytes[16 * 2 * 0 + 4 * 2 * 1 + 2 * 2], 0x00);  // little-endian: low byte first
  EXPECT_EQ(s.bytes[4 * 2 * 1 + 2 * 2 + 1], 0xF8);
}

TEST(RbColorFormat, RoundTripOfRepresentableValues) {
  for (ColorFormat f :
       {ColorFormat::RGBA8, ColorFormat::RGB565, ColorFormat::RGBA4444, ColorFormat::RGBA5551}) {
    const ColorLayout& l = layoutOf(f);
    for (uint32_t v = 0; v < 64; ++v) {
      float c[4];
      for (int ch = 0; ch < 4; ++ch) {
        const uint32_t max = l.bits[ch] ? (1u << l.bits[ch]) - 1 : 1;
        c[ch] = static_cast<float>((v * (ch + 3)) % (max + 1)) / static_cast<float>(max);
      }
      float back[4];
      unpackColor(f, packColor(f, c), back);
      for (int ch = 0; ch < 4; ++ch) EXPECT_EQ(back[ch], l.bits[ch] ? c[ch] : 1.0f);
    }
  }
}

TEST(RbColorFormat, ToRgba8RoundsEachChannelToEightBits) {
  // RGB565 red 3/31, green 63/63, blue 0; RGBA4444 (1, 2, 3, 15)/15; RGBA5551 alpha 1 bit.
  const uint16_t px[3] = {3u << 11 | 63u << 5, 0x123f, 0x0001};
  uint8_t out[4];
  toRgba8(ColorFormat::RGB565, reinterpret_cast<const uint8_t*>(&px[0]), 1, out);
  EXPECT_EQ(out[0], 25);  // round(3 * 255 / 31) = round(24.68)
  EXPECT_EQ(out[1], 255);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 255);  // no alpha channel
  toRgba8(ColorFormat::RGBA4444, reinterpret_cast<const uint8_t*>(&px[1]), 1, out);
  EXPECT_EQ(out[0], 17);
  EXPECT_EQ(out[1], 34);
  EXPECT_EQ(out[2], 51);
  EXPECT_EQ(out[3], 255);
  toRgba8(ColorFormat::RGBA5551, reinterpret_cast<const uint8_t*>(&px[2]), 1, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[3], 255);
  const uint8_t rgba8[8] = {1, 2, 3, 4, 250, 251, 252, 253};
  uint8_t two[8];
  toRgba8(ColorFormat::RGBA8, rgba8, 2, two);
  EXPECT_TRUE(std::equal(rgba8, rgba8 + 8, two));
}

TEST(RbColor, ClampsAndRoundsToNearest) {
  ColorSurface s(ColorFormat::RGBA8);
  RenderBackend rb;
  float rgba[4][4];
  fill(rgba, 0.5f, 1.5f, -3.0f, 127.4f / 255.0f);
  rgba[3][0] = 0.5f / 255.0f;  // exactly half a step rounds up
  rb.color(BlendState{}, ColorFormat::RGBA8, s.view(), -2, 6, 0xf, rgba);
  EXPECT_EQ(s.at(-2, 6), 0x7F00FF80u);  // R 128, G 255, B 0, A 127
  EXPECT_EQ(s.at(-1, 7) & 0xff, 1u);
}

// Double-precision reference of one blend factor.
double refFactor(BlendFactor f, int c, const double s[4], const double d[4], const double k[4]) {
  const bool alpha = c == 3;
  switch (f) {
    case BlendFactor::Zero:
      return 0;
    case BlendFactor::One:
      return 1;
    case BlendFactor::SrcColor:
      return s[c];
    case BlendFactor::OneMinusSrcColor:
      return 1 - s[c];
    case BlendFactor::DstColor:
      return d[c];
    case BlendFactor::OneMinusDstColor:
      return 1 - d[c];
    case BlendFactor::SrcAlpha:
      return s[3];
    case BlendFactor::OneMinusSrcAlpha:
      return 1 - s[3];
    case BlendFactor::DstAlpha:
      return d[3];
    case BlendFactor::OneMinusDstAlpha:
      return 1 - d[3];
    case BlendFactor::ConstantColor:
      return k[c];
    case BlendFactor::OneMinusConstantColor:
      return 1 - k[c];
    case BlendFactor::ConstantAlpha:
      return k[3];
    case BlendFactor::OneMinusConstantAlpha:
      return 1 - k[3];
    case BlendFactor::SrcAlphaSaturate:
      return alpha ? 1 : std::min(s[3], 1 - d[3]);
  }
  return -1;
}

TEST(RbBlend, EveryFactorAndEquationMatchesReference) {
  const float src[4] = {0.8f, 0.3f, 1.7f, 0.6f};  // blue is clamped to 1 first
  const uint8_t dstBytes[4] = {40, 200, 90, 100};
  const float constant[4] = {0.25f, -1.0f, 0.9f, 2.0f};  // clamped to [0,1]
  const double s[4] = {0.8f, 0.3f, 1.0, 0.6f};
  const double d[4] = {40 / 255.0, 200 / 255.0, 90 / 255.0, 100 / 255.0};
  const double k[4] = {0.25, 0.0, 0.9f, 1.0};
  int checked = 0, exact = 0;
  for (int sf = 0; sf <= static_cast<int>(BlendFactor::SrcAlphaSaturate); ++sf) {
    for (int df = 0; df <= static_cast<int>(BlendFactor::SrcAlphaSaturate); ++df) {
      for (int eq = 0; eq <= static_cast<int>(BlendEquation::ReverseSubtract); ++eq) {
        BlendState b;
        b.enable = true;
        b.srcRgb = b.srcAlpha = static_cast<BlendFactor>(sf);
        b.dstRgb = b.dstAlpha = static_cast<BlendFactor>(df);
        b.eqRgb = b.eqAlpha = static_cast<BlendEquation>(eq);
        std::copy(constant, constant + 4, b.constant);
        ColorSurface surf(ColorFormat::RGBA8);
        uint32_t dst;
        std::memcpy(&dst, dstBytes, 4);
        surf.set(-2, 6, dst);
        float rgba[4][4];
        fill(rgba, src[0], src[1], src[2], src[3]);
        RenderBackend rb;
        rb.color(b, ColorFormat::RGBA8, surf.view(), -2, 6, 0x1, rgba);
        const uint32_t got = surf.at(-2, 6);
        for (int c = 0; c < 4; ++c) {
          const double fs = refFactor(b.srcRgb, c, s, d, k), fd = refFactor(b.dstRgb, c, s, d, k);
          double v = eq == 0   ? s[c] * fs + d[c] * fd
                     : eq == 1 ? s[c] * fs - d[c] * fd
                               : d[c] * fd - s[c] * fs;
          v = std::clamp(v, 0.0, 1.0);
          const int want = static_cast<int>(std::floor(v * 255 + 0.5));
          const int have = static_cast<int>((got >> (8 * c)) & 0xff);
          EXPECT_NEAR(have, want, 1)
              << "src " << sf << " dst " << df << " eq " << eq << " ch " << c;
          exact += have == want;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(exact, checked * 97 / 100);  // float vs double may differ only at exact halves
}

#if defined(__SSE2__)
// The SIMD blend the colour write runs against the scalar equation, to the bit: every source
// and destination factor for colour and alpha apart, every pair of equations, values at and
// between the ends of [0,1], and a NaN blend constant (glBlendColor leaves it unclamped).
TEST(RbBlend, SimdBlendMatchesTheScalarEquationToTheBit) {
  const float values[] = {0.0f, 1.0f, 0.25f, 0.7f, 0.5f, 1.0f / 3.0f, 0.999f};
  const float nan = std::nanf("");
  constexpr int kFactors = static_cast<int>(BlendFactor::SrcAlphaSaturate) + 1;
  int checked = 0;
  for (int f = 0; f < kFactors * kFactors; ++f) {
    for (int e = 0; e < 9; ++e) {
      for (int v = 0; v < 7; ++v) {
        BlendState b;
        b.enable = true;
        b.srcRgb = static_cast<BlendFactor>(f % kFactors);
        b.dstRgb = static_cast<BlendFactor>(f / kFactors);
        b.srcAlpha = static_cast<BlendFactor>((f + v) % kFactors);
        b.dstAlpha = static_cast<BlendFactor>((f / kFactors + 3 * v) % kFactors);
        b.eqRgb = static_cast<BlendEquation>(e % 3);
        b.eqAlpha = static_cast<BlendEquation>(e / 3);
        float s[4], d[4], k[4];
        for (int c = 0; c < 4; ++c) {
          s[c] = values[(v + c) % 7];
          d[c] = values[(v + 2 * c + 1) % 7];
          k[c] = v == 6 && c == 1 ? nan : values[(v + 3 * c + 2) % 7];
        }
        float want[4], got[4];
        blendPixel(b, s, d, k, want);
        _mm_storeu_ps(got, blendPixel4(b, _mm_loadu_ps(s), _mm_loadu_ps(d), _mm_loadu_ps(k)));
        ASSERT_EQ(std::memcmp(want, got, sizeof want), 0)
            << "factors " << f << " equations " << e << " values " << v;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, kFactors * kFactors * 9 * 7);
}
#endif

#if defined(__SSE2__)
// The codec's vector forms against its scalar ones, to the bit, for every format: every stored
// value of a channel and the values around each rounding boundary, and NaN (a blend with a NaN
// constant reaches the packer).
TEST(RbColorFormat, VectorPackAndUnpackMatchTheScalarOnes) {
  for (ColorFormat f :
       {ColorFormat::RGBA8, ColorFormat::RGB565, ColorFormat::RGBA4444, ColorFormat::RGBA5551}) {
    const PixelCodec codec(f);
    for (uint32_t v = 0; v < 65536; v += 7) {
      const uint32_t pixel = v * 0x9e3779b1u;
      float want[4], got[4];
      codec.unpack(pixel, want);
      _mm_storeu_ps(got, codec.unpack4(pixel));
      ASSERT_EQ(std::memcmp(want, got, sizeof want), 0) << static_cast<int>(f) << " " << pixel;
    }
    for (int i = 0; i <= 2 * 255; ++i) {  // the packer takes [0, 1]
      const float x = static_cast<float>(i) / (2 * 255), next = std::nextafter(x, 1.0f),
                  prev = std::nextafter(x, 0.0f);
      const float rgba[4] = {x, next, prev, i == 7 ? std::nanf("") : 1.0f - x};
      EXPECT_EQ(codec.pack(rgba), codec.pack4(_mm_loadu_ps(rgba)))
          << static_cast<int>(f) << " " << i;
    }
  }
}
#endif

TEST(RbBlend, SeparateRgbAndAlphaAndSaturate) {
  ColorSurface surf(ColorFormat::RGBA8);
  surf.set(-2, 6, 0xC0000000u);  // dst alpha 192/255
  BlendState b;
  b.enable = true;
  b.srcRgb = BlendFactor::SrcAlphaSaturate;  // min(0.5, 1 - 0.753) = 0.247
  b.dstRgb = BlendFactor::Zero;
  b.srcAlpha = BlendFactor::SrcAlphaSaturate;  // 1 for alpha
  b.dstAlpha = BlendFactor::One;
  float rgba[4][4];
  fill(rgba, 1.0f, 1.0f, 1.0f, 0.5f);
  RenderBackend rb;
  rb.color(b, ColorFormat::RGBA8, surf.view(), -2, 6, 0x1, rgba);
  const uint32_t px = surf.at(-2, 6);
  EXPECT_EQ(px & 0xff, static_cast<uint32_t>(std::floor((1.0 - 192 / 255.0) * 255 + 0.5)));
  EXPECT_EQ(px >> 24, 255u);  // 0.5 + 0.753 clamped to 1
}

TEST(RbBlend, FormatWithoutAlphaReadsDestinationAlphaAsOne) {
  ColorSurface surf(ColorFormat::RGB565);
  surf.set(-2, 6, 0x001Fu);  // blue
  BlendState b;
  b.enable = true;
  b.srcRgb = BlendFactor::OneMinusDstAlpha;  // 0
  b.dstRgb = BlendFactor::DstAlpha;          // 1
  float rgba[4][4];
  fill(rgba, 1.0f, 1.0f, 0.0f, 1.0f);
  RenderBackend rb;
  rb.color(b, ColorFormat::RGB565, surf.view(), -2, 6, 0x1, rgba);
  EXPECT_EQ(surf.at(-2, 6), 0x001Fu);
}

TEST(RbColor, WriteMaskKeepsMemoryBits) {
  ColorSurface s(ColorFormat::RGBA8);
  for (int i = 0; i < 4; ++i) s.set(-2 + (i & 1), 6 + (i >> 1), 0x44332211u);
  BlendState b;
  b.colorWriteMask = 0x5;  // R and B
  float rgba[4][4];
  fill(rgba, 1, 1, 1, 1);
  RenderBackend rb;
  rb.color(b, ColorFormat::RGBA8, s.view(), -2, 6, 0x3, rgba);
  EXPECT_EQ(s.at(-2, 6), 0x44FF22FFu);
  EXPECT_EQ(s.at(-1, 6), 0x44FF22FFu);
  EXPECT_EQ(s.at(-2, 7), 0x44332211u);       // not in the pixel mask
  EXPECT_EQ(rb.stats().colorBytesRead, 8u);  // partial mask reads the destination
  EXPECT_EQ(rb.stats().colorBytesWritten, 8u);

  ColorSurface s16(ColorFormat::RGBA4444);
  s16.set(-2, 6, 0x1234u);
  b.colorWriteMask = 0x8;  // alpha only
  rb.color(b, ColorFormat::RGBA4444, s16.view(), -2, 6, 0x1, rgba);
  EXPECT_EQ(s16.at(-2, 6), 0x123Fu);
  s16.set(-2, 6, 0x1234u);
  b.colorWriteMask = 0x2;  // green only
  rb.color(b, ColorFormat::RGBA4444, s16.view(), -2, 6, 0x1, rgba);
  EXPECT_EQ(s16.at(-2, 6), 0x1F34u);
  ColorSurface s5(ColorFormat::RGBA5551);
  s5.set(-2, 6, 0x0000u);
  b.colorWriteMask = 0x9;  // red and alpha
  rb.color(b, ColorFormat::RGBA5551, s5.view(), -2, 6, 0x1, rgba);
  EXPECT_EQ(s5.at(-2, 6), 0xF801u);
}

// A colour value for the blend tests: mostly in [0,1], one in six out of it or NaN.
float randomColorValue(std::mt19937& rng) {
  const float specials[] = {-0.5f, 0.0f, 1.0f, 1.5f, std::nanf(""), 0.5f};
  return rng() % 6 == 0 ? specials[rng() % 6] : static_cast<float>(rng() % 1001) / 1000.0f;
}

// A random blend state: enable, factors (often SRC_ALPHA, ONE_MINUS_SRC_ALPHA), equations, write
// mask and constant.
BlendState randomBlend(std::mt19937& rng) {
  constexpr uint32_t kFactors = static_cast<uint32_t>(BlendFactor::SrcAlphaSaturate) + 1;
  BlendState b;
  b.enable = (rng() % 4) != 0;
  b.srcRgb = static_cast<BlendFactor>(rng() % kFactors);
  b.dstRgb = static_cast<BlendFactor>(rng() % kFactors);
  b.srcAlpha = static_cast<BlendFactor>(rng() % kFactors);
  b.dstAlpha = static_cast<BlendFactor>(rng() % kFactors);
  b.eqRgb = static_cast<BlendEquation>(rng() % 3);
  b.eqAlpha = static_cast<BlendEquation>(rng() % 3);
  // The usual "over" blend, which the AVX2 warp write takes apart, a quarter of the time: for
  // colour and alpha, or for the colour channels only with alpha's factors and equation as drawn.
  if (rng() % 4 == 0) {
    b.srcRgb = BlendFactor::SrcAlpha;
    b.dstRgb = BlendFactor::OneMinusSrcAlpha;
    b.eqRgb = BlendEquation::Add;
    if (rng() % 2 == 0) {
      b.srcAlpha = BlendFactor::SrcAlpha;
      b.dstAlpha = BlendFactor::OneMinusSrcAlpha;
      b.eqAlpha = BlendEquation::Add;
    }
  }
  b.colorWriteMask = rng() % 3 == 0 ? static_cast<uint8_t>(rng() % 16) : uint8_t{0xf};
  for (float& k : b.constant) k = randomColorValue(rng);
  return b;
}

// RGBA8 quads (the RB writes their four pixels together) against the scalar blend and codec
// pixel by pixel, to the bit: random blend states, write masks, constants, source colours in
// and out of [0,1] (NaN included), destinations and coverage masks.
TEST(RbColor, QuadWriteMatchesThePixelByPixelReference) {
  std::mt19937 rng(11);
  const auto value = [&] { return randomColorValue(rng); };
  const PixelCodec codec(ColorFormat::RGBA8);
  for (int round = 0; round < 3000; ++round) {
    const BlendState b = randomBlend(rng);
    const auto mask = static_cast<uint8_t>(rng() % 16);
    ColorSurface surf(ColorFormat::RGBA8);
    float rgba[4][4];
    uint32_t before[4];
    for (int i = 0; i < 4; ++i) {
      for (float& c : rgba[i]) c = value();
      before[i] = static_cast<uint32_t>(rng());
      surf.set(-1 + (i & 1), 7 + (i >> 1), before[i]);
    }
    RenderBackend rb;
    rb.color(b, ColorFormat::RGBA8, surf.view(), -1, 7, mask, rgba);
    float k[4];
    for (int c = 0; c < 4; ++c) k[c] = std::clamp(b.constant[c], 0.0f, 1.0f);
    const uint32_t bits = channelBits(ColorFormat::RGBA8, b.colorWriteMask);
    for (int i = 0; i < 4; ++i) {
      uint32_t want = before[i];
      if (((mask >> i) & 1) && bits != 0) {
        float src[4], dst[4], out[4];
        for (int c = 0; c < 4; ++c) {
          const float v = rgba[i][c];
          src[c] = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
        }
        codec.unpack(before[i], dst);
        if (b.enable) blendPixel(b, src, dst, k, out);
        want = (before[i] & ~bits) | (codec.pack(b.enable ? out : src) & bits);
      }
      ASSERT_EQ(surf.at(-1 + (i & 1), 7 + (i >> 1)), want) << round << " pixel " << i;
    }
  }
}

// A warp's colour writes in one call (the fragment stage's path; on AVX2 two RGBA8 quads at a
// time) against the same quads written one by one: random blend states, write masks, coverage,
// sources in and out of [0,1], and quads that repeat an earlier one's place (a later triangle over
// the same pixels), in any number from 1 to 8. Surfaces and counters must be the same to the bit.
TEST(RbColor, WarpWritesMatchQuadByQuadWrites) {
  std::mt19937 rng(23);
  const auto value = [&] { return randomColorValue(rng); };
  for (int round = 0; round < 2000; ++round) {
    const BlendState b = randomBlend(rng);
    const ColorFormat format = rng() % 5 == 0 ? ColorFormat::RGB565 : ColorFormat::RGBA8;
    // Quads on the 4x4 surface's four quad places, so that places repeat.
    const int count = 1 + static_cast<int>(rng() % 8);
    RenderBackend::QuadWrite quads[8];
    float rows[4][32];
    for (auto& row : rows)
      for (float& v : row) v = value();
    for (int i = 0; i < count; ++i) {
      const int place = static_cast<int>(rng() % 4);
      quads[i] = {-2 + 2 * (place & 1), 6 + 2 * (place >> 1),
                  static_cast<uint8_t>(rng() % 3 == 0 ? rng() % 16 : 0xf),
                  static_cast<uint8_t>(rng() % 8)};
    }
    const float* const channels[4] = {rows[0], rows[1], rows[2], rows[3]};
    ColorSurface warp(format), each(format);
    for (size_t i = 0; i < warp.bytes.size(); ++i)
      warp.bytes[i] = each.bytes[i] = static_cast<uint8_t>(rng());
    RenderBackend rbWarp, rbEach;
    rbWarp.colorQuads(rbWarp.colorWrite(b, format), warp.view(), quads, count, channels);
    for (int i = 0; i < count; ++i)
      rbEach.color(rbEach.colorWrite(b, format), each.view(), quads[i].x, quads[i].y, quads[i].mask,
                   channels, 4 * quads[i].slot);
    ASSERT_EQ(warp.bytes, each.bytes) << "round " << round;
    ASSERT_EQ(std::memcmp(&rbWarp.stats(), &rbEach.stats(), sizeof(RbStats)), 0) << round;
  }
}

TEST(RbColor, ByteCounters) {
  ColorSurface s(ColorFormat::RGB565);
  RenderBackend rb;
  float rgba[4][4];
  fill(rgba, 0.2f, 0.4f, 0.6f, 0.8f);
  BlendState b;
  b.colorWriteMask = 0x7;  // alpha is not stored: still a full write, no read
  rb.color(b, ColorFormat::RGB565, s.view(), -2, 6, 0xf, rgba);
  EXPECT_EQ(rb.stats().colorBytesRead, 0u);
  EXPECT_EQ(rb.stats().colorBytesWritten, 8u);
  b.colorWriteMask = 0x8;  // writes nothing the format stores
  rb.color(b, ColorFormat::RGB565, s.view(), -2, 6, 0xf, rgba);
  EXPECT_EQ(rb.stats().colorBytesWritten, 8u);
  b.colorWriteMask = 0xf;
  b.enable = true;
  rb.color(b, ColorFormat::RGB565, s.view(), -2, 6, 0x6, rgba);
  EXPECT_EQ(rb.stats().colorBytesRead, 4u);
  EXPECT_EQ(rb.stats().colorBytesWritten, 12u);
  rb.color(b, ColorFormat::RGB565, s.view(), -2, 6, 0x0, rgba);
  EXPECT_EQ(rb.stats().colorBytesWritten, 12u);
}

TEST(RbClear, ColorRectangle) {
  ColorSurface s(ColorFormat::RGBA8);
  const float c[4] = {1.0f, 0.5f, -1.0f, 2.0f};
  RenderBackend::clearColor(ColorFormat::RGBA8, s.view(), -1, 7, 1, 9, c);
  for (int y = 6; y < 10; ++y) {
    for (int x = -2; x < 2; ++x) {
      const bool in = x >= -1 && x < 1 && y >= 7 && y < 9;
      EXPECT_EQ(s.at(x, y), in ? 0xFF0080FFu : 0u) << x << "," << y;
    }
  }
  ColorSurface s16(ColorFormat::RGB565);
  RenderBackend::clearColor(ColorFormat::RGB565, s16.view(), -2, 6, 2, 10, c);
  EXPECT_EQ(s16.at(1, 9), 0xF800u | (32u << 5));
  RenderBackend::clearColor(ColorFormat::RGB565, s16.view(), 1, 6, 1, 10, c);  // empty: no-op
}

// GLES 2.0 §4.2.3: a clear writes only the channels the colour mask enables.
TEST(RbClear, ColorWriteMask) {  // the fixture surface spans (-2,6)..(1,9)
  ColorSurface s(ColorFormat::RGBA8);
  const float white[4] = {1, 1, 1, 1}, black[4] = {0, 0, 0, 0};
  RenderBackend::clearColor(ColorFormat::RGBA8, s.view(), -2, 6, 0, 8, white);
  RenderBackend::clearColor(ColorFormat::RGBA8, s.view(), -2, 6, 0, 8, black, 0x5);  // R and B
  EXPECT_EQ(s.at(-1, 7), 0xFF00FF00u);
  RenderBackend::clearColor(ColorFormat::RGBA8, s.view(), -2, 6, 0, 8, white, 0x0);  // nothing
  EXPECT_EQ(s.at(-1, 7), 0xFF00FF00u);
  ColorSurface s16(ColorFormat::RGB565);
  RenderBackend::clearColor(ColorFormat::RGB565, s16.view(), -2, 6, 0, 8, white);
  RenderBackend::clearColor(ColorFormat::RGB565, s16.view(), -2, 6, 0, 8, black, 0x2);  // G only
  EXPECT_EQ(s16.at(-2, 6), 0xF81Fu);
}

}  // namespace
}  // namespace tessera::gpu::rb
