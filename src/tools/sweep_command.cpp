#include "tools/sweep_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

#include "common/error.h"
#include "common/text_file.h"
#include "driver/bin_layout.h"
#include "gpu/preset/preset_field.h"
#include "tools/apitrace_file.h"
#include "tools/child_process.h"
#include "tools/frame_report.h"
#include "tools/parallel_points.h"
#include "tools/replay_command.h"
#include "tools/slurm_sweep.h"
#include "tools/sweep_cache.h"
#include "tools/sweep_output.h"

namespace tessera::tools {
namespace {

// One point of the grid, resolved: the preset with the point's values set and the mode it
// renders in.
struct Step {
  GridPoint at;
  std::string what;  // the grid's description of the point, for progress lines and messages
  gpu::Preset preset;
  driver::RenderMode mode = driver::RenderMode::Binning;
};

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// A sweep point's progress: on a terminal one bar redrawn in place, otherwise a line per point
// as it finishes, named by its place in the sweep (points finish in any order).
struct Progress {
  size_t total = 0;
  bool terminal = false;
  size_t finished = 0, cached = 0;

  // On a terminal the bar shows from the start, before the first point finishes.
  void start() const {
    if (terminal) draw("");
  }
  void done(size_t i, const std::string& what, bool fromCache) {
    ++finished;
    cached += fromCache;
    if (!terminal) {
      std::fprintf(stderr, "[%zu/%zu] %s%s\n", i + 1, total, what.c_str(),
                   fromCache ? " (cached)" : "");
      return;
    }
    draw(what);
  }
  void draw(const std::string& what) const {
    constexpr size_t kWidth = 30;
    const size_t filled = kWidth * finished / total;
    std::string bar(filled, '=');
    if (filled < kWidth) bar += '>' + std::string(kWidth - filled - 1, ' ');
    std::fprintf(stderr, "\r  sweep [%s] %zu/%zu, %zu cached  %-24.24s", bar.c_str(), finished,
                 total, cached, what.c_str());
    std::fflush(stderr);
  }
};

// What the points render: a scene, or a trace replayed on Tessera.
struct SweepSource {
  std::string name;  // for titles
  std::optional<scene::Scene> scene;
  std::optional<ReplayPlan> replay;
};

// Each point's cache key: a hash of everything its result depends on. The preset goes in field by
// field after the overrides, so the same preset reached by other overrides shares the result.
std::vector<std::string> pointKeys(const SweepArgs& a, const SweepSource& src,
                                   const std::vector<Step>& steps) {
  InputHash common;
  common.add("tessera sweep point 1");
  if (src.replay) {
    common.add(buildIdentity(src.replay->libDir)).add("trace").addFile(a.model);
    common.add(std::to_string(src.replay->first) + "-" + std::to_string(src.replay->last));
  } else {
    common.add(buildIdentity());
    std::error_code ec;
    if (std::filesystem::is_regular_file(a.model, ec)) {
      common.add("model").add(std::filesystem::path(a.model).extension().string());
      common.addFile(a.model);
    } else {
      common.add("scene").add(a.model);
    }
    common.add(std::to_string(a.width) + "x" + std::to_string(a.height));
  }
  std::vector<std::string> keys;
  for (const Step& s : steps) {
    InputHash h = common;
    h.add(driver::renderModeName(s.mode)).add(s.preset.name);
    for (const gpu::PresetField& f : gpu::presetFields())
      h.add(f.key).add(gpu::presetFieldValue(s.preset, f));
    keys.push_back(h.hex());
  }
  return keys;
}

// The folder keeping the points' results. For --no-cache a temporary one: in the Slurm folder
// for --slurm, where the array tasks reach it.
std::string openCacheDir(const SweepArgs& a, std::unique_ptr<TempDir>& privateCache) {
  namespace fs = std::filesystem;
  std::string dir = a.noCache ? "" : a.cacheDir.empty() ? defaultSweepCacheDir() : a.cacheDir;
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (fs::is_directory(dir) && ::access(dir.c_str(), W_OK) == 0) return dir;
    if (!a.cacheDir.empty())
      throw Error("sweep: cannot use cache folder '" + dir + "'" + (ec ? ": " + ec.message() : ""));
    std::fprintf(stderr, "tessera: sweep: cannot use cache folder '%s'; results are not kept\n",
                 dir.c_str());
  }
  std::string parent;
  if (a.slurm) {
    parent = fs::absolute(a.slurmDir).lexically_normal().string();
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (!fs::is_directory(parent))
      throw Error("sweep: cannot use Slurm folder '" + a.slurmDir + "'" +
                  (ec ? ": " + ec.message() : ""));
  }
  privateCache = std::make_unique<TempDir>("tessera-sweep-", parent);
  return privateCache->path();
}

// What a Slurm array task runs: this executable on the same sweep, with absolute paths and the
// cache folder named, followed by `--point` (the task appends its index). Its points' keys are
// then those of this process.
std::vector<std::string> pointCommand(const SweepArgs& a, const std::string& cacheDir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string model = fs::is_regular_file(a.model, ec)
                                ? fs::absolute(a.model).lexically_normal().string()
                                : a.model;
  std::vector<std::string> argv = {fs::canonical("/proc/self/exe").string(), "sweep", model};
  if (!a.preset.empty()) argv.insert(argv.end(), {"--preset", a.preset});
  if (!a.presets.empty()) argv.insert(argv.end(), {"--presets", joined(a.presets, ",")});
  for (const std::string& key : a.params) argv.insert(argv.end(), {"--param", key});
  if (!a.values.empty()) argv.insert(argv.end(), {"--values", joined(a.values, ",")});
  if (!a.range.empty()) argv.insert(argv.end(), {"--range", a.range});
  for (const std::string& axis : a.axes) argv.insert(argv.end(), {"--axis", axis});
  if (!a.mode.empty()) argv.insert(argv.end(), {"--mode", a.mode});
  if (!a.frames.empty()) argv.insert(argv.end(), {"--frames", a.frames});
  argv.insert(argv.end(),
              {"--size", std::to_string(a.width) + "x" + std::to_string(a.height), "--cache",
               fs::absolute(cacheDir).lexically_normal().string(), "--point"});
  return argv;
}

// A trace point: the frames' reports summed, as the timing model adds a frame's batches (cycles
// and busy cycles add, the bound block is the busiest over all of them); the bins are those of
// the last frame that drew.
PointResult traceResult(const std::vector<nlohmann::json>& reports) {
  PointResult p;
  for (const nlohmann::json& r : reports) {
    const nlohmann::json& t = r.at("timing");
    p.timing.cycles += t.at("cycles").get<double>();
    p.timing.clockMHz = t.at("clock_mhz").get<double>();
    for (size_t b = 0; b < gpu::perf::kBlocks; ++b)
      p.timing.busy[b] += t.at("busy_cycles").value(std::string(gpu::perf::kBlockNames[b]), 0.0);
    for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c) {
      const auto& bytes = r.at("bytes");
      const std::string name(gpu::kBusClientNames[c]);
      if (!bytes.contains(name)) continue;
      p.bus.client[c].readBytes += bytes[name].value("read_bytes", uint64_t{0});
      p.bus.client[c].writeBytes += bytes[name].value("write_bytes", uint64_t{0});
    }
    const nlohmann::json& bins = r.at("bins");
    if (bins.is_object()) {
      p.bins = bins.value("count", 0u);
      p.binsX = bins.value("nx", 0u);
      p.binsY = bins.value("ny", 0u);
      p.binW = bins.value("width", 0u);
      p.binH = bins.value("height", 0u);
    }
  }
  size_t busiest = 0;
  for (size_t b = 1; b < gpu::perf::kBlocks; ++b)
    if (p.timing.busy[b] > p.timing.busy[busiest]) busiest = b;
  p.timing.bound = static_cast<gpu::perf::Block>(busiest);
  return p;
}

