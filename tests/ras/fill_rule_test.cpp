// Meshes of triangles that share edges must cover every pixel of their union exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "ras/ras_reference.h"

namespace tessera::gpu::ras {
namespace {

using testing::PixelCount;

struct Mesh {
  std::vector<WindowVertex> verts;
  std::vector<std::array<int, 3>> tris;
};

Triangle makeTri(const Mesh& m, const std::array<int, 3>& t) {
  return Triangle{{m.verts[t[0]], m.verts[t[1]], m.verts[t[2]]}, true};
}

// Rasterizes the mesh and checks: no pixel twice; every pixel whose centre lies in the closed
// union but on no boundary edge (an edge used by one triangle) exactly once; each triangle's
// coverage equals the brute-force reference.
void checkMesh(const Mesh& m, const Scissor& sc) {
  Rasterizer r;
  PixelCount counts;
  bool badQuad = false;
  std::map<std::pair<int, int>, int> edgeUse;
  for (const auto& t : m.tris) {
    PixelCount one;
    testing::rasterizeInto(r, makeTri(m, t), sc, one, &badQuad);
    const testing::SnappedTri s = testing::snapTri(makeTri(m, t));
    for (const auto& [p, n] : one) {
      EXPECT_EQ(n, 1) << "pixel emitted twice by one triangle";
      EXPECT_TRUE(testing::covers(s, p.first, p.second)) << p.first << "," << p.second;
      counts[p] += n;
    }
    for (int i = 0; i < 3; ++i) {
      const int a = t[i], b = t[(i + 1) % 3];
      ++edgeUse[{std::min(a, b), std::max(a, b)}];
    }
  }
  EXPECT_FALSE(badQuad);
  float minX = 1e9f, minY = 1e9f, maxX = -1e9f, maxY = -1e9f;
  for (const auto& v : m.verts) {
    minX = std::min(minX, v.x), maxX = std::max(maxX, v.x);
    minY = std::min(minY, v.y), maxY = std::max(maxY, v.y);
  }
  int interior = 0;
  for (int py = static_cast<int>(std::floor(minY)) - 1; py <= static_cast<int>(maxY) + 1; ++py) {
    for (int px = static_cast<int>(std::floor(minX)) - 1; px <= static_cast<int>(maxX) + 1; ++px) {
      const auto it = counts.find({px, py});
      const int n = it == counts.end() ? 0 : it->second;
      ASSERT_LE(n, 1) << "pixel " << px << "," << py << " covered twice";
      const bool inScissor = px >= sc.x0 && px < sc.x1 && py >= sc.y0 && py < sc.y1;
      if (!inScissor) {
        EXPECT_EQ(n, 0);
        continue;
      }
      const int64_t cx = int64_t{px} * 256 + 128, cy = int64_t{py} * 256 + 128;
      bool inClosed = false, onBoundary = false;
      for (const auto& t : m.tris) {
        const testing::SnappedTri s = testing::snapTri(makeTri(m, t));
        if (s.area2 == 0) continue;
        int64_t e[3];
        for (int i = 0; i < 3; ++i) e[i] = testing::edgeAt(s, (i + 1) % 3, (i + 2) % 3, cx, cy);
        if (e[0] < 0 || e[1] < 0 || e[2] < 0) continue;
        inClosed = true;
        for (int i = 0; i < 3; ++i) {
          const int a = t[(i + 1) % 3], b = t[(i + 2) % 3];
          if (e[i] == 0 && edgeUse[{std::min(a, b), std::max(a, b)}] == 1) onBoundary = true;
        }
      }
      if (inClosed && !onBoundary) {
        ++interior;
        EXPECT_EQ(n, 1) << "interior pixel " << px << "," << py << " not covered";
      }
      if (!inClosed) {
        EXPECT_EQ(n, 0) << "pixel " << px << "," << py << " outside the mesh";
      }
    }
  }
  EXPECT_GT(interior, 0);
}

// A (cols+1) x (rows+1) vertex grid; boundary vertices stay on the rectangle, interior ones are
// jittered by up to `jitter` pixels on the 1/256 grid. Each cell picks a diagonal and each
// triangle a winding at random.
Mesh gridMesh(float x0, float y0, float cell, int cols, int rows, float jitter, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> j(-static_cast<int>(jitter * 256),
                                       static_cast<int>(jitter * 256));
  Mesh m;
  for (int r = 0; r <= rows; ++r) {
    for (int c = 0; c <= cols; ++c) {
      float x = x0 + c * cell, y = y0 + r * cell;
      if (c > 0 && c < cols) x += j(rng) / 256.0f;
      if (r > 0 && r < rows) y += j(rng) / 256.0f;
      m.verts.push_back({x, y, 0.5f, 1.0f});
    }
  }
  auto id = [&](int c, int r) { return r * (cols + 1) + c; };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int a = id(c, r), b = id(c + 1, r), d = id(c, r + 1), e = id(c + 1, r + 1);
      std::array<int, 3> t1, t2;
      if (rng() & 1) {
        t1 = {a, b, e}, t2 = {a, e, d};
      } else {
        t1 = {a, b, d}, t2 = {b, e, d};
      }
      if (rng() & 1) std::swap(t1[1], t1[2]);
      if (rng() & 1) std::swap(t2[1], t2[2]);
      m.tris.push_back(t1);
      m.tris.push_back(t2);
    }
  }
  return m;
}

