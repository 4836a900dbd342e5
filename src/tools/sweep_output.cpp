#include "tools/sweep_output.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "gpu/preset/preset_field.h"
#include "report/svg_chart.h"
#include "tools/frame_report.h"

namespace tessera::tools {
namespace {

constexpr double kMiB = 1048576.0;

// The table's columns naming each point, in the grid's order: the preset and the mode when the
// grid has several (a one-preset sweep's table stays as narrow as before), then each axis.
struct PointColumns {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> cells;  // per point
};

PointColumns pointColumns(const SweepResults& r) {
  const SweepGrid& g = r.grid;
  PointColumns c;
  if (g.presets.size() > 1) c.headers.push_back("preset");
  if (g.modes.size() > 1) c.headers.push_back("mode");
  for (const SweepAxis& a : g.axes) c.headers.push_back(a.name(","));
  for (size_t i = 0; i < r.results.size(); ++i) {
    const GridPoint p = g.point(i);
    std::vector<std::string> row;
    if (g.presets.size() > 1) row.push_back(g.presets[p.preset]);
    if (g.modes.size() > 1) row.push_back(r.modes[i]);
    for (size_t k = 0; k < g.axes.size(); ++k) row.push_back(g.axes[k].values[p.values[k]]);
    c.cells.push_back(std::move(row));
  }
  return c;
}

}  // namespace

std::string sweepTable(const std::string& title, const SweepResults& r) {
  const PointColumns pc = pointColumns(r);
  std::vector<size_t> widths;
  for (size_t k = 0; k < pc.headers.size(); ++k) {
    size_t w = std::max<size_t>(pc.headers[k].size(), pc.headers.size() == 1 ? 16 : 0);
    for (const auto& row : pc.cells) w = std::max(w, row[k].size());
    widths.push_back(w);
  }
  auto grid = [&](const std::vector<std::string>& cells) {
    std::string out = " ";
    for (size_t k = 0; k < cells.size(); ++k)
      out += " " + cells[k] + std::string(widths[k] - cells[k].size(), ' ');
    return out;
  };
  std::ostringstream table;
  char line[256];
  table << title << "\n";
  std::snprintf(line, sizeof line, " %6s %11s %12s %10s %10s  %s\n", "bins", "bin size", "cycles",
                "ms", "MiB", "bound");
  table << grid(pc.headers) << line;
  for (size_t i = 0; i < r.results.size(); ++i) {
    const PointResult& f = r.results[i];
    const std::string binSize = std::to_string(f.binW) + "x" + std::to_string(f.binH);
    std::snprintf(line, sizeof line, " %6u %11s %12.0f %10.3f %10.2f  %s\n", f.bins,
                  binSize.c_str(), f.timing.cycles, f.timing.milliseconds(),
                  double(f.bus.totalGpuBytes()) / kMiB,
                  std::string(gpu::perf::blockName(f.timing.bound)).c_str());
    table << grid(pc.cells[i]) << line;
  }
  return table.str();
}

std::string sweepCsv(const SweepResults& r) {
  const SweepGrid& g = r.grid;
  std::ostringstream csv;
  for (const SweepAxis& a : g.axes) csv << a.name("+") << ",";
  if (g.presets.size() > 1) csv << "preset,";
  if (g.modes.size() > 1) csv << "mode,";
  csv << "bins,bins_x,bins_y,bin_w,bin_h," << frameTimeCsvHeader() << ",total_bytes";
  for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c)
    if (static_cast<gpu::BusClient>(c) != gpu::BusClient::Host)
      csv << ",bytes_" << gpu::kBusClientNames[c];
  csv << "," << boundBusyCsvHeader() << "\n";
  for (size_t i = 0; i < r.results.size(); ++i) {
    const GridPoint p = g.point(i);
    for (size_t k = 0; k < g.axes.size(); ++k) csv << g.axes[k].values[p.values[k]] << ",";
    const PointResult& f = r.results[i];
    if (g.presets.size() > 1) csv << g.presets[p.preset] << ",";
    if (g.modes.size() > 1) csv << r.modes[i] << ",";
    csv << f.bins << "," << f.binsX << "," << f.binsY << "," << f.binW << "," << f.binH << ","
        << frameTimeCsv(f.timing) << "," << f.bus.totalGpuBytes();
    for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c)
      if (static_cast<gpu::BusClient>(c) != gpu::BusClient::Host)
        csv << "," << f.bus.client[c].readBytes + f.bus.client[c].writeBytes;
    csv << "," << boundBusyCsv(f.timing) << "\n";
  }
  return csv.str();
}

std::string sweepPlotPath(const std::string& plot, const SweepGrid& grid, size_t axis) {
  if (grid.axes.size() == 1) return plot;
  const std::filesystem::path p(plot);
  const std::string file =
      p.stem().string() + "-" + grid.axes[axis].name("+") + p.extension().string();
  return (p.parent_path() / file).string();
}

std::string sweepPlotSvg(const std::string& title, const SweepResults& r, size_t axis) {
  const SweepGrid& g = r.grid;
  const SweepAxis& a = g.axes[axis];
  report::LineChart chart;
  chart.title = title;
  const std::string_view unit = gpu::findPresetField(a.params.front()).unit;
  chart.xLabel = a.name(", ") + (unit == "-" ? "" : " (" + std::string(unit) + ")");
  for (const std::string& v : a.values) chart.x.push_back(axisValueX(v));
  chart.logX = report::wantsLogScale(chart.x);
  // A series starts at each point whose value on this axis is the first; the rest of its line
  // are the points that differ from it only on this axis.
  report::ChartPanel cycles{"frame cycles", {}}, mib{"MiB", {}};
  for (size_t i = 0; i < r.results.size(); ++i) {
    GridPoint p = g.point(i);
    if (p.values[axis] != 0) continue;
    report::ChartSeries c{g.describe(p, axis), {}}, m{c.name, {}};
    for (size_t j = 0; j < a.values.size(); ++j) {
      p.values[axis] = j;
      const PointResult& f = r.results[g.index(p)];
      c.y.push_back(f.timing.cycles);
      m.y.push_back(double(f.bus.totalGpuBytes()) / kMiB);
    }
    cycles.series.push_back(std::move(c));
    mib.series.push_back(std::move(m));
  }
  if (cycles.series.size() == 1 && cycles.series[0].name.empty()) {
    cycles.series[0].name = "frame cycles";  // one line per panel: named by what it shows
    mib.series[0].name = "MiB moved on the bus";
  } else {
    chart.sharedSeries = true;
  }
  chart.panels = {std::move(cycles), std::move(mib)};
  return report::lineChartSvg(chart);
}

}  // namespace tessera::tools
