// Primitive setup of points, lines and polygon offset: sprite squares and gl_PointCoord data,
// line parallelograms covering one pixel per column or row, clipping, and the §3.5.2 offset.
#include "gpu/pc/primitive_setup.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace tessera::gpu::pc {
namespace {

constexpr ras::Scissor kAll{-4096, -4096, 4096, 4096};

// A 64x64 viewport: NDC x in [-1, 1] maps to window x in [0, 64].
PrimitiveSetup setup(const PrimitiveState& prim = {}) {
  PrimitiveSetup s;
  s.configure({32, 32, 32, 32, 0.5f, 0.5f}, {}, prim);
  return s;
}

// Clip-space vertex at window (x, y) with one varying vec4 = (r, 0, 0, 0) and a point size.
std::vector<float> vertex(float x, float y, float r = 0, float size = 0, float w = 1) {
  return {(x - 32) / 32 * w, (y - 32) / 32 * w, 0, w, r, 0, 0, 0, size, 0, 0, 0};
}

struct Drawn {
  std::vector<ras::Triangle> triangles;
  std::map<std::pair<int, int>, int> pixels;  // covered pixel -> times covered
};

template <class F>
Drawn draw(F&& run) {
  Drawn d;
  ras::Rasterizer r;
  run([&](const ras::Triangle& t, const float* const*) {
    d.triangles.push_back(t);
    r.rasterize(t, kAll, [&](const ras::Quad& q) {
      for (int i = 0; i < 4; ++i)
        if (q.coverage & (1 << i)) ++d.pixels[{q.x + (i & 1), q.y + (i >> 1)}];
    });
  });
  return d;
}

TEST(PointSetup, SpriteSquareCoversSizeSquaredPixels) {
  PrimitiveSetup s = setup();
  s.configure({32, 32, 32, 32, 0.5f, 0.5f}, {}, {.pointSize = 4});
  const auto v = vertex(10, 20);
  const Drawn d = draw([&](auto emit) { s.processPoint(v.data(), emit); });
  ASSERT_EQ(d.triangles.size(), 2u);
  EXPECT_EQ(d.pixels.size(), 16u);  // §3.3: pixel centres inside the 4x4 square at (10, 20)
  for (const auto& [p, n] : d.pixels) {
    EXPECT_EQ(n, 1) << "the diagonal is shared without double coverage";
    EXPECT_GE(p.first, 8);
    EXPECT_LT(p.first, 12);
    EXPECT_GE(p.second, 18);
    EXPECT_LT(p.second, 22);
  }
  for (const ras::Triangle& t : d.triangles) {
    EXPECT_EQ(t.kind, ras::PrimitiveKind::Point);
    EXPECT_TRUE(t.frontFacing);
    EXPECT_FLOAT_EQ(t.pointX, 10);
    EXPECT_FLOAT_EQ(t.pointY, 20);
    EXPECT_FLOAT_EQ(t.pointInvSize, 0.25f);
  }
  EXPECT_EQ(s.stats().points, 1u);
}

TEST(PointSetup, ShaderSizeIsClampedAndOddSizesCentre) {
  PrimitiveState prim;
  prim.pointSizeFloat = 8;  // the first component after the varying
  PrimitiveSetup s = setup(prim);
  auto pixels = [&](float size) {
    const auto v = vertex(10.5f, 20.5f, 0, size);
    return draw([&](auto emit) { s.processPoint(v.data(), emit); }).pixels.size();
  };
  EXPECT_EQ(pixels(3), 9u);
  EXPECT_EQ(pixels(0.25f), 1u);  // below 1: one pixel
  EXPECT_EQ(pixels(std::numeric_limits<float>::quiet_NaN()), 1u);
  const auto huge = vertex(10.5f, 20.5f, 0, 5000);
  std::vector<ras::Triangle> sprite;
  s.processPoint(huge.data(),
                 [&](const ras::Triangle& t, const float* const*) { sprite.push_back(t); });
  ASSERT_EQ(sprite.size(), 2u);
  EXPECT_FLOAT_EQ(sprite[0].v[1].x - sprite[0].v[0].x, kMaxPointSize);
}

TEST(PointSetup, PointsOutsideTheClipVolumeAreDiscarded) {
  PrimitiveSetup s = setup({.pointSize = 20});
  for (const auto& v : {vertex(-1, 20), vertex(70, 20), vertex(20, -0.5f)}) {
    EXPECT_TRUE(draw([&](auto emit) { s.processPoint(v.data(), emit); }).triangles.empty());
  }
  auto far = vertex(20, 20);
  far[2] = 1.5f;
  EXPECT_TRUE(draw([&](auto emit) { s.processPoint(far.data(), emit); }).triangles.empty());
  EXPECT_EQ(s.stats().trivialRejects, 4u);
  // A wide point whose centre is inside is drawn whole, beyond the viewport too.
  const auto edge = vertex(1, 20);
  EXPECT_EQ(draw([&](auto emit) { s.processPoint(edge.data(), emit); }).pixels.size(), 400u);
}

TEST(LineSetup, WidthOneLinesCoverOnePixelPerMajorStep) {
  PrimitiveSetup s = setup();
  for (auto [x0, y0, x1, y1] : {std::tuple{2.5f, 3.2f, 40.5f, 17.9f},      // x-major
                                std::tuple{40.5f, 3.7f, 2.5f, 19.1f},      // x-major, leftwards
                                std::tuple{5.3f, 1.5f, 20.8f, 50.5f},      // y-major
                                std::tuple{9.0f, 30.5f, 60.0f, 30.5f}}) {  // on pixel centres
    const auto a = vertex(x0, y0), b = vertex(x1, y1);
    const Drawn d = draw([&](auto emit) { s.processLine(a.data(), b.data(), 12, emit); });
    const bool xMajor = std::abs(x1 - x0) >= std::abs(y1 - y0);
    std::map<int, int> perStep;
    for (const auto& [p, n] : d.pixels) {
      EXPECT_EQ(n, 1);
      ++perStep[xMajor ? p.first : p.second];
    }
    for (const auto& [step, n] : perStep) EXPECT_EQ(n, 1) << "step " << step;
    // Half-open: the pixel centres from the first end up to the second.
    const float lo = std::min(xMajor ? x0 : y0, xMajor ? x1 : y1);
    const float hi = std::max(xMajor ? x0 : y0, xMajor ? x1 : y1);
    EXPECT_NEAR(double(perStep.size()), hi - lo, 1.0);
    for (const ras::Triangle& t : d.triangles) EXPECT_EQ(t.kind, ras::PrimitiveKind::Line);
  }
}

TEST(LineSetup, StripsNeverDrawASharedVertexTwice) {
  PrimitiveSetup s = setup();
  const auto a = vertex(2.5f, 2.5f), b = vertex(20.5f, 2.5f), c = vertex(20.5f, 30.5f);
  std::map<std::pair<int, int>, int> all;
  for (auto [p, q] : {std::pair{&a, &b}, std::pair{&b, &c}}) {
    const Drawn d = draw([&](auto emit) { s.processLine(p->data(), q->data(), 12, emit); });
    for (const auto& [px, n] : d.pixels) all[px] += n;
  }
  for (const auto& [px, n] : all) EXPECT_EQ(n, 1) << px.first << "," << px.second;
}

TEST(LineSetup, WideLinesSpanTheirWidthAcrossTheMinorAxis) {
  PrimitiveSetup s = setup({.lineWidth = 3});
  const auto a = vertex(4, 10.5f), b = vertex(30, 14.5f);
  const Drawn d = draw([&](auto emit) { s.processLine(a.data(), b.data(), 12, emit); });
  std::map<int, int> perColumn;
  for (const auto& [p, n] : d.pixels) ++perColumn[p.first];
  EXPECT_EQ(perColumn.size(), 26u);
  for (const auto& [x, n] : perColumn) EXPECT_EQ(n, 3) << "column " << x;
  // Widths clamp to the hardware's range.
  PrimitiveSetup wide = setup({.lineWidth = 1000});
  const Drawn w = draw([&](auto emit) { wide.processLine(a.data(), b.data(), 12, emit); });
  std::map<int, int> col;
  for (const auto& [p, n] : w.pixels) ++col[p.first];
  EXPECT_EQ(col[10], int(kMaxLineWidth));
}

TEST(LineSetup, ClippingKeepsTheVisiblePartWithInterpolatedVaryings) {
  PrimitiveSetup s = setup();
  // From window x = 10 to behind the far plane halfway: z goes 0 -> 3 (clip), so the far
  // plane z = w = 1 cuts at a third of the way.
  auto a = vertex(10.5f, 8.5f, 0.0f), b = vertex(40.5f, 8.5f, 3.0f);
  b[2] = 3.0f;
  std::vector<float> varyingAtEnds;
  const Drawn d = draw([&](auto emit) {
    s.processLine(a.data(), b.data(), 12, [&](const ras::Triangle& t, const float* const* vary) {
      varyingAtEnds.push_back(vary[1][0]);
      emit(t, vary);
    });
  });
  EXPECT_EQ(s.stats().clipped, 1u);
  ASSERT_FALSE(varyingAtEnds.empty());
  EXPECT_NEAR(varyingAtEnds[0], 1.0f, 1e-5f);  // r interpolated to the clip point
  EXPECT_EQ(d.pixels.size(), 10u);             // window x 10.5 .. 20.5
  // Wholly beyond the far plane: rejected without clipping.
  auto c = vertex(5, 8), e = vertex(1, 30);
  c[2] = e[2] = 2;
  EXPECT_TRUE(
      draw([&](auto emit) { s.processLine(c.data(), e.data(), 12, emit); }).triangles.empty());
  // Zero length: nothing.
  EXPECT_TRUE(
      draw([&](auto emit) { s.processLine(a.data(), a.data(), 12, emit); }).triangles.empty());
}

TEST(PolygonOffset, AddsSlopeTimesFactorPlusUnitsTimesResolution) {
  PrimitiveState prim{.polygonOffset = true, .offsetFactor = 2, .offsetUnits = 3};
  prim.depthResolution = 1.0f / 65535.0f;
  PrimitiveSetup s = setup(prim);
  // Window z rises 0.01 per pixel in x and 0.004 in y: m = 0.01.
  auto v = [](float x, float y) {
    std::vector<float> p = vertex(x, y);
    p[2] = 2 * (0.01f * x + 0.004f * y) - 1;  // window z = (z_ndc + 1) / 2
    return p;
  };
  const auto a = v(2, 2), b = v(30, 4), c = v(6, 28);
  const Drawn d = draw([&](auto emit) { s.process(a.data(), b.data(), c.data(), 12, emit); });
  ASSERT_EQ(d.triangles.size(), 1u);
  const float expected = 0.01f * 2 + 3.0f / 65535.0f;
  EXPECT_NEAR(d.triangles[0].v[0].z, 0.01f * 2 + 0.004f * 2 + expected, 1e-5f);
  EXPECT_NEAR(d.triangles[0].v[2].z, 0.01f * 6 + 0.004f * 28 + expected, 1e-5f);
  // Lines and points are not offset (GL_POLYGON_OFFSET_FILL applies to polygons).
  const Drawn l = draw([&](auto emit) { s.processLine(a.data(), b.data(), 12, emit); });
  EXPECT_NEAR(l.triangles[0].v[0].z, 0.01f * 2 + 0.004f * 2, 1e-6f);
}

}  // namespace
}  // namespace tessera::gpu::pc
