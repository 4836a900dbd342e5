#include "tools/run_command.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "driver/options.h"
#include "gpu/preset/preset.h"
#include "report/counters_json.h"
#include "report/frame_range.h"

namespace tessera::tools {
namespace {

namespace fs = std::filesystem;

// The environment the libraries read (src/api/egl/egl_api.cpp, src/report/frame_reporter.cpp).
constexpr const char* kPresetVar = "TESSERA_PRESET";
constexpr const char* kModeVar = "TESSERA_MODE";
constexpr const char* kReportDirVar = "TESSERA_REPORT_DIR";
constexpr const char* kFramesVar = "TESSERA_REPORT_FRAMES";
constexpr const char* kCaptureVar = "TESSERA_CAPTURE_FRAMES";
constexpr const char* kTopVar = "TESSERA_TOP";
constexpr const char* kFaultDirVar = "TESSERA_FAULT_DIR";

bool hasLibraries(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "libEGL.so.1", ec) && fs::exists(dir / "libGLESv2.so.2", ec);
}

void prependLibraryPath(const std::string& dir) {
  const char* old = std::getenv("LD_LIBRARY_PATH");
  const std::string value = old && *old ? dir + ":" + old : dir;
  setenv("LD_LIBRARY_PATH", value.c_str(), 1);
}

int exitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// Each requested counter (`names`, as the user gave them) of every frame report the run wrote
// in `dir` (written since `started`: older runs' reports may share the folder), in frame order.
void printCounters(const std::string& dir, fs::file_time_type started,
                   const std::vector<std::string>& names, const std::vector<size_t>& counters) {
  std::vector<fs::path> frames;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("frame-") && name.ends_with(".json") && e.last_write_time(ec) >= started)
      frames.push_back(e.path());
  }
  std::sort(frames.begin(), frames.end());
  for (const fs::path& f : frames) {
    std::ifstream in(f);
    const nlohmann::json frame = nlohmann::json::parse(in, nullptr, false);
    if (frame.is_discarded()) throw Error("frame report '" + f.string() + "' is not JSON");
    const std::string label = f.stem().string().substr(6);
    for (size_t i = 0; i < counters.size(); ++i)
      std::printf("frame %s  %s  %.0f\n", label.c_str(), names[i].c_str(),
                  report::countableValue(frame, counters[i]));
  }
}

}  // namespace

std::string glLibraryDir() {
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    candidates = {dir.parent_path() / "lib", dir / "lib", dir};
  }
#ifdef TESSERA_GL_LIB_DIR
  candidates.emplace_back(TESSERA_GL_LIB_DIR);
#endif
  std::string looked;
  for (const fs::path& c : candidates) {
    if (hasLibraries(c)) return fs::absolute(c, ec).lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + c.string();
  }
  throw Error("cannot find Tessera's libEGL.so.1 and libGLESv2.so.2 (looked in " + looked + ")");
}

int runProgram(const RunArgs& a) {
  if (a.command.empty() || a.command[0].empty()) throw Error("run: no program given");
  // Checked here, before the program starts, rather than by libEGL inside it.
  if (!a.preset.empty()) gpu::findPreset(a.preset);
  if (!a.mode.empty()) driver::parseRenderMode(a.mode);
  if (!a.frames.empty() && !report::parseFrameRange(a.frames))
    throw Error("bad frames '" + a.frames + "': expected N or A-B (frames count from 1)");
  std::vector<size_t> counters;
  for (const std::string& name : a.counters) counters.push_back(report::requireCountable(name));
  if (!counters.empty() && a.reportDir.empty())
    throw Error("--counter reads the frame reports: it needs --report DIR");
  const std::string libDir = glLibraryDir();
  for (const auto& [dir, what] : {std::pair{&a.reportDir, "report"}, {&a.faultDir, "fault"}}) {
    if (dir->empty()) continue;
    std::error_code ec;
    fs::create_directories(*dir, ec);
    if (ec || !fs::is_directory(*dir))
      throw Error(std::string("cannot create ") + what + " directory '" + *dir + "'" +
                  (ec ? ": " + ec.message() : ""));
  }

  prependLibraryPath(libDir);
  if (!a.preset.empty()) setenv(kPresetVar, a.preset.c_str(), 1);
  if (!a.mode.empty()) setenv(kModeVar, a.mode.c_str(), 1);
  if (a.threads) setenv("TESSERA_THREADS", std::to_string(a.threads).c_str(), 1);
  if (a.top) setenv(kTopVar, "1", 1);
  if (!a.faultDir.empty()) setenv(kFaultDirVar, fs::absolute(a.faultDir).c_str(), 1);
  if (!a.reportDir.empty()) {
    setenv(kReportDirVar, a.reportDir.c_str(), 1);
    if (a.frames.empty())
      unsetenv(kFramesVar);
    else
      setenv(kFramesVar, a.frames.c_str(), 1);
    if (a.captureFrames)
      setenv(kCaptureVar, "1", 1);
    else
      unsetenv(kCaptureVar);
  }
  const fs::file_time_type started = fs::file_time_type::clock::now();
  std::fflush(stdout);
  std::fflush(stderr);

  // Like a shell, the wait ignores Ctrl-C and Ctrl-\: they reach the program, whose exit
  // status is then ours.
  struct sigaction ignore {
  }, oldInt{}, oldQuit{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGINT, &ignore, &oldInt);
  sigaction(SIGQUIT, &ignore, &oldQuit);
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("run: cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    std::vector<char*> argv;
    for (const std::string& s : a.command) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    std::fprintf(stderr, "tessera: run: cannot run '%s': %s\n", argv[0], std::strerror(err));
    _exit(err == EACCES || err == ENOEXEC ? 126 : 127);
  }
  int status = 0;
  pid_t done;
  do {
    done = waitpid(pid, &status, 0);
  } while (done < 0 && errno == EINTR);
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGQUIT, &oldQuit, nullptr);
  if (done < 0) throw Error(std::string("run: waiting for the program: ") + std::strerror(errno));
  if (!counters.empty()) printCounters(a.reportDir, started, a.counters, counters);
  return exitStatus(status);
}

}  // namespace tessera::tools
