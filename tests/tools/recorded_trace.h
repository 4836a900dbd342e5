// An apitrace trace recorded by the tests themselves: glmark2-es2's `build` scene for a fraction
// of a second on Mesa's llvmpipe, under an Xvfb the test process starts, recorded once per
// process. Missing tools make the callers skip with the reason.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "glmark2/xvfb.h"  // after gtest (Xlib's macros)
#include "tools/process_temp_dir.h"
#include "tools/shell_command.h"

namespace tessera::test {

struct RecordedTrace {
  std::string path;     // empty if it could not be recorded
  std::string problem;  // why not: a missing tool, or the recorder's output
};

inline bool onPath(const std::string& program) {
  return runShell("command -v " + program + " >/dev/null").exitCode == 0;
}

// glmark2 with highp as the shaders' default precision, as the glmark2 first-frame test runs its
// llvmpipe reference: llvmpipe may keep mediump values in half floats, Tessera computes them in
// fp32 (docs/run.md).
inline const RecordedTrace& glmark2Trace() {
  static const RecordedTrace trace = [] {
    RecordedTrace t;
    for (const char* tool : {"apitrace", "eglretrace", "Xvfb", "glmark2-es2"})
      if (!onPath(tool)) {
        t.problem = std::string(tool) + " is not installed (scripts/install-deps.sh installs it)";
        return t;
      }
    static Xvfb xvfb;  // lives until the process ends: the replays need none, the recording does
    if (xvfb.display().empty()) {
      t.problem = "Xvfb did not start";
      return t;
    }
    static const ProcessTempDir scratch("tessera-trace");
    const std::filesystem::path& dir = scratch.path();
    const std::string out = (dir / "glmark2-build.trace").string();
    // A fixed number of frames, not a duration: on a loaded machine a short duration may hold
    // fewer frames than the tests replay.
    const CommandResult r = runShell(
        "cd " + dir.string() + " && env -u LD_LIBRARY_PATH -u LD_PRELOAD DISPLAY=" +
        xvfb.display() + " LIBGL_ALWAYS_SOFTWARE=1 apitrace trace --api egl -o " + out +
        " glmark2-es2 -s 160x120 -b build:nframes=6:fragment-precision=high,high,high,high:"
        "vertex-precision=high,high,high,high");
    if (r.exitCode != 0 || !std::filesystem::exists(out)) {
      t.problem = "recording glmark2 failed:\n" + r.output;
      return t;
    }
    t.path = out;
    return t;
  }();
  return trace;
}

}  // namespace tessera::test
