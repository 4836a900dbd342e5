#include "gpu/pc/clipper.h"

#include <algorithm>

namespace tessera::gpu::pc {
int Clipper::clip(const float* v0, const float* v1, const float* v2, uint32_t codeUnion,
                  int floats) {
  std::copy_n(v0, floats, poly_[0].begin());
  std::copy_n(v1, floats, poly_[1].begin());
  std::copy_n(v2, floats, poly_[2].begin());
  int n = 3;
  for (int plane = 0; plane < 6 && n > 0; ++plane) {
    if (!(codeUnion & (1u << plane))) continue;
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const ClipVertex& a = poly_[i];
      const ClipVertex& b = poly_[i + 1 < n ? i + 1 : 0];
      const float da = clipDistance(plane, a.data(), gbX_, gbY_);
      const float db = clipDistance(plane, b.data(), gbX_, gbY_);
      if (da >= 0.0f) scratch_[m++] = a;
      if ((da >= 0.0f) != (db >= 0.0f)) {
        // Interpolate from the inside vertex so that the same edge clips identically whichever
        // triangle it belongs to (shared edges stay watertight).
        const bool aIn = da >= 0.0f;
        const ClipVertex& in = aIn ? a : b;
        const ClipVertex& out = aIn ? b : a;
        const float din = aIn ? da : db, dout = aIn ? db : da;
        const float t = din / (din - dout);
        ClipVertex& r = scratch_[m++];
        for (int k = 0; k < floats; ++k) r[k] = in[k] + t * (out[k] - in[k]);
      }
    }
    n = m;
    std::copy_n(scratch_.begin(), n, poly_.begin());
  }
  return n >= 3 ? n : 0;
}

bool Clipper::clipLine(const float* v0, const float* v1, uint32_t codeUnion, int floats) {
  // Parametric clipping: the part of v0 + t (v1 - v0) with t in [t0, t1] inside every plane.
  float t0 = 0.0f, t1 = 1.0f;
  for (int plane = 0; plane < 6; ++plane) {
    if (!(codeUnion & (1u << plane))) continue;
    const float d0 = clipDistance(plane, v0, gbX_, gbY_), d1 = clipDistance(plane, v1, gbX_, gbY_);
    if (d0 < 0.0f && d1 < 0.0f) return false;
    if (d0 < 0.0f) t0 = std::max(t0, d0 / (d0 - d1));
    if (d1 < 0.0f) t1 = std::min(t1, d0 / (d0 - d1));
  }
  if (!(t0 < t1)) return false;
  for (int k = 0; k < floats; ++k) {
    poly_[0][k] = v0[k] + t0 * (v1[k] - v0[k]);
    poly_[1][k] = v0[k] + t1 * (v1[k] - v0[k]);
  }
  return true;
}

}  // namespace tessera::gpu::pc
