// Rasterizer coverage: tie cases of the top-left rule, windings, degenerate input, the guard
// band, scissoring, emission order and counters.
#include "gpu/ras/rasterizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "ras/ras_reference.h"

namespace tessera::gpu::ras {
namespace {

using testing::PixelCount;

constexpr Scissor kAll{-100000, -100000, 100000, 100000};

Triangle tri(float x0, float y0, float x1, float y1, float x2, float y2) {
  return Triangle{{{x0, y0, 0.5f, 1.0f}, {x1, y1, 0.5f, 1.0f}, {x2, y2, 0.5f, 1.0f}}, true};
}

PixelCount raster(const Triangle& t, const Scissor& sc = kAll) {
  Rasterizer r;
  PixelCount c;
  testing::rasterizeInto(r, t, sc, c);
  return c;
}

Triangle reversed(Triangle t) {
  std::swap(t.v[1], t.v[2]);
  return t;
}

TEST(Rasterizer, TopAndLeftEdgesOwnTies) {
  // Legs on x = 0.5 and y = 0.5 pass through pixel centres; the hypotenuse x + y = 5 as well.
  const Triangle upper = tri(0.5f, 0.5f, 4.5f, 0.5f, 0.5f, 4.5f);
  const Triangle lower = tri(4.5f, 0.5f, 4.5f, 4.5f, 0.5f, 4.5f);
  const PixelCount a = raster(upper), b = raster(lower);
  EXPECT_EQ(a.size(), 10u);  // top and left legs included, hypotenuse (bottom-right) excluded
  EXPECT_EQ(b.size(), 6u);   // hypotenuse is its top-left edge; its right and bottom legs are not
  for (const auto& [p, n] : a) {
    EXPECT_LE(p.first + p.second, 3);
    EXPECT_GE(p.first, 0);
    EXPECT_GE(p.second, 0);
  }
  for (const auto& [p, n] : b) {
    EXPECT_GE(p.first + p.second, 4);
    EXPECT_LE(p.first, 3);
    EXPECT_LE(p.second, 3);
    EXPECT_EQ(a.count(p), 0u);
  }
}

TEST(Rasterizer, HorizontalEdgeTies) {
  // Two triangles sharing a horizontal edge on the pixel-centre row y = 2.5: the lower one
  // (for which it is a top edge) owns that row.
  const PixelCount above = raster(tri(0.0f, 0.0f, 8.0f, 2.5f, 0.0f, 2.5f));
  const PixelCount below = raster(tri(0.0f, 2.5f, 8.0f, 2.5f, 0.0f, 5.0f));
  for (const auto& [p, n] : above) EXPECT_LT(p.second, 2);
  int row2 = 0;
  for (const auto& [p, n] : below) row2 += p.second == 2;
  EXPECT_EQ(row2, 8);
}

TEST(Rasterizer, BothWindingsCoverTheSamePixels) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> coord(-2000, 12000);
  for (int i = 0; i < 50; ++i) {
    const Triangle t = tri(coord(rng) / 256.0f, coord(rng) / 256.0f, coord(rng) / 256.0f,
                           coord(rng) / 256.0f, coord(rng) / 256.0f, coord(rng) / 256.0f);
    EXPECT_EQ(raster(t), raster(reversed(t)));
  }
}

TEST(Rasterizer, MatchesBruteForceReference) {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> coord(-4000, 20000);
  std::uniform_int_distribution<int> edge(-5, 70);
  for (int i = 0; i < 80; ++i) {
    const Triangle t = tri(coord(rng) / 256.0f, coord(rng) / 256.0f, coord(rng) / 256.0f,
                           coord(rng) / 256.0f, coord(rng) / 256.0f, coord(rng) / 256.0f);
    Scissor sc{edge(rng), edge(rng), 0, 0};
    sc.x1 = sc.x0 + 1 + edge(rng) % 40;
    sc.y1 = sc.y0 + 1 + edge(rng) % 40;
    const PixelCount got = raster(t, sc);
    const testing::SnappedTri s = testing::snapTri(t);
    PixelCount want;
    for (int y = sc.y0; y < sc.y1; ++y)
      for (int x = sc.x0; x < sc.x1; ++x)
        if (testing::covers(s, x, y)) want[{x, y}] = 1;
    EXPECT_EQ(got, want) << "triangle " << i;
  }
}

// The small-triangle walk visits exactly the quads, masks and order of the block walk: random
// triangles from under a pixel to past the small box, vertices on the 1/256 grid and some on
// pixel centres (so ties exercise the fill rule), against odd scissors.
TEST(Rasterizer, SmallWalkMatchesBlockWalk) {
  using Visited = std::vector<std::tuple<int, int, int>>;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> corner(-2000, 12000), size(1, 40 * 256), edge(-20, 60);
  int taken = 0;
  for (int i = 0; i < 3000; ++i) {
    const int x = corner(rng), y = corner(rng);
    auto near = [&](int c) { return (c + size(rng) - 20 * 256) / 256.0f; };
    // Every fourth triangle has two vertices on pixel centres (edges through centres).
    auto centre = [&](float c) { return i % 4 == 0 ? std::floor(c) + 0.5f : c; };
    const float x1 = centre(near(x)), y1 = centre(near(y));
    const float x2 = centre(near(x)), y2 = centre(near(y));
    const Triangle t = tri(x / 256.0f, y / 256.0f, x1, y1, x2, y2);
    Scissor sc{edge(rng), edge(rng), 0, 0};
    sc.x1 = sc.x0 + 1 + edge(rng) % 50 + 20;
    sc.y1 = sc.y0 + 1 + edge(rng) % 50 + 20;
    TriangleSetup s;
    if (!setupTriangle(t, sc, s)) continue;
    Visited small, blocks;
    auto into = [](Visited& v) {
      return [&v](int qx, int qy, uint8_t mask, uint16_t) { v.emplace_back(qx, qy, mask); };
    };
    if (!detail::walkSmall(s, into(small))) {
      EXPECT_TRUE(small.empty());
      continue;
    }
    ++taken;
    detail::walkBlocks(s, 1, into(blocks));
    ASSERT_EQ(small, blocks) << "triangle " << i;
  }
  EXPECT_GT(taken, 500);
}

// A small box's pixel rows come out the same from the SIMD form (where the build has one) and
// the scalar form the portable build uses, for every row and width of random boxes.
TEST(Rasterizer, SmallBoxRowsMatchScalarForm) {
  std::mt19937 rng(6);
  std::uniform_int_distribution<int> coord(0, 32 * 256), corner(-8, 8);
  int checked = 0, coveredRows = 0;
  for (int i = 0; i < 500; ++i) {
    // Every other triangle has its vertices on pixel centres, so edges meet centres (ties).
    float v[6];
    for (float& c : v) c = i % 2 ? std::floor(coord(rng) / 256.0f) + 0.5f : coord(rng) / 256.0f;
    TriangleSetup s;
    if (!setupTriangle(tri(v[0], v[1], v[2], v[3], v[4], v[5]), kAll, s)) continue;
    const int x0 = 2 * corner(rng), y0 = 2 * corner(rng);
    bool valid = false;
    for (int w = 1; w <= detail::kSmallBox; ++w) {
      const detail::SmallBoxEdges edges(s, x0, y0, w);
      if (!edges.valid()) break;
      valid = true;
      const uint32_t low = w == 32 ? ~0u : (1u << w) - 1u;
      for (int j = 0; j < detail::kSmallBox; ++j) {
        ASSERT_EQ(edges.row(j) & low, edges.rowScalar(j) & low)
            << "triangle " << i << " row " << j << " width " << w;
        coveredRows += (edges.rowScalar(j) & low) != 0;
      }
    }
    if (!valid) continue;
    ++checked;
  }
  EXPECT_GT(checked, 400);
  EXPECT_GT(coveredRows, 10000);  // the rows compared are not all empty
}

// A sliver whose edges are steep over a long span, cut to a few pixels by the scissor, has edge
// values beyond 32 bits inside its small box: the block walk takes it.
TEST(Rasterizer, SmallWalkDeclinesEdgesBeyondThirtyTwoBits) {
  const Triangle t = tri(-100000.0f, 3.2f, 100000.0f, 3.7f, -100000.0f, 9.9f);
  TriangleSetup s;
  ASSERT_TRUE(setupTriangle(t, Scissor{0, 0, 8, 8}, s));
  int visited = 0;
  EXPECT_FALSE(detail::walkSmall(s, [&](int, int, uint8_t, uint16_t) { ++visited; }));
  EXPECT_EQ(visited, 0);
  EXPECT_GT(raster(t, Scissor{0, 0, 8, 8}).size(), 0u);
}

TEST(Rasterizer, DegenerateTrianglesProduceNothing) {
  Rasterizer r;
  int quads = 0;
  auto count = [&](const Quad&) { ++quads; };
  r.rasterize(tri(1, 1, 5, 5, 9, 9), kAll, count);                          // collinear
  r.rasterize(tri(3, 3, 3, 3, 3, 3), kAll, count);                          // a point
  r.rasterize(tri(2.5f, 2.5f, 2.5001f, 2.5f, 2.5f, 2.5001f), kAll, count);  // snaps to a point
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  r.rasterize(tri(nan, 0, 10, 0, 0, 10), kAll, count);
  r.rasterize(tri(0, 0, inf, 0, 0, 10), kAll, count);
  r.rasterize(tri(0, 0, 10, 0, 0, 10), Scissor{5, 5, 5, 9}, count);   // empty scissor
  r.rasterize(tri(0.6f, 0.6f, 0.9f, 0.6f, 0.6f, 0.9f), kAll, count);  // misses every centre
  EXPECT_EQ(quads, 0);
  EXPECT_EQ(r.stats().triangles, 7u);
  EXPECT_EQ(r.stats().trianglesEmpty, 7u);
  EXPECT_EQ(r.stats().quads, 0u);
}

TEST(Rasterizer, GuardBandCoordinatesWithSmallScissor) {
  const Scissor sc{10, 20, 30, 27};
  const PixelCount c = raster(tri(-16000.0f, -16000.0f, 16000.0f, -16000.0f, 0.0f, 16000.0f), sc);
  EXPECT_EQ(c.size(), 20u * 7u);
  for (const auto& [p, n] : c) {
    EXPECT_TRUE(p.first >= 10 && p.first < 30 && p.second >= 20 && p.second < 27);
  }
  // Far beyond the guard band: the vertices are clamped, nothing overflows.
  const PixelCount huge = raster(tri(-1e9f, -1e9f, 1e9f, -1e9f, 0.0f, 1e9f), sc);
  EXPECT_EQ(huge.size(), 20u * 7u);
  // A sliver far outside the scissor touches nothing.
  EXPECT_TRUE(raster(tri(-16000.0f, 5000.0f, 16000.0f, 5001.0f, 0.0f, 5002.0f), sc).empty());
}

TEST(Rasterizer, ScissorClipsAtOddEdges) {
  const Scissor sc{3, 5, 11, 14};
  const PixelCount c = raster(tri(-50, -50, 100, -50, -50, 100), sc);
  EXPECT_EQ(c.size(), 8u * 9u);
  Rasterizer r;
  r.rasterize(tri(-50, -50, 100, -50, -50, 100), sc, [&](const Quad& q) {
    for (int i = 0; i < 4; ++i) {
      const int x = q.x + (i & 1), y = q.y + (i >> 1);
      const bool in = x >= 3 && x < 11 && y >= 5 && y < 14;
      EXPECT_EQ((q.coverage >> i) & 1, in ? 1 : 0);
    }
  });
  // Quads straddling the scissor edges are partial: pixels (2,y) and (x,4) are not covered.
  EXPECT_EQ(r.stats().pixelsCovered, 72u);
  EXPECT_EQ(r.stats().quads, 5u * 5u);
  EXPECT_EQ(r.stats().helperPixels, 4u * 25u - 72u);
}

TEST(Rasterizer, EmitsRowMajorBlocksAndAlignedQuads) {
  Rasterizer r;
  std::vector<std::pair<int, int>> order;
  r.rasterize(tri(-3.0f, -3.0f, 40.0f, -3.0f, -3.0f, 40.0f), kAll,
              [&](const Quad& q) { order.emplace_back(q.x, q.y); });
  ASSERT_FALSE(order.empty());
  auto blockKey = [](std::pair<int, int> q) {
    const int bx =
        q.first >= 0 ? q.first / kBlockSize : -((-q.first + kBlockSize - 1) / kBlockSize);
    const int by =
        q.second >= 0 ? q.second / kBlockSize : -((-q.second + kBlockSize - 1) / kBlockSize);
    return std::tuple(by, bx, q.second, q.first);
  };
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(order[i].first & 1, 0);
    EXPECT_EQ(order[i].second & 1, 0);
    if (i > 0) {
      EXPECT_LT(blockKey(order[i - 1]), blockKey(order[i]));
    }
  }
  // The same call gives the same sequence.
  std::vector<std::pair<int, int>> again;
  r.rasterize(tri(-3.0f, -3.0f, 40.0f, -3.0f, -3.0f, 40.0f), kAll,
              [&](const Quad& q) { again.emplace_back(q.x, q.y); });
  EXPECT_EQ(order, again);
}

