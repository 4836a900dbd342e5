// The Tessera GPU: GPU memory, tile memory, the command processor and the pipeline behind it,
// sized by a preset. The kernel-mode layer submits rings to it; everything else reaches the
// hardware only through memory and command streams.
#pragma once
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>

#include "gpu/cp/command_processor.h"
#include "gpu/gmem/tile_memory.h"
#include "gpu/mem/gpu_memory.h"
#include "gpu/pipeline/pipeline.h"
#include "gpu/preset/preset.h"

namespace tessera::gpu {

class Device final {
 public:
  // `threads`: host threads for the bins of render passes (Pipeline::setThreads).
  explicit Device(const Preset& preset, unsigned threads = defaultThreads())
      : preset_(preset),
        gmem_(preset.sysmemOnly ? 0 : preset.gmemBytes),
        pipeline_(memory_, gmem_),
        cp_(memory_, pipeline_) {
    pipeline_.setCommandProcessor(&cp_);
    pipeline_.setThreads(threads);
    // The shader cores and their texture caches' geometry are the preset's (docs/textures.md,
    // "Texture cache").
    pipeline_.configureCores(preset.shaderCores,
                             {preset.texCacheBytes, preset.texCacheLineBytes, preset.texCacheWays});
  }
  // The command processor and the pipeline hold references into the device.
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const Preset& preset() const { return preset_; }
  GpuMemory& memory() { return memory_; }
  Pipeline& pipeline() { return pipeline_; }
  cp::CommandProcessor& commandProcessor() { return cp_; }

  // Runs a ring segment to completion (the model is synchronous underneath the dispatcher). The
  // run sees the buffer objects of when it started and counts its own bus traffic (lastBus),
  // so the application may allocate, upload and read back meanwhile on other threads.
  std::optional<cp::CpFault> submit(GpuAddress ring, uint32_t dwords) {
    GpuMemory::ViewScope pin(memory_, memory_.view());
    // Counted from the totals, so that the counters the run reads see the bus's GPU traffic
    // since the GPU was made (the host's is not GPU traffic).
    const BusStats start = memory_.stats();
    BusStats run = start;
    std::optional<cp::CpFault> fault;
    {
      GpuMemory::BusCountingScope scope(memory_, run);
      pipeline_.beginSubmission();
      fault = cp_.execute(ring, dwords);
      pipeline_.endSubmission();
      // Completing the run's clock reads writes memory too: a fault there is the run's (the
      // first one stands), never an exception out of the GPU.
      if (timingModel_) try {
          time();
        } catch (const GpuFault& f) {
          if (!fault)
            fault = cp::CpFault{f.kind(), f.packet() ? f.packet() : ring, f.address(), f.client(),
                                f.what()};
        }
    }
    run.subtract(start);
    memory_.addStats(run);
    lastBus_ = run;
    return fault;
  }

  // Off: submissions are not timed (the functional model alone, for `tessera bench`); the GPU
  // clock stands still and lastTiming() keeps the last timed submission.
  void setTimingModel(bool on) { timingModel_ = on; }
  // Host seconds spent in the timing model so far (the schedule and the clock reads it fills).
  double timingSeconds() const { return timingSeconds_; }

  // The GPU clock (RBBM_ALWAYSON_COUNTER): cycles of every submission so far, back to back.
  // Any thread may read it while a submission runs.
  uint64_t clockCycles() const { return clockCycles_; }
  // The bus traffic of the last submission alone.
  const BusStats& lastBus() const { return lastBus_; }

  // The timing model's schedule of the last submission (gpu/perf): cycles per pass and block.
  const perf::SubmissionTiming& lastTiming() const { return timing_; }

 private:
  // The timing model's schedule of the submission just run, and the clock reads it completes.
  void time() {
    const auto start = std::chrono::steady_clock::now();
    timing_ = perf::timeSubmission(preset_, passWork(pipeline_.stats()));
    pipeline_.resolveTimedCounters(preset_, timing_, clockCycles_);
    clockCycles_ += static_cast<uint64_t>(std::llround(timing_.cycles));  // atomic: read anywhere
    timingSeconds_ +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  Preset preset_;
  GpuMemory memory_;
  gmem::TileMemory gmem_;
  Pipeline pipeline_;
  cp::CommandProcessor cp_;
  perf::SubmissionTiming timing_;
  std::atomic<uint64_t> clockCycles_ = 0;
  BusStats lastBus_;
  bool timingModel_ = true;
  double timingSeconds_ = 0;
};

}  // namespace tessera::gpu
