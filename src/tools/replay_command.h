// `tessera replay`: an apitrace trace of a GLES2/EGL program replayed by eglretrace on Tessera's
// libEGL/libGLESv2, with the per-frame reports and images of `tessera run`, optionally replayed
// again on Mesa's llvmpipe and compared frame by frame (docs/run.md).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/apitrace_file.h"

namespace tessera::tools {

// The oracle tolerance of the image tests (tests/integration/oracle_compare_test.cpp): a frame
// matches when 99.5% of its pixels are within 2/255 in every channel.
inline constexpr int kOracleTolerance = 2;
inline constexpr double kOracleRequiredFraction = 0.995;

// The environment variable through which the preset overrides (`--set`) reach libEGL, as
// "key=value,key=value". The libraries must read it: replay checks that they mention it.
inline constexpr const char* kPresetOverridesVar = "TESSERA_PRESET_OVERRIDES";

struct ReplayArgs {
  std::string trace;
  std::string preset, mode;       // empty: the libraries' defaults (or the environment's)
  std::string frames;             // `N` or `A-B` (1-based); empty: every frame of the trace
  std::string reportDir;          // empty: TRACE's name without extension + "-replay"
  bool compareLlvmpipe = false;   // replay on llvmpipe too and compare the frames
  std::vector<std::string> sets;  // "key=value" preset overrides
  unsigned threads = 0;           // TESSERA_THREADS for the replay; 0: the libraries' default
};

// A replay checked and ready: the trace, its frames, the libraries and programs it needs.
struct ReplayPlan {
  ReplayArgs args;
  TraceInfo trace;
  uint32_t first = 1, last = 1;  // frames replayed and reported
  std::string libDir;            // Tessera's libEGL/libGLESv2
  std::string overrides;         // value of kPresetOverridesVar ("" without --set)
};

// Every check before anything runs: the trace (missing, truncated, foreign), the frame range
// against the trace's frames, the preset, mode and overrides, eglretrace and Tessera's libraries.
// Throws tessera::Error naming what is wrong.
ReplayPlan planReplay(const ReplayArgs& args);

// Replays the plan's frames on Tessera into `dir` (an existing folder): frame-NNNNN.json and
// frame-NNNNN.png per frame, summary.json. `scratch` is a folder for the trimmed trace and logs.
// Throws tessera::Error with eglretrace's last lines if the replay fails or a frame's report is
// missing. Returns the frames' reports, first to last.
std::vector<nlohmann::json> replayOnTessera(const ReplayPlan& plan, const std::string& dir,
                                            const std::string& scratch);

// `tessera replay`: checks, replays, writes everything to the report folder only once all of
// it succeeded (no partial outputs), prints a line per frame. Returns the exit status.
int runReplay(const ReplayArgs& args);

}  // namespace tessera::tools