TEST(Rasterizer, StatsCountQuadsPixelsAndHelpers) {
  Rasterizer r;
  uint64_t covered = 0, quads = 0;
  r.rasterize(tri(0.5f, 0.5f, 4.5f, 0.5f, 0.5f, 4.5f), kAll, [&](const Quad& q) {
    ++quads;
    covered += std::popcount(q.coverage);
  });
  EXPECT_EQ(covered, 10u);
  EXPECT_EQ(r.stats().triangles, 1u);
  EXPECT_EQ(r.stats().trianglesEmpty, 0u);
  EXPECT_EQ(r.stats().quads, quads);
  EXPECT_EQ(r.stats().pixelsCovered, 10u);
  EXPECT_EQ(r.stats().helperPixels, 4 * quads - 10);
  r.resetStats();
  EXPECT_EQ(r.stats().quads, 0u);
  EXPECT_EQ(r.stats().triangles, 0u);
}

TEST(Rasterizer, FullScreenTriangleCoversViewportOnce) {
  // The usual full-screen triangle against a 67x45 viewport scissor (blocks trivially accepted
  // inside, partial at the ragged edges).
  const Scissor sc{0, 0, 67, 45};
  const PixelCount c = raster(tri(-1.0f, -1.0f, 200.0f, -1.0f, -1.0f, 200.0f), sc);
  EXPECT_EQ(c.size(), 67u * 45u);
}

