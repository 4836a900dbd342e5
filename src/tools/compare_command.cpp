#include "tools/compare_command.h"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/text_file.h"
#include "gpu/preset/preset_field.h"
#include "report/counters_json.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera::tools {
namespace {

struct Row {
  std::string preset, mode;
  size_t bins = 0;
  gpu::perf::SubmissionTiming timing;
  uint64_t bytes = 0;
};

// The three busiest blocks, "tex 81% bus 71% gmem 42%".
std::string busiest(const gpu::perf::SubmissionTiming& t) {
  std::vector<size_t> order(gpu::perf::kBlocks);
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return t.busy[a] > t.busy[b]; });
  std::string out;
  char buf[32];
  for (size_t i = 0; i < 3; ++i) {
    const auto b = static_cast<gpu::perf::Block>(order[i]);
    std::snprintf(buf, sizeof buf, "%s%s %.0f%%", i ? " " : "",
                  std::string(gpu::perf::blockName(b)).c_str(), t.busyPercent(b));
    out += buf;
  }
  return out;
}

}  // namespace

int runCompare(const CompareArgs& a) {
  // Everything is checked before the first frame renders.
  std::vector<gpu::Preset> presets;
  if (a.presets.empty())
    presets.assign(gpu::allPresets().begin(), gpu::allPresets().end());
  else
    for (const std::string& name : a.presets) presets.push_back(gpu::findPreset(name));
  for (gpu::Preset& p : presets) {
    for (const std::string& s : a.sets) gpu::applyPresetOverride(p, s);
    gpu::validatePreset(p);
  }
  // A mode, optionally with "+lrz": low-resolution Z on (the preset's lrz parameter).
  struct Mode {
    driver::RenderMode mode;
    bool lrz;
    std::string name;
  };
  std::vector<Mode> modes;
  for (const std::string& m :
       a.modes.empty() ? std::vector<std::string>{"sysmem", "naive", "binning", "binning+lrz"}
                       : a.modes) {
    const bool lrz = m.size() > 4 && m.ends_with("+lrz");
    modes.push_back({driver::parseRenderMode(lrz ? m.substr(0, m.size() - 4) : m), lrz, m});
  }
  const scene::Scene scene = scene::sceneByName(a.model, a.width, a.height);

  std::vector<Row> rows;
  for (const gpu::Preset& p : presets)
    for (const Mode& mode : modes) {
      if (p.sysmemOnly && mode.mode != driver::RenderMode::Sysmem) continue;
      FrameOptions o;
      o.mode = mode.mode;
      o.warmupFrames = 1;
      gpu::Preset variant = p;
      variant.lrz = variant.lrz || mode.lrz;
      const FrameResult f = renderFrame(scene, variant, o);
      Row r;
      r.preset = std::string(p.name);
      r.mode = mode.name;
      r.timing = report::frameTiming(f.batches);
      r.bytes = report::sumBus(f.batches).totalGpuBytes();
      for (const auto& b : f.batches) r.bins = std::max(r.bins, b.stats.pipeline.bins.size());
      rows.push_back(r);
    }

  std::ostringstream table, csv;
  char line[256];
  table << "Tessera compare: " << scene.name << " " << a.width << "x" << a.height << "\n";
  std::snprintf(line, sizeof line, "  %-16s %-12s %6s %12s %10s %10s  %-5s  %s\n", "preset", "mode",
                "bins", "cycles", "ms", "MiB", "bound", "busiest blocks");
  table << line;
  csv << "preset,mode,bins,cycles,milliseconds,bytes,bound";
  for (size_t b = 0; b < gpu::perf::kBlocks; ++b)
    csv << ",busy_" << gpu::perf::blockName(static_cast<gpu::perf::Block>(b));
  csv << "\n";
  for (const Row& r : rows) {
    const std::string bound(gpu::perf::blockName(r.timing.bound));
    std::snprintf(line, sizeof line, "  %-16s %-12s %6zu %12.0f %10.3f %10.2f  %-5s  %s\n",
                  r.preset.c_str(), r.mode.c_str(), r.bins, r.timing.cycles,
                  r.timing.milliseconds(), double(r.bytes) / 1048576.0, bound.c_str(),
                  busiest(r.timing).c_str());
    table << line;
    std::snprintf(line, sizeof line, "%s,%s,%zu,%.0f,%.6f,%llu,%s", r.preset.c_str(),
                  r.mode.c_str(), r.bins, r.timing.cycles, r.timing.milliseconds(),
                  static_cast<unsigned long long>(r.bytes), bound.c_str());
    csv << line;
    for (size_t b = 0; b < gpu::perf::kBlocks; ++b) {
      std::snprintf(line, sizeof line, ",%.2f",
                    r.timing.busyPercent(static_cast<gpu::perf::Block>(b)));
      csv << line;
    }
    csv << "\n";
  }
  std::cout << table.str();
  if (!a.csv.empty()) {
    writeTextFile(a.csv, csv.str());
    std::cout << "  csv                          " << a.csv << "\n";
  }
  return 0;
}

}  // namespace tessera::tools
