// What `tessera sweep` writes once every point has its result: the table on stdout, the CSV and
// the SVG plots, all in the grid's point order.
#pragma once
#include <string>
#include <vector>

#include "tools/sweep_cache.h"
#include "tools/sweep_grid.h"

namespace tessera::tools {

// One row per point: `results[i]` rendered in mode `modes[i]` ("binning", "sysmem", ...).
struct SweepResults {
  const SweepGrid& grid;
  std::vector<std::string> modes;
  std::vector<PointResult> results;
};

// The title line, then one row per point: a column per axis (and for the preset and mode when
// the grid has several), bins, bin size, cycles, milliseconds, MiB and the bound block.
std::string sweepTable(const std::string& title, const SweepResults& r);

// One column per axis (named by its parameters joined with '+'), then `preset` and `mode` when
// the grid has several of them (a one-preset, one-axis sweep's CSV is as it always was), then
// bins, bins_x, bins_y, bin_w, bin_h, the frame time columns, total_bytes, bytes_<client> per GPU
// bus client and the bound block's busy columns.
std::string sweepCsv(const SweepResults& r);

// Where the plot of axis `axis` goes: `plot` itself for a one-axis grid, else FILE-<axis>.EXT
// (the axis named by its parameters joined with '+').
std::string sweepPlotPath(const std::string& plot, const SweepGrid& grid, size_t axis);

// Frame cycles and MiB moved against axis `axis`'s value: one series per combination of the
// presets, modes and other axes' values, named by them (the panels' own names when there is
// only one).
std::string sweepPlotSvg(const std::string& title, const SweepResults& r, size_t axis);

}  // namespace tessera::tools
