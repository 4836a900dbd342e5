// Interpolated z, 1/w and perspective-correct barycentrics against independent references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "gpu/ras/rasterizer.h"

namespace tessera::gpu::ras {
namespace {

constexpr Scissor kAll{-100000, -100000, 100000, 100000};

// Screen-space barycentrics of point (px,py) in double precision.
void linearBary(const Triangle& t, double px, double py, double l[3]) {
  const auto& a = t.v[0];
  const auto& b = t.v[1];
  const auto& c = t.v[2];
  const double area =
      (double(b.x) - a.x) * (double(c.y) - a.y) - (double(b.y) - a.y) * (double(c.x) - a.x);
  l[1] = ((px - a.x) * (double(c.y) - a.y) - (py - a.y) * (double(c.x) - a.x)) / area;
  l[2] = ((double(b.x) - a.x) * (py - a.y) - (double(b.y) - a.y) * (px - a.x)) / area;
  l[0] = 1.0 - l[1] - l[2];
}

TEST(RasterizerAttributes, ZAndInvWAreScreenLinear) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> coord(0, 64 * 256);
  std::uniform_real_distribution<float> unit(0.05f, 1.0f);
  for (int n = 0; n < 20; ++n) {
    Triangle t;
    for (auto& v : t.v) v = {coord(rng) / 256.0f, coord(rng) / 256.0f, unit(rng), unit(rng)};
    t.frontFacing = true;
    Rasterizer r;
    int quads = 0;
    r.rasterize(t, kAll, [&](const Quad& q) {
      ++quads;
      for (int i = 0; i < 4; ++i) {  // helper pixels included
        double l[3];
        linearBary(t, q.x + (i & 1) + 0.5, q.y + (i >> 1) + 0.5, l);
        const double z = l[0] * t.v[0].z + l[1] * t.v[1].z + l[2] * t.v[2].z;
        const double w = l[0] * t.v[0].invW + l[1] * t.v[1].invW + l[2] * t.v[2].invW;
        EXPECT_NEAR(q.z[i], z, 1e-4);
        EXPECT_NEAR(q.invW[i], w, 1e-4);
        const double b1 = l[1] * t.v[1].invW / w, b2 = l[2] * t.v[2].invW / w;
        EXPECT_NEAR(q.b1[i], b1, 1e-3 * std::max(1.0, std::abs(b1)));
        EXPECT_NEAR(q.b2[i], b2, 1e-3 * std::max(1.0, std::abs(b2)));
      }
    });
    (void)quads;
  }
}

TEST(RasterizerAttributes, AttributesFollowTheUnsnappedGeometry) {
  // Vertices off the 1/256 grid: coverage uses the snapped positions, but the barycentrics are
  // those of the true triangle, to float precision (not off by the snapping distance).
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(0.0f, 48.0f);
  for (int n = 0; n < 20; ++n) {
    Triangle t;
    for (auto& v : t.v) v = {coord(rng) + 0.0013f, coord(rng) + 0.0017f, 0.5f, 1.0f};
    t.frontFacing = true;
    Rasterizer r;
    r.rasterize(t, kAll, [&](const Quad& q) {
      for (int i = 0; i < 4; ++i) {
        double l[3];
        linearBary(t, q.x + (i & 1) + 0.5, q.y + (i >> 1) + 0.5, l);
        EXPECT_NEAR(q.b1[i], l[1], 2e-6 * std::max(1.0, std::abs(l[1])));
        EXPECT_NEAR(q.b2[i], l[2], 2e-6 * std::max(1.0, std::abs(l[2])));
      }
    });
  }
}

TEST(RasterizerAttributes, EqualWGivesLinearBarycentricsAtVertices) {
  // A vertex exactly on a pixel centre gets barycentric 1 there.
  const Triangle t{{{2.5f, 2.5f, 0.0f, 0.5f}, {12.5f, 2.5f, 1.0f, 0.5f}, {2.5f, 12.5f, 0.5f, 0.5f}},
                   true};
  Rasterizer r;
  bool seenV0 = false;
  r.rasterize(t, kAll, [&](const Quad& q) {
    for (int i = 0; i < 4; ++i) {
      const int x = q.x + (i & 1), y = q.y + (i >> 1);
      if (x == 2 && y == 2) {
        seenV0 = true;
        EXPECT_FLOAT_EQ(q.b1[i], 0.0f);
        EXPECT_FLOAT_EQ(q.b2[i], 0.0f);
        EXPECT_FLOAT_EQ(q.z[i], 0.0f);
      }
      EXPECT_NEAR(q.b1[i], (x - 2) / 10.0, 1e-6);
      EXPECT_NEAR(q.b2[i], (y - 2) / 10.0, 1e-6);
      EXPECT_NEAR(q.invW[i], 0.5, 1e-6);
    }
  });
  EXPECT_TRUE(seenV0);
}

// Perspective: project a 3D triangle, then for each pixel intersect the eye ray with the 3D
// triangle's plane and compare the 3D barycentrics with the rasterizer's.
TEST(RasterizerAttributes, PerspectiveCorrectBarycentricsMatchRayCast) {
  const double P[3][3] = {{-1.0, -1.0, -1.5}, {1.5, -0.5, -6.0}, {-0.5, 1.5, -3.0}};
  const double W = 64.0, H = 64.0;
  Triangle t;
  t.frontFacing = true;
  for (int i = 0; i < 3; ++i) {
    const double w = -P[i][2];  // clip w of a simple projection with focal length 1
    t.v[i].x = static_cast<float>((P[i][0] / w * 0.5 + 0.5) * W);
    t.v[i].y = static_cast<float>((P[i][1] / w * 0.5 + 0.5) * H);
    t.v[i].z = 0.5f;
    t.v[i].invW = static_cast<float>(1.0 / w);
  }
  Rasterizer r;
  int checked = 0;
  r.rasterize(t, Scissor{0, 0, 64, 64}, [&](const Quad& q) {
    for (int i = 0; i < 4; ++i) {
      if (!(q.coverage & (1 << i))) continue;
      const double sx = q.x + (i & 1) + 0.5, sy = q.y + (i >> 1) + 0.5;
      const double d[3] = {(sx / W - 0.5) * 2.0, (sy / H - 0.5) * 2.0, -1.0};
      // Solve t*d = P0 + b1*(P1-P0) + b2*(P2-P0) by Cramer's rule.
      double e1[3], e2[3];
      for (int k = 0; k < 3; ++k) e1[k] = P[1][k] - P[0][k], e2[k] = P[2][k] - P[0][k];
      auto det = [](const double a[3], const double b[3], const double c[3]) {
        return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
      };
      // Columns: d, -e1, -e2; right-hand side P0.
      double ne1[3], ne2[3];
      for (int k = 0; k < 3; ++k) ne1[k] = -e1[k], ne2[k] = -e2[k];
      const double D = det(d, ne1, ne2);
      const double b1 = det(d, P[0], ne2) / D;
      const double b2 = det(d, ne1, P[0]) / D;
      EXPECT_NEAR(q.b1[i], b1, 2e-3);
      EXPECT_NEAR(q.b2[i], b2, 2e-3);
      ++checked;
    }
  });
  EXPECT_GT(checked, 100);
}

TEST(RasterizerAttributes, HelperPixelsGetExtrapolatedAttributes) {
  // A one-pixel triangle: its quad has three helpers whose z continues the plane.
  const Triangle t{{{4.2f, 4.2f, 0.25f, 1.0f}, {5.0f, 4.2f, 0.5f, 1.0f}, {4.2f, 5.0f, 0.75f, 1.0f}},
                   true};
  Rasterizer r;
  int quads = 0;
  r.rasterize(t, kAll, [&](const Quad& q) {
    ++quads;
    EXPECT_EQ(q.coverage, 1);
    double l[3];
    linearBary(t, 5.5, 5.5, l);  // pixel 3 of the quad at (4,4)
    EXPECT_NEAR(q.z[3], l[0] * 0.25 + l[1] * 0.5 + l[2] * 0.75, 1e-3);
  });
  EXPECT_EQ(quads, 1);
  EXPECT_EQ(r.stats().helperPixels, 3u);
}

}  // namespace
}  // namespace tessera::gpu::ras

