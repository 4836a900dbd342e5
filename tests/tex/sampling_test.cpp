// Wrap modes, filters, level selection, faults and byte counting of the texture unit.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu/tex/lod_log2.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

constexpr float k = 1.0f / 255.0f;

// A 4x1 L8 row 10, 20, 30, 40.
TextureDescriptor row(TexFixture& fx, Wrap w, Filter f) {
  auto d = fx.make(TexFormat::L8, 4, 1, 1, {10, 20, 30, 40});
  d.wrapS = d.wrapT = w;
  d.magFilter = d.minFilter = f;
  return d;
}

float red(TexFixture& fx, const TextureDescriptor& d, float s) {
  return fx.lod(d, s, 0.5f, 0)[0];
}

TEST(TexWrap, RepeatNearest) {
  TexFixture fx;
  const auto d = row(fx, Wrap::Repeat, Filter::Nearest);
  EXPECT_FLOAT_EQ(red(fx, d, 0.0f), 10 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 0.99f), 40 * k);
  EXPECT_FLOAT_EQ(red(fx, d, -0.1f), 40 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 1.1f), 10 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 1000.375f), 20 * k);
  EXPECT_FLOAT_EQ(red(fx, d, -1000.875f), 10 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 1e30f), 10 * k);  // no overflow far outside
}

TEST(TexWrap, ClampToEdgeNearest) {
  TexFixture fx;
  const auto d = row(fx, Wrap::ClampToEdge, Filter::Nearest);
  EXPECT_FLOAT_EQ(red(fx, d, -5.0f), 10 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 1.0f), 40 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 5.0f), 40 * k);
  EXPECT_FLOAT_EQ(red(fx, d, 0.3f), 20 * k);
  EXPECT_FLOAT_EQ(red(fx, d, -1e30f), 10 * k);
}

TEST(TexWrap, MirroredRepeatNearest) {
  TexFixture fx;
  const auto d = row(fx, Wrap::MirroredRepeat, Filter::Nearest);
  EXPECT_FLOAT_EQ(red(fx, d, 1.1f), 40 * k);      // mirrored: 0.9
  EXPECT_FLOAT_EQ(red(fx, d, 1.3f), 30 * k);      // 0.7
  EXPECT_FLOAT_EQ(red(fx, d, -0.1f), 10 * k);     // 0.1
  EXPECT_FLOAT_EQ(red(fx, d, -1000.3f), 20 * k);  // 0.3
  EXPECT_FLOAT_EQ(red(fx, d, 2.1f), 10 * k);      // period 2
}

// Texel offsets are added to the unwrapped texel coordinate u = s * width (OpenGL ES 3.0
// §3.8.10), so the wrap mode sees the sum: clamping s first would move texels in from the edge.
TEST(TexWrap, TexelOffsetsApplyBeforeTheWrap) {
  TexFixture fx;
  auto at = [&](Wrap w, float s, int32_t du) {
    float out[4];
    fx.unit.sampleLod(row(fx, w, Filter::Nearest), s, 0.5f, 0, out, {du, 0});
    return out[0];
  };
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, -0.5f, 2), 10 * k);  // u = -2 + 2: texel 0
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, -0.2f, 2), 20 * k);  // u = -0.8 + 2: texel 1
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, 0.1f, 2), 30 * k);
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, 1.5f, -3), 40 * k);  // u = 6 - 3: texel 3
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, 1.3f, -3), 30 * k);  // u = 5.2 - 3: texel 2
  EXPECT_FLOAT_EQ(at(Wrap::ClampToEdge, 1e30f, -8), 40 * k);
  EXPECT_FLOAT_EQ(at(Wrap::Repeat, 0.9f, 1), 10 * k);           // u = 3.6 + 1: texel 4 wraps to 0
  EXPECT_FLOAT_EQ(at(Wrap::Repeat, 0.1f, -7), 20 * k);          // u = 0.4 - 7: texel -7 -> 1
  EXPECT_FLOAT_EQ(at(Wrap::MirroredRepeat, 1.1f, 1), 30 * k);   // texel 5 mirrors to 2
  EXPECT_FLOAT_EQ(at(Wrap::MirroredRepeat, 0.1f, -1), 10 * k);  // texel -1 mirrors to 0
  // Each level of a trilinear lookup is offset in its own texels: at level 1 (2 texels wide)
  // an offset of 1 moves half the texture.
  auto d = fx.make(TexFormat::L8, 4, 1, 2, {10, 20, 30, 40, 100, 200});
  d.minFilter = d.magFilter = Filter::Nearest;
  d.mipFilter = MipFilter::Nearest;
  float out[4];
  fx.unit.sampleLod(d, 0.1f, 0.5f, 1.0f, out, {1, 0});
  EXPECT_FLOAT_EQ(out[0], 200 * k);
}

