// Window surfaces under Xvfb: a swap hands the frame to the surface's presenter thread and the
// application records the next frame into the other buffer of the swap chain. Every frame
// reaches the window in order, the last one too, and a window the application destroys while
// a frame is on its way costs nothing but that frame. Depth and stencil are undefined after a
// swap, so a frame neither resolves them nor restores them.
#include <EGL/egl.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "glmark2/xvfb.h"

#include <X11/Xutil.h>

namespace tessera::test {
namespace {

constexpr int kW = 64, kH = 48;

class EglWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(xvfb_.display().empty()) << "Xvfb did not start";
    x_ = XOpenDisplay(xvfb_.display().c_str());
    ASSERT_NE(x_, nullptr) << "cannot open " << xvfb_.display();
    window_ = XCreateSimpleWindow(x_, DefaultRootWindow(x_), 0, 0, kW, kH, 0, 0, 0);
    XMapWindow(x_, window_);
    XSync(x_, False);
    display_ = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(x_));
    ASSERT_TRUE(eglInitialize(display_, nullptr, nullptr));
    const EGLint attribs[] = {EGL_SURFACE_TYPE,
                              EGL_WINDOW_BIT,
                              EGL_RENDERABLE_TYPE,
                              EGL_OPENGL_ES2_BIT,
                              EGL_RED_SIZE,
                              8,
                              EGL_GREEN_SIZE,
                              8,
                              EGL_BLUE_SIZE,
                              8,
                              EGL_DEPTH_SIZE,
                              24,
                              EGL_STENCIL_SIZE,
                              8,
                              EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    ASSERT_TRUE(eglChooseConfig(display_, attribs, &config, 1, &n) && n == 1);
    surface_ = eglCreateWindowSurface(display_, config, window_, nullptr);
    ASSERT_NE(surface_, EGL_NO_SURFACE);
    const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, version);
    ASSERT_NE(context_, EGL_NO_CONTEXT);
    ASSERT_TRUE(eglMakeCurrent(display_, surface_, surface_, context_));
  }
  void TearDown() override {
    // Release and destroy the surface before the server stops: the surface stays alive while
    // current, even past eglTerminate (EGL 1.4 §3.2), and its presenter thread would still be
    // writing the last frame to a server that is gone (SIGPIPE).
    if (display_ != EGL_NO_DISPLAY) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglTerminate(display_);
    }
    if (x_) XCloseDisplay(x_);
  }

  // The window's pixel, as 0xRRGGBB.
  uint32_t windowPixel(int x, int y) {
    XImage* image = XGetImage(x_, window_, x, y, 1, 1, AllPlanes, ZPixmap);
    if (!image) return 0xdeadbeef;
    const unsigned long p = XGetPixel(image, 0, 0);
    XDestroyImage(image);
    return static_cast<uint32_t>(p & 0xffffff);
  }
  static void clearTo(uint32_t rgb) {
    glClearColor(((rgb >> 16) & 255) / 255.0f, ((rgb >> 8) & 255) / 255.0f, (rgb & 255) / 255.0f,
                 1);
    glClear(GL_COLOR_BUFFER_BIT);
  }

  Xvfb xvfb_;
  ::Display* x_ = nullptr;
  Window window_ = 0;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
};

constexpr std::array<uint32_t, 5> kColours = {0xff0000, 0x00ff00, 0x0000ff, 0xffff00, 0x00ffff};

TEST_F(EglWindow, EverySwappedFrameReachesTheWindowInOrder) {
  for (size_t k = 0; k < kColours.size(); ++k) {
    clearTo(kColours[k]);
    // The lower half gets a scissored second clear: the frame is more than one batch's worth.
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, kW, kH / 2);
    clearTo(kColours[k] ^ 0xffffff);
    glDisable(GL_SCISSOR_TEST);
    ASSERT_TRUE(eglSwapBuffers(display_, surface_));
    // A swap returns once the previous frame is in the window: it shows that one or this one.
    if (k > 0) {
      const uint32_t top = windowPixel(kW / 2, 2);
      EXPECT_TRUE(top == kColours[k] || top == kColours[k - 1]) << std::hex << top << " at " << k;
    }
  }
  // Destroying the surface presents the last frame.
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ASSERT_TRUE(eglDestroySurface(display_, surface_));
  EXPECT_EQ(windowPixel(kW / 2, 2), kColours.back());
  EXPECT_EQ(windowPixel(kW / 2, kH - 3), kColours.back() ^ 0xffffff);
}

