// The figures of a rendered frame for an architect: a summary table on the terminal, the full
// JSON report (every block's counters, per-bin figures) and a heat map of triangles per bin.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "common/image.h"
#include "gpu/perf/timing_model.h"
#include "gpu/preset/preset.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera::tools {

struct FrameFigures {
  std::string scene, preset, mode;
  uint32_t width = 0, height = 0;
  uint64_t trianglesIn = 0, trianglesAfterCulling = 0, trianglesBinned = 0;
  uint32_t bins = 0, binW = 0, binH = 0, pipes = 0;
  double avgTrianglesPerBin = 0;
  uint64_t maxTrianglesPerBin = 0;
  uint64_t fragmentsShaded = 0, verticesShaded = 0;
  // Rendering interleaved with resolve (US 8,902,228): fragments not shaded because a later
  // triangle covers their block, and the blocks resolved during / after rendering.
  bool blockResolve = false;
  uint64_t fullCoverSkipped = 0, blocksResolvedEarly = 0, blocksResolvedAtEnd = 0;
  uint64_t blocksUntouched = 0, restoresSkipped = 0;
  gpu::BusStats bus;                                 // this frame, summed over its batches
  gpu::BusStats sysmemBus;                           // the same frame rendered in sysmem mode
  gpu::perf::SubmissionTiming timing, sysmemTiming;  // the timing model's cycles, likewise
  bool visibilityOverflow = false;
  std::vector<uint64_t> trianglesPerBin;  // row-major over the bin grid
  uint32_t binsX = 0, binsY = 0;
};

// The frame's main batch, the one with the most draws (the per-bin figures and heat maps come
// from it), or null for a frame without batches.
const driver::BatchReport* mainBatch(const FrameResult& frame);

FrameFigures computeFigures(const scene::Scene& s, const gpu::Preset& preset,
                            const FrameResult& frame, const FrameResult& sysmem);
std::string summaryTable(const FrameFigures& f);
nlohmann::json reportJson(const FrameFigures& f, const FrameResult& frame);
Image triangleHeatmap(const FrameFigures& f, const FrameResult& frame);

// The timing model's CSV cells that `compare` and `sweep` share, as a header and as one row:
// "cycles,milliseconds" and "bound,busy_<block>..." (busy in percent of the frame).
std::string frameTimeCsvHeader();
std::string frameTimeCsv(const gpu::perf::SubmissionTiming& t);
std::string boundBusyCsvHeader();
std::string boundBusyCsv(const gpu::perf::SubmissionTiming& t);
// The order in which the interleaved resolve copied the blocks of each bin out: from blue (first)
// to red (the last), block edges darker; blocks never resolved stay black.
Image resolveOrderHeatmap(const FrameResult& frame);
// Fragments rasterized per pixel (FrameResult::overdraw) in the usual depth-complexity palette:
// black 0, then blue, cyan, green, yellow, orange, red for 1..6, white for 7 or more.
Image overdrawHeatmap(const FrameResult& frame);

}  // namespace tessera::tools