TEST(TexWrap, BilinearAtEdges) {
  TexFixture fx;
  // At s = 0 the footprint straddles the left edge: repeat blends with the last texel.
  EXPECT_NEAR(red(fx, row(fx, Wrap::Repeat, Filter::Linear), 0.0f), 25 * k, 1e-6);
  EXPECT_NEAR(red(fx, row(fx, Wrap::ClampToEdge, Filter::Linear), 0.0f), 10 * k, 1e-6);
  EXPECT_NEAR(red(fx, row(fx, Wrap::MirroredRepeat, Filter::Linear), 0.0f), 10 * k, 1e-6);
  EXPECT_NEAR(red(fx, row(fx, Wrap::Repeat, Filter::Linear), 1.0f), 25 * k, 1e-6);
  EXPECT_NEAR(red(fx, row(fx, Wrap::ClampToEdge, Filter::Linear), 1.0f), 40 * k, 1e-6);
  EXPECT_NEAR(red(fx, row(fx, Wrap::ClampToEdge, Filter::Linear), 7.0f), 40 * k, 1e-6);
  // Between texel centres 1 and 2 (u = 2.0): halfway.
  EXPECT_NEAR(red(fx, row(fx, Wrap::ClampToEdge, Filter::Linear), 0.5f), 25 * k, 1e-6);
  // u = 1.75 -> u - 0.5 = 1.25: texels 1 and 2 weighted 0.75 / 0.25.
  EXPECT_NEAR(red(fx, row(fx, Wrap::Repeat, Filter::Linear), 1.75f / 4),
              (0.75f * 20 + 0.25f * 30) * k, 1e-6);
}

TEST(TexFilter, BilinearMatchesHandComputation) {
  TexFixture fx;
  // 2x2 RGBA8: T00 red, T10 green, T01 blue, T11 white (rows bottom-up in memory order).
  auto d = fx.make(TexFormat::RGBA8, 2, 2, 1,
                   {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255});
  d.wrapS = d.wrapT = Wrap::ClampToEdge;
  const auto c = fx.lod(d, 0.375f, 0.625f, 0);  // a = 0.25, b = 0.75
  const float w00 = 0.75f * 0.25f, w10 = 0.25f * 0.25f, w01 = 0.75f * 0.75f, w11 = 0.25f * 0.75f;
  EXPECT_NEAR(c[0], w00 + w11, 1e-6);
  EXPECT_NEAR(c[1], w10 + w11, 1e-6);
  EXPECT_NEAR(c[2], w01 + w11, 1e-6);
  EXPECT_NEAR(c[3], 1.0f, 1e-6);
  d.magFilter = Filter::Nearest;
  EXPECT_EQ(fx.lod(d, 0.375f, 0.625f, 0), (std::vector<float>{0, 0, 1, 1}));  // texel (0,1)
}

TEST(TexFilter, NonPowerOfTwoTexelCentres) {
  TexFixture fx;
  std::vector<uint8_t> bytes(3 * 5 * 4);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  auto d = fx.make(TexFormat::RGBA8, 3, 5, 1, bytes);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 3; ++x) {
      const auto c = fx.lod(d, (x + 0.5f) / 3, (y + 0.5f) / 5, 0);  // bilinear at a centre
      for (int ch = 0; ch < 4; ++ch) EXPECT_NEAR(c[ch], bytes[(y * 3 + x) * 4 + ch] * k, 1e-5);
    }
  }
  d.magFilter = Filter::Nearest;
  EXPECT_NEAR(fx.lod(d, 1.0f + 2.5f / 3, 0.1f, 0)[0], bytes[2 * 4] * k, 1e-6);  // repeat on NPOT
}

