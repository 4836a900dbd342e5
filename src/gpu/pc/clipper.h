// Clipping in homogeneous clip space (GLES 2.0 §2.12): against the near and far planes always,
// and against the x/y guard band only when a vertex lies beyond it, so that the rasterizer's
// fixed-point range is never exceeded. Varyings are interpolated linearly in clip space, which
// keeps them perspective-correct after the divide.
#pragma once
#include <array>
#include <cstdint>

#include "gpu/sp/warp.h"

namespace tessera::gpu::pc {

// A clip-space vertex: position followed by the varyings (numVaryings × 4 floats).
inline constexpr int kClipVertexFloats = 4 + 4 * sp::kMaxVaryings;
using ClipVertex = std::array<float, kClipVertexFloats>;

// A triangle clipped against 6 planes has at most 3 + 6 vertices.
inline constexpr int kMaxClipPolygon = 9;

// Plane i's signed distance; inside when >= 0.
[[gnu::always_inline]] inline float clipDistance(int plane, const float* p, float gbX, float gbY) {
  switch (plane) {
    case 0:
      return p[2] + p[3];  // near: z >= -w
    case 1:
      return p[3] - p[2];  // far: z <= w
    case 2:
      return gbX * p[3] + p[0];  // left guard band
    case 3:
      return gbX * p[3] - p[0];  // right guard band
    case 4:
      return gbY * p[3] + p[1];  // bottom guard band
    default:
      return gbY * p[3] - p[1];  // top guard band
  }
}

class Clipper final {
 public:
  // guardBandX/Y: the largest |x|/w and |y|/w (in NDC) the rasterizer accepts.
  void setGuardBand(float gbX, float gbY) {
    gbX_ = gbX;
    gbY_ = gbY;
  }
  // Outcode bits of a clip-space position (0: inside every plane). Inline: setup takes three a
  // triangle, in the binning pass and again in every bin the triangle reaches.
  uint32_t outcode(const float* pos) const {
    uint32_t code = 0;
    for (int plane = 0; plane < 6; ++plane)
      if (clipDistance(plane, pos, gbX_, gbY_) < 0.0f) code |= 1u << plane;
    return code;
  }
  // Clips the triangle; returns the polygon's vertex count (0 if nothing remains). The polygon's
  // vertices are valid until the next call. `floats` is how many floats of each vertex to carry.
  int clip(const float* v0, const float* v1, const float* v2, uint32_t codeUnion, int floats);
  // Clips a line segment to the same planes; false if nothing remains, else vertex(0) and
  // vertex(1) are its ends (GLES 2.0 §2.12: the clipped line's attributes are interpolated).
  bool clipLine(const float* v0, const float* v1, uint32_t codeUnion, int floats);
  const ClipVertex& vertex(int i) const { return poly_[i]; }
  // Flat varyings are not interpolated: the first n vertices get the provoking vertex's bits.
  void copyFlat(int n, const float* provoking, uint16_t flatVaryings) {
    for (int s = 0; s < sp::kMaxVaryings; ++s) {
      if (!(flatVaryings >> s & 1)) continue;
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < 4; ++c) poly_[i][4 + 4 * s + c] = provoking[4 + 4 * s + c];
    }
  }

 private:
  float gbX_ = 1.0f, gbY_ = 1.0f;
  std::array<ClipVertex, kMaxClipPolygon> poly_{}, scratch_{};
};

}  // namespace tessera::gpu::pc
