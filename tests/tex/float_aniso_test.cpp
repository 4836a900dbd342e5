// Float and half-float texel formats (OES_texture_float, OES_texture_half_float and their
// _linear extensions) and anisotropic filtering (EXT_texture_filter_anisotropic) in the texture
// unit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "gpu/tex/texel_format.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

std::vector<uint8_t> halves(std::initializer_list<uint16_t> v) {
  std::vector<uint8_t> b(v.size() * 2);
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}
std::vector<uint8_t> floats(std::initializer_list<float> v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}

TEST(TexHalf, ConvertsEveryClassExactly) {
  using tessera::halfToFloat;
  EXPECT_EQ(halfToFloat(0x0000), 0.0f);
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);               // largest finite
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
}

// GLES 2.0 Table 3.8: L -> (L, L, L, 1), A -> (0, 0, 0, A), LA -> (L, L, L, A), RGB -> (R, G, B,
// 1).
TEST(TexFloat, ChannelsFollowTheBaseFormat) {
  struct Case {
    TexFormat f;
    std::vector<uint8_t> texel;
    float expect[4];
  };
  const Case cases[] = {
      {TexFormat::RGBA16F, halves({0x3c00, 0x3800, 0xc000, 0x3400}), {1, 0.5f, -2, 0.25f}},
      {TexFormat::RGB16F, halves({0x3800, 0x4000, 0x3400}), {0.5f, 2, 0.25f, 1}},
      {TexFormat::LA16F, halves({0x3800, 0x3400}), {0.5f, 0.5f, 0.5f, 0.25f}},
      {TexFormat::L16F, halves({0x4200}), {3, 3, 3, 1}},
      {TexFormat::A16F, halves({0x3800}), {0, 0, 0, 0.5f}},
      {TexFormat::RGBA32F, floats({1.5f, -0.5f, 100.0f, 0.125f}), {1.5f, -0.5f, 100, 0.125f}},
      {TexFormat::RGB32F, floats({0.1f, 0.2f, 0.3f}), {0.1f, 0.2f, 0.3f, 1}},
      {TexFormat::LA32F, floats({7.0f, 0.75f}), {7, 7, 7, 0.75f}},
      {TexFormat::L32F, floats({-1.0f}), {-1, -1, -1, 1}},
      {TexFormat::A32F, floats({0.3f}), {0, 0, 0, 0.3f}},
  };
  for (const Case& c : cases) {
    ASSERT_EQ(c.texel.size(), bytesPerTexel(c.f)) << static_cast<int>(c.f);
    float out[4];
    decodeTexel(c.f, c.texel.data(), out);
    for (int ch = 0; ch < 4; ++ch)
      EXPECT_EQ(out[ch], c.expect[ch]) << static_cast<int>(c.f) << " " << ch;
    EXPECT_TRUE(isFloatFormat(c.f));
  }
  EXPECT_FALSE(isFloatFormat(TexFormat::RGBA8));
  EXPECT_FALSE(isFloatFormat(TexFormat::ASTC_12x12));
}

// OES_texture_float_linear: bilinear filtering of unclamped values, through the unit.
TEST(TexFloat, LinearFilteringIsUnclamped) {
  TexFixture fx;
  auto d = fx.make(TexFormat::L32F, 2, 1, 1, floats({-4.0f, 12.0f}));
  d.wrapS = d.wrapT = Wrap::ClampToEdge;
  EXPECT_FLOAT_EQ(fx.lod(d, 0.5f, 0.5f, 0)[0], 4.0f);  // halfway between the texel centres
  EXPECT_FLOAT_EQ(fx.lod(d, 0.25f, 0.5f, 0)[0], -4.0f);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 2u * 4 * 4);  // 4 texels of 4 bytes per sample
  auto h = fx.make(TexFormat::RGBA16F, 2, 1, 1,
                   halves({0x4400, 0, 0, 0x3c00, 0x4800, 0, 0, 0x3c00}));  // R 4 and 8
  h.wrapS = h.wrapT = Wrap::ClampToEdge;
  EXPECT_FLOAT_EQ(fx.lod(h, 0.5f, 0.5f, 0)[0], 6.0f);
}

// A 64x64 L8 texture of horizontal stripes two texels high, with a box-filtered mip chain: at
// level 3 and coarser every texel is grey.
struct Stripes {
  TextureDescriptor d;
};
TextureDescriptor stripes(TexFixture& fx, uint8_t maxAnisotropy) {
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> level(64 * 64);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) level[y * 64 + x] = (y / 2) % 2 ? 0 : 255;
  uint32_t size = 64, levels = 0;
  for (;;) {
    bytes.insert(bytes.end(), level.begin(), level.end());
    ++levels;
    if (size == 1) break;
    const uint32_t half = size / 2;
    std::vector<uint8_t> next(size_t{half} * half);
    for (uint32_t y = 0; y < half; ++y)
      for (uint32_t x = 0; x < half; ++x) {
        const uint32_t s = level[2 * y * size + 2 * x] + level[2 * y * size + 2 * x + 1] +
                           level[(2 * y + 1) * size + 2 * x] +
                           level[(2 * y + 1) * size + 2 * x + 1];
        next[y * half + x] = static_cast<uint8_t>((s + 2) / 4);
      }
    level = std::move(next);
    size = half;
  }
  auto d = fx.make(TexFormat::L8, 64, 64, levels, bytes);
  d.minFilter = d.magFilter = Filter::Linear;
  d.mipFilter = MipFilter::Linear;
  d.maxAnisotropy = maxAnisotropy;
  return d;
}

