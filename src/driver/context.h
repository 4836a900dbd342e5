// The user-mode driver's context (freedreno's fd_context): implements the pipe context on the
// Tessera GPU. Draws and clears are recorded into the batch of the bound framebuffer as a draw
// IB; flush() turns the batch into IB0 — sysmem, or GMEM with an optional binning pass and per
// bin restore → draw IB → resolve (REFERENCES.md §1 "Per-batch flow") — and submits it. The
// kernel runs it on its dispatcher thread while the application records the next batch; a
// submitted batch keeps its buffers until it retires, a CPU write to a buffer the GPU may still
// read renames or waits, and a readback waits for the batch that wrote it (docs/kernel.md).
#pragma once
#include <array>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "driver/batch_report.h"
#include "driver/mode_policy.h"
#include "driver/query.h"
#include "driver/resources.h"
#include "driver/software_counters.h"
#include "driver/upload_arena.h"
#include "gpu/cp/capture.h"
#include "gpu/cp/command_writer.h"
#include "gpu/device.h"
#include "gpu/vsc/block_table.h"
#include "kmd/device.h"
#include "pipe/context.h"

namespace tessera::driver {

struct Batch;

struct PixelRect {
  uint32_t x0, y0, x1, y1;
};

class Context final : public pipe::Context {
 public:
  // A context of the kernel-mode device `kernel` (one per GPU, shared by its contexts).
  Context(kmd::Device& kernel, DriverOptions options);
  // A context with a kernel-mode device of its own over `device` (a single-context tool).
  Context(gpu::Device& device, DriverOptions options);
  ~Context() override;

  pipe::ResourceId createBuffer(std::span<const uint8_t> data) override;
  void updateBuffer(pipe::ResourceId buffer, uint64_t offset,
                    std::span<const uint8_t> data) override;
  void destroyResource(pipe::ResourceId id) override;
  pipe::ResourceId createTexture(const pipe::TextureDesc& desc) override;
  void uploadTexture(pipe::ResourceId tex, uint32_t face, uint32_t level,
                     std::span<const uint8_t> texels) override;
  pipe::ResourceId createColorSurface(pipe::ColorFormat f, uint32_t w, uint32_t h,
                                      uint32_t samples = 1) override;
  pipe::ResourceId createDepthSurface(pipe::DepthFormat f, uint32_t w, uint32_t h,
                                      uint32_t samples = 1) override;
  pipe::ResourceId createTextureSurface(pipe::ResourceId texture, uint32_t face,
                                        uint32_t level) override;
  pipe::ResourceId createVertexShader(std::span<const uint32_t> binary,
                                      std::span<const uint32_t> positionOnly) override;
  pipe::ResourceId createFragmentShader(std::span<const uint32_t> binary) override;

  void setFramebuffer(const pipe::Framebuffer& fb) override;
  // State setters mark a group dirty only when its value changes, so a draw re-emits only what
  // differs from the previous draw of the batch.
  void setBlend(const pipe::BlendState& s) override { update(blend_, s, kDirtyBlend); }
  void setDepthStencilAlpha(const pipe::DepthStencilAlphaState& s) override {
    update(dsa_, s, kDirtyDsa);
  }
  void setRasterizer(const pipe::RasterizerState& s) override {
    update(raster_, s, kDirtyRaster | kDirtyScissor);
  }
  void setScissor(const pipe::Scissor& s) override { update(scissor_, s, kDirtyScissor); }
  void setViewport(const pipe::Viewport& v) override { update(viewport_, v, kDirtyViewport); }
  void setVertexElements(std::span<const pipe::VertexElement> e) override;
  void setVertexBuffer(uint32_t slot, pipe::ResourceId buffer) override;
  void bindShaders(pipe::ResourceId vs, pipe::ResourceId fs) override;
  void setConstants(pipe::ShaderStage stage, std::span<const float> constants) override;
  void setTexture(pipe::ShaderStage stage, uint32_t unit, pipe::ResourceId tex,
                  const pipe::SamplerState& sampler) override;

