#include "tools/replay_command.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "common/error.h"
#include "common/image.h"
#include "common/image_compare.h"
#include "common/text_file.h"
#include "driver/options.h"
#include "gpu/preset/preset.h"
#include "gpu/preset/preset_field.h"
#include "report/frame_range.h"
#include "tools/child_process.h"
#include "tools/run_command.h"

namespace tessera::tools {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// eglretrace opens its window system through waffle; the surfaceless EGL platform needs no X
// server (Tessera's and Mesa's libEGL both offer EGL_PLATFORM_SURFACELESS_MESA). A caller who
// sets WAFFLE_PLATFORM (e.g. x11_egl under xvfb-run) keeps it.
constexpr const char* kWafflePlatformVar = "WAFFLE_PLATFORM";
constexpr const char* kDefaultWafflePlatform = "surfaceless_egl";

std::string frameName(uint32_t frame, const char* ext) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "frame-%05u.%s", frame, ext);
  return buf;
}

std::string readWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void addWafflePlatform(ChildRun& run) {
  const char* set = std::getenv(kWafflePlatformVar);
  if (!set || !*set) run.setEnv.emplace_back(kWafflePlatformVar, kDefaultWafflePlatform);
}

std::string libraryPathWith(const std::string& dir) {
  const char* old = std::getenv("LD_LIBRARY_PATH");
  return old && *old ? dir + ":" + old : dir;
}

// Replays the plan's trimmed trace on llvmpipe with a snapshot per frame and returns the images
// of frames first..last (eglretrace numbers snapshots from 0).
std::vector<Image> replayOnLlvmpipe(const ReplayPlan& plan, const std::string& trimmed,
                                    const std::string& scratch) {
  const fs::path dir = fs::path(scratch) / "llvmpipe";
  fs::create_directories(dir);
  const std::string log = (fs::path(scratch) / "llvmpipe.log").string();
  ChildRun run{
      {"eglretrace", "--call-nos=no", "--snapshot-alpha", "-s", (dir / "snap-").string(), trimmed},
      {{"LIBGL_ALWAYS_SOFTWARE", "1"}},
      {"TESSERA_PRESET", "TESSERA_MODE", "TESSERA_REPORT_DIR"},
      log};
  addWafflePlatform(run);
  const int status = runChild(run);
  if (status != 0)
    throw Error("eglretrace on llvmpipe failed (exit " + std::to_string(status) +
                "): " + tailOfFile(log));
  std::vector<Image> images;
  for (uint32_t f = plan.first; f <= plan.last; ++f) {
    char name[48];
    std::snprintf(name, sizeof name, "snap-%010u.png", f - 1);
    const fs::path p = dir / name;
    if (!fs::exists(p))
      throw Error("eglretrace on llvmpipe wrote no image of frame " + std::to_string(f) + ": " +
                  tailOfFile(log));
    images.push_back(readPng(p.string()));
  }
  return images;
}

struct FrameMatch {
  uint32_t frame = 0;
  CompareResult result;
  bool matches = false;
};

void moveContents(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    const fs::path target = to / entry.path().filename();
    if (entry.is_directory()) {
      moveContents(entry.path(), target);
    } else {
      fs::rename(entry.path(), target);
    }
  }
}

std::string defaultReportDir(const std::string& trace) {
  return fs::path(trace).stem().string() + "-replay";
}

}  // namespace