// Unorm texels are filtered as the integers they store and the sum expanded once, as a texture
// unit filters in fixed point: (w0 c0 + w1 c1) / 255, not w0 (c0 / 255) + w1 (c1 / 255). The
// two differ in the last bit for these texels and weights, so the test tells them apart.
TEST(TexFilter, StoredIntegersAreWeightedThenExpandedOnce) {
  TexFixture fx;
  int differing = 0;
  for (uint8_t c0 : {3, 77, 200}) {
    for (uint8_t c1 : {1, 128, 254}) {
      auto d = fx.make(TexFormat::L8, 2, 1, 1, {c0, c1});
      d.wrapS = d.wrapT = Wrap::ClampToEdge;
      for (int step : {1, 85, 170, 201}) {
        const float s = (0.5f + step / 256.0f) / 2.0f;  // texel 0's centre + step / 256
        const float a = step / 256.0f;
        const float weighted = ((1 - a) * c0 + a * c1) / 255.0f;
        const float expanded = (1 - a) * (c0 / 255.0f) + a * (c1 / 255.0f);
        differing += weighted != expanded;
        EXPECT_EQ(fx.lod(d, s, 0.5f, 0)[0], weighted) << int(c0) << " " << int(c1) << " " << step;
      }
    }
  }
  EXPECT_GT(differing, 0);
}

// 4x4 L8 chain: level 0 = 0, level 1 = 200, level 2 = 100.
TextureDescriptor chain(TexFixture& fx, MipFilter mip, Filter min) {
  std::vector<uint8_t> b(16, 0);
  b.insert(b.end(), 4, 200);
  b.push_back(100);
  auto d = fx.make(TexFormat::L8, 4, 4, 3, b);
  d.mipFilter = mip;
  d.minFilter = min;
  return d;
}

// Filter weights have 8 fractional bits, as in hardware texture units: a position 0.3/256 of a
// texel past a step of 1/256 weighs exactly that step; the same holds for the level fraction.
TEST(TexFilter, WeightsHaveEightFractionalBits) {
  TexFixture fx;
  auto d = fx.make(TexFormat::L8, 2, 1, 1, {0, 255});
  d.wrapS = d.wrapT = Wrap::ClampToEdge;
  for (int step : {0, 1, 37, 128, 255}) {
    const float s = (0.5f + (step + 0.3f) / 256.0f) / 2.0f;  // texel 0's centre + fraction
    EXPECT_FLOAT_EQ(fx.lod(d, s, 0.5f, 0)[0], step / 256.0f) << step;
  }
  const auto c = chain(fx, MipFilter::Linear, Filter::Linear);
  EXPECT_FLOAT_EQ(fx.lod(c, 0.3f, 0.6f, 1.0f + 10.7f / 256)[0], (200 - 100 * 10.0f / 256) * k);
}

TEST(TexMip, TrilinearBlendsLevels) {
  TexFixture fx;
  const auto d = chain(fx, MipFilter::Linear, Filter::Linear);
  EXPECT_NEAR(fx.lod(d, 0.3f, 0.6f, 0.25f)[0], 0.25f * 200 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.3f, 0.6f, 1.5f)[0], 150 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.3f, 0.6f, 2.0f)[0], 100 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.3f, 0.6f, 9.0f)[0], 100 * k, 1e-6);  // clamped to the last level
  EXPECT_NEAR(fx.lod(d, 0.3f, 0.6f, -1.0f)[0], 0.0f, 1e-6);    // magnification
}

TEST(TexMip, NearestLevelSelection) {
  TexFixture fx;
  const auto d = chain(fx, MipFilter::Nearest, Filter::Linear);
  EXPECT_NEAR(fx.lod(d, 0.5f, 0.5f, 0.4f)[0], 0.0f, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.5f, 0.5f, 0.6f)[0], 200 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.5f, 0.5f, 1.49f)[0], 200 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.5f, 0.5f, 1.51f)[0], 100 * k, 1e-6);
  EXPECT_NEAR(fx.lod(d, 0.5f, 0.5f, 30.0f)[0], 100 * k, 1e-6);
  const auto none = chain(fx, MipFilter::None, Filter::Linear);
  EXPECT_NEAR(fx.lod(none, 0.5f, 0.5f, 2.0f)[0], 0.0f, 1e-6);  // no mipmapping: level 0 only
}

// A 16x16 RGBA8 texture, 5 levels, each level one constant red value 10*(level+1), except that
// level 0 has a single bright texel at (1,0) to tell nearest from linear.
TextureDescriptor lodTexture(TexFixture& fx) {
  std::vector<uint8_t> b;
  for (uint32_t lv = 0; lv < 5; ++lv) {
    const uint32_t n = (16 >> lv) * (16 >> lv);
    for (uint32_t i = 0; i < n; ++i)
      b.insert(b.end(), {static_cast<uint8_t>(10 * (lv + 1)), 0, 0, 255});
  }
  b[4] = 250;  // texel (1,0) of level 0
  auto d = fx.make(TexFormat::RGBA8, 16, 16, 5, b);
  d.mipFilter = MipFilter::Nearest;
  d.minFilter = Filter::Nearest;
  d.magFilter = Filter::Nearest;
  return d;
}

