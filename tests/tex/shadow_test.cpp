// Depth comparison (OpenGL ES 3.0 §3.8.16): each texel is compared with the reference before
// filtering, the reference is clamped to [0, 1], every compare function, and cube-map shadows.
#include <gtest/gtest.h>

#include <vector>

#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

// A 2x1 D16 texture: depths 0.25 and 0.75 (16-bit), compare on.
TextureDescriptor depthRow(TexFixture& fx, CompareFunc f, Filter filter) {
  const uint16_t lo = 16384, hi = 49151;  // 0.2500019, 0.7499962
  TextureDescriptor d = fx.make(TexFormat::D16, 2, 1, 1,
                                {static_cast<uint8_t>(lo), static_cast<uint8_t>(lo >> 8),
                                 static_cast<uint8_t>(hi), static_cast<uint8_t>(hi >> 8)});
  d.compare = true;
  d.compareFunc = f;
  d.magFilter = d.minFilter = filter;
  d.wrapS = d.wrapT = Wrap::ClampToEdge;
  return d;
}

std::vector<float> shadow(TexFixture& fx, const TextureDescriptor& d, float s, float ref,
                          bool isShadow = true) {
  float out[4];
  fx.unit.sampleLodVec(d, {s, 0.5f, 0, ref}, isShadow, 0, out);
  return {out[0], out[1], out[2], out[3]};
}

TEST(TexShadow, EveryCompareFunction) {
  TexFixture fx;
  struct Case {
    CompareFunc f;
    float below, equal, above;  // ref 0.1, the texel's own depth, 0.9 against texel 0.25
  } cases[] = {
      {CompareFunc::Never, 0, 0, 0},   {CompareFunc::Less, 1, 0, 0},
      {CompareFunc::Equal, 0, 1, 0},   {CompareFunc::LEqual, 1, 1, 0},
      {CompareFunc::Greater, 0, 0, 1}, {CompareFunc::NotEqual, 1, 0, 1},
      {CompareFunc::GEqual, 0, 1, 1},  {CompareFunc::Always, 1, 1, 1},
  };
  const float texel = 16384.0f / 65535.0f;
  for (const Case& c : cases) {
    const TextureDescriptor d = depthRow(fx, c.f, Filter::Nearest);
    EXPECT_EQ(shadow(fx, d, 0.25f, 0.1f)[0], c.below) << static_cast<int>(c.f);
    EXPECT_EQ(shadow(fx, d, 0.25f, texel)[0], c.equal) << static_cast<int>(c.f);
    EXPECT_EQ(shadow(fx, d, 0.25f, 0.9f)[0], c.above) << static_cast<int>(c.f);
  }
}

TEST(TexShadow, ResultIsLuminanceWithOpaqueAlpha) {
  TexFixture fx;
  const TextureDescriptor d = depthRow(fx, CompareFunc::LEqual, Filter::Nearest);
  EXPECT_EQ(shadow(fx, d, 0.25f, 0.1f), (std::vector<float>{1, 1, 1, 1}));
  EXPECT_EQ(shadow(fx, d, 0.25f, 0.5f), (std::vector<float>{0, 0, 0, 1}));
}

// With LINEAR the 0/1 results are filtered, not the depths: halfway between 0.25 and 0.75 the
// reference 0.5 passes on one texel only, so the result is 1/2; filtering the depths first would
// give 0.5 <= 0.5, a full 1.
TEST(TexShadow, ComparesBeforeFiltering) {
  TexFixture fx;
  const TextureDescriptor d = depthRow(fx, CompareFunc::LEqual, Filter::Linear);
  EXPECT_FLOAT_EQ(shadow(fx, d, 0.5f, 0.5f)[0], 0.5f);
  // u = 0.5 + 3/8: the second texel weighs 3/8 (an exact multiple of 1/256).
  EXPECT_FLOAT_EQ(shadow(fx, d, 0.4375f, 0.5f)[0], 0.375f);
  EXPECT_FLOAT_EQ(shadow(fx, d, 0.4375f, 0.1f)[0], 1.0f);
}

