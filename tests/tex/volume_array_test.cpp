// 3D and 2D array textures: the layout of their levels, 3D trilinear-in-space filtering and
// the wrap along r, the array layer's rounding and clamping, and texel fetches from both.
#include <gtest/gtest.h>

#include <vector>

#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

constexpr float k = 1.0f / 255.0f;

// A 2x2x4 L8 volume with a 1x1x2 second level: texel (i, j, z) = 10 * z + 2 * j + i + 1 and the
// level-1 slices 200 and 220.
TextureDescriptor volume(TexFixture& fx, uint32_t levels = 1) {
  std::vector<uint8_t> bytes;
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t t = 0; t < 4; ++t) bytes.push_back(static_cast<uint8_t>(10 * z + t + 1));
  if (levels > 1) bytes.insert(bytes.end(), {200, 220});
  TextureDescriptor d = fx.make(TexFormat::L8, 2, 2, levels, bytes);
  d.volume = true;
  d.depth = 4;
  d.magFilter = d.minFilter = Filter::Nearest;
  d.mipFilter = MipFilter::Nearest;
  return d;
}

float sampleVec(TexFixture& fx, const TextureDescriptor& d, TexCoord c, float lod = 0) {
  float out[4];
  fx.unit.sampleLodVec(d, c, false, lod, out);
  return out[0] / k;
}

TEST(TexVolume, LevelsHalveAllThreeAxes) {
  TexFixture fx;
  const TextureDescriptor d = volume(fx, 2);
  EXPECT_EQ(layerCount(d, 0), 4u);
  EXPECT_EQ(layerCount(d, 1), 2u);
  EXPECT_EQ(levelOffset(d, 1), 16u);
  EXPECT_EQ(totalBytes(d), 18u);
  EXPECT_EQ(faceOffset(d, 0, 3), 12u);  // slice 3 of level 0
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.75f, 0.6f}), 10 * 2 + 2 + 0 + 1, 1e-3);
  EXPECT_NEAR(sampleVec(fx, d, {0.5f, 0.5f, 0.6f}, 1.0f), 220, 1e-3);
}

TEST(TexVolume, NearestWrapsAlongR) {
  TexFixture fx;
  TextureDescriptor d = volume(fx);
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.25f, 1.1f}), 1, 1e-3);  // repeat: slice 0
  d.wrapR = Wrap::ClampToEdge;
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.25f, 1.1f}), 31, 1e-3);  // clamped: slice 3
  d.wrapR = Wrap::MirroredRepeat;
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.25f, 1.1f}), 31, 1e-3);  // mirrored: slice 3
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.25f, -0.1f}), 1, 1e-3);
}

// A texel offset's w moves r by whole slices of the level, before the wrap.
TEST(TexVolume, TexelOffsetAlongR) {
  TexFixture fx;
  const TextureDescriptor d = volume(fx);
  float out[4];
  fx.unit.sampleLodVec(d, {0.25f, 0.25f, 0.6f}, false, 0, out, {0, 0, 1});  // slice 2 + 1
  EXPECT_NEAR(out[0] * 255, 31, 1e-3);
  fx.unit.sampleLodVec(d, {0.25f, 0.25f, 0.6f}, false, 0, out, {1, 0, 2});  // 2 + 2 wraps to 0
  EXPECT_NEAR(out[0] * 255, 2, 1e-3);
}

// LINEAR on a 3D texture fetches 8 texels: two bilinear slices blended along r.
TEST(TexVolume, LinearBlendsEightTexels) {
  TexFixture fx;
  TextureDescriptor d = volume(fx);
  d.magFilter = d.minFilter = Filter::Linear;
  d.wrapS = d.wrapT = d.wrapR = Wrap::ClampToEdge;
  // u = 1.0, v = 1.0: the four texels of a slice equally; w = 1.5 + 0.25: slices 1 and 2 at 1/4.
  const float got = sampleVec(fx, d, {0.5f, 0.5f, 1.75f / 4});
  const float slice1 = 10 + 2.5f, slice2 = 20 + 2.5f;
  EXPECT_NEAR(got, 0.75f * slice1 + 0.25f * slice2, 1e-3);
  EXPECT_EQ(fx.unit.stats().texelFetches, 8u);
}