constexpr Scissor kAll{-100000, -100000, 100000, 100000};

TEST(FillRule, RegularGridThroughPixelCentres) {
  // Grid lines at .5 put many pixel centres exactly on shared edges and vertices.
  checkMesh(gridMesh(3.5f, 2.5f, 4.0f, 6, 5, 0.0f, 1), kAll);
}

TEST(FillRule, RegularGridOnPixelCorners) {
  checkMesh(gridMesh(-8.0f, 4.0f, 3.0f, 7, 7, 0.0f, 2), kAll);
}

TEST(FillRule, JitteredGridsAtSubpixelPositions) {
  for (uint32_t seed = 10; seed < 16; ++seed)
    checkMesh(gridMesh(1.25f, -3.75f, 5.0f, 6, 6, 1.9f, seed), kAll);
}

TEST(FillRule, JitteredGridWithScissor) {
  checkMesh(gridMesh(0.0f, 0.0f, 6.0f, 6, 6, 2.0f, 77), Scissor{5, 3, 27, 30});
}

TEST(FillRule, RandomFans) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int fan = 0; fan < 8; ++fan) {
    Mesh m;
    const float cx = 20.0f + std::round(unit(rng) * 256.0f) / 256.0f;
    const float cy = 18.0f + (fan % 2 ? 0.5f : std::round(unit(rng) * 256.0f) / 256.0f);
    m.verts.push_back({cx, cy, 0.0f, 1.0f});
    const int spokes = 5 + fan;
    for (int i = 0; i < spokes; ++i) {
      const float angle = (i + 0.4f * unit(rng)) * 6.2831853f / spokes;
      const float radius = 6.0f + 10.0f * unit(rng);
      // Some spokes are axis-aligned through pixel centres to create ties.
      float x = cx + radius * std::cos(angle), y = cy + radius * std::sin(angle);
      x = std::round(x * 256.0f) / 256.0f;
      y = std::round(y * 256.0f) / 256.0f;
      m.verts.push_back({x, y, 0.0f, 1.0f});
    }
    for (int i = 0; i < spokes; ++i) {
      std::array<int, 3> t{0, 1 + i, 1 + (i + 1) % spokes};
      if (rng() & 1) std::swap(t[1], t[2]);
      m.tris.push_back(t);
    }
    checkMesh(m, kAll);
  }
}

TEST(FillRule, AxisAlignedFanThroughCentre) {
  // Centre vertex on a pixel centre with spokes along the axes and diagonals.
  Mesh m;
  m.verts.push_back({10.5f, 10.5f, 0.0f, 1.0f});
  const float d[8][2] = {{6, 0}, {6, 6}, {0, 6}, {-6, 6}, {-6, 0}, {-6, -6}, {0, -6}, {6, -6}};
  for (const auto& o : d) m.verts.push_back({10.5f + o[0], 10.5f + o[1], 0.0f, 1.0f});
  for (int i = 0; i < 8; ++i) m.tris.push_back({0, 1 + i, 1 + (i + 1) % 8});
  checkMesh(m, kAll);
}

TEST(FillRule, RandomStrips) {
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> j(-300, 300);
  for (int strip = 0; strip < 6; ++strip) {
    Mesh m;
    const int columns = 10;
    for (int c = 0; c < columns; ++c) {
      const float x = 2.0f + 7.0f * c;
      m.verts.push_back({x + j(rng) / 256.0f, 3.0f + j(rng) / 256.0f, 0.0f, 1.0f});
      m.verts.push_back({x + j(rng) / 256.0f, 15.5f + strip + j(rng) / 256.0f, 0.0f, 1.0f});
    }
    // Strip order: triangle i is (i, i+1, i+2), so windings alternate.
    for (int i = 0; i + 2 < static_cast<int>(m.verts.size()); ++i)
      m.tris.push_back({i, i + 1, i + 2});
    checkMesh(m, kAll);
  }
}

}  // namespace
}  // namespace tessera::gpu::ras
