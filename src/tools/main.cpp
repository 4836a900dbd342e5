// The `tessera` command: render a model or a built-in scene on a Tessera GPU preset and report
// what the frame cost; run a GLES2 program on Tessera's libraries with per-frame reports; decode
// captured command streams; list presets.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "common/error.h"
#include "common/text_file.h"
#include "common/thread_pool.h"
#include "gpu/cp/decoder.h"
#include "gpu/pipeline/countables.h"
#include "gpu/preset/preset_field.h"
#include "report/counters_json.h"
#include "report/html_report.h"
#include "report/trace_json.h"
#include "scene/scene.h"
#include "tools/bench_command.h"
#include "tools/compare_command.h"
#include "tools/compile_command.h"
#include "tools/frame_report.h"
#include "tools/replay_command.h"
#include "tools/run_command.h"
#include "tools/sweep_command.h"

namespace {

using namespace tessera;

struct RenderArgs {
  uint32_t repeat = 1;
  bool discardDepth = false;
  std::string textureFormat = "rgba8";
  std::string model = "default", preset = "adreno-a630", size = "800x600", mode, out = "frame.png",
              report, heatmap, capture, trace, html, overdraw, resolveOrder;
  std::vector<std::string> sets;      // "key=value" preset overrides
  std::vector<std::string> counters;  // GROUP.NAME counters printed after the summary
  uint32_t samples = 1;               // framebuffer samples per pixel
  unsigned threads = 0;               // host threads for the GPU's bins (0: the default)
};

void parseSize(const std::string& text, uint32_t& w, uint32_t& h) {
  unsigned a = 0, b = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%u%c%u%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X') ||
      a == 0 || b == 0 || a > 8192 || b > 8192)
    throw Error("bad size '" + text + "': expected WIDTHxHEIGHT with each side 1..8192");
  w = a;
  h = b;
}

// The HTML page's figures: the frame's, the heat map, and the per-bin rows of its main batch
// (the one with the most draws, as in the summary).
report::HtmlFrameReport htmlFigures(const tools::FrameFigures& f, const tools::FrameResult& frame) {
  report::HtmlFrameReport h;
  h.title = f.scene + " " + std::to_string(f.width) + "x" + std::to_string(f.height) + " on " +
            f.preset + " (" + f.mode + ")";
  h.summary = tools::summaryTable(f);
  h.frame = frame.image;
  h.heatmap = tools::triangleHeatmap(f, frame);
  if (!frame.overdraw.empty()) h.overdraw = tools::overdrawHeatmap(frame);
  if (f.blockResolve) h.resolveOrder = tools::resolveOrderHeatmap(frame);
  h.bus = f.bus;
  h.sysmemBus = f.sysmemBus;
  h.timing = f.timing;
  const driver::BatchReport* main = tools::mainBatch(frame);
  if (main) h.perBin = report::batchJson(*main)["per_bin"];
  return h;
}

// --threads N: host threads for the GPU's bins (TESSERA_THREADS for programs). Images and
// every counter are the same for any N; only the host time changes.
void addThreadsOption(CLI::App* app, unsigned& threads) {
  app->add_option("--threads", threads,
                  "host threads for the GPU's bins (default: TESSERA_THREADS, or one per "
                  "processor); images and counters do not depend on it")
      ->check(CLI::Range(1u, tessera::kMaxThreads));
}