PointResult renderPoint(const SweepSource& src, const SweepGrid& grid, const Step& step,
                        unsigned threads) {
  if (src.replay) {
    ReplayPlan plan = *src.replay;
    plan.args.threads = threads;
    plan.args.preset = grid.presets[step.at.preset];
    plan.args.mode = grid.modes[step.at.mode];
    plan.args.sets.clear();
    plan.overrides.clear();
    for (size_t k = 0; k < grid.axes.size(); ++k)
      for (const std::string& key : grid.axes[k].params) {
        const std::string set = key + "=" + grid.axes[k].values[step.at.values[k]];
        plan.args.sets.push_back(set);
        plan.overrides += (plan.overrides.empty() ? "" : ",") + set;
      }
    TempDir scratch("tessera-sweep-point-");
    const std::string reports = scratch.path() + "/reports";
    std::filesystem::create_directories(reports);
    return traceResult(replayOnTessera(plan, reports, scratch.path()));
  }
  FrameOptions o;
  o.mode = step.mode;
  o.warmupFrames = 1;  // visibility streams sized as in an application's loop
  o.threads = threads;
  const FrameResult frame = renderFrame(*src.scene, step.preset, o);
  const FrameFigures f = computeFigures(*src.scene, step.preset, frame, frame);
  PointResult p;
  p.bins = f.bins;
  p.binsX = f.binsX;
  p.binsY = f.binsY;
  p.binW = f.binW;
  p.binH = f.binH;
  p.timing.cycles = f.timing.cycles;
  p.timing.busy = f.timing.busy;
  p.timing.bound = f.timing.bound;
  p.timing.clockMHz = f.timing.clockMHz;
  p.bus = f.bus;
  return p;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
  return parts;
}

