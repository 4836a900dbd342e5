#include "tools/compare_command.h"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/text_file.h"
#include "gpu/preset/preset_field.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"
#include "tools/frame_report.h"

namespace tessera::tools {
namespace {

struct Row {
  std::string preset, mode, textures;
  FrameFigures f;
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
  // A mode with options: "+lrz" low-resolution Z on (the preset's lrz), "+ir" rendering
  // interleaved with resolve (the preset's resolveBlock, 8x8 blocks if it has none).
  struct Mode {
    driver::RenderMode mode;
    bool lrz = false, interleaved = false;
    std::string name;
  };
  std::vector<Mode> modes;
  for (const std::string& m :
       a.modes.empty()
           ? std::vector<std::string>{"sysmem", "naive", "binning", "binning+lrz", "binning+lrz+ir"}
           : a.modes) {
    Mode mode;
    mode.name = m;
    size_t plus = m.find('+');
    mode.mode = driver::parseRenderMode(m.substr(0, plus));
    while (plus != std::string::npos) {
      const size_t next = m.find('+', plus + 1);
      const std::string option = m.substr(plus + 1, next - plus - 1);
      if (option == "lrz")
        mode.lrz = true;
      else if (option == "ir")
        mode.interleaved = true;
      else
        throw Error("mode '" + m + "': unknown option '+" + option + "' (known: +lrz, +ir)");
      plus = next;
    }
    if ((mode.lrz || mode.interleaved) && mode.mode != driver::RenderMode::Binning)
      throw Error("mode '" + m + "': +lrz and +ir need the binning pass (binning+...)");
    modes.push_back(mode);
  }
  std::vector<TextureFormat> textureFormats;
  for (const std::string& name : a.textureFormats)
    textureFormats.push_back(requireTextureFormat(name));
  const bool texColumns = !textureFormats.empty();
  if (textureFormats.empty()) textureFormats.push_back(TextureFormat::Rgba8);
  const scene::Scene scene = scene::sceneByName(a.model, a.width, a.height);

  std::vector<Row> rows;
  for (const gpu::Preset& p : presets)
    for (const Mode& mode : modes)
      for (const TextureFormat tf : textureFormats) {
        if (p.sysmemOnly && mode.mode != driver::RenderMode::Sysmem) continue;
        FrameOptions o;
        o.mode = mode.mode;
        o.warmupFrames = 1;
        o.textureFormat = tf;
        o.samples = a.samples;
        o.threads = a.threads;
        gpu::Preset variant = p;
        variant.lrz = variant.lrz || mode.lrz;
        if (mode.interleaved && variant.resolveBlock == 0) variant.resolveBlock = 8;
        const FrameResult frame = renderFrame(scene, variant, o);
        rows.push_back({std::string(p.name), mode.name, std::string(textureFormatName(tf)),
                        computeFigures(scene, variant, frame, frame)});
      }

  std::ostringstream table, csv;
  char line[256];
  table << "Tessera compare: " << scene.name << " " << a.width << "x" << a.height
        << (a.samples > 1 ? " at " + std::to_string(a.samples) + "x MSAA" : std::string()) << "\n";
  // With texture formats: which one, and the texture unit's share of the bytes.
  auto texText = [&](const Row* r) {
    if (!texColumns) return std::string();
    if (!r) return std::string(" textures   tex MiB");
    char buf[48];
    std::snprintf(buf, sizeof buf, " %-8s %9.3f", r->textures.c_str(),
                  double(r->f.bus[gpu::BusClient::Texture].readBytes) / 1048576.0);
    return std::string(buf);
  };
  std::snprintf(line, sizeof line, "  %-16s %-15s%s %6s %12s %10s %10s %10s  %-5s  %s\n", "preset",
                "mode", texText(nullptr).c_str(), "bins", "cycles", "ms", "MiB", "fragments",
                "bound", "busiest blocks");
  table << line;
  csv << "preset,mode," << (texColumns ? "textures,texture_bytes," : "") << "bins,"
      << frameTimeCsvHeader() << ",bytes,fragments_shaded," << boundBusyCsvHeader() << "\n";
  for (const Row& r : rows) {
    const gpu::perf::SubmissionTiming& t = r.f.timing;
    const uint64_t bytes = r.f.bus.totalGpuBytes();
    std::snprintf(line, sizeof line, "  %-16s %-15s%s %6u %12.0f %10.3f %10.2f %10llu  %-5s  %s\n",
                  r.preset.c_str(), r.mode.c_str(), texText(&r).c_str(), r.f.bins, t.cycles,
                  t.milliseconds(), double(bytes) / 1048576.0,
                  static_cast<unsigned long long>(r.f.fragmentsShaded),
                  std::string(gpu::perf::blockName(t.bound)).c_str(), busiest(t).c_str());
    table << line;
    csv << r.preset << "," << r.mode << ",";
    if (texColumns) csv << r.textures << "," << r.f.bus[gpu::BusClient::Texture].readBytes << ",";
    csv << r.f.bins << "," << frameTimeCsv(t) << "," << bytes << "," << r.f.fragmentsShaded << ","
        << boundBusyCsv(t) << "\n";
  }
  std::cout << table.str();
  if (!a.csv.empty()) {
    writeTextFile(a.csv, csv.str());
    std::cout << "  csv                          " << a.csv << "\n";
  }
  return 0;
}

}  // namespace tessera::tools
