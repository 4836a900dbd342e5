// The GPU's draw pipeline behind the command processor: for each CP_DRAW_INDX it runs
// vertex fetch → vertex shading → primitive setup → (binning pass: visibility streams) or
// (render pass: rasterizer → fragment shading → render backend), on GMEM in the per-bin render
// pass and on system memory in sysmem mode; CP events drive clears, restores, resolves and the
// visibility-stream flush.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/thread_pool.h"
#include "gpu/cp/command_processor.h"
#include "gpu/gmem/blit_engine.h"
#include "gpu/gmem/block_resolve.h"
#include "gpu/gmem/tile_memory.h"
#include "gpu/lrz/low_res_z.h"
#include "gpu/pc/primitive_assembly.h"
#include "gpu/perf/block_work.h"
#include "gpu/perf/timing_model.h"
#include "gpu/pipeline/bin_jobs.h"
#include "gpu/pipeline/draw_state.h"
#include "gpu/pipeline/fragment_stage.h"
#include "gpu/pipeline/front_end_ranges.h"
#include "gpu/pipeline/shader_cache.h"
#include "gpu/pipeline/vertex_stage.h"
#include "gpu/vsc/block_table.h"
#include "gpu/vsc/visibility_stream.h"

namespace tessera::gpu {

// The most vertices (or indices) one CP_DRAW_INDX may draw (16 Mi).
inline constexpr uint32_t kMaxDrawVertices = 1u << 24;

// What one bin of a render pass did (or the whole surface in sysmem mode).
struct BinRecord {
  ras::Scissor window{};
  uint64_t primitives = 0;      // primitives considered (all of them, or those the stream lists)
  uint64_t triangles = 0;       // window triangles rasterized
  uint64_t fragments = 0;       // covered pixels shaded
  bool streamOverflow = false;  // drew everything because the visibility stream overflowed
  bool usedStream = false;
  bool sysmem = false;      // the surface of a sysmem pass, not a bin
  bool blockTable = false;  // rendered with its block table (interleaved resolve)
  perf::BlockWork work;     // every block's work from this window's CP_SET_BIN to the next pass
  // Block resolves done while the bin rendered, for the timing model.
  std::vector<perf::ResolveSlice> earlyResolves;
};

struct PipelineStats {
  uint64_t draws = 0;                  // draws executed in a render pass or sysmem
  uint64_t drawsSkipped = 0;           // bin draws the visibility stream showed had nothing
  uint64_t binningDraws = 0;           // draws executed by the binning pass
  uint64_t verticesShaded = 0;         // vertex shader invocations, render passes
  uint64_t binningVerticesShaded = 0;  // position-only shader invocations, binning pass
  uint64_t primitivesIn = 0;           // primitives assembled in render passes
  uint64_t binningPrimitives = 0;      // primitives assembled in the binning pass
  uint64_t clears = 0;
  // Primitives of the draws run while PC_PRIM_COUNT_CNTL was on: the driver turns it on in one
  // pass per batch, so this counts each primitive once (the primitives-generated query).
  uint64_t primitivesGenerated = 0;
  std::vector<BinRecord> bins;
  // The rest of the submission's work for the timing model: state setup outside any window
  // (before the first pass and between passes) and the binning pass.
  perf::BlockWork setupWork, binningWork;
};

// A submission's passes in order for the timing model: setup, the binning pass (if it ran),
// then each window.
std::vector<perf::PassWork> passWork(const PipelineStats& stats);

class Pipeline final : public cp::CpBackend {
 public:
  Pipeline(GpuMemory& memory, gmem::TileMemory& gmem);
  ~Pipeline() override;

  void setMode(cp::RenderMode mode, const cp::RegisterFile& regs) override;
  void setBin(const cp::RegisterFile& regs) override;
  void setBinData(const cp::BinData& data, const cp::RegisterFile& regs) override;
  void draw(const cp::DrawPacket& draw, const cp::RegisterFile& regs) override;
  void event(cp::Event e, const cp::RegisterFile& regs) override;
  // Block counters are written at once; the GPU clock and busy cycles come from the timing
  // model and are written by resolveTimedCounters once the submission has been timed.
  void counterToMemory(uint32_t select, GpuAddress dst) override;
  bool deferMemToMem(uint32_t flags, GpuAddress dst, GpuAddress a, GpuAddress b) override;
  // Runs every recorded call and merges the bins that have ended (bin_jobs.h); the bin open
  // now stays open for the calls after this point.
  void sync() override;
  // Host threads that run the bins of GMEM render passes (1: the bins run on the caller's
  // thread). Images and counters do not depend on it. Only between submissions.
  void setThreads(unsigned threads);
  // Writes the counters that needed the submission's timing: `clockBase` is the GPU clock in
  // cycles when the submission started.
  void resolveTimedCounters(const Preset& preset, const perf::SubmissionTiming& timing,
                            uint64_t clockBase);

