// Runs a command line through the shell, as a user would, and collects what it printed: the
// tool tests check exit statuses and messages of the `tessera` command this way.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace tessera::test {

struct CommandResult {
  int exitCode;        // -1 when the command could not be started or did not exit normally
  std::string output;  // stdout and stderr
};

inline CommandResult runShell(const std::string& cmd) {
  CommandResult r{-1, {}};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace tessera::test
