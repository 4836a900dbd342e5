// `tessera run`: an unmodified GLES2 program on Tessera's libEGL/libGLESv2, with the preset,
// rendering mode and per-frame report settings passed to those libraries through the
// environment (docs/run.md).
#pragma once
#include <string>
#include <vector>

namespace tessera::tools {

struct RunArgs {
  std::string preset, mode;  // empty: the libraries' defaults (or what the environment says)
  unsigned threads = 0;      // TESSERA_THREADS for the program; 0: the libraries' default
  std::string reportDir;     // per-frame reports go here (TESSERA_REPORT_DIR)
  std::string frames;        // `N` or `A-B`: which frames are reported (1-based)
  bool captureFrames = false;
  bool top = false;      // the kernel's per-context summary on stderr at the end (TESSERA_TOP)
  std::string faultDir;  // GPU fault snapshots go here (TESSERA_FAULT_DIR)
  std::vector<std::string> counters;  // GROUP.NAME: printed per reported frame after the run
  std::vector<std::string> command;   // PROGRAM ARGS...
};

// The directory holding Tessera's libEGL.so.1 and libGLESv2.so.2: next to the executable
// (../lib, lib/, the same directory), then the build's library directory. Throws tessera::Error
// naming the places looked at if none has both.
std::string glLibraryDir();

// Checks the arguments (throws tessera::Error on a bad preset, mode or frame range, a report
// directory that cannot be made, or missing libraries; before anything runs), runs the program
// with stdout and stderr untouched, and returns its exit status: 128 + N if signal N killed it,
// 127 if it could not be started.
int runProgram(const RunArgs& args);

}  // namespace tessera::tools