  PipelineStats& stats() { return stats_; }
  vsc::VscStats& vscStats() { return writer_.stats(); }
  gmem::GmemStats& gmemStats() { return blit_.stats(); }
  sp::ShaderCore& shaderCore() { return sp_; }
  ras::Rasterizer& rasterizer() { return ras_; }
  rb::RenderBackend& renderBackend() { return rb_; }
  tex::TextureUnit& textureUnit() { return tex_; }
  // The preset's shader cores (fragment warps are dealt to them, FragmentStage::configureCores)
  // and the texture cache of each core's texture unit and of the vertex shaders'.
  void configureCores(uint32_t shaderCores, const tex::TexCacheConfig& cache) {
    tex_.configureCache(cache);
    fragment_.configureCores(shaderCores, cache);
  }
  vfd::VertexFetch& vertexFetch() { return vfd_; }
  pc::PrimitiveSetup& primitiveSetup() { return setup_; }
  FragmentStats& fragmentStats() { return fragment_.stats(); }
  lrz::LrzStats& lrzStats() { return lrz_.stats(); }
  vsc::BlockTableStats& blockTableStats() { return blocks_.stats(); }
  gmem::BlockResolveStats& blockResolveStats() { return resolver_.stats(); }
  // Every block resolve of the interleaved resolve since resetStats, in order.
  std::vector<gmem::BlockResolveEvent>& blockResolves() { return resolver_.events(); }
  // See FragmentStage::setOverdrawMap.
  void setOverdrawMap(std::vector<uint32_t>* map, uint32_t width, uint32_t height) {
    fragment_.setOverdrawMap(map, width, height);
    overdraw_ = map;
    overdrawW_ = width;
    overdrawH_ = height;
  }
  void resetStats();

  // The command processor whose packet counts go into the work records and whose packet
  // addresses name the faults of recorded bins (set by the Device).
  void setCommandProcessor(const cp::CommandProcessor* cp) { cp_ = cp; }
  // A submission's work is split at every pass and bin boundary (pipeline_work.cpp): begin
  // before the CP runs, end after it stops (also after a fault).
  void beginSubmission();
  void endSubmission();

