// Render backend (rb/): the last stage of the pixel pipe. Tests quads against depth and
// stencil, blends and writes colour, into GMEM during a bin or into system memory in sysmem
// mode, and counts the bytes it moves so the caller can charge the bus.
#pragma once
#include <cstdint>
#include <optional>

#include "common/counter_sum.h"
#include "gpu/rb/color_write.h"
#include "gpu/rb/rb_state.h"

namespace tessera::gpu::rb {

struct RbStats {
  uint64_t quads;              // quads that entered the depth/stencil stage with a live pixel
  uint64_t samplesTested;      // samples (pixels at 1x) entering the depth/stencil stage
  uint64_t samplesPassed;      // samples that passed it (the occlusion-query counter)
  uint64_t colorBytesRead;     // destination reads for blending or partial write masks
  uint64_t colorBytesWritten;  // colour pixels written
  uint64_t depthBytesRead;     // depth/stencil pixels read by an enabled test
  uint64_t depthBytesWritten;  // depth/stencil pixels whose stored value changed
};

class RenderBackend final {
 public:
  // Depth/stencil test of the masked pixels of one quad (pixel i at (x + (i&1), y + (i>>1))),
  // in primitive order; updates depth/stencil per GLES 2.0 §4.1.5-4.1.6 (front/back face by
  // frontFacing) and returns the mask of pixels that passed. With both tests off (or no buffer
  // to test against) it returns mask and touches no memory.
  uint8_t depthStencil(const DepthStencilState&, DepthFormat, SurfaceView depth, int x, int y,
                       uint8_t mask, const float z[4], bool frontFacing);
  // depthStencil of `count` quads of one primitive, which share no pixel: quad k at (x[k], y[k])
  // with depths z[k]; masks[k] goes in as its pixels to test and comes out as those that passed.
  // The same memory, masks and counters as a call per quad, with the quads' tests overlapping.
  void depthStencilQuads(const DepthStencilState&, DepthFormat, SurfaceView depth, int count,
                         const int* x, const int* y, const float* const* z, uint8_t* masks,
                         bool frontFacing);
  // depthStencilQuads of the 8 quads of half of a block, two rows of four: quad k at
  // (x + 2 (k & 3), y + 2 (k >> 2)), its pixel i's depth at z[4 k + i] (a fragment warp's lane
  // order). The same memory, masks and counters; on the AVX2 path the depth test alone of a
  // D24S8 buffer goes a row of eight pixels at a time.
  void depthStencilHalfBlock(const DepthStencilState&, DepthFormat, SurfaceView depth, int x, int y,
                             const float z[32], uint8_t masks[8], bool frontFacing);
  // What depthStencil counts for `quads` quads with `samples` live samples in all when both
  // tests are off or there is no buffer to test against: every sample passes.
  void passAll(uint64_t quads, uint64_t samples) {
    stats_.quads += quads;
    stats_.samplesTested += samples;
    stats_.samplesPassed += samples;
  }
  // Blends (GLES 2.0 §4.1.7) and writes the masked pixels of one quad; rgba[pixel][channel] is
  // the unclamped shader output.
  void color(const BlendState&, ColorFormat, SurfaceView color, int x, int y, uint8_t mask,
             const float rgba[4][4]);
  // The same with a draw's colour write set up once (colorWrite) and the shader output as
  // channel rows: pixel i's channel c is channels[c][lane + i].
  void color(const ColorWrite&, SurfaceView color, int x, int y, uint8_t mask,
             const float* const channels[4], int lane);
  // The colour writes of a warp's quads, in order: quads[i] at (x, y) writes its pixels of
  // `mask` from lanes 4 * slot .. 4 * slot + 3 of the channel rows. The same writes as color()
  // quad by quad; on the AVX2 path RGBA8 takes two quads at a time.
  struct QuadWrite {
    int x, y;
    uint8_t mask, slot;
  };
  void colorQuads(const ColorWrite&, SurfaceView color, const QuadWrite* quads, int count,
                  const float* const channels[4]);
  // Multisample forms (2 or 4 samples): the test, its writes, blending and the colour write are
  // per sample. mask bit 4*i + s is sample s of pixel i (gpu/ras/sample_positions.h); z holds
  // each sample's depth, rgba each pixel's shader output (shared by its samples). Counters count
  // samples.
  uint16_t depthStencilSamples(const DepthStencilState&, DepthFormat, SurfaceView depth, int x,
                               int y, uint32_t samples, uint16_t mask, const float z[4][4],
                               bool frontFacing);
  void colorSamples(const BlendState&, ColorFormat, SurfaceView color, int x, int y,
                    uint32_t samples, uint16_t mask, const float rgba[4][4]);

  // Fast clears of the half-open rectangle [x0,x1) x [y0,y1), honouring the colour write mask
  // (bit0 R .. bit3 A) and the stencil write mask as glClear does.
  static void clearColor(ColorFormat, SurfaceView, int x0, int y0, int x1, int y1,
                         const float rgba[4], uint8_t writeMask = 0xf);
  static void clearDepthStencil(DepthFormat, SurfaceView, int x0, int y0, int x1, int y1,
                                float depth, uint8_t stencil, bool clearDepth, bool clearStencil,
                                uint8_t stencilWriteMask = 0xff);

  // The colour write of a blend state and format, kept while neither changes.
  const ColorWrite& colorWrite(const BlendState&, ColorFormat);

  const RbStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const RbStats& s) { addCounters(stats_, s); }
  void resetStats() { stats_ = {}; }

 private:
  RbStats stats_{};
  // The colour write of the last blend state and format (colorWrite).
  std::optional<ColorWrite> colorWrite_;
  BlendState blend_;
  ColorFormat colorFormat_ = ColorFormat::RGBA8;
};

namespace detail {
// RenderBackend::colorQuads of a format ColorWrite::writesQuads takes, on the AVX2 path
// (color_quads_avx2.cpp); counts nothing.
void colorQuadsAvx2(const ColorWrite&, SurfaceView, const RenderBackend::QuadWrite* quads,
                    int count, const float* const channels[4]);
// RenderBackend::depthStencilHalfBlock's depth test alone of a D24S8 buffer on the AVX2 path
// (depth_half_block_avx2.cpp).
void depthHalfBlockAvx2(const DepthStencilState&, SurfaceView depth, int x, int y, const float* z,
                        uint8_t* masks, RbStats& stats);
}  // namespace detail

}  // namespace tessera::gpu::rb
