// Rasterizer (ras/): walks a triangle's bounding box clipped to the scissor in 8x8 blocks,
// rejects or trivially accepts whole blocks from the edge functions at their corners, and emits
// 2x2 quads with coverage and interpolated z, 1/w and barycentrics to the next stage.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

#include "common/lane_count.h"
#include "gpu/ras/ras_types.h"
#include "gpu/ras/triangle_setup.h"

namespace tessera::gpu::ras {

class Rasterizer final {
 public:
  // Calls emit(const Quad&) for every quad with at least one covered pixel, blocks in row-major
  // order and quads row-major inside each block.
  template <class Emit>
  void rasterize(const Triangle& tri, const Scissor& scissor, Emit&& emit);

  const RasStats& stats() const { return stats_; }
  void resetStats() { stats_ = {}; }

 private:
  RasStats stats_{};
};

namespace detail {

// Largest and smallest value of an edge function over the pixel centres of a block whose
// top-left pixel has value e.
inline int64_t blockMax(const EdgeFunction& f, int64_t e) {
  constexpr int64_t n = kBlockSize - 1;
  return e + std::max<int64_t>(0, f.stepX * n) + std::max<int64_t>(0, f.stepY * n);
}
inline int64_t blockMin(const EdgeFunction& f, int64_t e) {
  constexpr int64_t n = kBlockSize - 1;
  return e + std::min<int64_t>(0, f.stepX * n) + std::min<int64_t>(0, f.stepY * n);
}

// Coverage bits of one quad for one edge, pixel i at (i&1, i>>1).
inline uint8_t edgeMask(const EdgeFunction& f, int64_t e) {
  return static_cast<uint8_t>((e >= f.threshold) | ((e + f.stepX >= f.threshold) << 1) |
                              ((e + f.stepY >= f.threshold) << 2) |
                              ((e + f.stepX + f.stepY >= f.threshold) << 3));
}

// Pixels of a quad at (qx,qy) that lie inside the half-open rectangle.
inline uint8_t rectMask(int qx, int qy, int x0, int y0, int x1, int y1) {
  const uint8_t cols =
      static_cast<uint8_t>((qx >= x0 && qx < x1) | ((qx + 1 >= x0 && qx + 1 < x1) << 1));
  const uint8_t rows =
      static_cast<uint8_t>((qy >= y0 && qy < y1) | ((qy + 1 >= y0 && qy + 1 < y1) << 1));
  return static_cast<uint8_t>(((rows & 1) ? cols : 0) | ((rows & 2) ? cols << 2 : 0));
}

inline int alignDown(int v, int a) {
  return v >= 0 ? v / a * a : -((-v + a - 1) / a) * a;
}

}  // namespace detail

template <class Emit>
void Rasterizer::rasterize(const Triangle& tri, const Scissor& scissor, Emit&& emit) {
  ++stats_.triangles;
  TriangleSetup s;
  if (!setupTriangle(tri, scissor, s)) {
    ++stats_.trianglesEmpty;
    return;
  }
  const EdgeFunction& f0 = s.edge[0];
  const EdgeFunction& f1 = s.edge[1];
  const EdgeFunction& f2 = s.edge[2];
  const uint64_t quadsBefore = stats_.quads;
  Quad quad;
  for (int by = detail::alignDown(s.y0, kBlockSize); by < s.y1; by += kBlockSize) {
    for (int bx = detail::alignDown(s.x0, kBlockSize); bx < s.x1; bx += kBlockSize) {
      const int64_t b0 = f0.at(bx, by), b1 = f1.at(bx, by), b2 = f2.at(bx, by);
      if (detail::blockMax(f0, b0) < f0.threshold || detail::blockMax(f1, b1) < f1.threshold ||
          detail::blockMax(f2, b2) < f2.threshold)
        continue;  // the block lies wholly outside one edge
      const bool inside = detail::blockMin(f0, b0) >= f0.threshold &&
                          detail::blockMin(f1, b1) >= f1.threshold &&
                          detail::blockMin(f2, b2) >= f2.threshold;
      const bool blockInRect =
          bx >= s.x0 && by >= s.y0 && bx + kBlockSize <= s.x1 && by + kBlockSize <= s.y1;
      const int qyEnd = std::min(by + kBlockSize, s.y1);
      const int qxEnd = std::min(bx + kBlockSize, s.x1);
      for (int qy = std::max(by, detail::alignDown(s.y0, 2)); qy < qyEnd; qy += 2) {
        const int64_t dy = qy - by;
        int64_t e0 = b0 + dy * f0.stepY, e1 = b1 + dy * f1.stepY, e2 = b2 + dy * f2.stepY;
        const int qxStart = std::max(bx, detail::alignDown(s.x0, 2));
        const int64_t dx = qxStart - bx;
        e0 += dx * f0.stepX;
        e1 += dx * f1.stepX;
        e2 += dx * f2.stepX;
        for (int qx = qxStart; qx < qxEnd; qx += 2) {
          uint8_t mask =
              inside ? uint8_t{0xf}
                     : static_cast<uint8_t>(detail::edgeMask(f0, e0) & detail::edgeMask(f1, e1) &
                                            detail::edgeMask(f2, e2));
          if (!blockInRect) mask &= detail::rectMask(qx, qy, s.x0, s.y0, s.x1, s.y1);
          if (mask != 0) {
            quad.x = qx;
            quad.y = qy;
            quad.coverage = mask;
            interpolateQuad(s, quad);
            const int covered = laneCount(mask);
            ++stats_.quads;
            stats_.pixelsCovered += static_cast<uint64_t>(covered);
            stats_.helperPixels += static_cast<uint64_t>(4 - covered);
            emit(static_cast<const Quad&>(quad));
          }
          e0 += 2 * f0.stepX;
          e1 += 2 * f1.stepX;
          e2 += 2 * f2.stepX;
        }
      }
    }
  }
  if (stats_.quads == quadsBefore) ++stats_.trianglesEmpty;
}

}  // namespace tessera::gpu::ras
