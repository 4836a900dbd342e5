#include "tools/parallel_points.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "common/error.h"

namespace tessera::tools {
namespace {

struct Running {
  size_t index;
  int messageFd;  // read end: the child's error message, if it fails
};

std::string readAll(int fd) {
  std::string text;
  char buf[512];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

void writeAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

unsigned localProcessors() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}

void runPoints(const std::vector<size_t>& todo, unsigned jobs,
               const std::function<void(size_t)>& work, const std::function<void(size_t)>& onDone) {
  if (jobs <= 1) {
    for (size_t i : todo) {
      work(i);
      onDone(i);
    }
    return;
  }
  std::map<pid_t, Running> running;
  std::string failure;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (failure.empty() && next < todo.size() && running.size() < jobs) {
      const size_t i = todo[next++];
      int fds[2];
      if (pipe(fds) != 0) throw Error(std::string("cannot make a pipe: ") + std::strerror(errno));
      // Anything buffered would otherwise be written again by the child.
      std::fflush(stdout);
      std::fflush(stderr);
      const pid_t pid = fork();
      if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        failure = std::string("cannot start a process: ") + std::strerror(errno);
        break;
      }
      if (pid == 0) {
        close(fds[0]);
        int code = 0;
        try {
          work(i);
        } catch (const std::exception& e) {
          writeAll(fds[1], e.what());
          code = 1;
        }
        close(fds[1]);
        std::fflush(nullptr);
        _exit(code);  // no atexit handlers or static destructors: they belong to the parent
      }
      close(fds[1]);
      running[pid] = {i, fds[0]};
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("waiting for a sweep point: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running r = it->second;
    running.erase(it);
    const std::string message = readAll(r.messageFd);
    close(r.messageFd);
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (ok) {
      onDone(r.index);
    } else if (failure.empty()) {
      failure = !message.empty() ? message
                : WIFSIGNALED(status)
                    ? "the point's process was killed by signal " + std::to_string(WTERMSIG(status))
                    : "the point's process failed";
    }
  }
  if (!failure.empty()) throw Error(failure);
}

}  // namespace tessera::tools
