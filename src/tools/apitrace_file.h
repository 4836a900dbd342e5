// apitrace traces as `tessera replay` and `tessera sweep` take them: checked before anything
// replays (a missing, truncated or foreign file is refused), counted in frames, and cut down to
// a prefix of frames so that a replay of frames A-B stops after frame B.
#pragma once
#include <cstdint>
#include <string>

namespace tessera::tools {

struct TraceInfo {
  std::string path;
  uint32_t frames = 0;  // frames ended by a swap
  std::string api;      // as `apitrace info` names it
};

// True if the file starts like an apitrace trace container (Snappy "at" or gzip); used to
// tell a trace from a model file on the sweep command line.
bool looksLikeTrace(const std::string& path);

// Checks the file with `apitrace info`. Throws tessera::Error naming the file and what is wrong:
// missing, not an apitrace trace, truncated, recorded from another API than EGL (eglretrace
// replays only EGL traces), no frames, or apitrace not installed.
TraceInfo inspectTrace(const std::string& path);

// Writes the first `frames` frames of `trace` to `out` (`apitrace trim --frames`). Every call
// before the last of those frames' swaps is kept, so the state they draw with is complete.
// Throws tessera::Error with apitrace's message if it fails.
void trimTrace(const std::string& trace, uint32_t frames, const std::string& out);

}  // namespace tessera::tools
