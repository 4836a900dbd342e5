#include "gpu/pc/primitive_setup.h"

#include <algorithm>
#include <cmath>

namespace tessera::gpu::pc {

void PrimitiveSetup::configure(const ViewportState& vp, const CullState& cull,
                               const PrimitiveState& prim) {
  vp_ = vp;
  cull_ = cull;
  prim_ = prim;
  // The guard band in NDC: kGuardBand pixels either side of the viewport centre.
  const float sx = std::max(std::fabs(vp.xScale), 1.0f), sy = std::max(std::fabs(vp.yScale), 1.0f);
  clipper_.setGuardBand(kGuardBand / sx, kGuardBand / sy);
}

bool PrimitiveSetup::facing(const ras::WindowVertex* w, int n, bool& front) {
  // Twice the signed area in window coordinates (y up): positive = counter-clockwise.
  double area = 0.0;
  for (int i = 0; i < n; ++i) {
    const ras::WindowVertex& a = w[i];
    const ras::WindowVertex& b = w[i + 1 < n ? i + 1 : 0];  // no division per vertex
    area += double{a.x} * b.y - double{b.x} * a.y;
  }
  if (!(area != 0.0)) {  // zero area (or NaN) covers no pixel
    ++stats_.culled;
    return false;
  }
  front = (area > 0.0) != cull_.frontCW;
  if ((front && cull_.cullFront) || (!front && cull_.cullBack)) {
    ++stats_.culled;
    return false;
  }
  return true;
}

void PrimitiveSetup::offsetDepth(ras::WindowVertex* w, int n) const {
  // m = max(|dz/dx|, |dz/dy|) of the polygon's plane, taken from its largest fan triangle (a
  // clipped polygon can have slivers whose plane is ill-conditioned).
  double best = 0.0, dzdx = 0.0, dzdy = 0.0;
  for (int i = 1; i + 1 < n; ++i) {
    const double x1 = w[i].x - w[0].x, y1 = w[i].y - w[0].y, z1 = w[i].z - w[0].z;
    const double x2 = w[i + 1].x - w[0].x, y2 = w[i + 1].y - w[0].y, z2 = w[i + 1].z - w[0].z;
    const double area = x1 * y2 - x2 * y1;
    if (std::fabs(area) > best) {
      best = std::fabs(area);
      dzdx = (z1 * y2 - z2 * y1) / area;
      dzdy = (x1 * z2 - x2 * z1) / area;
    }
  }
  const double m = std::max(std::fabs(dzdx), std::fabs(dzdy));
  const float o = static_cast<float>(m * prim_.offsetFactor +
                                     double{prim_.depthResolution} * prim_.offsetUnits);
  for (int i = 0; i < n; ++i) w[i].z += o;
}

float PrimitiveSetup::pointSize(const float* v) const {
  const float s = prim_.pointSizeFloat >= 0 ? v[prim_.pointSizeFloat] : prim_.pointSize;
  return s >= 1.0f ? std::min(s, kMaxPointSize) : 1.0f;  // NaN and small sizes draw 1 pixel
}

}  // namespace tessera::gpu::pc