// Quad with texel-space step `step` per pixel along both axes starting at texel (1.5, 0.5).
float quadRed(TexFixture& fx, const TextureDescriptor& d, float step, float bias, int pixel = 3) {
  const float s0 = 1.5f / 16, t0 = 0.5f / 16, ds = step / 16;
  const float s[4] = {s0, s0 + ds, s0, s0 + ds};
  const float t[4] = {t0, t0, t0 + ds, t0 + ds};
  float out[4][4];
  fx.unit.sampleQuad(d, s, t, bias, out);
  return out[pixel][0] / k;
}

TEST(TexLod, DerivativesPickTheLevel) {
  TexFixture fx;
  const auto d = lodTexture(fx);
  const float s[4] = {0, 2.0f / 16, 0, 2.0f / 16}, t[4] = {0, 0, 2.0f / 16, 2.0f / 16};
  EXPECT_NEAR(TextureUnit::quadLod(d, s, t, 0.0f), 1.0f, 1e-6);
  EXPECT_NEAR(TextureUnit::quadLod(d, s, t, 0.5f), 1.5f, 1e-6);
  EXPECT_NEAR(quadRed(fx, d, 2.0f, 0.0f), 20, 1e-3);      // minify by 2 -> level 1
  EXPECT_NEAR(quadRed(fx, d, 4.0f, 0.0f), 30, 1e-3);      // minify by 4 -> level 2
  EXPECT_NEAR(quadRed(fx, d, 2.0f, 1.0f), 30, 1e-3);      // bias +1
  EXPECT_NEAR(quadRed(fx, d, 64.0f, 0.0f), 50, 1e-3);     // clamped to the last level
  EXPECT_NEAR(quadRed(fx, d, 4.0f, -2.0f), 10, 1e-3);     // bias back to magnification
  EXPECT_NEAR(quadRed(fx, d, 0.5f, 0.0f, 0), 250, 1e-3);  // magnify: level 0, nearest
}

// The LOD's log2 (tex/lod_log2.h): exact at powers of two, denormals included; within 2e-5 of
// the true value everywhere else (3e-6 of interpolation, then float rounding of the sum); the
// special values as the level choice expects them.
TEST(TexLod, TheLodLog2IsExactAtPowersOfTwoAndCloseElsewhere) {
  for (int n = -149; n < 128; ++n) EXPECT_EQ(lodLog2(std::ldexp(1.0f, n)), float(n)) << n;
  double worst = 0;
  for (uint64_t b = 1; b < 0x7f800000u; b += 997) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    worst = std::max(worst, std::fabs(double{lodLog2(x)} - std::log2(double{x})));
  }
  EXPECT_LT(worst, 2e-5);
  EXPECT_NEAR(lodLog2(3.0f), std::log2(3.0), 3e-6);
  EXPECT_EQ(lodLog2(0.0f), -INFINITY);
  EXPECT_EQ(lodLog2(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(lodLog2(-1.0f)));
  EXPECT_TRUE(std::isnan(lodLog2(NAN)));
}

TEST(TexLod, MagnificationUsesMagFilter) {
  TexFixture fx;
  auto d = lodTexture(fx);
  d.magFilter = Filter::Linear;
  // Pixel 0 at texel (1.5, 0.5) is a texel centre; pixel 1 at u = 1.75 blends texels 1 and 2.
  EXPECT_NEAR(quadRed(fx, d, 0.25f, 0.0f, 1), 0.75f * 250 + 0.25f * 10, 1e-3);
  d.magFilter = Filter::Nearest;
  EXPECT_NEAR(quadRed(fx, d, 0.25f, 0.0f, 1), 250, 1e-3);
}