  void clear(uint32_t buffers, const std::array<float, 4>& color, float depth,
             uint8_t stencil) override;
  void draw(const pipe::DrawInfo& info) override;
  void invalidate(uint32_t buffers) override;
  // Submits the batch and returns at once. Throws tessera::Error for a fault of an earlier batch
  // that retired since the last flush or finish (a batch's fault is known once it ran).
  pipe::Fence flush() override;
  // Flushes and waits until every submitted batch has left the kernel (glFinish); throws the
  // first fault not yet reported.
  void finish() override;
  std::vector<uint8_t> readSurface(pipe::ResourceId surface) override;
  // Where a colour surface's (resolved) image lives, for a presenter that reads it once the
  // fence of the batch that drew it signalled (the driver frees it only when the context goes).
  gpu::GpuAddress surfaceImage(pipe::ResourceId surface);

  pipe::QueryId createQuery(pipe::QueryType type) override { return queries_.create(type); }
  void destroyQuery(pipe::QueryId id) override { queries_.destroy(id); }
  void beginQuery(pipe::QueryId id) override;
  void endQuery(pipe::QueryId id) override;
  pipe::QueryResult queryResult(pipe::QueryId id, bool wait) override;
  std::span<const pipe::CounterInfo> counterList() override { return QueryTable::counterList(); }
  pipe::QueryId createCounterQuery(std::span<const uint32_t> counters) override {
    return queries_.createCounters(counters);
  }
  void recordTimestamp(pipe::QueryId id) override;
  uint64_t gpuTimeNs() override;
  bool takeDisjoint() override {
    reap(false);
    return std::exchange(disjoint_, false);
  }
  // flush() of the batch that ends a frame (eglSwapBuffers): the kernel's fault recovery skips
  // to the end of a frame at most.
  pipe::Fence flushFrame();
  // Frames ended so far (flushFrame calls): BatchReport::frame of the batches of the next one.
  uint64_t framesEnded() const { return framesEnded_; }
  // This context's id in the kernel-mode layer (its summaries and faults name it).
  kmd::ContextId kernelContext() const { return kernelContext_; }
  // A fence on the last batch submitted (EGL_KHR_fence_sync): signalled when it retires.
  kmd::Fence fence() { return kernel_->createFence(kernelContext_); }
  // Whether the kernel found this context guilty of GPU faults, or innocent of another's
  // (GL_EXT_robustness's reset status).
  kmd::ResetStatus resetStatus() const { return kernel_->resetStatus(kernelContext_); }
  // The driver's own counters so far (software queries).
  const SoftwareCounters& softwareCounters() const { return software_; }

  // One report per submitted batch since the last take, in submission order: takeReports() waits
  // for every submitted batch, takeRetiredReports() returns those that have retired.
  std::vector<BatchReport> takeReports();
  std::vector<BatchReport> takeRetiredReports();
  // Batches submitted and not yet reaped (retired ones are reaped by the next flush or wait).
  size_t batchesInFlight() const { return inflight_.size(); }
  // The buffers of the last submission (DriverOptions::captureStreams).
  const gpu::cp::Capture& lastCapture() const { return capture_; }
  gpu::Device& device() { return device_; }

 private:
  enum Dirty : uint32_t {
    kDirtyBlend = 1,
    kDirtyDsa = 2,
    kDirtyRaster = 4,
    kDirtyScissor = 8,
    kDirtyViewport = 16,
    kDirtyVertex = 32,
    kDirtyProgram = 64,
    kDirtyVsConst = 128,
    kDirtyFsConst = 256,
    kDirtyVsTex = 512,
    kDirtyFsTex = 1024,
    kDirtyAll = 2047
  };
  struct TextureBinding {
    pipe::ResourceId texture = pipe::kNoResource;
    pipe::SamplerState sampler;
    // setTexture named this unit (maybe with no texture: an incomplete one the shader may
    // sample), so its descriptor is emitted.
    bool set = false;
    bool operator==(const TextureBinding&) const = default;
  };
  template <class T>
  void update(T& current, const T& value, uint32_t groups) {
    if (current == value) return;
    current = value;
    dirty_ |= groups;
  }