int runRender(const RenderArgs& a) {
  uint32_t w, h;
  parseSize(a.size, w, h);
  for (const std::string* out :
       {&a.out, &a.report, &a.heatmap, &a.capture, &a.trace, &a.html, &a.overdraw, &a.resolveOrder})
    checkOutputFolder(*out);
  gpu::Preset preset = gpu::findPreset(a.preset);
  for (const std::string& set : a.sets) gpu::applyPresetOverride(preset, set);
  gpu::validatePreset(preset);
  std::vector<size_t> counters;
  for (const std::string& name : a.counters) counters.push_back(report::requireCountable(name));
  driver::RenderMode mode =
      preset.sysmemOnly ? driver::RenderMode::Sysmem : driver::RenderMode::Binning;
  if (!a.mode.empty()) mode = driver::parseRenderMode(a.mode);
  const scene::Scene s = scene::sceneByName(a.model, w, h);
  tools::FrameOptions opt;
  opt.mode = mode;
  opt.capture = !a.capture.empty();
  opt.discardDepth = a.discardDepth;
  opt.overdraw = !a.overdraw.empty() || !a.html.empty();
  opt.textureFormat = tools::requireTextureFormat(a.textureFormat);
  opt.samples = a.samples;
  opt.threads = a.threads;
  if (a.repeat > 1) {  // timing: a warm-up frame, then the median of `repeat` frames
    opt.warmupFrames = 1;
    opt.measuredFrames = a.repeat;
  }
  const tools::FrameResult frame = tools::renderFrame(s, preset, opt);
  tools::FrameOptions sysOpt;
  sysOpt.mode = driver::RenderMode::Sysmem;
  sysOpt.discardDepth = a.discardDepth;
  sysOpt.textureFormat = opt.textureFormat;
  sysOpt.samples = opt.samples;
  sysOpt.threads = opt.threads;
  const tools::FrameResult sysmem =
      mode == driver::RenderMode::Sysmem ? frame : tools::renderFrame(s, preset, sysOpt);
  const tools::FrameFigures f = tools::computeFigures(s, preset, frame, sysmem);
  std::cout << tools::summaryTable(f);
  std::printf("  host time per frame          %.2f ms%s\n", frame.cpuMilliseconds,
              a.repeat > 1 ? " (median, after a warm-up frame)" : "");
  if (!a.sets.empty()) {
    std::string sets;
    for (const std::string& set : a.sets) sets += (sets.empty() ? "" : " ") + set;
    std::printf("  preset overrides             %s\n", sets.c_str());
  }
  for (size_t i = 0; i < counters.size(); ++i)
    std::printf(
        "  %-28s %llu\n", a.counters[i].c_str(),
        static_cast<unsigned long long>(report::countableValue(frame.batches, counters[i])));
  // Outputs are written only once everything succeeded, each via a temporary file.
  writePng(frame.image, a.out);
  std::cout << "  image                        " << a.out << "\n";
  if (!a.report.empty()) {
    writeTextFile(a.report, tools::reportJson(f, frame).dump(2) + "\n");
    std::cout << "  report                       " << a.report << "\n";
  }
  if (!a.trace.empty()) {
    const std::string title = "Tessera " + f.preset + " " + f.scene + " (" + f.mode + ")";
    writeTextFile(a.trace, report::chromeTrace(f.timing, title).dump() + "\n");
    std::cout << "  timeline                     " << a.trace << "\n";
  }
  if (!a.heatmap.empty()) {
    writePng(tools::triangleHeatmap(f, frame), a.heatmap);
    std::cout << "  heat map                     " << a.heatmap << "\n";
  }
  if (!a.overdraw.empty()) {
    writePng(tools::overdrawHeatmap(frame), a.overdraw);
    uint64_t fragments = 0, covered = 0;
    uint32_t most = 0;
    for (uint32_t n : frame.overdraw) {
      fragments += n;
      covered += n > 0;
      most = std::max(most, n);
    }
    std::printf("  overdraw                     %s (%.2f fragments per covered pixel, max %u)\n",
                a.overdraw.c_str(), covered ? double(fragments) / double(covered) : 0.0, most);
  }
  if (!a.resolveOrder.empty()) {
    if (!f.blockResolve)
      throw Error(
          "--resolve-order needs the interleaved resolve: binning mode and a preset with "
          "resolveBlock (e.g. --set resolveBlock=8)");
    writePng(tools::resolveOrderHeatmap(frame), a.resolveOrder);
    std::cout << "  resolve order                " << a.resolveOrder << "\n";
  }
  if (!a.html.empty()) {
    writeTextFile(a.html, report::htmlReport(htmlFigures(f, frame)));
    std::cout << "  HTML report                  " << a.html << "\n";
  }
  if (!a.capture.empty()) {
    gpu::cp::writeCapture(frame.capture, a.capture);
    std::cout << "  command stream               " << a.capture << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Tessera: a tile-based deferred-rendering GPU, its drivers and its model"};
  app.require_subcommand(0, 1);
  RenderArgs r;
  auto* render =
      app.add_subcommand("render", "render a model (or the built-in scene) and report its cost");
  render
      ->add_option("model", r.model,
                   "model file (OBJ, 3DS, glTF, PLY ...) or default|blend|stencil|compositor")
      ->capture_default_str();
  render->add_option("--preset", r.preset, "GPU preset (tessera presets lists them)")
      ->capture_default_str();
  render->add_option("--size", r.size, "WIDTHxHEIGHT")->capture_default_str();
  render->add_option("--mode", r.mode,
                     "sysmem | naive | binning | auto (the driver's per-batch choice; default: "
                     "binning, sysmem on the sysmem preset)");
  render->add_option("--out", r.out, "PNG of the frame")->capture_default_str();
  render->add_option("--report", r.report, "JSON report with every counter and per-bin figures");
  render->add_option("--heatmap", r.heatmap, "PNG heat map of triangles per bin");
  render->add_option("--overdraw", r.overdraw, "PNG heat map of fragments rasterized per pixel");
  render
      ->add_option("--texture-format", r.textureFormat,
                   "scene textures stored as rgba8 | etc2 | astc4x4 | astc8x8 (every level "
                   "encoded)")
      ->capture_default_str();
  render->add_option("--resolve-order", r.resolveOrder,
                     "PNG heat map of the order the interleaved resolve copied blocks out");
  render->add_option("--trace", r.trace,
                     "Chrome/Perfetto trace of the timing model: passes, blits, blocks, bus");
  render->add_option("--html", r.html,
                     "self-contained HTML page: images, charts, timeline, per-bin table");
  render->add_option("--set", r.sets, "KEY=VALUE preset override (repeatable)");
  render->add_option("--samples", r.samples, "multisampling: 1, 2 or 4 samples per pixel")
      ->check(CLI::IsMember({1u, 2u, 4u}))
      ->capture_default_str();
  render->add_option("--counter", r.counters,
                     "print a counter of the frame, GROUP.NAME (repeatable; `tessera counters`)");
  render->add_flag("--discard-depth", r.discardDepth,
                   "end the frame with depth/stencil invalidated (glDiscardFramebufferEXT)");
  render->add_option("--capture", r.capture, "write the frame's command stream for `tessera dump`");
  addThreadsOption(render, r.threads);
  render
      ->add_option("--repeat", r.repeat,
                   "render N frames after a warm-up; report the median host time")
      ->check(CLI::Range(1u, 10000u));
  std::string stream;
  auto* dump = app.add_subcommand("dump", "decode a captured command stream packet by packet");
  dump->add_option("stream", stream, "a file written by render --capture")->required();
  auto* presets = app.add_subcommand("presets", "list the GPU presets");
  auto* counterList = app.add_subcommand(
      "counters", "list the GPU's counters (render/run --counter, AMD_performance_monitor)");
  tools::CompileArgs c;
  auto* compile = app.add_subcommand(
      "compile", "compile GLSL ES shaders to Tessera ISA; a .vert and a .frag link as a program");
  compile->add_option("files", c.files, "FILE.vert and/or FILE.frag")->required()->expected(1, 2);
  compile->add_flag("--disasm", c.disasm, "print the ISA");
  compile->add_flag("--stats", c.stats,
                    "print instruction, register and texture counts and cycles");
  compile->add_option("--preset", c.preset, "GPU preset for warps per core")->capture_default_str();
  tools::CompareArgs cmp;
  std::string cmpSize = "800x600";
  auto* compare = app.add_subcommand(
      "compare", "one scene on several presets and modes: frame cycles, bytes, bound block");
  compare->add_option("model", cmp.model, "model file or default|blend|stencil|compositor")
      ->capture_default_str();
  compare->add_option("--presets", cmp.presets, "presets to compare (default: all)")
      ->delimiter(',');
  compare
      ->add_option("--modes", cmp.modes,
                   "sysmem, naive, binning; binning with +lrz (low-resolution Z) and/or +ir "
                   "(interleaved resolve) (default: all, binning+lrz, binning+lrz+ir)")
      ->delimiter(',');
  compare->add_option("--set", cmp.sets, "KEY=VALUE preset override for every preset (repeatable)");
  compare->add_option("--size", cmpSize, "WIDTHxHEIGHT")->capture_default_str();
  compare->add_option("--csv", cmp.csv, "also write the table as CSV");
  addThreadsOption(compare, cmp.threads);
  compare->add_option("--samples", cmp.samples, "multisampling: 1, 2 or 4 samples per pixel")
      ->check(CLI::IsMember({1u, 2u, 4u}))
      ->capture_default_str();
  compare
      ->add_option("--texture-formats", cmp.textureFormats,
                   "scene texture formats to compare: rgba8, etc2, astc4x4, astc8x8 (default: "
                   "rgba8 only)")
      ->delimiter(',');
  tools::SweepArgs sw;
  std::string swSize = "800x600";
  auto* sweep = app.add_subcommand(
      "sweep",
      "render once per point of a grid of presets and preset parameter values: frame cycles and "
      "bytes, CSV and plots");
  sweep->add_option("model", sw.model, "model file, default|blend|stencil|compositor, or a trace")
      ->capture_default_str();
  sweep->add_option("--preset", sw.preset, "GPU preset (default: adreno-a630)");
  sweep->add_option("--presets", sw.presets, "several GPU presets, A,B,C: each is a grid point")
      ->delimiter(',')
      ->allow_extra_args(false);
  sweep
      ->add_option("--axis", sw.axes,
                   "NAME=V1,V2,... or NAME=FROM:TO:STEP; NAME+NAME2=... sets parameters together; "
                   "repeat for a grid of every combination")
      ->allow_extra_args(false);
  auto* swParam =
      sweep->add_option("--param", sw.params,
                        "preset parameter to vary; repeat it for parameters set to the same value "
                        "(e.g. --param maxBinW --param maxBinH)");
  auto* swValues =
      sweep->add_option("--values", sw.values, "A,B,C")->delimiter(',')->needs(swParam);
  sweep->add_option("--range", sw.range, "FROM:TO:STEP (TO included)")
      ->excludes(swValues)
      ->needs(swParam);
  sweep->add_option("--mode", sw.mode,
                    "sysmem | naive | binning, or several as M1,M2 (default: binning, sysmem on "
                    "the sysmem preset)");
  sweep->add_option("--size", swSize, "WIDTHxHEIGHT")->capture_default_str();
  sweep->add_option("--csv", sw.csv, "write one row per point as CSV");
  sweep->add_option("--plot", sw.plot,
                    "write an SVG plot of frame cycles and MiB against each axis (FILE-AXIS.svg "
                    "for several)");
  sweep->add_option("--jobs,-j", sw.jobs, "points rendered at once (default: every processor)")
      ->check(CLI::Range(1u, 1024u));
  sweep
      ->add_option("--threads", sw.threads,
                   "host threads for each point's bins (results do not depend on it)")
      ->check(CLI::Range(1u, tessera::kMaxThreads))
      ->capture_default_str();
  auto* swCache =
      sweep->add_option("--cache", sw.cacheDir,
                        "folder keeping each point's result (default: ~/.cache/tessera/sweep)");
  sweep->add_flag("--no-cache", sw.noCache, "render every point, keep no results")
      ->excludes(swCache);
  sweep->add_option("--frames", sw.frames, "for a trace: the frames replayed, N or A-B (from 1)");
  auto* swSlurm = sweep->add_flag(
      "--slurm", sw.slurm,
      "render the points not cached as a Slurm job array (sbatch), then gather them");
  swSlurm->excludes("--jobs");
  sweep
      ->add_option("--slurm-dir", sw.slurmDir,
                   "folder for the job script and each task's stdout/stderr")
      ->capture_default_str()
      ->needs(swSlurm);
  sweep->add_option("--partition", sw.partition, "Slurm partition (default: the cluster's)")
      ->needs(swSlurm);
  sweep->add_option("--time", sw.timeLimit, "Slurm time limit per point, e.g. 10:00")
      ->needs(swSlurm);
  // What each array task runs: render point I alone into the cache. Not in --help.
  sweep->add_option("--point", sw.point, "render only point I (from 0) into the cache")
      ->check(CLI::NonNegativeNumber)
      ->excludes(swSlurm)
      ->group("");
  tools::BenchArgs bench;
  std::string benchSize = "800x600";
  std::vector<std::string> benchSizes;
  auto* benchCmd = app.add_subcommand(
      "bench",
      "how fast Tessera runs on this machine: host time per frame at each thread count, the "
      "timing model's cost, scaling with triangles and resolution");
  benchCmd
      ->add_option("--scenes", bench.scenes,
                   "scenes to measure: default, blend, stencil, compositor, spheres:N, model files")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  benchCmd->add_option("--size", benchSize, "WIDTHxHEIGHT")->capture_default_str();
  benchCmd->add_option("--preset", bench.preset, "GPU preset (tessera presets lists them)")
      ->capture_default_str();
  benchCmd->add_option("--mode", bench.mode,
                       "sysmem | naive | binning | auto (default: binning, sysmem on the sysmem "
                       "preset)");
  benchCmd
      ->add_option("--threads", bench.threads,
                   "host thread counts to measure, A,B,C (the first is the reference of speedups "
                   "and of the same-results check)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(1u, tessera::kMaxThreads))
      ->capture_default_str();
  benchCmd
      ->add_option("--frames", bench.frames,
                   "measured frames per point, after a warm-up frame (the median is reported)")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  auto* benchScaling = benchCmd->add_flag(
      "--scaling", bench.scaling,
      "also measure frame time against triangle count (spheres:N) and resolution (default scene)");
  benchCmd
      ->add_option("--triangles", bench.triangles,
                   "triangle counts of the scaling's spheres:N scene, A,B,C")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(1u, scene::kMaxSpheresTriangles))
      ->needs(benchScaling)
      ->capture_default_str();
  benchCmd
      ->add_option("--sizes", benchSizes,
                   "sizes of the scaling's default scene, W1xH1,W2xH2 (default: 320x240, 640x480, "
                   "800x600, 1280x720, 1920x1080)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->needs(benchScaling);
  benchCmd->add_option("--csv", bench.csv, "write every measured row as CSV");
  benchCmd
      ->add_option("--plot", bench.plot,
                   "with --scaling: SVG line charts FILE-triangles.svg and FILE-resolution.svg")
      ->needs(benchScaling);
  tools::RunArgs run;
  auto* runCmd = app.add_subcommand("run",
                                    "run a GLES2 program on Tessera's libEGL/libGLESv2: tessera "
                                    "run [OPTIONS] -- PROGRAM ARGS...");
  runCmd->add_option("--preset", run.preset, "GPU preset (default: adreno-a630)");
  runCmd->add_option("--faults", run.faultDir,
                     "write a snapshot of each GPU fault (ring and IBs, decoded) into DIR");
  runCmd->add_flag("--top", run.top,
                   "print each GL context's submitted, retired and faulting batches and GPU time "
                   "to stderr at eglTerminate and exit");
  addThreadsOption(runCmd, run.threads);
  runCmd->add_option("--mode", run.mode,
                     "sysmem | naive | binning | auto (default: auto, the driver's per-batch "
                     "choice; sysmem on the sysmem preset)");
  auto* reportOpt = runCmd->add_option("--report", run.reportDir,
                                       "write DIR/frame-NNNNN.json per frame and DIR/summary.json");
  runCmd->add_option("--frames", run.frames, "report only frames N or A-B (from 1)")
      ->needs(reportOpt);
  runCmd
      ->add_flag("--capture-frames", run.captureFrames,
                 "also write DIR/frame-NNNNN.png: the back buffer at each reported swap")
      ->needs(reportOpt);
  runCmd
      ->add_option("--counter", run.counters,
                   "print a counter of every reported frame, GROUP.NAME (repeatable)")
      ->needs(reportOpt);
  runCmd->add_option("command", run.command, "PROGRAM ARGS... (after --)")->required();
  tools::ReplayArgs rp;
  auto* replay = app.add_subcommand(
      "replay", "replay an apitrace trace (apitrace trace --api egl) on Tessera with eglretrace");
  replay->add_option("trace", rp.trace, "TRACE.trace")->required();
  replay->add_option("--preset", rp.preset, "GPU preset (default: adreno-a630)");
  replay->add_option("--mode", rp.mode,
                     "sysmem | naive | binning | auto (default: auto, the driver's per-batch "
                     "choice; sysmem on the sysmem preset)");
  replay->add_option("--frames", rp.frames, "replay and report frames N or A-B (from 1)");
  replay->add_option("--report", rp.reportDir,
                     "write DIR/frame-NNNNN.json and .png per frame (default: TRACE-replay)");
  replay->add_flag("--compare-llvmpipe", rp.compareLlvmpipe,
                   "replay on Mesa llvmpipe too and compare every frame");
  replay->add_option("--set", rp.sets, "KEY=VALUE preset override (repeatable)");
  addThreadsOption(replay, rp.threads);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help is a success; any other command-line mistake is a usage error (exit 2), as opposed
    // to bad input found while running (exit 1).
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*dump) {
      std::cout << gpu::cp::decodeCapture(gpu::cp::readCapture(stream));
      return 0;
    }
    if (*compile) return tools::runCompile(c);
    if (*compare) {
      parseSize(cmpSize, cmp.width, cmp.height);
      checkOutputFolder(cmp.csv);
      return tools::runCompare(cmp);
    }
    if (*sweep) {
      parseSize(swSize, sw.width, sw.height);
      return tools::runSweep(sw);
    }
    if (*benchCmd) {
      parseSize(benchSize, bench.width, bench.height);
      if (!benchSizes.empty()) bench.sizes.clear();
      for (const std::string& size : benchSizes) {
        uint32_t w = 0, h = 0;
        parseSize(size, w, h);
        bench.sizes.emplace_back(w, h);
      }
      return tools::runBench(bench);
    }
    if (*runCmd) return tools::runProgram(run);
    if (*replay) return tools::runReplay(rp);
    if (*counterList) {
      for (const gpu::Countable& k : gpu::countables())
        std::cout << gpu::kCounterGroupNames[static_cast<size_t>(k.group)] << "." << k.name << "  "
                  << k.description << "\n";
      return 0;
    }
    if (*presets) {
      for (const auto& p : gpu::allPresets()) std::cout << p.name << "  " << p.description << "\n";
      return 0;
    }
    return runRender(r);  // `tessera` alone renders the built-in scene
  } catch (const std::exception& e) {
    std::cerr << "tessera: error: " << e.what() << "\n";
    return 1;
  }
}
