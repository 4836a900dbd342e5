// glmark2-es2 (Debian's X11 build, unmodified) on Tessera's libEGL/libGLESv2 under Xvfb, which the
// test starts itself: each scene's --validate verdict must be llvmpipe's (Success, or Unknown
// where glmark2 has no reference image).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

// After gtest: Xlib defines macros (None, Bool, Status) that gtest's headers use as names.
#include <X11/Xlib.h>

namespace {

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
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1024x768x24", "-nolisten",
             "tcp", static_cast<char*>(nullptr));
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

Xvfb& server() {
  static Xvfb x;
  return x;
}

// The "Validation: ..." verdict of one scene, or what went wrong.
std::string verdict(const std::string& scene, const std::string& env) {
  const std::string cmd = "env DISPLAY=" + server().display() + " " + env +
                          " timeout 120 glmark2-es2 --validate -s 320x240 -b '" + scene + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "popen failed";
  std::string out;
  std::array<char, 512> buf;
  while (fgets(buf.data(), buf.size(), p)) out += buf.data();
  pclose(p);
  const auto at = out.find("Validation: ");
  if (at == std::string::npos) return "no verdict:\n" + out;
  return out.substr(at + 12, out.find('\n', at) - at - 12);
}

class Glmark2Validate : public ::testing::TestWithParam<std::string> {};

TEST_P(Glmark2Validate, SucceedsWhereLlvmpipeDoes) {
  ASSERT_FALSE(server().display().empty()) << "Xvfb did not start";
  const std::string scene = GetParam();
  const std::string mesa = verdict(scene, "LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe");
  const std::string ours = verdict(scene, std::string("LD_LIBRARY_PATH=") + TESSERA_GL_LIB_DIR);
  RecordProperty("llvmpipe", mesa);
  RecordProperty("tessera", ours);
  // Success where llvmpipe succeeds; where glmark2 has no reference ("Unknown") the scene must
  // still run to its verdict.
  EXPECT_EQ(ours, mesa) << scene;
}

// glmark2's default benchmark scenes.
INSTANTIATE_TEST_SUITE_P(
    Scenes, Glmark2Validate,
    ::testing::Values(
        "build:use-vbo=false", "build:use-vbo=true", "texture:texture-filter=nearest",
        "texture:texture-filter=linear", "texture:texture-filter=mipmap", "shading:shading=gouraud",
        "shading:shading=blinn-phong-inf", "shading:shading=phong", "shading:shading=cel",
        "bump:bump-render=high-poly", "bump:bump-render=normals", "bump:bump-render=height",
        "effect2d:kernel=0,1,0;1,-4,1;0,1,0;", "effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;",
        "pulsar:light=false:quads=5:texture=false",
        "desktop:blur-radius=5:effect=blur:passes=1:separable=true:windows=4",
        "desktop:effect=shadow:windows=4",
        "buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:"
        "update-method=map",
        "buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:"
        "update-method=subdata",
        "buffer:columns=200:interleave=true:update-dispersion=0.9:update-fraction=0.5:"
        "update-method=map",
        "ideas:speed=duration", "terrain", "shadow", "refract", "jellyfish",
        "conditionals:fragment-steps=0:vertex-steps=0",
        "conditionals:fragment-steps=5:vertex-steps=0",
        "conditionals:fragment-steps=0:vertex-steps=5",
        "function:fragment-complexity=low:fragment-steps=5",
        "function:fragment-complexity=medium:fragment-steps=5",
        "loop:fragment-loop=false:fragment-steps=5:vertex-steps=5",
        "loop:fragment-steps=5:fragment-uniform=false:vertex-steps=5",
        "loop:fragment-steps=5:fragment-uniform=true:vertex-steps=5"),
    [](const auto& p) {
      std::string s;
      for (char c : p.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return s;
    });

}  // namespace
