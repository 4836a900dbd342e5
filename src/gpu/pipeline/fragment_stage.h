// The pixel half of a draw: rasterize each window triangle into quads, early depth/stencil when
// the fragment shader cannot kill, pack 8 quads into a 32-lane fragment warp, shade it, then
// late depth/stencil and blend in primitive order on the current render target (GMEM in the
// render pass, system memory in sysmem mode). DESIGN.md: "process pixels". A multisample
// target (docs/msaa.md) keeps one shader invocation per pixel; coverage, depth/stencil and
// colour writes are per sample.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "gpu/gmem/block_resolve.h"
#include "gpu/lrz/low_res_z.h"
#include "gpu/pipeline/draw_state.h"
#include "gpu/ras/rasterizer.h"
#include "gpu/rb/render_backend.h"
#include "gpu/sp/shader_core.h"

namespace tessera::gpu {

struct RenderTarget {
  rb::SurfaceView color, depth;
};

struct FragmentStats {
  uint64_t fragmentsShaded = 0;  // covered lanes sent to the fragment shader
  uint64_t helperLanes = 0;      // uncovered lanes shaded for derivatives
  uint64_t earlyZRejected = 0;   // pixels rejected by early depth/stencil before shading
  uint64_t warps = 0;            // fragment warps issued
  uint64_t lrzRejected = 0;      // covered pixels of quads dropped by low-resolution Z
  // Covered pixels of quads not shaded because a later triangle fully covers their block
  // (US 8,902,228 full-cover index; gmem/block_resolve.h).
  uint64_t fullCoverSkipped = 0;
};

class FragmentStage final {
 public:
  FragmentStage(sp::ShaderCore& sp, ras::Rasterizer& ras, rb::RenderBackend& rb)
      : sp_(sp), ras_(ras), rb_(rb) {}

  // lrz: the batch's low-resolution Z when the draw may use it (quads behind it are dropped
  // before early Z), or null.
  void begin(const DrawState& state, const isa::Program& fs, const sp::ShaderResources& res,
             const RenderTarget& target, const lrz::LowResZ* lrz = nullptr);
  // vary[i]: vertex i's varyings (numVaryings × 4 floats).
  void triangle(const ras::Triangle& tri, const float* const vary[3], int numVaryings,
                const ras::Scissor& scissor);
  void end() { flush(); }
  // Quads wait in a partly filled warp: the last triangle's fragments have not left yet.
  bool pending() const { return quadCount_ > 0; }
  // The triangles that follow have sequence number `seq` in the bin's block table: quads in
  // blocks whose full-cover triangle comes later are dropped. Null: no block table.
  void setFullCover(const gmem::BlockResolver* blocks, uint32_t seq) {
    blocks_ = blocks;
    seq_ = seq;
  }

  FragmentStats& stats() { return stats_; }
  // Counts every rasterized fragment into map[y × width + x] (the overdraw of each pixel), or
  // stops counting with null. An instrument of the model, like a per-pixel counter: it changes
  // nothing the GPU computes.
  void setOverdrawMap(std::vector<uint32_t>* map, uint32_t width, uint32_t height) {
    overdraw_ = map;
    overdrawW_ = width;
    overdrawH_ = height;
  }

 private:
  static constexpr int kQuadsPerWarp = sp::kLanes / 4;
  // Varyings of the most recent triangles with quads in a warp, a ring: a pending warp
  // references at most 8 of them.
  static constexpr int kArenaTriangles = 64;
  static_assert(kArenaTriangles > kQuadsPerWarp);
  static constexpr int kArenaFloats = 3 * sp::kMaxVaryings * 4;

  struct PendingQuad {
    int x, y;
    uint8_t coverage;
    bool front;
    float z[4];
    uint16_t samples;     // multisample: covered samples still alive (bit 4*i + s)
    float sampleZ[4][4];  // multisample: each sample's depth
  };

  // False when early depth/stencil rejected the whole quad (nothing references `varyings`).
  bool addQuad(const ras::Quad& q, const ras::Triangle& tri, const float* varyings);
  void flush();
  // Brings the pending quads' colour pixels into the host's caches (single sample).
  void prefetchColor() const;
  // Multisample end of a shaded quad: alpha to coverage, late depth/stencil and the colour
  // write of its live samples (`pixels`: those the shader kept).
  void resolveSamples(const PendingQuad& pq, int slot, uint8_t pixels);

  sp::ShaderCore& sp_;
  ras::Rasterizer& ras_;
  rb::RenderBackend& rb_;
  const DrawState* state_ = nullptr;
  const isa::Program* fs_ = nullptr;
  sp::ShaderResources res_;
  RenderTarget target_;
  // The draw's colour write, set up in begin (the RB keeps it while the state stays).
  const rb::ColorWrite* colorWrite_ = nullptr;
  bool earlyZ_ = false, depthStencilActive_ = false;
  // What the draw's program reads of a quad beyond its varyings' barycentrics.
  bool fragCoord_ = true, pointCoord_ = true, varyingsRead_ = true;
  // Multisample state of the draw: samples per pixel, the SAMPLE_COVERAGE mask of a quad
  // (all samples without it) and whether alpha to coverage trims samples after shading.
  uint32_t samples_ = 1;
  uint16_t coverageMask_ = 0xffff;
  bool alphaToCoverage_ = false;
  const lrz::LowResZ* lrz_ = nullptr;
  const gmem::BlockResolver* blocks_ = nullptr;
  uint32_t seq_ = 0;
  std::vector<uint32_t>* overdraw_ = nullptr;
  uint32_t overdrawW_ = 0, overdrawH_ = 0;
  sp::FragmentWarp warp_{};
  std::array<PendingQuad, kQuadsPerWarp> quads_{};
  int quadCount_ = 0;
  std::vector<float> arena_ = std::vector<float>(size_t{kArenaTriangles} * kArenaFloats);
  uint64_t arenaNext_ = 0;
  FragmentStats stats_;
};

}  // namespace tessera::gpu