namespace tessera::gpu::ras {
namespace {

void expectSameInterpolation(const Quad& a, const Quad& b, int trial) {
  EXPECT_EQ(std::memcmp(a.z, b.z, sizeof a.z), 0) << trial;
  EXPECT_EQ(std::memcmp(a.invW, b.invW, sizeof a.invW), 0) << trial;
  EXPECT_EQ(std::memcmp(a.b1, b.b1, sizeof a.b1), 0) << trial;
  EXPECT_EQ(std::memcmp(a.b2, b.b2, sizeof a.b2), 0) << trial;
}

// The quad interpolation the rasterizer runs (SSE2, and AVX2 where the host has it) against the
// scalar arithmetic, to the bit: random planes and vertex values, quads far from the origin, 1/w
// planes that reach zero (the linear fallback) and a NaN 1/w.
TEST(RasterizerAttributes, QuadInterpolationMatchesTheScalarArithmeticToTheBit) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> plane(-0.02, 0.02), offset(-1.0, 2.0);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  std::uniform_int_distribution<int> position(-4096, 4096);
  for (int trial = 0; trial < 4000; ++trial) {
    TriangleSetup s{};
    for (int i = 0; i < 3; ++i) {
      s.a[i] = plane(rng);
      s.b[i] = plane(rng);
      s.c[i] = offset(rng);
      s.z[i] = value(rng);
      s.invW[i] = trial % 7 == 0 ? 0.0f : value(rng);
    }
    if (trial % 11 == 0) s.invW[1] = std::nanf("");
    Quad a{}, b{};
    a.x = b.x = 2 * position(rng);
    a.y = b.y = 2 * position(rng);
    interpolateQuad(s, a);
    interpolateQuadScalar(s, b);
    expectSameInterpolation(a, b, trial);
#if TESSERA_AVX2_CLONES
    if (hostSimdPath() == SimdPath::Avx2) {
      // One quad alone, and the same quad second of a pair beside another quad.
      Quad c[2]{};
      c[0].x = a.x;
      c[0].y = a.y;
      interpolateQuadsAvx2(s, c, 1);
      expectSameInterpolation(c[0], b, trial);
      c[1] = c[0];
      c[0].x = a.x - 2 * (trial % 5);
      c[0].y = a.y + 2 * (trial % 3);
      Quad d{};
      d.x = c[0].x;
      d.y = c[0].y;
      interpolateQuadScalar(s, d);
      interpolateQuadsAvx2(s, c, 2);
      expectSameInterpolation(c[0], d, trial);
      expectSameInterpolation(c[1], b, trial);
      // A half block whose top-left quad is this one: each of its 8 quads' lanes.
      HalfBlock h;
      interpolateHalfBlockAvx2(s, a.x, a.y, h);
      for (int k = 0; k < kHalfBlockQuads; ++k) {
        Quad want{}, got{};
        want.x = got.x = a.x + 2 * (k & 3);
        want.y = got.y = a.y + 2 * (k >> 2);
        interpolateQuadScalar(s, want);
        std::memcpy(got.z, h.z + 4 * k, sizeof got.z);
        std::memcpy(got.invW, h.invW + 4 * k, sizeof got.invW);
        std::memcpy(got.b1, h.b1 + 4 * k, sizeof got.b1);
        std::memcpy(got.b2, h.b2 + 4 * k, sizeof got.b2);
        expectSameInterpolation(got, want, trial);
      }
    }
#endif
  }
}

}  // namespace
}  // namespace tessera::gpu::ras
