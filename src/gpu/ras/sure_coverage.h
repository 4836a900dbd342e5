// Coverage that is certain: whether a pixel centre lies inside a window triangle by a margin
// wider than anything the rasterizer's 1/256-pixel vertex snapping can move an edge. A pixel
// this test accepts is covered by the rasterizer whatever its tie-breaking rule, so blocks that
// rely on coverage to skip work (low-resolution Z occluders, the full-cover index of the
// interleaved resolve) stay exact.
#pragma once
#include <cmath>

#include "gpu/ras/ras_types.h"

namespace tessera::gpu::ras {

class SureCoverage final {
 public:
  // Margin in pixels: well beyond the 1/512 pixel that snapping can move an edge.
  static constexpr double kInsidePixels = 1.0 / 64.0;

  explicit SureCoverage(const Triangle& t) {
    const double ax = t.v[0].x, ay = t.v[0].y;
    const double area = (double(t.v[1].x) - ax) * (double(t.v[2].y) - ay) -
                        (double(t.v[1].y) - ay) * (double(t.v[2].x) - ax);
    valid_ = t.kind == PrimitiveKind::Polygon && std::fabs(area) > 0;
    const double sign = area > 0 ? 1.0 : -1.0;
    // Edge e at (px, py): sign × cross(b − a, p − a) − margin × |b − a| > 0 inside.
    for (int e = 0; e < 3; ++e) {
      const WindowVertex& a = t.v[e];
      const WindowVertex& b = t.v[(e + 1) % 3];
      const double ex = double(b.x) - a.x, ey = double(b.y) - a.y;
      dx_[e] = -sign * ey;
      dy_[e] = sign * ex;
      c_[e] = sign * (ey * a.x - ex * a.y) - kInsidePixels * std::hypot(ex, ey);
    }
  }
  // False for points, lines and degenerate triangles: they cover no pixel for sure.
  bool valid() const { return valid_; }

  // The centre of pixel (x, y) is surely inside.
  bool pixel(int x, int y) const {
    if (!valid_) return false;
    const double px = x + 0.5, py = y + 0.5;
    for (int e = 0; e < 3; ++e)
      if (!(c_[e] + dx_[e] * px + dy_[e] * py > 0)) return false;
    return true;
  }

  // Every pixel centre of the non-empty rectangle [x0,x1) × [y0,y1) is surely inside: the
  // triangle is convex, so checking the four corner pixels is enough.
  bool rect(const Scissor& r) const {
    return r.x1 > r.x0 && r.y1 > r.y0 && pixel(r.x0, r.y0) && pixel(r.x1 - 1, r.y0) &&
           pixel(r.x0, r.y1 - 1) && pixel(r.x1 - 1, r.y1 - 1);
  }

 private:
  double dx_[3]{}, dy_[3]{}, c_[3]{};
  bool valid_ = false;
};

}  // namespace tessera::gpu::ras