// The grid the options describe: the presets, the modes and the axes (the one-axis form's
// first); each preset and mode name checked, the grid's size within bounds.
SweepGrid gridOf(const SweepArgs& a) {
  SweepGrid g;
  if (!a.preset.empty() && !a.presets.empty())
    throw Error("sweep: give either --preset P or --presets A,B,C, not both");
  g.presets = a.presets;
  if (g.presets.empty()) g.presets = {a.preset.empty() ? "adreno-a630" : a.preset};
  for (const std::string& name : g.presets) gpu::findPreset(name);
  g.modes = a.mode.empty() ? std::vector<std::string>{""} : split(a.mode, ',');
  if (g.modes.empty()) g.modes = {""};
  for (const std::string& m : g.modes)
    if (!m.empty() || g.modes.size() > 1) driver::parseRenderMode(m);
  if (!a.params.empty()) {
    for (const std::string& key : a.params)
      if (std::holds_alternative<bool gpu::Preset::*>(gpu::findPresetField(key).member))
        throw Error("sweep: '" + key +
                    "' is a flag, not a numeric parameter (sweep it with --axis " + key + "=0,1)");
    if (a.values.empty() == a.range.empty())
      throw Error("sweep: give the values with either --values A,B,C or --range FROM:TO:STEP");
    SweepAxis axis{a.params, a.range.empty() ? a.values : expandRange(a.range)};
    if (axis.values.size() > kMaxAxisValues)
      throw Error("sweep: more than " + std::to_string(kMaxAxisValues) + " values");
    g.axes.push_back(std::move(axis));
  }
  for (const std::string& text : a.axes) g.axes.push_back(parseAxis(text));
  if (g.axes.empty())
    throw Error(
        "sweep: give the parameters to vary: --axis NAME=V1,V2,... (repeatable) or --param NAME "
        "with --values or --range");
  checkGrid(g);
  return g;
}

