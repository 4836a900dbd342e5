// What one flushed batch cost: the mode it used and why, its bin layout, and every block's
// counters for the submission — the raw material of `tessera render`'s summary and JSON report.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "driver/bin_layout.h"
#include "driver/options.h"
#include "gpu/cp/command_processor.h"
#include "gpu/pipeline/pipeline.h"

namespace tessera::driver {

struct BlockStats {
  gpu::BusStats bus;  // traffic of this submission only
  gpu::cp::CpStats cp;
  gpu::PipelineStats pipeline;
  gpu::vsc::VscStats vsc;
  gpu::gmem::GmemStats gmem;
  gpu::sp::SpStats sp;
  gpu::ras::RasStats ras;
  gpu::rb::RbStats rb;
  gpu::pc::PcStats pc;
  gpu::vfd::VfdStats vfd;
  gpu::tex::TexStats tex;
  gpu::FragmentStats fragment;
  gpu::lrz::LrzStats lrz;
  gpu::vsc::BlockTableStats blockTable;
  gpu::gmem::BlockResolveStats blockResolve;
  std::vector<gpu::gmem::BlockResolveEvent> blockResolves;  // in the order they ran
};

struct BatchReport {
  RenderMode mode = RenderMode::Sysmem;
  std::string reason;  // why this mode (forced, fallback to naive, ...)
  uint32_t draws = 0, clears = 0;
  std::optional<BinLayout> layout;  // GMEM modes
  bool visibilityOverflow = false;  // a pipe's stream overflowed: those bins drew everything
  bool lrz = false;                 // low-resolution Z was on (preset lrz, compatible draws)
  bool blockResolve = false;        // rendering interleaved with resolve (preset resolveBlock)
  uint32_t restores = 0, resolves = 0;
  BlockStats stats;
  gpu::perf::SubmissionTiming timing;  // the timing model's cycles for this submission
  std::optional<gpu::cp::CpFault> fault;
  // The frame it belongs to: how many frames its context had ended (flushFrame) before it. The
  // GPU may still run a frame's last batches after the next frame began.
  uint64_t frame = 0;
};

}  // namespace tessera::driver
