#include "gpu/pc/primitive_setup.h"

#include <algorithm>
#include <cmath>

namespace tessera::gpu::pc {

void PrimitiveSetup::configure(const ViewportState& vp, const CullState& cull) {
  vp_ = vp;
  cull_ = cull;
  // The guard band in NDC: kGuardBand pixels either side of the viewport centre.
  const float sx = std::max(std::fabs(vp.xScale), 1.0f), sy = std::max(std::fabs(vp.yScale), 1.0f);
  clipper_.setGuardBand(kGuardBand / sx, kGuardBand / sy);
}

bool PrimitiveSetup::facing(const ras::WindowVertex* w, int n, bool& front) {
  // Twice the signed area in window coordinates (y up): positive = counter-clockwise.
  double area = 0.0;
  for (int i = 0; i < n; ++i) {
    const ras::WindowVertex& a = w[i];
    const ras::WindowVertex& b = w[(i + 1) % n];
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

}  // namespace tessera::gpu::pc
