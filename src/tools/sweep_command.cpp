#include "tools/sweep_command.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <variant>

#include "common/error.h"
#include "common/text_file.h"
#include "driver/bin_layout.h"
#include "gpu/preset/preset_field.h"
#include "report/svg_chart.h"
#include "tools/frame_report.h"

namespace tessera::tools {
namespace {

constexpr size_t kMaxValues = 1000;

// One value of the sweep: its text (as given to setPresetField), its position on the plot's x
// axis and the preset it gives.
struct Step {
  std::string text;
  double x = 0;
  gpu::Preset preset;
  driver::RenderMode mode = driver::RenderMode::Binning;
};

double parseDouble(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw Error(what + ": '" + text + "' is not a number");
  return v;
}

// Digits after the decimal point of a plain decimal ("0.25" -> 2); -1 for exponent notation.
int decimals(const std::string& text) {
  if (text.find_first_of("eE") != std::string::npos) return -1;
  const size_t dot = text.find('.');
  return dot == std::string::npos ? 0 : int(text.size() - dot - 1);
}

// A file the command will write: its folder must exist and take files, and it must not be a
// folder itself; checked before rendering so a mistyped path costs nothing.
void checkOutputFile(const std::string& path) {
  if (path.empty()) return;
  checkOutputFolder(path);
  if (std::filesystem::is_directory(path))
    throw Error("cannot write '" + path + "': it is a folder");
  const auto folder = std::filesystem::absolute(path).parent_path();
  if (::access(folder.c_str(), W_OK) != 0)
    throw Error("cannot write '" + path + "': folder '" + folder.string() + "' is not writable");
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

void progress(size_t i, size_t n, const std::string& what, bool terminal) {
  if (!terminal) {
    std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, n, what.c_str());
    return;
  }
  constexpr size_t kWidth = 30;
  const size_t done = kWidth * i / n;
  std::string bar(done, '=');
  if (done < kWidth) bar += '>' + std::string(kWidth - done - 1, ' ');
  std::fprintf(stderr, "\r  sweep [%s] %zu/%zu %-40.40s", bar.c_str(), i + 1, n, what.c_str());
  std::fflush(stderr);
}

std::string csvText(const std::vector<std::string>& params, const std::vector<Step>& steps,
                    const std::vector<FrameFigures>& rows) {
  std::ostringstream csv;
  csv << joined(params, "+") << ",bins,bins_x,bins_y,bin_w,bin_h," << frameTimeCsvHeader()
      << ",total_bytes";
  for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c)
    if (static_cast<gpu::BusClient>(c) != gpu::BusClient::Host)
      csv << ",bytes_" << gpu::kBusClientNames[c];
  csv << "," << boundBusyCsvHeader() << "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const FrameFigures& f = rows[i];
    csv << steps[i].text << "," << f.bins << "," << f.binsX << "," << f.binsY << "," << f.binW
        << "," << f.binH << "," << frameTimeCsv(f.timing) << "," << f.bus.totalGpuBytes();
    for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c)
      if (static_cast<gpu::BusClient>(c) != gpu::BusClient::Host)
        csv << "," << f.bus.client[c].readBytes + f.bus.client[c].writeBytes;
    csv << "," << boundBusyCsv(f.timing) << "\n";
  }
  return csv.str();
}

std::string plotSvg(const SweepArgs& a, const std::string& title, const std::vector<Step>& steps,
                    const std::vector<FrameFigures>& rows) {
  report::LineChart chart;
  chart.title = title;
  chart.xLabel = joined(a.params, ", ") + " (" +
                 std::string(gpu::findPresetField(a.params.front()).unit) + ")";
  report::ChartSeries cycles{"frame cycles", {}}, mib{"MiB moved on the bus", {}};
  for (size_t i = 0; i < rows.size(); ++i) {
    chart.x.push_back(steps[i].x);
    cycles.y.push_back(rows[i].timing.cycles);
    mib.y.push_back(double(rows[i].bus.totalGpuBytes()) / 1048576.0);
  }
  chart.panels = {{"frame cycles", {cycles}}, {"MiB", {mib}}};
  chart.logX = report::wantsLogScale(chart.x);
  return report::lineChartSvg(chart);
}

}  // namespace

std::vector<std::string> expandRange(const std::string& range) {
  const std::string bad = "bad range '" + range + "'";
  const size_t c1 = range.find(':'), c2 = c1 == std::string::npos ? c1 : range.find(':', c1 + 1);
  if (c2 == std::string::npos || range.find(':', c2 + 1) != std::string::npos)
    throw Error(bad + ": expected FROM:TO:STEP");
  const std::string fromText = range.substr(0, c1), toText = range.substr(c1 + 1, c2 - c1 - 1),
                    stepText = range.substr(c2 + 1);
  const double from = parseDouble(fromText, bad), to = parseDouble(toText, bad),
               step = parseDouble(stepText, bad);
  if (step == 0) throw Error(bad + ": STEP must not be 0");
  const double steps = (to - from) / step;
  if (steps < -1e-9) throw Error(bad + ": STEP goes away from TO");
  const double count = std::floor(steps + 1e-9) + 1;
  if (count > double(kMaxValues))
    throw Error(bad + ": more than " + std::to_string(kMaxValues) + " values");
  const int places = std::max(decimals(fromText), decimals(stepText));
  std::vector<std::string> values;
  for (size_t i = 0; i < size_t(count); ++i) {
    const double v = from + double(i) * step;
    char buf[64];
    if (places < 0)
      std::snprintf(buf, sizeof buf, "%.17g", v);
    else
      std::snprintf(buf, sizeof buf, "%.*f", places, v);
    values.push_back(std::string(buf) == "-0" ? "0" : buf);
  }
  return values;
}