// Blocks offered whole (rasterizeBatches' emitBlock) are exactly the fully covered blocks, in
// their place in the quad order: taking every one and expanding it gives the plain walk's
// quads, and the counters are the same. Declining them gives the plain walk too.
TEST(Rasterizer, WholeBlocksAreTheFullyCoveredOnesInOrder) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> coord(-20.0f, 180.0f);
  int blocksTaken = 0;
  for (int i = 0; i < 300; ++i) {
    const Triangle t = tri(coord(rng), coord(rng), coord(rng), coord(rng), coord(rng), coord(rng));
    const Scissor sc = i % 3 ? kAll : Scissor{5, 9, 150, 131};
    using Seen = std::vector<std::tuple<int, int, int>>;
    Seen plain, whole, declined;
    Rasterizer a, b, c;
    a.rasterize(t, sc, [&](const Quad& q) { plain.emplace_back(q.x, q.y, q.coverage); });
    auto quadsInto = [](Seen& v) {
      return [&v](const Quad* q, int n) {
        for (int k = 0; k < n; ++k) v.emplace_back(q[k].x, q[k].y, q[k].coverage);
      };
    };
    b.rasterizeBatches(t, sc, quadsInto(whole), [&](const TriangleSetup&, int bx, int by) {
      EXPECT_EQ(bx % kBlockSize, 0);
      EXPECT_EQ(by % kBlockSize, 0);
      for (int qy = by; qy < by + kBlockSize; qy += 2)
        for (int qx = bx; qx < bx + kBlockSize; qx += 2) whole.emplace_back(qx, qy, 0xf);
      ++blocksTaken;
      return true;
    });
    c.rasterizeBatches(t, sc, quadsInto(declined),
                       [](const TriangleSetup&, int, int) { return false; });
    ASSERT_EQ(whole, plain) << "triangle " << i;
    ASSERT_EQ(declined, plain) << "triangle " << i;
    for (const Rasterizer* r : {&b, &c}) {
      EXPECT_EQ(r->stats().quads, a.stats().quads);
      EXPECT_EQ(r->stats().pixelsCovered, a.stats().pixelsCovered);
      EXPECT_EQ(r->stats().samplesCovered, a.stats().samplesCovered);
      EXPECT_EQ(r->stats().helperPixels, a.stats().helperPixels);
      EXPECT_EQ(r->stats().trianglesEmpty, a.stats().trianglesEmpty);
    }
  }
  EXPECT_GT(blocksTaken, 300);
}

}  // namespace
}  // namespace tessera::gpu::ras
