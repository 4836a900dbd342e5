// One rendered frame as a self-contained HTML page (`tessera render --html`): the frame and the
// heat maps (triangles per bin, overdraw, resolve order) as data: URIs, bytes per bus client and
// busy cycles per block as bar charts, the engines' timeline as a Gantt chart (inline SVG), and a
// sortable per-bin table. The page loads nothing: a Content-Security-Policy forbids any fetch,
// styles and its few lines of script are inline.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "common/image.h"
#include "gpu/mem/gpu_memory.h"
#include "gpu/perf/timing_model.h"
#include "report/svg_chart.h"

namespace tessera::report {

struct HtmlFrameReport {
  std::string title;             // e.g. "default 800x600 on adreno-a630 (binning)"
  std::string summary;           // the terminal summary of `tessera render`, shown preformatted
  Image frame;                   // the rendered frame
  Image heatmap;                 // triangles per bin over the frame; empty: no heat map section
  Image overdraw;                // fragments rasterized per pixel; empty: left out
  Image resolveOrder;            // the interleaved resolve's block order; empty: left out
  gpu::BusStats bus, sysmemBus;  // this frame, and the same frame in sysmem mode
  gpu::perf::SubmissionTiming timing;  // the frame's submissions back to back
  nlohmann::json perBin;               // the main batch's "per_bin" rows (report::batchJson)
};

// Bins beyond this many are left out of the page's table (the JSON report has them all).
inline constexpr size_t kHtmlMaxBinRows = 4096;

std::string htmlReport(const HtmlFrameReport& report);

// The frame's passes on the rendering engine and its bins' loads and stores on the blit engine.
GanttChart timelineChart(const gpu::perf::SubmissionTiming& timing);

// Read and write bytes per bus client (the host's uploads are not GPU traffic and are left out).
BarChart busChart(const gpu::BusStats& bus, const std::string& title);

// Busy cycles per block, each with its share of the frame.
BarChart busyChart(const gpu::perf::SubmissionTiming& timing);

}  // namespace tessera::report