 private:
  friend struct BinWorker;
  struct Bound {
    const isa::Program* program = nullptr;
    const sp::HostProgram* host = nullptr;
    std::vector<float> constants;
    std::vector<tex::TextureDescriptor> textures;
    GpuMemory* memory = nullptr;
    GpuAddress privateBase = 0;
    uint64_t privateBytes = 0;
    std::mutex* privateLock = nullptr;
    sp::ShaderResources resources(tex::TextureUnit& tu) const {
      return {constants, textures, &tu, memory, privateBase, privateBytes, host, privateLock};
    }
  };
  const DrawState& state(const cp::RegisterFile& regs);
  void bind(const ShaderBinding& b, isa::Stage stage, Bound& out);
  void collectVertices(std::span<const uint32_t> prims);
  // Primitive setup for the draw's primitive type and the bound vertex shader's outputs.
  void configureSetup(const DrawState& s, const isa::Program& vs, uint16_t flatVaryings);
  // Runs primitive setup over `prims` of the current draw (vertices shaded) on `setup`; calls
  // emit(primitive, window triangle, varyings) for every window triangle.
  template <class Emit>
  void forEachPrimitive(std::span<const uint32_t> prims, int floats, pc::PrimitiveSetup& setup,
                        Emit&& emit);
  // The binning pass of a draw (pipeline_binning.cpp), its front end split by ranges on the
  // pool's threads when it is large (front_end_ranges.h).
  void binningDraw(const DrawState& s, const cp::RegisterFile& regs);
  // Whether the binning pass's vertex shading may run in ranges on several threads: the shader
  // reads no texture (the texture cache sees lookups in order) and spills nothing (one warp's
  // private memory).
  bool shadeInRanges() const;
  // The size of the ranges `count` vertices or primitives are split into, at least `least` and
  // whole warps; 0: the step runs whole on this thread (one thread, or too few to split).
  size_t rangeStep(size_t count, size_t least) const;
  // Splits [0, count) into ranges of `step` and queues work(units, range) for each on the pool.
  using RangeWork = std::function<void(FrontEndUnits&, FrontEndRange&)>;
  void startRanges(size_t count, size_t step, const RangeWork& work);
  // Waits for ranges_[i], merges its counters and traffic and throws its fault.
  void finishRange(size_t i);
  // Waits for every range still queued or running: binningDraw's way out, a fault's included.
  void drainRanges() noexcept;
  void renderDraw(const DrawState& s, const std::vector<uint32_t>* visible);
  // The bin's GMEM buffers (or the surfaces in sysmem); a buffer taken `whole` is one the caller
  // overwrites every byte of before reading any.
  RenderTarget currentTarget(const DrawState& s, bool wholeColor = false, bool wholeDepth = false);
  void clear(const DrawState& s, const cp::RegisterFile& regs);
  void blit(const DrawState& s, const cp::RegisterFile& regs, bool restore);
  void chargeSysmemRb(const rb::RbStats& before);
  // CP_SET_BIN in a GMEM pass after a binning pass with a block table: load this bin's blocks.
  void beginBlockBin(const DrawState& s, const ras::Scissor& window, uint32_t blockControl);
  // `triangles` triangles of the bin's pass order are done: final blocks enter the FIFO, and
  // those whose fragments have left the pipeline are resolved.
  void advanceBlocks(uint32_t triangles);
  // Whether the draw's triangles may serve as a block's full-cover triangle.
  bool fullCoverDraw(const DrawState& s, const cp::RegisterFile& regs);
  // Whether low-resolution Z applies to the current draw (GRAS_LRZ_CNTL on, state compatible).
  bool lrzDraw(const DrawState& s, bool shaderKills);
  // Every block's cumulative counters now; the stretch since the last boundary is the
  // difference. closeStretch() charges it to the open record and opens `next`.
  perf::BlockWork sampleWork();
  enum class Stretch : uint8_t { Setup, Binning, Bin };
  void closeStretch(Stretch next);
  // A counter read that waits for the timing model: where in the submission it was taken (the
  // open stretch, its bin and the work it had done) and where it goes; or a CP_MEM_TO_MEM on
  // such values (`memToMem`), done after them in order.
  struct TimedCounter {
    bool memToMem = false;
    uint32_t flags = 0;
    GpuAddress a = 0, b = 0;
    GpuAddress dst = 0;
    uint32_t select = 0;
    Stretch stretch = Stretch::Setup;
    size_t bin = 0;            // Bin: the index of its record
    bool binningDone = false;  // Setup: whether a binning pass has run
    perf::BlockWork done;      // the stretch's work so far
  };
  std::vector<TimedCounter> timedCounters_;
  std::unordered_set<GpuAddress> timedAddresses_;  // written by timedCounters_

  // Bins of GMEM render passes (bin_jobs.h, pipeline_bins.cpp). The pass's pipeline records;
  // a worker pipeline (worker_) runs one bin's calls at a time.
  bool recordsBins() const { return mode_ == cp::RenderMode::Gmem && !worker_; }
  BinJob* openJob() { return jobs_.empty() || jobs_.back().closed ? nullptr : &jobs_.back(); }
  // The job a call of `kind` belongs to: CP_SET_BIN_DATA or CP_SET_BIN after a recorded
  // CP_SET_BIN starts the next bin's.
  BinJob& jobFor(BinCall::Kind kind);
  // `regs`: the registers the call reads (none for a counter read).
  void record(BinCall call, const cp::RegisterFile* regs);
  // Inside a bin of a GMEM pass a draw or event goes to the bin's worker: true if recorded.
  bool recordInBin(BinCall call, const cp::RegisterFile& regs);
  void closeJob(BinJob& job);
  // Queues what `job` has recorded on the pool, with the cost its bin took last time; the
  // future is ready once it has run.
  std::future<void> submitJob(BinJob& job);
  // Queues `task` (which must not throw) on the pool; the future is ready once it has run.
  std::future<void> submitTask(std::function<void()> task, uint64_t cost);
  // Waits for `done`, running queued bins on this thread meanwhile.
  void awaitOnPool(std::future<void>& done);
  // The pass ends (or the submission): its last bin ends too; all are run and merged.
  void finishBins();
  // Runs what `job` has recorded (on any thread).
  void runJob(BinJob& job);
  void mergeJob(BinJob& job);
  // Merges the ended bins at the front, in order, waiting for each, until at most `keep` jobs
  // are left or the front one is open. Throws the first fault.
  void mergeFront(size_t keep);
  // Merges the worker's counter writes and clock reads recorded since the last merge.
  void mergeCounters(BinJob& job);
  // Drops every job (after a fault) and gives the workers back.
  void dropJobs();
  // Worker side: the state of a bin's start, taken from the pass's pipeline.
  void beginBinJob(const Pipeline& pass);
  void runCall(const BinCall& call);
  void workerCounter(const BinCall& call);
  // The counters as a CounterSources (countables.h), with `cp` for the command processor's.
  uint64_t readCountable(size_t countable, const cp::CpStats& cp);