TEST(TexLod, HalfSwitchOverForLinearMagWithNearestMip) {
  // §3.7.7: with LINEAR magnification and NEAREST_MIPMAP_NEAREST, lambda <= 0.5 magnifies.
  TexFixture fx;
  auto d = lodTexture(fx);
  d.magFilter = Filter::Linear;
  const float s[4] = {0.3f, 0.3f, 0.3f, 0.3f}, t[4] = {0.3f, 0.3f, 0.3f, 0.3f};
  float out[4];
  fx.unit.sampleLod(d, s[0], t[0], 0.4f, out);
  EXPECT_NEAR(out[0] / k, 10, 1e-3);  // level 0 (only the bright texel differs, far away)
  fx.unit.sampleLod(d, 1.75f / 16, 0.5f / 16, 0.4f, out);
  EXPECT_NEAR(out[0] / k, 0.75f * 250 + 0.25f * 10, 1e-3);  // linear, not nearest
  fx.unit.sampleLod(d, 1.75f / 16, 0.5f / 16, 0.6f, out);
  EXPECT_NEAR(out[0] / k, 20, 1e-3);  // minified: level 1
}

TEST(TexUnit, IncompleteTextureSamplesOpaqueBlack) {
  TexFixture fx;
  TextureDescriptor d;  // width 0, base 0: never touches memory
  float out[4];
  fx.unit.sampleLod(d, 0.5f, 0.5f, 0, out);
  EXPECT_EQ((std::vector<float>{out[0], out[1], out[2], out[3]}), (std::vector<float>{0, 0, 0, 1}));
  d.width = d.height = 4;
  d.levels = 0;
  float quad[4][4];
  const float st[4] = {0, 0, 0, 0};
  fx.unit.sampleQuad(d, st, st, 0, quad);
  for (auto& p : quad)
    EXPECT_EQ((std::vector<float>{p[0], p[1], p[2], p[3]}), (std::vector<float>{0, 0, 0, 1}));
  EXPECT_EQ(fx.unit.stats().texelFetches, 0u);
  EXPECT_EQ(fx.memory.stats()[BusClient::Texture].readBytes, 0u);
}

TEST(TexUnit, FaultsOutsideMemory) {
  TexFixture fx;
  auto d = fx.make(TexFormat::RGBA8, 4, 4, 1, std::vector<uint8_t>(64));
  float out[4];
  fx.unit.sampleLod(d, 0.5f, 0.5f, 0, out);  // fits exactly
  d.levels = 2;                              // the chain now runs past the buffer object
  EXPECT_THROW(fx.unit.sampleLod(d, 0.5f, 0.5f, 0, out), GpuFault);
  d.levels = 1;
  d.base += 4096 * 4;  // unmapped
  try {
    fx.unit.sampleLod(d, 0.5f, 0.5f, 0, out);
    FAIL() << "no fault";
  } catch (const GpuFault& f) {
    EXPECT_EQ(f.kind(), FaultKind::PageFault);
    EXPECT_EQ(f.client(), BusClient::Texture);
  }
  d.width = 1u << 20;  // larger than the unit addresses
  EXPECT_THROW(fx.unit.sampleLod(d, 0.5f, 0.5f, 0, out), GpuFault);
}

TEST(TexUnit, CountsTexelsAndBytes) {
  TexFixture fx;
  auto d = chain(fx, MipFilter::Linear, Filter::Linear);              // L8, 1 byte per texel
  const float s[4] = {0.1f, 0.1f + 2.0f / 4, 0.1f, 0.1f + 2.0f / 4};  // 2 texels per pixel
  const float t[4] = {0.1f, 0.1f, 0.1f + 1.0f / 4, 0.1f + 1.0f / 4};
  float out[4][4];
  fx.unit.sampleQuad(d, s, t, 0.5f, out);  // lambda 1.5: trilinear, 8 texels per pixel
  EXPECT_EQ(fx.unit.stats().quads, 1u);
  EXPECT_EQ(fx.unit.stats().samples, 4u);
  EXPECT_EQ(fx.unit.stats().texelFetches, 32u);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 32u);
  d.mipFilter = MipFilter::None;
  d.minFilter = Filter::Nearest;
  fx.unit.sampleQuad(d, s, t, 0.5f, out);  // 1 texel per pixel
  EXPECT_EQ(fx.unit.stats().texelFetches, 36u);
  auto rgba = fx.make(TexFormat::RGBA8, 2, 2, 1, std::vector<uint8_t>(16));
  float one[4];
  fx.unit.sampleLod(rgba, 0.5f, 0.5f, 0, one);  // bilinear: 4 texels x 4 bytes
  EXPECT_EQ(fx.unit.stats().bytesFetched, 36u + 16u);
  EXPECT_EQ(fx.memory.stats()[BusClient::Texture].readBytes, 52u);
  fx.unit.resetStats();
  EXPECT_EQ(fx.unit.stats().texelFetches, 0u);
}

}  // namespace
}  // namespace tessera::gpu::tex
