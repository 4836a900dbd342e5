// A brute-force reference for the rasterizer tests: tests every pixel centre of a rectangle
// against a triangle's snapped edge functions evaluated directly (no stepping, no blocks).
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "gpu/ras/rasterizer.h"

namespace tessera::gpu::ras::testing {

struct SnappedTri {
  int64_t x[3], y[3];
  int64_t area2;  // signed, in (1/256 px)^2
};

inline SnappedTri snapTri(const Triangle& t) {
  SnappedTri s;
  for (int i = 0; i < 3; ++i) {
    s.x[i] = std::llround(static_cast<double>(t.v[i].x) * 256.0);
    s.y[i] = std::llround(static_cast<double>(t.v[i].y) * 256.0);
  }
  s.area2 = (s.x[1] - s.x[0]) * (s.y[2] - s.y[0]) - (s.y[1] - s.y[0]) * (s.x[2] - s.x[0]);
  return s;
}

// Edge from vertex a to vertex b, scaled so that the third vertex is on the positive side.
inline int64_t edgeAt(const SnappedTri& s, int a, int b, int64_t px, int64_t py) {
  const int64_t sign = s.area2 > 0 ? 1 : -1;
  return sign * ((s.x[b] - s.x[a]) * (py - s.y[a]) - (s.y[b] - s.y[a]) * (px - s.x[a]));
}

// Top edge: horizontal with the interior below (larger y); left edge: interior to its right.
inline bool isTopLeft(const SnappedTri& s, int a, int b) {
  const int64_t sign = s.area2 > 0 ? 1 : -1;
  const int64_t nx = -sign * (s.y[b] - s.y[a]);
  const int64_t ny = sign * (s.x[b] - s.x[a]);
  return nx > 0 || (nx == 0 && ny > 0);
}

inline bool covers(const SnappedTri& s, int px, int py) {
  if (s.area2 == 0) return false;
  const int64_t cx = int64_t{px} * 256 + 128, cy = int64_t{py} * 256 + 128;
  for (int i = 0; i < 3; ++i) {
    const int a = (i + 1) % 3, b = (i + 2) % 3;
    const int64_t e = edgeAt(s, a, b, cx, cy);
    if (e < 0 || (e == 0 && !isTopLeft(s, a, b))) return false;
  }
  return true;
}

using PixelCount = std::map<std::pair<int, int>, int>;

// Runs the rasterizer and adds each covered pixel to counts; checks quad invariants.
inline void rasterizeInto(Rasterizer& r, const Triangle& t, const Scissor& sc, PixelCount& counts,
                          bool* badQuad = nullptr) {
  r.rasterize(t, sc, [&](const Quad& q) {
    if ((q.x & 1) || (q.y & 1) || q.coverage == 0 || q.coverage > 0xf) {
      if (badQuad) *badQuad = true;
    }
    for (int i = 0; i < 4; ++i)
      if (q.coverage & (1 << i)) ++counts[{q.x + (i & 1), q.y + (i >> 1)}];
  });
}

}  // namespace tessera::gpu::ras::testing