ReplayPlan planReplay(const ReplayArgs& a) {
  ReplayPlan plan;
  plan.args = a;
  if (a.trace.empty()) throw Error("replay: no trace given");
  // Cheap checks of the command line first, then the trace.
  gpu::Preset preset = gpu::findPreset(a.preset.empty() ? "adreno-a630" : a.preset);
  for (const std::string& set : a.sets) gpu::applyPresetOverride(preset, set);
  gpu::validatePreset(preset);
  if (!a.mode.empty()) driver::parseRenderMode(a.mode);
  std::optional<report::FrameRange> range;
  if (!a.frames.empty()) {
    range = report::parseFrameRange(a.frames);
    if (!range)
      throw Error("bad frames '" + a.frames + "': expected N or A-B (frames count from 1)");
  }
  plan.trace = inspectTrace(a.trace);
  plan.first = range ? static_cast<uint32_t>(range->first) : 1;
  plan.last = range ? static_cast<uint32_t>(std::min<uint64_t>(range->last, UINT32_MAX))
                    : plan.trace.frames;
  if (range && range->last > plan.trace.frames)
    throw Error("frames " + a.frames + " are outside trace '" + a.trace + "', which has " +
                std::to_string(plan.trace.frames) + " frame" + (plan.trace.frames == 1 ? "" : "s"));
  if (findOnPath("eglretrace").empty())
    throw Error("eglretrace is not installed (Debian package 'apitrace'); it replays the trace");
  plan.libDir = glLibraryDir();
  for (const char* lib : {"libEGL.so", "libGLESv2.so"})
    if (!fs::exists(fs::path(plan.libDir) / lib))
      throw Error(std::string("eglretrace loads ") + lib + ", which is missing from '" +
                  plan.libDir + "'");
  for (const std::string& set : a.sets) plan.overrides += (plan.overrides.empty() ? "" : ",") + set;
  return plan;
}

std::vector<json> replayOnTessera(const ReplayPlan& plan, const std::string& dir,
                                  const std::string& scratch) {
  const ReplayArgs& a = plan.args;
  std::string trace = a.trace;
  if (plan.last < plan.trace.frames) {  // stop after the last frame asked for
    trace = (fs::path(scratch) / "frames.trace").string();
    trimTrace(a.trace, plan.last, trace);
  }
  const std::string log = (fs::path(scratch) / "tessera.log").string();
  ChildRun run{{"eglretrace", trace}, {}, {"LIBGL_ALWAYS_SOFTWARE"}, log};
  run.setEnv = {
      {"LD_LIBRARY_PATH", libraryPathWith(plan.libDir)},
      {"TESSERA_REPORT_DIR", dir},
      {"TESSERA_REPORT_FRAMES", std::to_string(plan.first) + "-" + std::to_string(plan.last)},
      {"TESSERA_CAPTURE_FRAMES", "1"}};
  if (!a.preset.empty()) run.setEnv.emplace_back("TESSERA_PRESET", a.preset);
  if (!a.mode.empty()) run.setEnv.emplace_back("TESSERA_MODE", a.mode);
  if (a.threads) run.setEnv.emplace_back("TESSERA_THREADS", std::to_string(a.threads));
  if (!plan.overrides.empty()) run.setEnv.emplace_back(kPresetOverridesVar, plan.overrides);
  addWafflePlatform(run);
  const int status = runChild(run);
  if (status != 0)
    throw Error("eglretrace on Tessera failed (exit " + std::to_string(status) +
                "): " + tailOfFile(log));
  std::vector<json> reports;
  for (uint32_t f = plan.first; f <= plan.last; ++f) {
    const fs::path p = fs::path(dir) / frameName(f, "json");
    json j = json::parse(readWhole(p), nullptr, false);
    if (j.is_discarded())
      throw Error("the replay on Tessera wrote no report of frame " + std::to_string(f) + ": " +
                  tailOfFile(log));
    reports.push_back(std::move(j));
  }
  return reports;
}

