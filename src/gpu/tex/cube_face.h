// Texture unit (tex/): cube-map face selection, GLES 2.0 §3.7.5 and Table 3.21. The direction's
// major axis picks the face; the two other components, divided by the major one, give the face's
// s and t. Ties go to x, then y (the spec leaves them to the implementation).
#pragma once
#include <cmath>
#include <cstdint>

namespace tessera::gpu::tex {

struct CubeCoord {
  uint32_t face;  // 0..5: +X -X +Y -Y +Z -Z
  float s, t;
};

// s and t of the direction (rx, ry, rz) on `face`, whether or not it is the major axis.
inline void projectOnFace(uint32_t face, float rx, float ry, float rz, float& s, float& t) {
  float sc = 0, tc = 0, ma = 1;
  switch (face) {
    case 0:
      sc = -rz, tc = -ry, ma = rx;
      break;
    case 1:
      sc = rz, tc = -ry, ma = rx;
      break;
    case 2:
      sc = rx, tc = rz, ma = ry;
      break;
    case 3:
      sc = rx, tc = -rz, ma = ry;
      break;
    case 4:
      sc = rx, tc = -ry, ma = rz;
      break;
    default:
      sc = -rx, tc = -ry, ma = rz;
      break;
  }
  const float inv = 1.0f / std::fabs(ma);
  s = 0.5f * (sc * inv + 1.0f);
  t = 0.5f * (tc * inv + 1.0f);
}

inline CubeCoord cubeFace(float rx, float ry, float rz) {
  const float ax = std::fabs(rx), ay = std::fabs(ry), az = std::fabs(rz);
  CubeCoord c{};
  if (ax >= ay && ax >= az) {
    c.face = rx >= 0 ? 0 : 1;
  } else if (ay >= az) {
    c.face = ry >= 0 ? 2 : 3;
  } else {
    c.face = rz >= 0 ? 4 : 5;
  }
  projectOnFace(c.face, rx, ry, rz, c.s, c.t);
  return c;
}

}  // namespace tessera::gpu::tex