// Every point's preset, validated, and its mode. A tile too small for the frame's buffers would
// fail only when its frame renders, so the bins are laid out now for the frame renderer's RGBA8
// colour and D24S8 depth/stencil (4 + 4 bytes per pixel, both in GMEM since every frame clears
// them). A trace's size is its own.
std::vector<Step> resolveSteps(const SweepGrid& grid, const SweepArgs& a, bool isTrace) {
  std::vector<Step> steps;
  const size_t n = grid.size();
  steps.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Step s{grid.point(i), grid.describe(i), {}, driver::RenderMode::Binning};
    try {
      s.preset = gpu::findPreset(grid.presets[s.at.preset]);
      for (size_t k = 0; k < grid.axes.size(); ++k) {
        const std::string& value = grid.axes[k].values[s.at.values[k]];
        for (const std::string& key : grid.axes[k].params)
          gpu::setPresetField(s.preset, key, value);
        axisValueX(value);  // plotted: a number or a flag's true/false
      }
      gpu::validatePreset(s.preset);
      const std::string& mode = grid.modes[s.at.mode];
      s.mode = s.preset.sysmemOnly ? driver::RenderMode::Sysmem : driver::RenderMode::Binning;
      if (!mode.empty()) s.mode = driver::parseRenderMode(mode);
      if (!isTrace && s.mode != driver::RenderMode::Sysmem && !s.preset.sysmemOnly)
        driver::computeBinLayout(s.preset, {0, 0, a.width, a.height, {4, 4}});
    } catch (const Error& e) {
      throw Error("sweep " + s.what + ": " + e.what());
    }
    steps.push_back(std::move(s));
  }
  return steps;
}

std::string joinedDistinct(const std::vector<std::string>& v) {
  std::vector<std::string> seen;
  for (const std::string& s : v)
    if (std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
  return joined(seen, ", ");
}

}  // namespace

