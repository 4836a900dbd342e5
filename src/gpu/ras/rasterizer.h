// Rasterizer (ras/): walks a triangle's bounding box clipped to the scissor in 8x8 blocks,
// rejects or trivially accepts whole blocks from the edge functions at their corners, and emits
// 2x2 quads with coverage and interpolated z, 1/w and barycentrics to the next stage. With a
// multisample target, coverage is decided at every sample position with the same fill rule.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include "common/counter_sum.h"

#include "common/lane_count.h"
#include "gpu/ras/ras_types.h"
#include "gpu/ras/sample_positions.h"
#include "gpu/ras/triangle_setup.h"

namespace tessera::gpu::ras {

class Rasterizer final {
 public:
  // Calls emit(const Quad&) for every quad with at least one covered pixel, blocks in row-major
  // order and quads row-major inside each block.
  template <class Emit>
  void rasterize(const Triangle& tri, const Scissor& scissor, Emit&& emit);

  // Samples per pixel of the render target: 1, 2 or 4 (GRAS from RB_MSAA_CNTL).
  void setSamples(uint32_t samples) { samples_ = samples; }
  uint32_t samples() const { return samples_; }

  const RasStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const RasStats& s) { addCounters(stats_, s); }
  void resetStats() { stats_ = {}; }

 private:
  RasStats stats_{};
  uint32_t samples_ = 1;
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

// Multisample: how far an edge function moves from a pixel centre to each sample (exact: the
// per-pixel steps are multiples of the 1/256-pixel grid), and the most it can move.
inline void sampleSteps(const EdgeFunction& f, uint32_t samples, int64_t out[kMaxSamples]) {
  const SampleOffset* o = sampleOffsets(samples);
  for (uint32_t j = 0; j < samples; ++j)
    out[j] = f.stepX / kSampleGrid * o[j].dx + f.stepY / kSampleGrid * o[j].dy;
}
inline int64_t sampleMargin(const EdgeFunction& f) {
  return (std::abs(f.stepX) + std::abs(f.stepY)) / kSampleGrid * kMaxSampleOffset;
}

// Sample coverage bits (4*i + s) of one quad for one edge.
inline uint16_t edgeSampleMask(const EdgeFunction& f, int64_t e, const int64_t steps[kMaxSamples],
                               uint32_t samples) {
  const int64_t pixel[4] = {e, e + f.stepX, e + f.stepY, e + f.stepX + f.stepY};
  uint16_t m = 0;
  for (int i = 0; i < 4; ++i)
    for (uint32_t j = 0; j < samples; ++j)
      if (pixel[i] + steps[j] >= f.threshold)
        m |= static_cast<uint16_t>(1u << (kPixelSampleBits * i + j));
  return m;
}

inline int alignDown(int v, int a) {
  return v >= 0 ? v / a * a : -((-v + a - 1) / a) * a;
}

}  // namespace detail

template <class Emit>
void Rasterizer::rasterize(const Triangle& tri, const Scissor& scissor, Emit&& emit) {
  ++stats_.triangles;
  const uint32_t samples = samples_;
  const bool ms = samples > 1;
  TriangleSetup s;
  if (!setupTriangle(tri, scissor, s)) {
    ++stats_.trianglesEmpty;
    return;
  }
  const EdgeFunction& f0 = s.edge[0];
  const EdgeFunction& f1 = s.edge[1];
  const EdgeFunction& f2 = s.edge[2];
  const uint64_t quadsBefore = stats_.quads;
  // Multisample: per-sample steps and the block tests' margin (0 at one sample per pixel).
  int64_t s0[kMaxSamples] = {}, s1[kMaxSamples] = {}, s2[kMaxSamples] = {};
  int64_t m0 = 0, m1 = 0, m2 = 0;
  if (ms) {
    detail::sampleSteps(f0, samples, s0);
    detail::sampleSteps(f1, samples, s1);
    detail::sampleSteps(f2, samples, s2);
    m0 = detail::sampleMargin(f0);
    m1 = detail::sampleMargin(f1);
    m2 = detail::sampleMargin(f2);
  }
  Quad quad;
  quad.sampleCoverage = 0;
  for (int by = detail::alignDown(s.y0, kBlockSize); by < s.y1; by += kBlockSize) {
    for (int bx = detail::alignDown(s.x0, kBlockSize); bx < s.x1; bx += kBlockSize) {
      const int64_t b0 = f0.at(bx, by), b1 = f1.at(bx, by), b2 = f2.at(bx, by);
      if (detail::blockMax(f0, b0) + m0 < f0.threshold ||
          detail::blockMax(f1, b1) + m1 < f1.threshold ||
          detail::blockMax(f2, b2) + m2 < f2.threshold)
        continue;  // the block lies wholly outside one edge
      const bool inside = detail::blockMin(f0, b0) - m0 >= f0.threshold &&
                          detail::blockMin(f1, b1) - m1 >= f1.threshold &&
                          detail::blockMin(f2, b2) - m2 >= f2.threshold;
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
          uint8_t mask;
          uint16_t sampleMask = 0;
          if (!ms) {
            mask = inside
                       ? uint8_t{0xf}
                       : static_cast<uint8_t>(detail::edgeMask(f0, e0) & detail::edgeMask(f1, e1) &
                                              detail::edgeMask(f2, e2));
            if (!blockInRect) mask &= detail::rectMask(qx, qy, s.x0, s.y0, s.x1, s.y1);
          } else {
            // The scissor stays per pixel; the edges decide each sample.
            sampleMask = inside
                             ? expandPixels(0xf, samples)
                             : static_cast<uint16_t>(detail::edgeSampleMask(f0, e0, s0, samples) &
                                                     detail::edgeSampleMask(f1, e1, s1, samples) &
                                                     detail::edgeSampleMask(f2, e2, s2, samples));
            if (!blockInRect)
              sampleMask &= expandPixels(detail::rectMask(qx, qy, s.x0, s.y0, s.x1, s.y1), samples);
            mask = pixelsOf(sampleMask);
          }
          if (mask != 0) {
            quad.x = qx;
            quad.y = qy;
            quad.coverage = mask;
            quad.sampleCoverage = sampleMask;
            interpolateQuad(s, quad);
            if (ms) interpolateSampleZ(s, samples, quad);
            const int covered = laneCount(mask);
            ++stats_.quads;
            stats_.pixelsCovered += static_cast<uint64_t>(covered);
            stats_.samplesCovered += static_cast<uint64_t>(ms ? laneCount(sampleMask) : covered);
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
