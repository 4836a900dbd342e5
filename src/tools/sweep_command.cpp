#include "tools/sweep_command.h"

#include <unistd.h>

#include <cmath>
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
#include "report/svg_chart.h"
#include "tools/apitrace_file.h"
#include "tools/child_process.h"
#include "tools/frame_report.h"
#include "tools/parallel_points.h"
#include "tools/replay_command.h"
#include "tools/slurm_sweep.h"
#include "tools/sweep_cache.h"

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
  std::vector<std::string> argv = {fs::canonical("/proc/self/exe").string(), "sweep", model,
                                   "--preset", a.preset};
  for (const std::string& key : a.params) argv.insert(argv.end(), {"--param", key});
  if (a.range.empty())
    argv.insert(argv.end(), {"--values", joined(a.values, ",")});
  else
    argv.insert(argv.end(), {"--range", a.range});
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

PointResult renderPoint(const SweepSource& src, const SweepArgs& a, const Step& step) {
  if (src.replay) {
    ReplayPlan plan = *src.replay;
    plan.args.sets.clear();
    plan.overrides.clear();
    for (const std::string& key : a.params) {
      plan.args.sets.push_back(key + "=" + step.text);
      plan.overrides += (plan.overrides.empty() ? "" : ",") + key + "=" + step.text;
    }
    TempDir scratch("tessera-sweep-point-");
    const std::string reports = scratch.path() + "/reports";
    std::filesystem::create_directories(reports);
    return traceResult(replayOnTessera(plan, reports, scratch.path()));
  }
  FrameOptions o;
  o.mode = step.mode;
  o.warmupFrames = 1;  // visibility streams sized as in an application's loop
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

std::string csvText(const std::vector<std::string>& params, const std::vector<Step>& steps,
                    const std::vector<PointResult>& rows) {
  std::ostringstream csv;
  csv << joined(params, "+") << ",bins,bins_x,bins_y,bin_w,bin_h," << frameTimeCsvHeader()
      << ",total_bytes";
  for (size_t c = 0; c < static_cast<size_t>(gpu::BusClient::Count); ++c)
    if (static_cast<gpu::BusClient>(c) != gpu::BusClient::Host)
      csv << ",bytes_" << gpu::kBusClientNames[c];
  csv << "," << boundBusyCsvHeader() << "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const PointResult& f = rows[i];
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
                    const std::vector<PointResult>& rows) {
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
  const bool isTrace =
      looksLikeTrace(a.model) || std::filesystem::path(a.model).extension() == ".trace";
  if (!a.frames.empty() && !isTrace) throw Error("sweep: --frames applies to a trace only");
  if (a.point >= 0 && a.noCache) throw Error("sweep: --point keeps its result in the cache");
  if (a.point >= 0 && size_t(a.point) >= texts.size())
    throw Error("sweep: there is no point " + std::to_string(a.point) + " (the sweep has " +
                std::to_string(texts.size()) + ", from 0)");
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
    // per pixel, both in GMEM since every frame clears them). A trace's size is its own.
    if (!isTrace && s.mode != driver::RenderMode::Sysmem && !s.preset.sysmemOnly) {
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
  SweepSource src;
  if (isTrace) {
    ReplayArgs r;
    r.trace = a.model;
    r.preset = a.preset;
    r.mode = a.mode;
    r.frames = a.frames;
    for (const std::string& key : a.params) r.sets.push_back(key + "=" + steps.front().text);
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
    try {
      cache.store(keys[i], joined(a.params, ",") + "=" + steps[i].text + " " + src.name,
                  renderPoint(src, a, steps[i]));
    } catch (const std::exception& e) {
      throw Error("sweep " + joined(a.params, ",") + "=" + steps[i].text + ": " + e.what());
    }
  };
  if (a.point >= 0) {  // one point, as a Slurm array task renders it
    const size_t i = size_t(a.point);
    const bool cached = cache.load(keys[i]).has_value();
    if (!cached) work(i);
    std::cout << "point " << i << " " << joined(a.params, ",") << "=" << steps[i].text
              << (cached ? " (cached)" : "") << ": " << cache.pathOf(keys[i]) << "\n";
    return 0;
  }

  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  Progress progress{steps.size(), terminal};
  progress.start();
  std::vector<size_t> todo;
  std::map<std::string, std::vector<size_t>> sameKey;  // equal points render once
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string what = joined(a.params, ",") + "=" + steps[i].text;
    if (cache.load(keys[i])) {
      progress.done(i, what, true);
    } else {
      std::vector<size_t>& same = sameKey[keys[i]];
      if (same.empty()) todo.push_back(i);
      same.push_back(i);
    }
  }
  const unsigned jobs = a.jobs == 0 ? localProcessors() : a.jobs;
  auto onDone = [&](size_t i) {
    for (size_t same : sameKey[keys[i]])
      progress.done(same, joined(a.params, ",") + "=" + steps[same].text, same != i);
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
    job.describe = [&](size_t i) { return joined(a.params, ",") + "=" + steps[i].text; };
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

  std::vector<PointResult> rows;
  for (size_t i = 0; i < steps.size(); ++i) {
    std::optional<PointResult> p = cache.load(keys[i]);
    if (!p)
      throw Error("sweep: the result of " + steps[i].text + " is missing from " + cache.dir());
    rows.push_back(*p);
  }

  const std::string mode(driver::renderModeName(steps.front().mode));
  const std::string title = "Tessera sweep: " + src.name + " on " + a.preset + " (" + mode + ")";
  std::ostringstream table;
  char line[256];
  table << title << "\n";
  std::snprintf(line, sizeof line, "  %-16s %6s %11s %12s %10s %10s  %s\n",
                joined(a.params, ",").c_str(), "bins", "bin size", "cycles", "ms", "MiB", "bound");
  table << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const PointResult& f = rows[i];
    const std::string binSize = std::to_string(f.binW) + "x" + std::to_string(f.binH);
    std::snprintf(line, sizeof line, "  %-16s %6u %11s %12.0f %10.3f %10.2f  %s\n",
                  steps[i].text.c_str(), f.bins, binSize.c_str(), f.timing.cycles,
                  f.timing.milliseconds(), double(f.bus.totalGpuBytes()) / 1048576.0,
                  std::string(gpu::perf::blockName(f.timing.bound)).c_str());
    table << line;
  }
  std::cout << table.str();
  // Points equal to another of this sweep count as cached: they were not rendered again.
  std::cout << "  points                       " << progress.cached << " cached, "
            << steps.size() - progress.cached << " rendered (" << ranOn << ")\n";
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