TEST_F(EglWindow, AWindowDestroyedUnderAFrameCostsOnlyThatFrame) {
  clearTo(kColours[0]);
  ASSERT_TRUE(eglSwapBuffers(display_, surface_));
  XDestroyWindow(x_, window_);
  XSync(x_, False);
  clearTo(kColours[1]);
  // The frame has no window to go to; the process goes on.
  ASSERT_TRUE(eglSwapBuffers(display_, surface_));
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_TRUE(eglDestroySurface(display_, surface_));
}

// The id of counter `name` of group `group` (GL_AMD_performance_monitor).
std::pair<GLuint, GLuint> perfCounter(const std::string& group, const std::string& name) {
  GLint groups = 0;
  glGetPerfMonitorGroupsAMD(&groups, 0, nullptr);
  for (GLuint g = 0; g < GLuint(groups); ++g) {
    char text[64] = {};
    glGetPerfMonitorGroupStringAMD(g, sizeof text, nullptr, text);
    if (group != text) continue;
    GLint n = 0;
    glGetPerfMonitorCountersAMD(g, &n, nullptr, 0, nullptr);
    for (GLuint c = 0; c < GLuint(n); ++c) {
      glGetPerfMonitorCounterStringAMD(g, c, sizeof text, nullptr, text);
      if (name == text) return {g, c};
    }
  }
  ADD_FAILURE() << group << "." << name << " not found";
  return {0, 0};
}

// The GMEM blits of the frames `frames` draws and swaps; the monitor runs across their batches,
// so it counts their restores and resolves too.
struct Blits {
  uint64_t restores = 0, resolveBytes = 0;
};
template <typename Frames>
Blits countBlits(Frames frames) {
  auto restores = perfCounter("gmem", "restores");
  auto resolveBytes = perfCounter("gmem", "resolve_bytes");
  GLuint m = 0;
  glGenPerfMonitorsAMD(1, &m);
  glSelectPerfMonitorCountersAMD(m, GL_TRUE, restores.first, 1, &restores.second);
  glSelectPerfMonitorCountersAMD(m, GL_TRUE, resolveBytes.first, 1, &resolveBytes.second);
  glBeginPerfMonitorAMD(m);
  frames();
  glEndPerfMonitorAMD(m);
  glFinish();
  std::array<GLuint, 8> words{};
  GLint written = 0;
  glGetPerfMonitorCounterDataAMD(m, GL_PERFMON_RESULT_AMD, sizeof words, words.data(), &written);
  EXPECT_EQ(written, GLint{sizeof words});  // two (group, counter, 64-bit value) results
  Blits b;
  for (size_t w = 0; w + 4 <= words.size(); w += 4) {
    const uint64_t value = words[w + 2] | uint64_t{words[w + 3]} << 32;
    if (words[w] == restores.first && words[w + 1] == restores.second) b.restores = value;
    if (words[w] == resolveBytes.first && words[w + 1] == resolveBytes.second)
      b.resolveBytes = value;
  }
  glDeletePerfMonitorsAMD(1, &m);
  return b;
}

// A triangle over the whole window at depth 0.5, depth-tested (a frame of draws, not only
// clears, renders in GMEM).
void drawDepthTested() {
  auto shader = [](GLenum type, const char* text) {
    const GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &text, nullptr);
    glCompileShader(s);
    return s;
  };
  const GLuint program = glCreateProgram();
  glAttachShader(
      program, shader(GL_VERTEX_SHADER, "attribute vec4 pos; void main() { gl_Position = pos; }"));
  glAttachShader(program, shader(GL_FRAGMENT_SHADER,
                                 "void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }"));
  glBindAttribLocation(program, 0, "pos");
  glLinkProgram(program);
  glUseProgram(program);
  const float triangle[] = {-1, -1, 0.5f, 1, 3, -1, 0.5f, 1, -1, 3, 0.5f, 1};
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, triangle);
  glEnableVertexAttribArray(0);
  glEnable(GL_DEPTH_TEST);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  ASSERT_EQ(glGetError(), GLenum{GL_NO_ERROR});
}

TEST_F(EglWindow, DepthAndStencilAreNeitherResolvedForASwapNorRestoredAfterIt) {
  const Blits blits = countBlits([this] {
    // A frame that writes depth and stencil: only its colour is resolved, since the swap ends
    // the depth and stencil buffer's contents (EGL 1.4 §3.9.1).
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    drawDepthTested();
    ASSERT_TRUE(eglSwapBuffers(display_, surface_));
    // A frame that clears only colour: depth and stencil are not brought back into GMEM.
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    drawDepthTested();
    ASSERT_TRUE(eglSwapBuffers(display_, surface_));
  });
  EXPECT_EQ(blits.restores, 0u);
  EXPECT_EQ(blits.resolveBytes, 2 * uint64_t{kW} * kH * 4);
  EXPECT_EQ(eglGetError(), EGL_SUCCESS);
}

}  // namespace
}  // namespace tessera::test