// The plane seen at a grazing angle: one pixel step covers 8 texels along s and one along t.
// The stripes run along s, so they should stay sharp: only the footprint's minor axis (t)
// may choose the level.
struct Tilted {
  float contrast;
  uint64_t fetches;
};
Tilted drawTilted(uint8_t maxAnisotropy) {
  TexFixture fx;
  const TextureDescriptor d = stripes(fx, maxAnisotropy);
  float lo = 1, hi = 0;
  for (uint32_t row = 0; row < 64; ++row) {
    const float s0 = 0.3f, t0 = (static_cast<float>(row) + 0.5f) / 64;
    float s[4], t[4], out[4][4];
    for (int p = 0; p < 4; ++p) s[p] = s0 + (p & 1) * 8.0f / 64, t[p] = t0 + (p >> 1) / 64.0f;
    fx.unit.sampleQuad(d, s, t, 0.0f, out);
    lo = std::min(lo, out[0][0]), hi = std::max(hi, out[0][0]);
  }
  return {hi - lo, fx.unit.stats().texelFetches};
}

TEST(TexAnisotropic, FootprintFollowsTheExtension) {
  TextureDescriptor d;
  d.width = d.height = 64;
  d.maxAnisotropy = 16;
  const float s[4] = {0, 8.0f / 64, 0, 8.0f / 64}, t[4] = {0, 0, 1.0f / 64, 1.0f / 64};
  auto fp = TextureUnit::anisotropicFootprint(d, s, t, 0.0f);
  EXPECT_EQ(fp.probes, 8u);           // ceil(Pmax / Pmin) = 8
  EXPECT_FLOAT_EQ(fp.lambda, 0.0f);   // log2(Pmax / N) = log2(1)
  EXPECT_FLOAT_EQ(fp.ds, 8.0f / 64);  // along x: the major axis
  EXPECT_FLOAT_EQ(fp.dt, 0.0f);
  d.maxAnisotropy = 4;  // N clamps to the maximum; the level follows Pmax / N
  fp = TextureUnit::anisotropicFootprint(d, s, t, 0.0f);
  EXPECT_EQ(fp.probes, 4u);
  EXPECT_FLOAT_EQ(fp.lambda, 1.0f);
  d.maxAnisotropy = 1;  // off: the isotropic lambda
  fp = TextureUnit::anisotropicFootprint(d, s, t, 0.5f);
  EXPECT_EQ(fp.probes, 1u);
  EXPECT_FLOAT_EQ(fp.lambda, 3.5f);
  // Magnified footprints take one probe whatever the maximum.
  d.maxAnisotropy = 16;
  const float ms[4] = {0, 0.5f / 64, 0, 0.5f / 64}, mt[4] = {0, 0, 0.1f / 64, 0.1f / 64};
  EXPECT_EQ(TextureUnit::anisotropicFootprint(d, ms, mt, 0.0f).probes, 1u);
}

TEST(TexAnisotropic, TiltedPlaneIsSharperAndFetchesMore) {
  const Tilted iso = drawTilted(1), aniso = drawTilted(16);
  // Isotropic: level 3 (8 texels per pixel along s) has averaged the stripes to grey.
  EXPECT_LT(iso.contrast, 0.05f);
  // Anisotropic: 8 probes at level 0 along s keep the full stripe contrast.
  EXPECT_GT(aniso.contrast, 0.95f);
  // Trilinear: 8 texels per pixel; anisotropic: 8 bilinear probes of one level, 32 texels.
  EXPECT_EQ(iso.fetches, 64u * 4 * 8);
  EXPECT_EQ(aniso.fetches, 64u * 4 * 32);
}

TEST(TexAnisotropic, SamplesCountOneResultPerPixel) {
  TexFixture fx;
  const TextureDescriptor d = stripes(fx, 8);
  const float s[4] = {0.3f, 0.3f + 8.0f / 64, 0.3f, 0.3f + 8.0f / 64};
  const float t[4] = {0.1f, 0.1f, 0.1f + 1.0f / 64, 0.1f + 1.0f / 64};
  float out[4][4];
  fx.unit.sampleQuad(d, s, t, 0.0f, out);
  EXPECT_EQ(fx.unit.stats().samples, 4u);
  EXPECT_EQ(fx.unit.stats().quads, 1u);
}

}  // namespace
}  // namespace tessera::gpu::tex
