// An Xvfb server for the glmark2 tests, started by the test itself on a display number the
// server picks (-displayfd).
#pragma once
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

// Xlib defines macros (None, Bool, Status) that gtest's headers use as names: include this
// header after gtest.
#include <X11/Xlib.h>

namespace tessera::test {

// An Xvfb server on a display number it picks (-displayfd), stopped at the end of the suite.
// Test processes run in parallel and each starts its own; a server that does not answer a
// connection is replaced (up to three tries).
class Xvfb final {
 public:
  Xvfb() {
    for (int attempt = 0; attempt < 3 && display_.empty(); ++attempt) {
      start();
      if (!display_.empty() && !answers()) {
        stop();
        display_.clear();
      }
    }
  }
  ~Xvfb() { stop(); }
  const std::string& display() const { return display_; }

 private:
  bool answers() const {
    for (int k = 0; k < 50; ++k) {  // up to 5 s
      if (Display* d = XOpenDisplay(display_.c_str())) {
        XCloseDisplay(d);
        return true;
      }
      usleep(100000);
    }
    return false;
  }
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }
  void start() {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      // -noreset: the server would reset when its last client (the probe below) disconnects,
      // and refuse connections meanwhile.
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-noreset", "-screen", "0", "1024x768x24",
             "-nolisten", "tcp", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    // Xvfb writes the display number and a newline once it accepts connections; read up to the
    // newline (a read may return part of it, or be interrupted).
    std::string number;
    char c = 0;
    for (;;) {
      const ssize_t n = read(fds[0], &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || c == '\n') break;
      number += c;
    }
    close(fds[0]);
    if (c == '\n' && !number.empty()) display_ = ":" + number;
  }

  pid_t pid_ = -1;
  std::string display_;
};

}  // namespace tessera::test