  // A submitted batch until the kernel is done with it (freedreno keeps a submit's buffers
  // referenced until its fence signals).
  struct SubmittedBatch {
    kmd::Timestamp timestamp = 0;
    std::unique_ptr<Batch> batch;       // its IBs, uploads and replaced buffers: freed when reaped
    BatchReport report;                 // the dispatcher completes it after each run
    std::vector<uint32_t> streamSizes;  // each visibility pipe's size word after the run
    pipe::Framebuffer fb;
    bool ended = false;  // its onRetire ran (guarded by endMutex_)
  };

  // The batch being recorded, started (with every running query restarted in it) if none is.
  Batch& currentBatch();
  // Finishes the submitted batches that have left the kernel, in order, first waiting for all
  // of them when `wait` (or for those up to `through`, a timestamp of this context).
  void reap(bool wait);
  void reapThrough(kmd::Timestamp through);
  bool frontEnded();
  void reapFront();  // waits for the oldest submitted batch to end, then finishes it
  void retire(SubmittedBatch& s);
  // Frees a buffer object once nothing submitted or being recorded can still use it.
  void releaseLater(gpu::GpuAddress bo);
  // The batch being recorded references the resource (and a texture view its texture).
  void use(pipe::ResourceId id);
  // Waits until no submitted batch uses the resource (flushing the one being recorded if it
  // does): before the CPU writes it in place or reads what the GPU wrote.
  void waitIdle(pipe::ResourceId id);
  bool busy(const Resource& r) const;
  void throwPendingFault();
  // Turns the batch being recorded into IB0 and submits it (flush without reporting faults).
  void submitBatch();
  // Ends the batch being recorded without submitting it.
  void dropBatch();
  class EndOfFrame;
  Resource allocateSurface(ResourceKind kind, uint32_t bytesPerPixel, uint32_t w, uint32_t h,
                           const char* name, uint32_t samples = 1);
  void emitState(gpu::cp::CommandWriter& w, uint32_t groups = kDirtyAll);
  void emitConstants(gpu::cp::CommandWriter& w, pipe::ShaderStage stage);
  void emitTextures(gpu::cp::CommandWriter& w, pipe::ShaderStage stage);
  void emitPrivate(gpu::cp::CommandWriter& w, pipe::ShaderStage stage, uint32_t dwords);
  using Rect = PixelRect;
  Rect scissorRect() const;
  void growMaxScissor(const Rect& r);
  void buildSysmem(gpu::cp::CommandWriter& ib0, gpu::GpuAddress drawIb, uint32_t drawDwords);
  // False (with report.reason saying why, and nothing emitted) when no bin layout fits GMEM.
  bool buildGmem(gpu::cp::CommandWriter& ib0, gpu::GpuAddress drawIb, uint32_t drawDwords,
                 BatchReport& report);
  void emitSurfaces(gpu::cp::CommandWriter& w, bool depthInGmem);
  // Hands the batch to the kernel; its report is completed when it runs, and a GPU fault in it
  // is thrown by a later flush() or finish() once it is reaped.
  void submit(const gpu::cp::CommandWriter& ib0, gpu::GpuAddress drawIb, BatchReport report);
  // Every block's counters of the GPU run just done into the report.
  static void readStats(gpu::Device& gpu, BatchReport& report);
  // The binning pass wrote each pipe's stream size: grow the buffers that overflowed.
  void growOverflowedStreams();
  void grow(const std::vector<uint32_t>& streamSizes);
  void ensureVscBuffers(uint32_t pipes);
  // A buffer the driver keeps across batches (LRZ, block table), grown to `bytes`.
  void growBuffer(gpu::GpuAddress& bo, uint64_t& size, uint64_t bytes, const char* name);
  // GRAS_LRZ_* for the binning pass: enabled with a buffer for the framebuffer, or disabled.
  void emitLrz(gpu::cp::CommandWriter& ib0, bool enable);
  // VSC_BLOCK_* for the binning pass: the interleaved resolve's control and its block table.
  void emitBlockTable(gpu::cp::CommandWriter& ib0, const gpu::vsc::BlockControl& control,
                      const BinLayout& layout);

