// The timing model: turns the work each block did (block_work.h) into cycles at a preset's
// rates and schedules a submission's passes on the hardware's engines. It is a throughput model
// in the spirit of the seed on tile-based rendering: blocks of a pass run as a pipeline, so a
// pass takes as long as its busiest block; tile memory is restored, rendered and resolved per
// bin, with the overlaps the preset's tile buffers allow. It reads counters only, so it never
// changes a pixel, and it is a pure function of them, so any thread count gives the same cycles.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "gpu/perf/block_work.h"
#include "gpu/preset/preset.h"

namespace tessera::gpu::perf {

// Cycles per block.
using BlockCycles = std::array<double, kBlocks>;

// The stretches of a submission, in the stage names of Adreno's profiling tools (REFERENCES.md
// §5): state setup outside any pass, the binning pass, a bin of a GMEM pass, a sysmem pass.
enum class PassKind : uint8_t { Setup, Binning, Bin, Sysmem };
std::string_view passName(PassKind kind);

struct PassWork {
  PassKind kind = PassKind::Setup;
  BlockWork work;
  // Bins: the part of work.resolveBytes resolved while the bin rendered (the rest follows it).
  std::vector<ResolveSlice> earlyResolves;
};

// One phase on the timeline: [start, start + cycles), cycles from the submission's start.
struct Phase {
  double start = 0, cycles = 0;
  double end() const { return start + cycles; }
};

struct PassTiming {
  PassKind kind = PassKind::Setup;
  // A bin's phases: "GMEM Load" (fast clear and restore), "GMEM" (its draws), "GMEM Store"
  // (resolve). Other passes have only `render`.
  Phase load, render, store;
  BlockCycles busy{};       // cycles each block worked in this pass
  Block bound = Block::Cp;  // the block with the most busy cycles: what bound the pass
};

struct SubmissionTiming {
  std::vector<PassTiming> passes;
  double cycles = 0;        // the last phase's end, or the bus time of all traffic if longer
  BlockCycles busy{};       // summed over passes
  Block bound = Block::Cp;  // the block with the most busy cycles over the submission
  double clockMHz = 0;      // the preset's clock, for times
  double milliseconds() const { return clockMHz > 0 ? cycles / (clockMHz * 1e3) : 0.0; }
  double busyPercent(Block b) const;  // busy[b] / cycles, in percent (0 for an empty one)
};

// Cycles each block needs for `work` (the GMEM and bus figures include the blits).
BlockCycles blockCycles(const Preset& preset, const BlockWork& work);

// The schedule of a submission's passes in order. Passes other than bins run one after another
// on the rendering engine. Bins: restore → render → resolve; with one tile buffer each bin's
// phases follow the last bin's resolve; with two the blit engine restores bin k+1 and resolves
// bin k−1 while bin k renders (Milo832's double-buffered tile memory, seed on tile-based
// rendering).
SubmissionTiming timeSubmission(const Preset& preset, std::span<const PassWork> passes);

// Adds `b`'s passes after `a`'s (the submissions of a frame run back to back).
void append(SubmissionTiming& a, const SubmissionTiming& b);

}  // namespace tessera::gpu::perf