int runReplay(const ReplayArgs& args) {
  const ReplayPlan plan = planReplay(args);
  const std::string outDir = args.reportDir.empty() ? defaultReportDir(args.trace) : args.reportDir;
  const fs::path out = fs::absolute(outDir);
  if (fs::exists(out) && !fs::is_directory(out))
    throw Error("cannot write reports to '" + outDir + "': it is a file");
  fs::create_directories(out.parent_path());
  // Everything is written to a folder beside the report folder and moved in at the end, so a
  // failed replay leaves no partial output.
  TempDir staging("." + out.filename().string() + ".partial-", out.parent_path().string());
  TempDir scratch("tessera-replay-");
  const std::vector<json> reports = replayOnTessera(plan, staging.path(), scratch.path());

  std::vector<FrameMatch> matches;
  if (args.compareLlvmpipe) {
    std::string trimmed = fs::exists(fs::path(scratch.path()) / "frames.trace")
                              ? (fs::path(scratch.path()) / "frames.trace").string()
                              : args.trace;
    const std::vector<Image> oracle = replayOnLlvmpipe(plan, trimmed, scratch.path());
    const fs::path llvmDir = fs::path(staging.path()) / "llvmpipe";
    fs::create_directories(llvmDir);
    json frames = json::array();
    for (uint32_t f = plan.first; f <= plan.last; ++f) {
      const Image& ref = oracle[f - plan.first];
      writePng(ref, (llvmDir / frameName(f, "png")).string());
      const fs::path mine = fs::path(staging.path()) / frameName(f, "png");
      if (!fs::exists(mine))
        throw Error("the replay on Tessera wrote no image of frame " + std::to_string(f));
      const Image img = readPng(mine.string());
      FrameMatch m;
      m.frame = f;
      if (img.width != ref.width || img.height != ref.height)
        throw Error("frame " + std::to_string(f) + " is " + std::to_string(img.width) + "x" +
                    std::to_string(img.height) + " on Tessera but " + std::to_string(ref.width) +
                    "x" + std::to_string(ref.height) + " on llvmpipe");
      m.result = compareImages(img, ref, kOracleTolerance, 3);
      m.matches = m.result.fractionWithin >= kOracleRequiredFraction;
      if (m.result.maxDiff > 0) {
        char name[32];
        std::snprintf(name, sizeof name, "diff-%05u.png", f);
        writePng(diffImage(img, ref), (fs::path(staging.path()) / name).string());
      }
      frames.push_back({{"frame", f},
                        {"fraction_within", m.result.fractionWithin},
                        {"max_diff", m.result.maxDiff},
                        {"matches", m.matches}});
      matches.push_back(m);
    }
    const json compare = {{"tolerance", kOracleTolerance},
                          {"required_fraction", kOracleRequiredFraction},
                          {"frames", frames}};
    writeTextFile((fs::path(staging.path()) / "compare.json").string(), compare.dump(2) + "\n");
  }
  moveContents(staging.path(), out);

  const json& head = reports.front();
  std::printf("Tessera replay: %s, frames %u-%u of %u on %s (%s)\n", args.trace.c_str(), plan.first,
              plan.last, plan.trace.frames, head.value("preset", std::string()).c_str(),
              head.value("mode", std::string()).c_str());
  std::printf("  %6s %6s %11s %12s %10s %10s  %-8s", "frame", "bins", "bin size", "cycles", "ms",
              "MiB", "bound");
  if (!matches.empty()) std::printf(" %9s %6s", "llvmpipe", "worst");
  std::printf("\n");
  size_t good = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    const json& r = reports[i];
    const json& t = r["timing"];
    const json& bins = r["bins"];
    const std::string binSize = bins.is_object() ? std::to_string(bins.value("width", 0)) + "x" +
                                                       std::to_string(bins.value("height", 0))
                                                 : "-";
    std::printf("  %6u %6d %11s %12.0f %10.3f %10.2f  %-8s", plan.first + uint32_t(i),
                bins.is_object() ? bins.value("count", 0) : 0, binSize.c_str(),
                t.value("cycles", 0.0), t.value("milliseconds", 0.0),
                double(r["bytes"].value("total_gpu_bytes", uint64_t{0})) / 1048576.0,
                t.value("bound", std::string()).c_str());
    if (!matches.empty()) {
      const FrameMatch& m = matches[i];
      std::printf(" %8.2f%% %6d", 100.0 * m.result.fractionWithin, m.result.maxDiff);
      good += m.matches;
    }
    std::printf("\n");
  }
  if (!matches.empty())
    std::printf("  %zu of %zu frames match llvmpipe (%.1f%% of pixels within %d/255)\n", good,
                matches.size(), 100.0 * kOracleRequiredFraction, kOracleTolerance);
  std::printf("  reports                      %s\n", outDir.c_str());
  return 0;
}

}  // namespace tessera::tools
