// Rasterizer (ras/): walks a triangle's bounding box clipped to the scissor in 8x8 blocks,
// rejects or trivially accepts whole blocks from the edge functions at their corners, and emits
// 2x2 quads with coverage and interpolated z, 1/w and barycentrics to the next stage. A small
// triangle has its box tested a pixel row at a time instead, with the same coverage and order.
// With a multisample target, coverage is decided at every sample position with the same fill
// rule.
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
  void rasterize(const Triangle& tri, const Scissor& scissor, Emit&& emit) {
    rasterizeBatches(tri, scissor, [&](const Quad* quads, int count) {
      for (int k = 0; k < count; ++k) emit(quads[k]);
    });
  }
  // The same quads in the same order, handed over a few at a time: emitBatch(const Quad* quads,
  // int count), 1 <= count <= kMaxBatch. The quads of one call are of one triangle, so no two
  // share a pixel.
  static constexpr int kMaxBatch = 8;
  template <class EmitBatch>
  void rasterizeBatches(const Triangle& tri, const Scissor& scissor, EmitBatch&& emitBatch) {
    rasterizeBatches(tri, scissor, emitBatch, [](const TriangleSetup&, int, int) { return false; });
  }
  // The same, offering each block whose 16 quads are all fully covered (inside the triangle and
  // the scissor, at one sample per pixel) whole, in its place in the order, to
  // emitBlock(const TriangleSetup&, int bx, int by): true when it took the block, which is then
  // counted as its quads; false to have its quads go to emitBatch instead.
  template <class EmitBatch, class EmitBlock>
  void rasterizeBatches(const Triangle& tri, const Scissor& scissor, EmitBatch&& emitBatch,
                        EmitBlock&& emitBlock);

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

// The quad walk of a set-up triangle: calls visit(qx, qy, mask, sampleMask) for every quad with a
// covered pixel (sampleMask 0 at one sample per pixel), blocks in row-major order and quads
// row-major inside each block. Each block is rejected or trivially accepted from the edge
// functions at its corners before its quads are tested. A block wholly covered at one sample per
// pixel goes first to fullBlock(bx, by), which visits none of its quads when it returns true.
template <class Visit, class FullBlock>
void walkBlocks(const TriangleSetup& s, uint32_t samples, Visit&& visit, FullBlock&& fullBlock) {
  const EdgeFunction& f0 = s.edge[0];
  const EdgeFunction& f1 = s.edge[1];
  const EdgeFunction& f2 = s.edge[2];
  const bool ms = samples > 1;
  // Multisample: per-sample steps and the block tests' margin (0 at one sample per pixel).
  int64_t s0[kMaxSamples] = {}, s1[kMaxSamples] = {}, s2[kMaxSamples] = {};
  int64_t m0 = 0, m1 = 0, m2 = 0;
  if (ms) {
    sampleSteps(f0, samples, s0);
    sampleSteps(f1, samples, s1);
    sampleSteps(f2, samples, s2);
    m0 = sampleMargin(f0);
    m1 = sampleMargin(f1);
    m2 = sampleMargin(f2);
  }
  for (int by = alignDown(s.y0, kBlockSize); by < s.y1; by += kBlockSize) {
    for (int bx = alignDown(s.x0, kBlockSize); bx < s.x1; bx += kBlockSize) {
      const int64_t b0 = f0.at(bx, by), b1 = f1.at(bx, by), b2 = f2.at(bx, by);
      if (blockMax(f0, b0) + m0 < f0.threshold || blockMax(f1, b1) + m1 < f1.threshold ||
          blockMax(f2, b2) + m2 < f2.threshold)
        continue;  // the block lies wholly outside one edge
      const bool inside = blockMin(f0, b0) - m0 >= f0.threshold &&
                          blockMin(f1, b1) - m1 >= f1.threshold &&
                          blockMin(f2, b2) - m2 >= f2.threshold;
      const bool blockInRect =
          bx >= s.x0 && by >= s.y0 && bx + kBlockSize <= s.x1 && by + kBlockSize <= s.y1;
      if (inside && blockInRect && !ms && fullBlock(bx, by)) continue;
      const int qyEnd = std::min(by + kBlockSize, s.y1);
      const int qxEnd = std::min(bx + kBlockSize, s.x1);
      for (int qy = std::max(by, alignDown(s.y0, 2)); qy < qyEnd; qy += 2) {
        const int64_t dy = qy - by;
        int64_t e0 = b0 + dy * f0.stepY, e1 = b1 + dy * f1.stepY, e2 = b2 + dy * f2.stepY;
        const int qxStart = std::max(bx, alignDown(s.x0, 2));
        const int64_t dx = qxStart - bx;
        e0 += dx * f0.stepX;
        e1 += dx * f1.stepX;
        e2 += dx * f2.stepX;
        for (int qx = qxStart; qx < qxEnd; qx += 2) {
          uint8_t mask;
          uint16_t sampleMask = 0;
          if (!ms) {
            mask =
                inside
                    ? uint8_t{0xf}
                    : static_cast<uint8_t>(edgeMask(f0, e0) & edgeMask(f1, e1) & edgeMask(f2, e2));
            if (!blockInRect) mask &= rectMask(qx, qy, s.x0, s.y0, s.x1, s.y1);
          } else {
            // The scissor stays per pixel; the edges decide each sample.
            sampleMask = inside ? expandPixels(0xf, samples)
                                : static_cast<uint16_t>(edgeSampleMask(f0, e0, s0, samples) &
                                                        edgeSampleMask(f1, e1, s1, samples) &
                                                        edgeSampleMask(f2, e2, s2, samples));
            if (!blockInRect)
              sampleMask &= expandPixels(rectMask(qx, qy, s.x0, s.y0, s.x1, s.y1), samples);
            mask = pixelsOf(sampleMask);
          }
          if (mask != 0) visit(qx, qy, mask, sampleMask);
          e0 += 2 * f0.stepX;
          e1 += 2 * f1.stepX;
          e2 += 2 * f2.stepX;
        }
      }
    }
  }
}

