// Helper programs the tools start (apitrace, eglretrace): found on PATH, run with extra
// environment variables, their output kept in a log file so that a failure can quote it.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace tessera::tools {

struct ChildRun {
  std::vector<std::string> argv;                            // PROGRAM ARGS...
  std::vector<std::pair<std::string, std::string>> setEnv;  // set in the child only
  std::vector<std::string> unsetEnv;                        // removed in the child only
  std::string logPath;  // stdout and stderr go here (empty: /dev/null)
};

// Runs the program and waits for it. Returns its exit status: 128 + N if signal N ended it, 127
// if it could not be started. Throws tessera::Error only if no process could be made.
int runChild(const ChildRun& run);

// The full path of `program` on PATH, or "" if there is none.
std::string findOnPath(const std::string& program);

// A folder made with mkdtemp under `parent` (the system's temporary folder if empty), removed
// with everything in it when the object goes; keep() leaves it in place.
class TempDir final {
 public:
  explicit TempDir(const std::string& prefix, const std::string& parent = "");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The last `maxLines` lines of a text file ("" if it cannot be read), for error messages.
std::string tailOfFile(const std::string& path, size_t maxLines = 6);

}  // namespace tessera::tools