int runSweep(const SweepArgs& a) {
  // Everything is checked before the first frame renders.
  const SweepGrid grid = gridOf(a);
  const bool isTrace =
      looksLikeTrace(a.model) || std::filesystem::path(a.model).extension() == ".trace";
  if (!a.frames.empty() && !isTrace) throw Error("sweep: --frames applies to a trace only");
  if (a.point >= 0 && a.noCache) throw Error("sweep: --point keeps its result in the cache");
  if (a.point >= 0 && size_t(a.point) >= grid.size())
    throw Error("sweep: there is no point " + std::to_string(a.point) + " (the sweep has " +
                std::to_string(grid.size()) + ", from 0)");
  const std::vector<Step> steps = resolveSteps(grid, a, isTrace);
  checkOutputFile(a.csv);
  if (!a.plot.empty())
    for (size_t k = 0; k < grid.axes.size(); ++k) checkOutputFile(sweepPlotPath(a.plot, grid, k));
  SweepSource src;
  if (isTrace) {
    ReplayArgs r;
    r.trace = a.model;
    r.preset = grid.presets.front();
    r.mode = grid.modes.front();
    r.frames = a.frames;
    for (size_t k = 0; k < grid.axes.size(); ++k)
      for (const std::string& key : grid.axes[k].params)
        r.sets.push_back(key + "=" + grid.axes[k].values[steps.front().at.values[k]]);
    src.replay = planReplay(r);
    src.name = "trace " + std::filesystem::path(a.model).filename().string() + " frames " +
               std::to_string(src.replay->first) + "-" + std::to_string(src.replay->last);
  } else {
    src.scene = scene::sceneByName(a.model, a.width, a.height);
    src.name = src.scene->name + " " + std::to_string(a.width) + "x" + std::to_string(a.height);
  }
  const std::vector<std::string> keys = pointKeys(a, src, steps);
  std::unique_ptr<TempDir> privateCache;  // --no-cache: this run's results only
  const PointCache cache(openCacheDir(a, privateCache));
  auto work = [&](size_t i) {
    const Step& s = steps[i];
    try {
      cache.store(keys[i],
                  s.what + " " + src.name + " on " + grid.presets[s.at.preset] + " (" +
                      std::string(driver::renderModeName(s.mode)) + ")",
                  renderPoint(src, grid, s, a.threads));
    } catch (const std::exception& e) {
      throw Error("sweep " + s.what + ": " + e.what());
    }
  };
  if (a.point >= 0) {  // one point, as a Slurm array task renders it
    const size_t i = size_t(a.point);
    const bool cached = cache.load(keys[i]).has_value();
    if (!cached) work(i);
    std::cout << "point " << i << " " << steps[i].what << (cached ? " (cached)" : "") << ": "
              << cache.pathOf(keys[i]) << "\n";
    return 0;
  }

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  Progress progress{steps.size(), terminal};
  progress.start();
  std::vector<size_t> todo;
  std::map<std::string, std::vector<size_t>> sameKey;  // equal points render once
  for (size_t i = 0; i < steps.size(); ++i) {
    if (cache.load(keys[i])) {
      progress.done(i, steps[i].what, true);
    } else {
      std::vector<size_t>& same = sameKey[keys[i]];
      if (same.empty()) todo.push_back(i);
      same.push_back(i);
    }
  }
  const unsigned jobs = a.jobs == 0 ? localProcessors() : a.jobs;
  auto onDone = [&](size_t i) {
    for (size_t same : sameKey[keys[i]]) progress.done(same, steps[same].what, same != i);
  };
  std::string ranOn = std::to_string(jobs) + " at a time";
  if (!a.slurm) {
    runPoints(todo, jobs, work, onDone);
  } else if (todo.empty()) {
    ranOn = "nothing submitted to Slurm";
  } else {
    SlurmSweepJob job;
    job.pointCommand = pointCommand(a, cache.dir());
    job.todo = todo;
    job.dir = a.slurmDir;
    job.partition = a.partition;
    job.timeLimit = a.timeLimit;
    job.hasResult = [&](size_t i) { return cache.load(keys[i]).has_value(); };
    job.describe = [&](size_t i) { return steps[i].what; };
    job.onDone = onDone;
    job.note = [&](const std::string& line) {
      // On a terminal the line goes above the progress bar, which is drawn again below it.
      if (terminal) std::fprintf(stderr, "\r%78s\r", "");
      std::fprintf(stderr, "tessera: sweep: %s\n", line.c_str());
      progress.start();
    };
    try {
      ranOn = "Slurm job " + runPointsOnSlurm(job);
    } catch (const Error& e) {
      if (terminal) std::fprintf(stderr, "\n");
      throw Error(std::string("sweep --slurm: ") + e.what());
    }
  }
  if (terminal) std::fprintf(stderr, "\r%78s\r", "");

  SweepResults results{grid, {}, {}};
  for (size_t i = 0; i < steps.size(); ++i) {
    std::optional<PointResult> p = cache.load(keys[i]);
    if (!p)
      throw Error("sweep: the result of " + steps[i].what + " is missing from " + cache.dir());
    results.results.push_back(*p);
    results.modes.emplace_back(driver::renderModeName(steps[i].mode));
  }

  const std::string title = "Tessera sweep: " + src.name + " on " + joined(grid.presets, ", ") +
                            " (" + joinedDistinct(results.modes) + ")";
  std::cout << sweepTable(title, results);
  // Points equal to another of this sweep count as cached: they were not rendered again.
  std::cout << "  points                       " << progress.cached << " cached, "
            << steps.size() - progress.cached << " rendered (" << ranOn << ")\n";
  if (!a.csv.empty()) {
    writeTextFile(a.csv, sweepCsv(results));
    std::cout << "  csv                          " << a.csv << "\n";
  }
  for (size_t k = 0; k < grid.axes.size() && !a.plot.empty(); ++k) {
    const std::string path = sweepPlotPath(a.plot, grid, k);
    writeTextFile(path, sweepPlotSvg(title, results, k));
    std::cout << "  plot                         " << path << "\n";
  }
  return 0;
}

}  // namespace tessera::tools
