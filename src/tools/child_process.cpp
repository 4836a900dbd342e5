#include "tools/child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace tessera::tools {

int runChild(const ChildRun& run) {
  if (run.argv.empty()) throw Error("no program to run");
  std::vector<char*> argv;
  for (const std::string& s : run.argv) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {
    // Only async-signal-safe work would be strictly allowed after fork in a threaded parent;
    // the tools fork from their single thread, so setenv here is safe.
    for (const auto& [key, value] : run.setEnv) setenv(key.c_str(), value.c_str(), 1);
    for (const std::string& key : run.unsetEnv) unsetenv(key.c_str());
    const char* log = run.logPath.empty() ? "/dev/null" : run.logPath.c_str();
    const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    const int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) dup2(nul, STDIN_FILENO);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  pid_t done;
  do {
    done = waitpid(pid, &status, 0);
  } while (done < 0 && errno == EINTR);
  if (done < 0) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

std::string findOnPath(const std::string& program) {
  if (program.find('/') != std::string::npos)
    return ::access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const std::string full = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(full.c_str(), X_OK) == 0 && !std::filesystem::is_directory(full)) return full;
    start = end + 1;
  }
  return "";
}

TempDir::TempDir(const std::string& prefix, const std::string& parent) {
  namespace fs = std::filesystem;
  const fs::path base = parent.empty() ? fs::temp_directory_path() : fs::path(parent);
  std::string pattern = (base / (prefix + "XXXXXX")).string();
  if (!mkdtemp(pattern.data()))
    throw Error("cannot create a temporary folder in '" + base.string() +
                "': " + std::strerror(errno));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string tailOfFile(const std::string& path, size_t maxLines) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
    if (lines.size() > maxLines) lines.pop_front();
  }
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace tessera::tools
