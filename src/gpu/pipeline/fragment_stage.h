// The pixel half of a draw: rasterize each window triangle into quads, early depth/stencil when
// the fragment shader cannot kill, pack 8 quads into a 32-lane fragment warp, shade it, then
// late depth/stencil and blend in primitive order on the current render target (GMEM in the
// render pass, system memory in sysmem mode). DESIGN.md: "process pixels". A multisample
// target (docs/msaa.md) keeps one shader invocation per pixel; coverage, depth/stencil and
// colour writes are per sample.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "common/thread_pool.h"
#include "gpu/mem/gpu_memory.h"

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
  // `sp` receives the counters of the fragment warps (the pipeline's shader core).
  FragmentStage(sp::ShaderCore& sp, ras::Rasterizer& ras, rb::RenderBackend& rb, GpuMemory& memory)
      : sp_(sp), ras_(ras), rb_(rb), memory_(memory) {
    configureCores(1, {});
  }
  ~FragmentStage() { abandon(); }

  // The shader cores that shade the fragment warps (a preset's shaderCores): a draw's warps are
  // dealt to them kDealtWarps at a time, in turn. Each core has its own texture unit, whose cache
  // is that core's texture L1 (on Adreno 6xx each SP has its own TPL1), so a core's lookups depend
  // only on its own warps and two cores' warps may be shaded on two host threads at once. Keeps
  // the cores when nothing changes (resetCores empties them).
  void configureCores(uint32_t cores, const tex::TexCacheConfig& cache);
  uint32_t cores() const { return static_cast<uint32_t>(cores_.size()); }
  // Empties the cores' texture caches: every submission and every bin starts cold.
  void resetCores();

  // Host threads a large draw may shade its warps on (null: none): a helper task on `pool`
  // then shades warps, each core's in order, while this thread rasterizes and tests the next ones,
  // shades what the helper leaves and writes the shaded warps in order. Each unit (a core's SP
  // and texture unit, the render backend) still sees its work in the same order, and a warp's
  // counters and bus traffic are added when it is written, so results and counters do not change.
  void setHelpers(ThreadPool* pool) { helpers_ = pool; }

  // lrz: the batch's low-resolution Z when the draw may use it (quads behind it are dropped
  // before early Z), or null. mayOverlap: the draw's warps may be shaded on a helper (no block
  // table: its resolves follow the colour writes as they happen).
  // res.textureUnit receives the warps' texture counters; each core samples with its own unit.
  void begin(const DrawState& state, const isa::Program& fs, const sp::ShaderResources& res,
             const RenderTarget& target, const lrz::LowResZ* lrz = nullptr,
             bool mayOverlap = false);
  // vary[i]: vertex i's varyings (numVaryings × 4 floats).
  void triangle(const ras::Triangle& tri, const float* const vary[3], int numVaryings,
                const ras::Scissor& scissor);
  // The draw's last warp is shaded and every warp written; a helper has stopped.
  void end();
  // Stops a helper without writing what is in flight (a draw that faulted); nothing to do
  // after end().
  void abandon() noexcept;
  // Quads wait in a partly filled warp: the last triangle's fragments have not left yet.
  bool pending() const { return batch().quadCount > 0; }
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

  // A warp and its quads, from packing through shading to the writes.
  struct Batch {
    sp::FragmentWarp warp{};
    std::array<PendingQuad, kQuadsPerWarp> quads{};
    int quadCount = 0;
    uint32_t core = 0;                // the shader core that shades it
    std::atomic<bool> shaded{false};  // its shading (fault and counters included) is done
    std::exception_ptr fault;         // raised while it was shaded
    // What shading it counted, added when it is written: a warp after a faulting one is never
    // written, whichever thread shaded it.
    sp::SpStats sp{};
    tex::TexStats tex{};
    BusStats bus{};
    void reset() {
      quadCount = 0;
      warp.laneMask = warp.coverage = warp.frontFacing = 0;
      std::fill(std::begin(warp.varyings), std::end(warp.varyings), nullptr);
      shaded.store(false, std::memory_order_relaxed);
      fault = nullptr;
      bus = {};
    }
  };
  // A shader core of the model (configureCores) and the draw's resources with its texture unit.
  struct Core {
    explicit Core(GpuMemory& memory) : tex(memory) {}
    sp::ShaderCore sp;
    tex::TextureUnit tex;
    sp::ShaderResources res;
    // On a host cache line of their own: the other thread polls them while this core shades.
    alignas(64) std::atomic<bool> busy{false};  // held by the thread shading on it
    std::atomic<uint64_t> next{0};              // while a helper runs: the next warp it shades
  };
  // Warps in flight while a helper shades: the one being packed and the ones published but not
  // yet written. Their quads reference at most 8 triangles each, within the varyings arena.
  static constexpr int kBatches = 8;
  static_assert(kArenaTriangles >= kBatches * kQuadsPerWarp);
  // The shading helper of one draw: `state` 0 while queued, 1 running, 2 cancelled (the draw
  // ended first and the helper never starts).
  struct Helper {
    std::atomic<int> state{0};
    std::atomic<bool> stop{false}, done{false};
  };

  Batch& batch() { return batches_[head_ % kBatches]; }
  const Batch& batch() const { return batches_[head_ % kBatches]; }
  // A triangle's quads from the rasterizer, each with early depth/stencil (the quads' tests
  // side by side when they have one sample per pixel: they share no pixel). False when every
  // quad was rejected (nothing references `varyings`).
  bool addQuads(const ras::Quad* quads, int count, const ras::Triangle& tri, const float* varyings);