int runSweep(const SweepArgs& a) {
  // Everything is checked before the first frame renders.
  if (a.params.empty()) throw Error("sweep: give the parameter to vary with --param");
  for (const std::string& key : a.params)
    if (std::holds_alternative<bool gpu::Preset::*>(gpu::findPresetField(key).member))
      throw Error("sweep: '" + key + "' is a flag, not a numeric parameter");
  if (a.values.empty() == a.range.empty())
    throw Error("sweep: give the values with either --values A,B,C or --range FROM:TO:STEP");
  const std::vector<std::string> texts = a.range.empty() ? a.values : expandRange(a.range);
  if (texts.size() > kMaxValues)
    throw Error("sweep: more than " + std::to_string(kMaxValues) + " values");
  const gpu::Preset& base = gpu::findPreset(a.preset);
  std::vector<Step> steps;
  for (const std::string& text : texts) {
    Step s{text, 0, base, driver::RenderMode::Binning};
    try {
      for (const std::string& key : a.params) gpu::setPresetField(s.preset, key, text);
      gpu::validatePreset(s.preset);
      s.x = parseDouble(text, "value");
    } catch (const Error& e) {
      throw Error("sweep " + joined(a.params, ",") + "=" + text + ": " + e.what());
    }
    s.mode = s.preset.sysmemOnly ? driver::RenderMode::Sysmem : driver::RenderMode::Binning;
    if (!a.mode.empty()) s.mode = driver::parseRenderMode(a.mode);
    // A tile too small for the frame's buffers would fail only when its frame renders: lay the
    // bins out now for the frame renderer's RGBA8 colour and D24S8 depth/stencil (4 + 4 bytes
    // per pixel, both in GMEM since every frame clears them).
    if (s.mode != driver::RenderMode::Sysmem && !s.preset.sysmemOnly) {
      try {
        driver::computeBinLayout(s.preset, {0, 0, a.width, a.height, {4, 4}});
      } catch (const Error& e) {
        throw Error("sweep " + joined(a.params, ",") + "=" + text + ": " + e.what());
      }
    }
    steps.push_back(std::move(s));
  }
  checkOutputFile(a.csv);
  checkOutputFile(a.plot);
  const scene::Scene scene = scene::sceneByName(a.model, a.width, a.height);

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  std::vector<FrameFigures> rows;
  for (size_t i = 0; i < steps.size(); ++i) {
    progress(i, steps.size(), joined(a.params, ",") + "=" + steps[i].text, terminal);
    FrameOptions o;
    o.mode = steps[i].mode;
    o.warmupFrames = 1;  // visibility streams sized as in an application's loop
    const FrameResult frame = renderFrame(scene, steps[i].preset, o);
    rows.push_back(computeFigures(scene, steps[i].preset, frame, frame));
  }
  if (terminal) std::fprintf(stderr, "\r%78s\r", "");

  const std::string mode(driver::renderModeName(steps.front().mode));
  const std::string title = "Tessera sweep: " + scene.name + " " + std::to_string(a.width) + "x" +
                            std::to_string(a.height) + " on " + a.preset + " (" + mode + ")";
  std::ostringstream table;
  char line[256];
  table << title << "\n";
  std::snprintf(line, sizeof line, "  %-16s %6s %11s %12s %10s %10s  %s\n",
                joined(a.params, ",").c_str(), "bins", "bin size", "cycles", "ms", "MiB", "bound");
  table << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const FrameFigures& f = rows[i];
    const std::string binSize = std::to_string(f.binW) + "x" + std::to_string(f.binH);
    std::snprintf(line, sizeof line, "  %-16s %6u %11s %12.0f %10.3f %10.2f  %s\n",
                  steps[i].text.c_str(), f.bins, binSize.c_str(), f.timing.cycles,
                  f.timing.milliseconds(), double(f.bus.totalGpuBytes()) / 1048576.0,
                  std::string(gpu::perf::blockName(f.timing.bound)).c_str());
    table << line;
  }
  std::cout << table.str();
  if (!a.csv.empty()) {
    writeTextFile(a.csv, csvText(a.params, steps, rows));
    std::cout << "  csv                          " << a.csv << "\n";
  }
  if (!a.plot.empty()) {
    writeTextFile(a.plot, plotSvg(a, title, steps, rows));
    std::cout << "  plot                         " << a.plot << "\n";
  }
  return 0;
}

}  // namespace tessera::tools