  Context(gpu::Device& device, std::unique_ptr<kmd::Device> own, kmd::Device* kernel,
          DriverOptions options);

  std::unique_ptr<kmd::Device> ownKernel_;  // first: outlives the kernel context below
  kmd::Device* kernel_;
  kmd::ContextId kernelContext_ = 0;
  gpu::Device& device_;
  gpu::GpuMemory& memory_;
  DriverOptions options_;
  ResourceTable resources_;
  std::unique_ptr<Batch> batch_;
  SoftwareCounters software_;
  ModePolicy policy_;      // RenderMode::Auto's per-batch choice
  bool disjoint_ = false;  // a GPU fault since the last takeDisjoint
  QueryTable queries_{
      memory_, device_.preset().queryAccumulate ? QueryScheme::Accumulate : QueryScheme::PerBin,
      QueryContext{&software_, [this] { return device_.clockCycles(); }, device_.preset().clockMHz,
                   [this](gpu::GpuAddress a) { releaseLater(a); }}};
  BinLayoutCache layouts_;

  // Current state.
  pipe::Framebuffer fb_;
  pipe::BlendState blend_;
  pipe::DepthStencilAlphaState dsa_;
  pipe::RasterizerState raster_;
  pipe::Scissor scissor_;
  pipe::Viewport viewport_;
  std::vector<pipe::VertexElement> elements_;
  std::array<pipe::ResourceId, 16> vertexBuffers_{};
  pipe::ResourceId vs_ = pipe::kNoResource, fs_ = pipe::kNoResource;
  std::vector<float> constants_[2];
  std::array<TextureBinding, 16> textures_[2];
  uint32_t dirty_ = kDirtyAll;

  // Hardware resources the driver keeps across batches.
  gpu::GpuAddress vscSizes_ = 0;
  std::vector<gpu::GpuAddress> vscData_;
  std::vector<uint32_t> vscBytes_;
  gpu::GpuAddress lrz_ = 0;  // low-resolution Z buffer, grown to the largest framebuffer
  uint64_t lrzBytes_ = 0;
  gpu::GpuAddress blockTable_ = 0;  // interleaved resolve's block table, grown as LRZ's
  uint64_t blockTableBytes_ = 0;
  // Private memory (register spills) per stage, grown to the largest program bound so far.
  gpu::GpuAddress private_[2] = {};
  uint64_t privateBytes_[2] = {};
  kmd::Timestamp timestamp_ = 0;  // the kernel context's, of the last batch submitted
  // The batch being flushed ends a frame (eglSwapBuffers, or a readback of an attachment): the
  // kernel's recovery skips to it at most, and multisample contents need not survive it
  // (docs/msaa.md).
  bool endOfFrame_ = false;
  uint64_t framesEnded_ = 0;
  std::vector<BatchReport> reports_;
  gpu::cp::Capture capture_;
  uint64_t batchSerial_ = 1;  // the batch being recorded (Resource::batchMark)
  // Submitted batches in submission order; only the application's thread adds and removes.
  std::deque<std::unique_ptr<SubmittedBatch>> inflight_;
  std::mutex endMutex_;
  std::condition_variable endCv_;
  std::string pendingFault_;  // the first fault reaped and not yet thrown
  // Visibility-stream sizes of reaped batches that overflowed, not yet applied.
  struct Overflow {
    kmd::Timestamp timestamp;
    std::vector<uint32_t> sizes;
  };
  std::deque<Overflow> overflows_;
  // The last batch the application waited for (finish, a readback, a query result): waits are
  // part of the program, so what follows from them does not depend on the GPU's progress.
  kmd::Timestamp syncedThrough_ = 0;
};

}  // namespace tessera::driver