#if TESSERA_AVX2_CLONES
  // The block path (AVX2): half of a block the rasterizer found fully covered, 8 quads at (x, y)
  // interpolated straight into the warp's lane order (ras::HalfBlock), then tested and packed as
  // addQuads would its quads. False when every quad was rejected.
  bool addHalfBlock(const ras::TriangleSetup& s, int x, int y, const ras::Triangle& tri,
                    const float* varyings);
  // pack of the half block's quads that passed (pass[k] != 0; quad k at (qx[k], qy[k])), in
  // order, the warp's masks updated a run of consecutive quads at a time. For a program that does
  // not read gl_PointCoord.
  void packHalfBlock(const ras::HalfBlock& h, const int* qx, const int* qy, const uint8_t* pass,
                     bool front, const float* varyings);
#endif
  // Single sample: the pixels of `count` quads of one triangle (pass[k], in: covered) that
  // nothing hides and that pass early depth/stencil, the quads' tests side by side. False when
  // none does. halfBlockZ: the quads are a half block (addHalfBlock), their depths in lane order.
  bool testQuads(int count, const int* x, const int* y, const float* const* z, uint8_t* pass,
                 bool front, const float* halfBlockZ = nullptr);
  // The quad's covered pixels that neither overdraw-free block nor LRZ hides (and counts them
  // for the overdraw image).
  uint8_t unhidden(int x, int y, const float z[4], uint8_t coverage);
  // A quad's interpolated values, four pixels each (sampleZ: multisample only).
  struct QuadLanes {
    const float *z, *invW, *b1, *b2;
    const float (*sampleZ)[4];
  };
  static QuadLanes lanesOf(const ras::Quad& q) {
    return {q.z, q.invW, q.b1, q.b2, q.sampleZ};
  }
  // gl_FragCoord's x and y of the quad at (x, y), whose pixels are lanes first .. first + 3.
  static void pixelCentres(sp::FragmentWarp& warp, int first, int x, int y) {
    for (int i = 0; i < 4; ++i) {
      warp.fragCoord[0][first + i] = static_cast<float>(x + (i & 1)) + 0.5f;
      warp.fragCoord[1][first + i] = static_cast<float>(y + (i >> 1)) + 0.5f;
    }
  }
  // Packs the quad at (x, y) with the pixels that passed (and their samples) into the open warp.
  void pack(int x, int y, uint8_t coverage, uint16_t samples, const QuadLanes& q,
            const ras::Triangle& tri, const float* varyings);
  // The packed warp goes on: shaded and written at once, or published for the helper.
  void flush();
  // Shades a warp on its core (on either thread); its fault and counters wait in the batch for
  // the drawing thread.
  void shade(Batch& b);
  // Adds a shaded warp's counters, raises its fault, or writes it.
  void retire(Batch& b);
  // Late depth/stencil and the colour writes of a shaded warp.
  void write(Batch& b);
  // Shades the next published warp of a core no other thread is shading on, the core whose
  // next warp is oldest first (each core sees its warps one at a time, in order). False if it
  // did not.
  bool shadeNext();
  // Until warp k is shaded, by the helper or here.
  void awaitShaded(uint64_t k);
  // Writes the oldest published warp.
  void retireOldest();
  // Puts the draw's warps in flight and asks the pool for a helper (once per draw).
  void startHelper();
  // Queues a helper (helper_): at the start, and again when one left for a queued bin.
  void callHelper();
  // The helper's loop, on a pool thread.
  void runHelper(const std::shared_ptr<Helper>& h, GpuMemory::View view);
  void stopHelper();
  // Brings the pending quads' colour pixels into the host's caches (single sample).
  void prefetchColor(const Batch& b) const;
  // Multisample end of a shaded quad: alpha to coverage, late depth/stencil and the colour
  // write of its live samples (`pixels`: those the shader kept).
  void resolveSamples(const Batch& b, const PendingQuad& pq, int slot, uint8_t pixels);

  sp::ShaderCore& sp_;
  std::vector<std::unique_ptr<Core>> cores_;
  // Warps go to a core a few at a time: a core's consecutive warps are then mostly neighbours on
  // the screen, which its texture cache sees as on one core.
  static constexpr uint64_t kDealtWarps = 4;
  // The core of the draw's warp d, and the draw's next warp on that core.
  uint32_t coreOf(uint64_t d) const {
    return static_cast<uint32_t>(d / kDealtWarps % cores());
  }
  uint64_t nextOfCore(uint64_t d) const {
    return (d + 1) % kDealtWarps != 0 ? d + 1 : d + 1 + (cores() - 1) * kDealtWarps;
  }
  uint64_t dealBase_ = 0;  // while a helper runs: warp k is the draw's warp k + dealBase_
  ras::Rasterizer& ras_;
  rb::RenderBackend& rb_;
  GpuMemory& memory_;
  ThreadPool* helpers_ = nullptr;
  const DrawState* state_ = nullptr;
  const isa::Program* fs_ = nullptr;
  sp::ShaderResources res_;
  RenderTarget target_;
  // The draw's colour write, set up in begin (the RB keeps it while the state stays).
  const rb::ColorWrite* colorWrite_ = nullptr;
  bool earlyZ_ = false, depthStencilActive_ = false;
  // Fully covered blocks take the block path (addHalfBlock): on the AVX2 path, one sample.
  bool blockPath_ = false;
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
  std::array<Batch, kBatches> batches_{};
  // Warps published (shaded and written at once without a helper): head_ is the one being
  // packed, warps [retired_, head_) wait for their writes.
  uint64_t head_ = 0, retired_ = 0;
  // On a host cache line of their own, apart from the drawing thread's fields.
  alignas(64) std::atomic<uint64_t> published_{0};
  // The first warp of this draw found to fault: no later one is shaded after that.
  std::atomic<uint64_t> faultAt_{UINT64_MAX};
  alignas(64) bool mayOverlap_ = false;
  uint64_t drawWarps_ = 0;          // warps this draw has published
  std::shared_ptr<Helper> helper_;  // this draw's, once asked for
  std::vector<float> arena_ = std::vector<float>(size_t{kArenaTriangles} * kArenaFloats);
  uint64_t arenaNext_ = 0;
  FragmentStats stats_;
};

}  // namespace tessera::gpu