TEST(TexVolume, QuadLodCountsTheRDerivatives) {
  TextureDescriptor d;
  d.width = d.height = 16;
  d.depth = 64;
  d.volume = true;
  const float s[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0};
  const float r[4] = {0, 4.0f / 64, 0, 4.0f / 64};  // 4 texels of depth per pixel across
  EXPECT_FLOAT_EQ(TextureUnit::quadLod3(d, s, t, r, 0), 2.0f);
  EXPECT_FLOAT_EQ(TextureUnit::quadLod3(d, s, t, r, -0.5f), 1.5f);
}

// A 2x1 L8 array of 3 layers (layer l holds 10 * l + 1, 10 * l + 2) with a 1x1 second level.
TextureDescriptor layers(TexFixture& fx) {
  TextureDescriptor d = fx.make(TexFormat::L8, 2, 1, 2, {1, 2, 11, 12, 21, 22, 100, 110, 120});
  d.array = true;
  d.depth = 3;
  d.magFilter = d.minFilter = Filter::Nearest;
  d.mipFilter = MipFilter::Nearest;
  return d;
}

TEST(TexArray, LayerIsRoundedAndClamped) {
  TexFixture fx;
  const TextureDescriptor d = layers(fx);
  EXPECT_EQ(levelOffset(d, 1), 6u);  // every level keeps all layers
  EXPECT_EQ(totalBytes(d), 9u);
  struct Case {
    float layer, expect;
  } cases[] = {{0.49f, 1}, {0.5f, 11}, {1.4f, 11}, {1.6f, 21}, {7.0f, 21}, {-3.0f, 1}};
  for (const Case& c : cases)
    EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.5f, c.layer}), c.expect, 1e-3) << c.layer;
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.5f, 1.0f}, 1.0f), 110, 1e-3);  // level 1, layer 1
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NEAR(sampleVec(fx, d, {0.25f, 0.5f, nan}), 1, 1e-3);
}

TEST(TexArray, LinearNeverBlendsLayers) {
  TexFixture fx;
  TextureDescriptor d = layers(fx);
  d.magFilter = d.minFilter = Filter::Linear;
  d.wrapS = Wrap::ClampToEdge;
  EXPECT_NEAR(sampleVec(fx, d, {0.5f, 0.5f, 1.2f}), 11.5f, 1e-3);
  EXPECT_EQ(fx.unit.stats().texelFetches, 4u);
}

TEST(TexArray, QuadsSampleTheirOwnLayers) {
  TexFixture fx;
  const TextureDescriptor d = layers(fx);
  const TexCoord quad[4] = {{0.25f, 0.5f, 0}, {0.75f, 0.5f, 1}, {0.25f, 0.5f, 2}, {0.75f, 0.5f, 2}};
  float out[4][4];
  fx.unit.sampleQuadVec(d, quad, false, 0, out);
  EXPECT_NEAR(out[0][0] / k, 1, 1e-3);
  EXPECT_NEAR(out[1][0] / k, 12, 1e-3);
  EXPECT_NEAR(out[2][0] / k, 21, 1e-3);
  EXPECT_NEAR(out[3][0] / k, 22, 1e-3);
}

TEST(TexFetch, SlicesAndLayers) {
  TexFixture fx;
  const TextureDescriptor v = volume(fx, 2);
  float out[4];
  fx.unit.fetch(v, 1, 0, 2, 0, out);
  EXPECT_NEAR(out[0] / k, 22, 1e-3);
  fx.unit.fetch(v, 0, 0, 1, 1, out);  // level 1 has two slices
  EXPECT_NEAR(out[0] / k, 220, 1e-3);
  fx.unit.fetch(v, 0, 0, 2, 1, out);  // beyond them
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[3], 0.0f);
  const TextureDescriptor a = layers(fx);
  fx.unit.fetch(a, 1, 0, 2, 0, out);
  EXPECT_NEAR(out[0] / k, 22, 1e-3);
  fx.unit.fetch(a, 0, 0, 2, 1, out);  // level 1 still has all three layers
  EXPECT_NEAR(out[0] / k, 120, 1e-3);
  fx.unit.fetch(a, 0, 0, 3, 0, out);
  EXPECT_EQ(out[0], 0.0f);
  fx.unit.fetch(a, 0, 0, -1, 0, out);
  EXPECT_EQ(out[0], 0.0f);
}

}  // namespace
}  // namespace tessera::gpu::tex
