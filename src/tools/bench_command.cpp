#include "tools/bench_command.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "common/error.h"
#include "common/text_file.h"
#include "common/thread_pool.h"
#include "report/svg_chart.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera::tools {
namespace {

constexpr uint32_t kMaxFrames = 1000;

std::string threadsName(unsigned n) {
  return std::to_string(n) + (n == 1 ? " thread" : " threads");
}

std::string sizeName(uint32_t w, uint32_t h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// What every measurement shares.
struct Setup {
  gpu::Preset preset;
  driver::RenderMode mode = driver::RenderMode::Binning;
  uint32_t frames = 1;
};

FrameResult measure(const Setup& setup, const scene::Scene& s, unsigned threads, bool timing) {
  FrameOptions o;
  o.mode = setup.mode;
  o.warmupFrames = 1;
  o.measuredFrames = setup.frames;
  o.threads = threads;
  o.timingModel = timing;
  return renderFrame(s, setup.preset, o);
}

// One CSV row: what was measured and the median host milliseconds per frame.
struct Row {
  std::string kind, scene;
  uint32_t width = 0, height = 0;
  size_t triangles = 0;
  unsigned threads = 0;
  bool timing = true;
  double ms = 0, timingMs = 0;
};

std::string csvText(const std::vector<Row>& rows) {
  std::ostringstream csv;
  csv << "kind,scene,width,height,triangles,threads,timing_model,ms,timing_model_ms\n";
  char buf[64];
  for (const Row& r : rows) {
    csv << r.kind << "," << r.scene << "," << r.width << "," << r.height << "," << r.triangles
        << "," << r.threads << "," << (r.timing ? "on" : "off") << ",";
    std::snprintf(buf, sizeof buf, "%.4f,%.4f", r.ms, r.timingMs);
    csv << buf << "\n";
  }
  return csv.str();
}

// Renders `s` at every thread count, each compared with the first; returns the frames. Throws
// naming the first difference.
std::vector<FrameResult> acrossThreads(const Setup& setup, const scene::Scene& s,
                                       const std::vector<unsigned>& threads) {
  std::vector<FrameResult> frames;
  for (unsigned n : threads) {
    frames.push_back(measure(setup, s, n, true));
    const std::string diff = firstDifference(frames.front(), frames.back(), true);
    if (!diff.empty())
      throw Error(s.name + " " + sizeName(s.width, s.height) + " at " + threadsName(n) + ": " +
                  diff + " (against " + threadsName(threads.front()) +
                  "; results must not depend on host threads)");
  }
  return frames;
}

// Section 1: host time per frame at each thread count, and the same-results check.
void threadsTable(const Setup& setup, const BenchArgs& a, const std::vector<scene::Scene>& scenes,
                  std::vector<Row>& rows, std::vector<FrameResult>& reference) {
  std::printf("\nHost threads: median host time per frame\n");
  std::printf("  %-12s %10s %8s %10s %9s %8s  %s\n", "scene", "triangles", "threads", "ms/frame",
              "frames/s", "speedup", "same image and counters");
  for (const scene::Scene& s : scenes) {
    std::vector<FrameResult> frames;
    for (unsigned n : a.threads) {
      frames.push_back(measure(setup, s, n, true));
      const FrameResult& f = frames.back();
      const std::string diff = firstDifference(frames.front(), f, true);
      const double speedup = frames.front().cpuMilliseconds / f.cpuMilliseconds;
      std::printf("  %-12s %10zu %8u %10.2f %9.2f %7.2fx  %s\n", s.name.c_str(), s.triangleCount(),
                  n, f.cpuMilliseconds, 1000.0 / f.cpuMilliseconds, speedup,
                  frames.size() == 1 ? "reference"
                  : diff.empty()     ? "identical"
                                     : "DIFFERS");
      std::fflush(stdout);
      rows.push_back({"threads", s.name, s.width, s.height, s.triangleCount(), n, true,
                      f.cpuMilliseconds, f.timingMilliseconds});
      if (!diff.empty())
        throw Error(s.name + " at " + threadsName(n) + ": " + diff + " (against " +
                    threadsName(a.threads.front()) + "; results must not depend on host threads)");
    }
    reference.push_back(std::move(frames.front()));
  }
}

// Section 2: the same frames with the timing model off, at the first thread count.
void timingTable(const Setup& setup, const BenchArgs& a, const std::vector<scene::Scene>& scenes,
                 const std::vector<FrameResult>& withTiming, std::vector<Row>& rows) {
  const unsigned n = a.threads.front();
  std::printf("\nTiming model: host ms per frame with and without it (%s)\n",
              threadsName(n).c_str());
  std::printf("  %-12s %10s %10s %9s %15s %8s  %s\n", "scene", "with", "without", "overhead",
              "in timing model", "share", "same image");
  for (size_t i = 0; i < scenes.size(); ++i) {
    const scene::Scene& s = scenes[i];
    const FrameResult off = measure(setup, s, n, false);
    const FrameResult& on = withTiming[i];
    // The counters differ by design (no cycles without the timing model); the image may not.
    const std::string diff = firstDifference(on, off, false);
    std::printf("  %-12s %10.2f %10.2f %8.1f%% %15.3f %7.1f%%  %s\n", s.name.c_str(),
                on.cpuMilliseconds, off.cpuMilliseconds,
                100.0 * (on.cpuMilliseconds - off.cpuMilliseconds) / off.cpuMilliseconds,
                on.timingMilliseconds, 100.0 * on.timingMilliseconds / on.cpuMilliseconds,
                diff.empty() ? "identical" : "DIFFERS");
    std::fflush(stdout);
    rows.push_back(
        {"timing", s.name, s.width, s.height, s.triangleCount(), n, false, off.cpuMilliseconds, 0});
    if (!diff.empty())
      throw Error(s.name + " without the timing model: " + diff +
                  " (the timing model must not change the image)");
  }
}

// One scaling series: a scene per point, measured at every thread count.
struct ScalingPoint {
  scene::Scene scene;
  double x = 0;
  std::string label;
};

report::LineChart scalingChart(const BenchArgs& a, const std::vector<ScalingPoint>& points,
                               const std::vector<std::vector<double>>& ms, std::string title,
                               std::string xLabel) {
  report::LineChart chart;
  chart.title = std::move(title);
  chart.xLabel = std::move(xLabel);
  for (const ScalingPoint& p : points) chart.x.push_back(p.x);
  chart.logX = report::wantsLogScale(chart.x);
  report::ChartPanel panel{"host ms per frame", {}};
  for (size_t t = 0; t < a.threads.size(); ++t) {
    report::ChartSeries series{threadsName(a.threads[t]), {}};
    for (const std::vector<double>& row : ms) series.y.push_back(row[t]);
    panel.series.push_back(std::move(series));
  }
  chart.panels = {std::move(panel)};
  return chart;
}

// Measures every point at every thread count (checking the results match) and prints one row
// per point; returns ms[point][thread].
std::vector<std::vector<double>> scalingTable(const Setup& setup, const BenchArgs& a,
                                              const std::string& kind,
                                              const std::vector<ScalingPoint>& points,
                                              const char* heading, std::vector<Row>& rows) {
  std::printf("\n%s\n  %-14s %10s", heading, kind == "triangles" ? "scene" : "size", "triangles");
  for (unsigned n : a.threads) std::printf(" %12s", (threadsName(n) + " ms").c_str());
  std::printf("\n");
  std::vector<std::vector<double>> ms;
  for (const ScalingPoint& p : points) {
    const std::vector<FrameResult> frames = acrossThreads(setup, p.scene, a.threads);
    std::printf("  %-14s %10zu", p.label.c_str(), p.scene.triangleCount());
    std::vector<double> row;
    for (size_t t = 0; t < frames.size(); ++t) {
      row.push_back(frames[t].cpuMilliseconds);
      std::printf(" %12.2f", frames[t].cpuMilliseconds);
      rows.push_back({kind, p.scene.name, p.scene.width, p.scene.height, p.scene.triangleCount(),
                      a.threads[t], true, frames[t].cpuMilliseconds, frames[t].timingMilliseconds});
    }
    std::printf("\n");
    std::fflush(stdout);
    ms.push_back(std::move(row));
  }
  return ms;
}

}  // namespace

std::pair<std::string, std::string> benchPlotPaths(const std::string& plot) {
  const std::filesystem::path p(plot);
  auto named = [&](const char* what) {
    return (p.parent_path() / (p.stem().string() + "-" + what + p.extension().string())).string();
  };
  return {named("triangles"), named("resolution")};
}

int runBench(const BenchArgs& a) {
  // Everything is checked before the first frame renders.
  if (a.scenes.empty()) throw Error("bench: no scene given (--scenes)");
  if (a.threads.empty()) throw Error("bench: no thread count given (--threads)");
  for (unsigned n : a.threads)
    if (n < 1 || n > kMaxThreads)
      throw Error("bench: thread count " + std::to_string(n) + " is not from 1 to " +
                  std::to_string(kMaxThreads));
  if (a.frames < 1 || a.frames > kMaxFrames)
    throw Error("bench: --frames " + std::to_string(a.frames) + " is not from 1 to " +
                std::to_string(kMaxFrames));
  if (!a.plot.empty() && !a.scaling) throw Error("bench: --plot draws the --scaling measurements");
  if (a.scaling && (a.triangles.empty() || a.sizes.empty()))
    throw Error("bench: --scaling needs triangle counts and sizes");
  checkOutputFile(a.csv);
  if (!a.plot.empty()) {
    const auto [triangles, resolution] = benchPlotPaths(a.plot);
    checkOutputFile(triangles);
    checkOutputFile(resolution);
  }
  Setup setup;
  setup.preset = gpu::findPreset(a.preset);
  setup.mode = setup.preset.sysmemOnly ? driver::RenderMode::Sysmem : driver::RenderMode::Binning;
  if (!a.mode.empty()) setup.mode = driver::parseRenderMode(a.mode);
  setup.frames = a.frames;
  std::vector<scene::Scene> scenes;
  for (const std::string& name : a.scenes) {
    if (name.empty()) throw Error("bench: empty scene name in --scenes");
    scenes.push_back(scene::sceneByName(name, a.width, a.height));
  }
  std::vector<ScalingPoint> byTriangles, bySize;
  if (a.scaling) {
    for (uint32_t n : a.triangles) {
      scene::Scene s = scene::spheresScene(n, a.width, a.height);
      const double x = double(s.triangleCount());
      byTriangles.push_back({std::move(s), x, "spheres:" + std::to_string(n)});
    }
    for (const auto& [w, h] : a.sizes)
      bySize.push_back({scene::defaultScene(w, h), double(w) * h / 1e6, sizeName(w, h)});
  }

  std::printf("Tessera bench: %s, %s, %s, %u measured frame%s after a warm-up (median host time)\n",
              std::string(setup.preset.name).c_str(),
              std::string(driver::renderModeName(setup.mode)).c_str(),
              sizeName(a.width, a.height).c_str(), a.frames, a.frames == 1 ? "" : "s");
  std::printf("  host: %u processors%s\n", std::thread::hardware_concurrency(),
#ifdef NDEBUG
              ""
#else
              " (a Debug build: configure with -DCMAKE_BUILD_TYPE=Release for real figures)"
#endif
  );
  std::vector<Row> rows;
  std::vector<FrameResult> reference;
  threadsTable(setup, a, scenes, rows, reference);
  timingTable(setup, a, scenes, reference, rows);
  reference.clear();

  std::string trianglesSvg, resolutionSvg;
  if (a.scaling) {
    const std::string where =
        std::string(setup.preset.name) + " " + std::string(driver::renderModeName(setup.mode));
    const std::string trianglesHeading = "Scaling with triangles: spheres:N at " +
                                         sizeName(a.width, a.height) + ", host ms per frame";
    const auto msT =
        scalingTable(setup, a, "triangles", byTriangles, trianglesHeading.c_str(), rows);
    const auto msR =
        scalingTable(setup, a, "resolution", bySize,
                     "Scaling with resolution: the default scene, host ms per frame", rows);
    trianglesSvg = report::lineChartSvg(scalingChart(
        a, byTriangles, msT, "Tessera: host time per frame against triangles",
        "triangles (spheres:N at " + sizeName(a.width, a.height) + ", " + where + ")"));
    resolutionSvg = report::lineChartSvg(
        scalingChart(a, bySize, msR, "Tessera: host time per frame against resolution",
                     "megapixels (default scene, " + where + ")"));
  }
  // Outputs are written only once everything was measured, each via a temporary file.
  if (!a.csv.empty()) {
    writeTextFile(a.csv, csvText(rows));
    std::printf("\n  csv                          %s\n", a.csv.c_str());
  }
  if (!a.plot.empty()) {
    const auto [triangles, resolution] = benchPlotPaths(a.plot);
    writeTextFile(triangles, trianglesSvg);
    writeTextFile(resolution, resolutionSvg);
    std::printf("  plots                        %s %s\n", triangles.c_str(), resolution.c_str());
  }
  return 0;
}

}  // namespace tessera::tools