template <class Visit>
void walkBlocks(const TriangleSetup& s, uint32_t samples, Visit&& visit) {
  walkBlocks(s, samples, visit, [](int, int) { return false; });
}

// Small triangles (at most kSmallBox pixels a side of their quad-aligned box) are tested a pixel
// row of the box at a time: the common case of dense meshes, where the block walk's per-block and
// per-quad set-up in 64-bit integers costs more than the pixels.
inline constexpr int kSmallBox = 32;

// A small box's three edge functions relative to their thresholds, stepped in 32-bit integers:
// valid() only when every value over the box fits them, so each test is the exact one.
class SmallBoxEdges {
 public:
  // The box's top-left pixel is (x0, y0); it is w <= kSmallBox pixels wide.
  SmallBoxEdges(const TriangleSetup& s, int x0, int y0, int w) : w_(w) {
    for (int k = 0; k < 3; ++k) {
      const EdgeFunction& f = s.edge[k];
      const int64_t b = f.at(x0, y0) - f.threshold;
      valid_ = valid_ &&
               std::abs(b) + (kSmallBox - 1) * (std::abs(f.stepX) + std::abs(f.stepY)) <= INT32_MAX;
      base_[k] = static_cast<int32_t>(b);
      stepX_[k] = static_cast<int32_t>(f.stepX);
      stepY_[k] = static_cast<int32_t>(f.stepY);
    }
#if defined(__SSE2__)
    if (!valid_) return;
    for (int k = 0; k < 3; ++k) {
      const __m128i lanes = _mm_setr_epi32(base_[k], base_[k] + stepX_[k], base_[k] + 2 * stepX_[k],
                                           base_[k] + 3 * stepX_[k]);
      for (int c = 0; 4 * c < w_; ++c)
        row0_[k][c] = _mm_add_epi32(lanes, _mm_set1_epi32(4 * c * stepX_[k]));
    }
#endif
  }
  bool valid() const {
    return valid_;
  }

  // Bit i set when pixel (x0 + i, y0 + j) lies inside all three edges, for i < w (bits at and
  // beyond w are unspecified).
  uint32_t rowScalar(int j) const {
    uint32_t bits = 0;
    for (int i = 0; i < w_; ++i) {
      bool in = true;
      for (int k = 0; k < 3; ++k) in = in && base_[k] + i * stepX_[k] + j * stepY_[k] >= 0;
      bits |= uint32_t{in} << i;
    }
    return bits;
  }
#if defined(__SSE2__)
  // rowScalar four pixels per SSE2 compare, from the values at row 0 kept in registers.
  uint32_t row(int j) const {
    const __m128i minusOne = _mm_set1_epi32(-1);
    const __m128i dy0 = _mm_set1_epi32(j * stepY_[0]), dy1 = _mm_set1_epi32(j * stepY_[1]),
                  dy2 = _mm_set1_epi32(j * stepY_[2]);
    uint32_t bits = 0;
    for (int c = 0; 4 * c < w_; ++c) {
      const __m128i in =
          _mm_and_si128(_mm_and_si128(_mm_cmpgt_epi32(_mm_add_epi32(row0_[0][c], dy0), minusOne),
                                      _mm_cmpgt_epi32(_mm_add_epi32(row0_[1][c], dy1), minusOne)),
                        _mm_cmpgt_epi32(_mm_add_epi32(row0_[2][c], dy2), minusOne));
      bits |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(in))) << (4 * c);
    }
    return bits;
  }
#else
  uint32_t row(int j) const {
    return rowScalar(j);
  }
#endif

 private:
  int w_;
  int32_t base_[3], stepX_[3], stepY_[3];
  bool valid_ = true;
#if defined(__SSE2__)
  __m128i row0_[3][kSmallBox / 4];  // each edge's values on row 0, four columns per register
#endif
};