  bool worker_ = false;
  unsigned threads_ = 1;
  GpuMemory::View runView_;  // the buffer objects the submission pinned: its workers pin them too
  std::deque<BinJob> jobs_;
  std::vector<std::unique_ptr<BinWorker>> idleWorkers_;
  // Declared after the jobs, so destroyed before them: its threads finish every bin first.
  std::unique_ptr<ThreadPool> pool_;
  // Host nanoseconds each bin (BinJob::costKey) took the last time it ran; bounded in size.
  std::unordered_map<uint64_t, uint64_t> binCosts_;
  uint32_t passInSubmission_ = 0;  // GMEM passes begun in this submission
  // The binning pass's ranges of the current draw, and the units idle threads take for one.
  std::vector<FrontEndRange> ranges_;
  std::mutex unitsMutex_;
  // The private memory's lock (sp::ShaderResources::privateLock): the pass's, which its bin
  // workers share, since they run at once with the same private memory bound.
  std::mutex privateMemory_;
  std::mutex* privateLock_ = &privateMemory_;
  std::vector<std::unique_ptr<FrontEndUnits>> idleUnits_;
  std::shared_ptr<const cp::RegisterFile> regsSnapshot_;
  uint64_t snapshotGeneration_ = 0;
  std::vector<BinCounterWrite> counterWrites_;  // worker: this bin's counter values
  std::vector<uint32_t>* overdraw_ = nullptr;
  uint32_t overdrawW_ = 0, overdrawH_ = 0;

  GpuMemory& memory_;
  gmem::TileMemory& gmem_;
  vfd::VertexFetch vfd_;
  tex::TextureUnit tex_;
  sp::ShaderCore sp_;
  ras::Rasterizer ras_;
  rb::RenderBackend rb_;
  pc::PrimitiveSetup setup_;
  VertexStage vertices_;
  FragmentStage fragment_;
  gmem::BlitEngine blit_;
  vsc::VisibilityWriter writer_;
  vsc::VisibilityReader reader_;
  lrz::LowResZ lrz_;
  vsc::BlockTableWriter blocks_;
  gmem::BlockResolver resolver_;
  ShaderCache shaders_;
  // Triangles of the earlier draws of the current pass or bin: the base of the sequence numbers
  // of the block table.
  uint32_t passTriangles_ = 0;
  uint32_t binsInPass_ = 0;
  uint64_t binQuadStart_ = 0;

  cp::RenderMode mode_ = cp::RenderMode::Sysmem;
  uint64_t stateGeneration_ = 0;
  DrawState state_;
  Bound vs_, fs_;
  // Per draw: the primitive sequence and the vertices it needs.
  cp::DrawPacket draw_{};
  // 0, 1, 2, ...: the indices of a draw without an index buffer and the primitives of any draw,
  // grown as draws need, so that a bin's draw does not write them again.
  std::vector<uint32_t> sequence_;
  std::vector<uint32_t> indexData_, ids_, visible_;
  std::span<const uint32_t> indices_, allPrims_;  // the draw's: in indexData_ or sequence_
  std::vector<uint8_t> seen_;
  uint32_t maxId_ = 0;
  PipelineStats stats_;
  const cp::CommandProcessor* cp_ = nullptr;
  Stretch stretch_ = Stretch::Setup;
  perf::BlockWork stretchStart_;
};

// A bin worker: a pipeline with GMEM of its own (bin_jobs.h).
struct BinWorker {
  BinWorker(GpuMemory& memory, uint32_t gmemBytes);
  gmem::TileMemory gmem;
  Pipeline pipeline;
};

template <class Emit>
void Pipeline::forEachPrimitive(std::span<const uint32_t> prims, int floats,
                                pc::PrimitiveSetup& setup, Emit&& emit) {
  const int n = pc::verticesPerPrimitive(draw_.prim);
  for (uint32_t t : prims) {
    uint32_t pos[3];
    pc::primitiveVertices(draw_.prim, t, draw_.count, pos);
    const float* v[3];
    for (int k = 0; k < n; ++k) v[k] = vertices_.vertex(indices_[pos[k]]);
    setup.processPrimitive(v, n, floats, [&](const ras::Triangle& tri, const float* const* vary) {
      emit(t, tri, vary);
    });
  }
}

}  // namespace tessera::gpu
