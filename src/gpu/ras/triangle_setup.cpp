#include "gpu/ras/triangle_setup.h"

#include <algorithm>
#include <cmath>

namespace tessera::gpu::ras {
namespace {

struct FixedVertex {
  int64_t x, y;
};

// Round-to-nearest snap to the sub-pixel grid after clamping into the supported range.
int64_t snap(float c) {
  const double clamped = std::clamp(static_cast<double>(c), -kMaxCoordinate, kMaxCoordinate);
  return std::llround(clamped * static_cast<double>(kSubpixelScale));
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

bool setupTriangle(const Triangle& tri, const Scissor& scissor, TriangleSetup& out) {
  FixedVertex v[3];
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(tri.v[i].x) || !std::isfinite(tri.v[i].y)) return false;
    v[i] = {snap(tri.v[i].x), snap(tri.v[i].y)};
    out.z[i] = tri.v[i].z;
    out.invW[i] = tri.v[i].invW;
  }
  const int64_t area2 =
      (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
  if (area2 == 0) return false;
  const int64_t sign = area2 > 0 ? 1 : -1;

  for (int i = 0; i < 3; ++i) {
    const FixedVertex& a = v[(i + 1) % 3];
    const FixedVertex& b = v[(i + 2) % 3];
    // Gradient (ex, ey) of the edge function points into the triangle.
    const int64_t ex = -sign * (b.y - a.y);
    const int64_t ey = sign * (b.x - a.x);
    // Top-left rule (GLES 2.0 §3.5.1 leaves ties to the implementation but requires that a
    // shared edge covers each sample once): with y growing downwards a left edge has the
    // interior to its right (ex > 0), a top edge is horizontal with the interior below it.
    const bool topLeft = ex > 0 || (ex == 0 && ey > 0);
    // Evaluate at pixel centres: X = px*256 + 128.
    const int64_t half = kSubpixelScale / 2;
    EdgeFunction& e = out.edge[i];
    e.stepX = ex * kSubpixelScale;
    e.stepY = ey * kSubpixelScale;
    e.origin = ex * (half - a.x) + ey * (half - a.y);
    e.threshold = topLeft ? 0 : 1;
  }
  out.invArea2 = 1.0 / static_cast<double>(area2 * sign);
  for (int i = 0; i < 3; ++i) {
    out.dldx[i] = static_cast<float>(static_cast<double>(out.edge[i].stepX) * out.invArea2);
    out.dldy[i] = static_cast<float>(static_cast<double>(out.edge[i].stepY) * out.invArea2);
  }

  // Conservative pixel bounding box: pixel px can be covered only if its centre lies inside
  // [minX, maxX].
  const int64_t minX = std::min({v[0].x, v[1].x, v[2].x});
  const int64_t maxX = std::max({v[0].x, v[1].x, v[2].x});
  const int64_t minY = std::min({v[0].y, v[1].y, v[2].y});
  const int64_t maxY = std::max({v[0].y, v[1].y, v[2].y});
  const int64_t bx0 = std::max<int64_t>(floorDiv(minX, kSubpixelScale), scissor.x0);
  const int64_t by0 = std::max<int64_t>(floorDiv(minY, kSubpixelScale), scissor.y0);
  const int64_t bx1 = std::min<int64_t>(floorDiv(maxX, kSubpixelScale) + 1, scissor.x1);
  const int64_t by1 = std::min<int64_t>(floorDiv(maxY, kSubpixelScale) + 1, scissor.y1);
  if (bx0 >= bx1 || by0 >= by1) return false;
  out.x0 = static_cast<int>(bx0);
  out.y0 = static_cast<int>(by0);
  out.x1 = static_cast<int>(bx1);
  out.y1 = static_cast<int>(by1);
  return true;
}

}  // namespace tessera::gpu::ras