// walkBlocks for a small triangle at one sample per pixel: every pixel row of the quad-aligned box
// is tested at once (SmallBoxEdges), then the covered quads are visited in walkBlocks' order. The
// tests are exact, so the coverage is walkBlocks' to the bit (a block walkBlocks rejects or
// accepts whole holds no pixel that says otherwise). Returns false, having visited nothing, for a
// triangle it does not take.
template <class Visit>
bool walkSmall(const TriangleSetup& s, Visit&& visit) {
  const int qx0 = alignDown(s.x0, 2), qy0 = alignDown(s.y0, 2);
  const int w = s.x1 - qx0, h = s.y1 - qy0;
  if (w > kSmallBox || h > kSmallBox) return false;
  const SmallBoxEdges edges(s, qx0, qy0, w);
  if (!edges.valid()) return false;
  // rows[j]: bit i set when pixel (qx0 + i, qy0 + j) is covered and inside the box; the row
  // after the last is empty so that a quad row can always read two.
  uint32_t rows[kSmallBox + 1];
  rows[0] = rows[h] = 0;  // the rows the loop below may not write
  const uint32_t cols = (w == 32 ? ~0u : (1u << w) - 1u) & ~((1u << (s.x0 - qx0)) - 1u);
  for (int j = s.y0 - qy0; j < h; ++j) rows[j] = edges.row(j) & cols;
  for (int by = alignDown(s.y0, kBlockSize); by < s.y1; by += kBlockSize) {
    for (int bx = alignDown(s.x0, kBlockSize); bx < s.x1; bx += kBlockSize) {
      const int qyEnd = std::min(by + kBlockSize, s.y1);
      const int qxEnd = std::min(bx + kBlockSize, s.x1);
      const int qxStart = std::max(bx, qx0);
      for (int qy = std::max(by, qy0); qy < qyEnd; qy += 2) {
        const uint32_t r0 = rows[qy - qy0], r1 = rows[qy - qy0 + 1];
        if ((r0 | r1) == 0) continue;
        for (int qx = qxStart; qx < qxEnd; qx += 2) {
          const int i = qx - qx0;
          const auto mask = static_cast<uint8_t>((r0 >> i & 3u) | (r1 >> i & 3u) << 2);
          if (mask != 0) visit(qx, qy, mask, uint16_t{0});
        }
      }
    }
  }
  return true;
}

}  // namespace detail

template <class EmitBatch, class EmitBlock>
void Rasterizer::rasterizeBatches(const Triangle& tri, const Scissor& scissor,
                                  EmitBatch&& emitBatch, EmitBlock&& emitBlock) {
  ++stats_.triangles;
  const uint32_t samples = samples_;
  const bool ms = samples > 1;
  TriangleSetup s;
  if (!setupTriangle(tri, scissor, s)) {
    ++stats_.trianglesEmpty;
    return;
  }
  // Counted in locals and added once: the emit call would otherwise make every update a store.
  uint64_t quads = 0, pixels = 0, sampleCount = 0;
  // The walk gathers quads and interpolates them a few at a time before emitting them: one
  // quad's interpolation is a chain of dependent steps (a division among them) that the next
  // quad's can run beside. The walk never depends on what emit does.
  Quad batch[kMaxBatch];
  int pending = 0;
#if TESSERA_AVX2_CLONES
  const bool avx2 = simdPath() == SimdPath::Avx2;
#endif
  auto drain = [&]() __attribute__((always_inline)) {
#if TESSERA_AVX2_CLONES
    if (avx2)
      interpolateQuadsAvx2(s, batch, pending);
    else
#endif
      for (int k = 0; k < pending; ++k) interpolateQuad(s, batch[k]);
    if (ms)
      for (int k = 0; k < pending; ++k) interpolateSampleZ(s, samples, batch[k]);
    emitBatch(static_cast<const Quad*>(batch), pending);
    pending = 0;
  };
  // Inlined into both walks: a call per quad would cost more than the quad.
  auto covered = [&](int qx, int qy, uint8_t mask, uint16_t sampleMask)
      __attribute__((always_inline)) {
    Quad& quad = batch[pending];
    quad.x = qx;
    quad.y = qy;
    quad.coverage = mask;
    quad.sampleCoverage = sampleMask;
    const int n = quadLaneCount(mask);
    ++quads;
    pixels += static_cast<uint64_t>(n);
    sampleCount += static_cast<uint64_t>(ms ? laneCount(sampleMask) : n);
    if (++pending == kMaxBatch) drain();
  };
  auto fullBlock = [&](int bx, int by) __attribute__((always_inline)) {
    if (pending != 0) drain();  // the quads before the block go first
    if (!emitBlock(static_cast<const TriangleSetup&>(s), bx, by)) return false;
    constexpr int kPixels = kBlockSize * kBlockSize;
    quads += kPixels / 4;
    pixels += kPixels;
    sampleCount += kPixels;
    return true;
  };
  if (ms || !detail::walkSmall(s, covered)) detail::walkBlocks(s, samples, covered, fullBlock);
  if (pending != 0) drain();
  stats_.quads += quads;
  stats_.pixelsCovered += pixels;
  stats_.samplesCovered += sampleCount;
  stats_.helperPixels += 4 * quads - pixels;
  if (quads == 0) ++stats_.trianglesEmpty;
}

}  // namespace tessera::gpu::ras
