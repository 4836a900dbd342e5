#include "tools/apitrace_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "tools/child_process.h"

namespace tessera::tools {
namespace {

namespace fs = std::filesystem;

// A scratch file next to nothing the user owns, removed when it goes out of scope.
class ScratchFile final {
 public:
  explicit ScratchFile(const std::string& tag) {
    std::string pattern = (fs::temp_directory_path() / ("tessera-" + tag + "-XXXXXX")).string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0)
      throw Error("cannot create a temporary file in " + fs::temp_directory_path().string());
    close(fd);
    path_ = pattern;
  }
  ~ScratchFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void needApitrace() {
  if (findOnPath("apitrace").empty())
    throw Error("apitrace is not installed (Debian package 'apitrace'); it reads the trace");
}

}  // namespace

bool looksLikeTrace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {};
  if (!in.read(reinterpret_cast<char*>(magic), 2)) return false;
  return (magic[0] == 'a' && magic[1] == 't') || (magic[0] == 0x1f && magic[1] == 0x8b);
}

TraceInfo inspectTrace(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw Error("trace '" + path + "' does not exist");
  if (fs::is_directory(path, ec)) throw Error("trace '" + path + "' is a folder, not a file");
  if (::access(path.c_str(), R_OK) != 0) throw Error("cannot read trace '" + path + "'");
  // apitrace takes any file whose first bytes are not a known container for Brotli and reads
  // it as an empty trace: tell foreign files apart by their first bytes first.
  if (!looksLikeTrace(path))
    throw Error("'" + path +
                "' is not an apitrace trace (no trace container signature; record one with "
                "`apitrace trace --api egl PROGRAM`)");
  needApitrace();
  ScratchFile log("trace-info");
  const int status = runChild({{"apitrace", "info", path}, {}, {}, log.path()});
  const std::string text = readWhole(log.path());
  if (status != 0) throw Error("apitrace cannot read '" + path + "': " + tailOfFile(log.path(), 3));
  const size_t open = text.find('{'), close = text.rfind('}');
  nlohmann::json j;
  if (open != std::string::npos && close != std::string::npos && close > open)
    j = nlohmann::json::parse(text.substr(open, close - open + 1), nullptr, false);
  if (!j.is_object() || !j.contains("FramesCount"))
    throw Error("apitrace cannot read '" + path + "': " + tailOfFile(log.path(), 3));
  TraceInfo info;
  info.path = path;
  info.api = j.value("API", "");
  const int64_t frames = j.value("FramesCount", int64_t{0});
  if (text.find("unexpected end of file") != std::string::npos)
    throw Error("trace '" + path + "' is truncated (it ends in the middle of a call)");
  if (info.api.empty() || info.api.find("Unknown") != std::string::npos)
    throw Error("'" + path + "' is not an apitrace trace of a known API");
  if (info.api.find("EGL") == std::string::npos)
    throw Error("trace '" + path + "' was recorded from " + info.api +
                ", not EGL: record it with `apitrace trace --api egl PROGRAM`");
  if (frames <= 0) throw Error("trace '" + path + "' has no frames (no eglSwapBuffers call)");
  info.frames = static_cast<uint32_t>(frames);
  return info;
}

void trimTrace(const std::string& trace, uint32_t frames, const std::string& out) {
  needApitrace();
  ScratchFile log("trace-trim");
  const std::string set = "--frames=0-" + std::to_string(frames - 1);
  const int status = runChild({{"apitrace", "trim", set, "-o", out, trace}, {}, {}, log.path()});
  std::error_code ec;
  if (status != 0 || !fs::exists(out, ec))
    throw Error("apitrace trim of '" + trace + "' failed: " + tailOfFile(log.path(), 3));
}

}  // namespace tessera::tools
