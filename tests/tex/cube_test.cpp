// Cube maps: face selection and face coordinates (GLES 2.0 §3.7.5, Table 3.21), the face layout
// in memory, clamping at face edges, and the quad LOD.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "gpu/tex/cube_face.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

TEST(TexCube, MajorAxisPicksTheFace) {
  struct Case {
    float x, y, z;
    uint32_t face;
    float s, t;
  } cases[] = {
      {1, 0.5f, -0.5f, 0, 0.75f, 0.25f},   // +X: sc = -z, tc = -y
      {-1, 0.5f, -0.5f, 1, 0.25f, 0.25f},  // -X: sc = +z, tc = -y
      {0.5f, 1, -0.5f, 2, 0.75f, 0.25f},   // +Y: sc = +x, tc = +z
      {0.5f, -1, -0.5f, 3, 0.75f, 0.75f},  // -Y: sc = +x, tc = -z
      {0.5f, 0.5f, 1, 4, 0.75f, 0.25f},    // +Z: sc = +x, tc = -y
      {0.5f, 0.5f, -1, 5, 0.25f, 0.25f},   // -Z: sc = -x, tc = -y
      {2, 2, 1, 0, 0.25f, 0.0f},           // a tie between x and y goes to x
  };
  for (const Case& c : cases) {
    const CubeCoord r = cubeFace(c.x, c.y, c.z);
    EXPECT_EQ(r.face, c.face) << c.x << "," << c.y << "," << c.z;
    EXPECT_FLOAT_EQ(r.s, c.s) << c.face;
    EXPECT_FLOAT_EQ(r.t, c.t) << c.face;
  }
}

// A 2x2 L8 cube, one mip level: face f holds 10*(f+1) + texel index.
TextureDescriptor cube(TexFixture& fx, uint32_t levels = 1) {
  std::vector<uint8_t> bytes;
  for (uint32_t l = 0; l < levels; ++l) {
    const uint32_t n = l == 0 ? 4 : 1;
    for (uint32_t f = 0; f < 6; ++f) {
      for (uint32_t i = 0; i < n; ++i)
        bytes.push_back(static_cast<uint8_t>(40 * l + 10 * (f + 1) + i));
    }
  }
  TextureDescriptor d = fx.make(TexFormat::L8, 2, 2, levels, bytes);
  d.cube = true;
  d.magFilter = d.minFilter = Filter::Nearest;
  return d;
}

TEST(TexCube, EachFaceReadsItsOwnTexels) {
  TexFixture fx;
  const TextureDescriptor d = cube(fx);
  EXPECT_EQ(totalBytes(d), 6u * 4u);
  EXPECT_EQ(faceOffset(d, 0, 3), 12u);
  const float dirs[6][3] = {{1, 0.5f, -0.5f},  {-1, 0.5f, -0.5f}, {0.5f, 1, -0.5f},
                            {0.5f, -1, -0.5f}, {0.5f, 0.5f, 1},   {0.5f, 0.5f, -1}};
  for (uint32_t f = 0; f < 6; ++f) {
    float out[4];
    fx.unit.sampleLodCube(d, dirs[f][0], dirs[f][1], dirs[f][2], 0.0f, out);
    const CubeCoord c = cubeFace(dirs[f][0], dirs[f][1], dirs[f][2]);
    const uint32_t texel = (c.t >= 0.5f ? 2 : 0) + (c.s >= 0.5f ? 1 : 0);
    EXPECT_FLOAT_EQ(out[0], (10.0f * (f + 1) + texel) / 255.0f) << f;
  }
}

TEST(TexCube, FacesClampAtTheirEdgesWhateverTheWrapMode) {
  TexFixture fx;
  TextureDescriptor d = cube(fx);
  d.magFilter = d.minFilter = Filter::Linear;
  d.wrapS = d.wrapT = Wrap::Repeat;
  float out[4];
  // The +X face's corner (s = t = 0 is sc = -1, tc = -1: z = 1, y = 1): bilinear at the very
  // corner reads only texel 0 when clamped; with repeat it would blend in the far texels.
  fx.unit.sampleLodCube(d, 1, 1, 1, 0.0f, out);
  EXPECT_FLOAT_EQ(out[0], 10.0f / 255.0f);
}

TEST(TexCube, QuadLodUsesTheFirstPixelsFace) {
  TexFixture fx;
  TextureDescriptor d = cube(fx, 2);
  d.mipFilter = MipFilter::Nearest;
  // Projected on +X (the first pixel's face), s and t step by a whole face (2 texels) per
  // pixel: lambda = log2(2) = 1, the second level (faces at 40 + 10 (f + 1)). The other pixels
  // point at other faces, which must not matter for the LOD.
  const float x[4] = {1, 1, 1, 1}, y[4] = {0, 0, -2, -2}, z[4] = {0, -2, 0, -2};
  float out[4][4];
  fx.unit.sampleQuadCube(d, x, y, z, 0.0f, out);
  EXPECT_FLOAT_EQ(out[0][0], 50.0f / 255.0f);
  // The same quad sampled with a bias of -1 gets level 0 back.
  fx.unit.sampleQuadCube(d, x, y, z, -1.0f, out);
  EXPECT_LT(out[0][0], 40.0f / 255.0f);
}

TEST(TexCube, NanDirectionsDoNotFault) {
  TexFixture fx;
  const TextureDescriptor d = cube(fx);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float out[4];
  fx.unit.sampleLodCube(d, nan, nan, nan, 0.0f, out);
  EXPECT_GE(out[0], 0.0f);
}

}  // namespace
}  // namespace tessera::gpu::tex