TEST(TexShadow, ReferenceIsClampedToTheUnitRange) {
  TexFixture fx;
  const uint16_t one = 65535;
  TextureDescriptor d =
      fx.make(TexFormat::D16, 1, 1, 1, {static_cast<uint8_t>(one), static_cast<uint8_t>(one >> 8)});
  d.compare = true;
  d.compareFunc = CompareFunc::Equal;
  EXPECT_EQ(shadow(fx, d, 0.5f, 1.5f)[0], 1.0f);  // 1.5 clamps to 1 == the texel's 1
  d.compareFunc = CompareFunc::Greater;
  EXPECT_EQ(shadow(fx, d, 0.5f, 7.0f)[0], 0.0f);
}

TEST(TexShadow, NoComparisonWithoutCompareModeOrReference) {
  TexFixture fx;
  TextureDescriptor d = depthRow(fx, CompareFunc::Never, Filter::Nearest);
  const float texel = 16384.0f / 65535.0f;
  EXPECT_FLOAT_EQ(shadow(fx, d, 0.25f, 0.9f, false)[0], texel);  // no reference: the depth
  float out[4];
  fx.unit.sampleLod(d, 0.25f, 0.5f, 0, out);  // sam never compares
  EXPECT_FLOAT_EQ(out[0], texel);
  d.compare = false;
  EXPECT_FLOAT_EQ(shadow(fx, d, 0.25f, 0.9f)[0], texel);
  // Compare mode on a colour format: ignored (§3.8.16 applies to depth textures).
  TextureDescriptor c = fx.make(TexFormat::L8, 1, 1, 1, {51});
  c.compare = true;
  c.compareFunc = CompareFunc::Never;
  EXPECT_FLOAT_EQ(shadow(fx, c, 0.5f, 0.5f)[0], 51.0f / 255.0f);
}

// samplerCubeShadow: the face is chosen from the direction, then the comparison as in 2D.
TEST(TexShadow, CubeMapFaces) {
  TexFixture fx;
  std::vector<uint8_t> bytes;
  for (uint32_t f = 0; f < 6; ++f) {
    const auto depth = static_cast<uint16_t>(10000 * (f + 1));
    bytes.push_back(static_cast<uint8_t>(depth));
    bytes.push_back(static_cast<uint8_t>(depth >> 8));
  }
  TextureDescriptor d = fx.make(TexFormat::D16, 1, 1, 1, bytes);
  d.cube = true;
  d.compare = true;
  d.compareFunc = CompareFunc::Less;
  float out[4];
  const float dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (uint32_t f = 0; f < 6; ++f) {
    const float ref = (10000.0f * static_cast<float>(f + 1) - 5000.0f) / 65535.0f;
    fx.unit.sampleLodVec(d, {dirs[f][0], dirs[f][1], dirs[f][2], ref}, true, 0, out);
    EXPECT_EQ(out[0], 1.0f) << f;  // just below this face's depth
    fx.unit.sampleLodVec(d, {dirs[f][0], dirs[f][1], dirs[f][2], ref + 0.1f}, true, 0, out);
    EXPECT_EQ(out[0], 0.0f) << f;
  }
}

// Trilinear: both levels compare, then the level blend applies to the filtered results.
TEST(TexShadow, TrilinearBlendsComparedLevels) {
  TexFixture fx;
  // 2x1 level 0 (depths 0.2, 0.2), 1x1 level 1 (depth 0.8).
  const auto v = [](float x) { return static_cast<uint16_t>(x * 65535.0f); };
  std::vector<uint8_t> bytes;
  for (uint16_t depth : {v(0.2f), v(0.2f), v(0.8f)}) {
    bytes.push_back(static_cast<uint8_t>(depth));
    bytes.push_back(static_cast<uint8_t>(depth >> 8));
  }
  TextureDescriptor d = fx.make(TexFormat::D16, 2, 1, 2, bytes);
  d.compare = true;
  d.compareFunc = CompareFunc::LEqual;
  d.mipFilter = MipFilter::Linear;
  float out[4];
  fx.unit.sampleLodVec(d, {0.5f, 0.5f, 0, 0.5f}, true, 0.25f, out);
  EXPECT_FLOAT_EQ(out[0], 0.25f);  // level 0 fails (0), level 1 passes (1), weight 1/4
}

}  // namespace
}  // namespace tessera::gpu::tex
