// GL_EXT_robustness and EGL_EXT_create_context_robustness on Tessera's libraries (linked
// directly): a context whose fragment shader never ends faults frame after frame until the
// kernel gives up on it and it reports GUILTY_CONTEXT_RESET_EXT, while a second context on the
// same display keeps reporting NO_ERROR and rendering correctly; the lost context's later calls
// fail quietly. Also the creation attributes, the strategy and robust-access queries, and the
// bounds of glReadnPixelsEXT and glGetnUniform{f,i}vEXT.
#define GL_GLEXT_PROTOTYPES 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "api/egl_pbuffer.h"

namespace {

constexpr int kSize = 16;
using Pixel = std::array<uint8_t, 4>;

class EglRobustness : public ::testing::Test {
 protected:
  void SetUp() override {
    egl_ = tessera::test::makePbufferContext(kSize, kSize);
    ASSERT_TRUE(egl_.error.empty()) << egl_.error;
    EGLint id = 0;
    ASSERT_TRUE(eglQueryContext(egl_.display, egl_.context, EGL_CONFIG_ID, &id));
    const EGLint want[] = {EGL_CONFIG_ID, id, EGL_NONE};
    EGLint n = 0;
    ASSERT_TRUE(eglChooseConfig(egl_.display, want, &config_, 1, &n));
    ASSERT_EQ(n, 1);
  }
  void TearDown() override {
    eglMakeCurrent(egl_.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (EGLContext c : contexts_) eglDestroyContext(egl_.display, c);
    for (EGLSurface s : surfaces_) eglDestroySurface(egl_.display, s);
    tessera::test::destroyPbufferContext(egl_);
  }
  // A context with these creation attributes (after the client version), or EGL_NO_CONTEXT.
  EGLContext context(std::vector<EGLint> attribs, EGLContext share = EGL_NO_CONTEXT) {
    attribs.insert(attribs.begin(), {EGL_CONTEXT_CLIENT_VERSION, 2});
    attribs.push_back(EGL_NONE);
    const EGLContext c = eglCreateContext(egl_.display, config_, share, attribs.data());
    if (c != EGL_NO_CONTEXT) contexts_.push_back(c);
    return c;
  }
  EGLSurface pbuffer() {
    const EGLint size[] = {EGL_WIDTH, kSize, EGL_HEIGHT, kSize, EGL_NONE};
    const EGLSurface s = eglCreatePbufferSurface(egl_.display, config_, size);
    surfaces_.push_back(s);
    return s;
  }
  tessera::test::PbufferContext egl_;
  EGLConfig config_ = nullptr;
  std::vector<EGLContext> contexts_;
  std::vector<EGLSurface> surfaces_;
};

GLuint program(const char* vs, const char* fs) {
  const GLuint v = glCreateShader(GL_VERTEX_SHADER), f = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(v, 1, &vs, nullptr);
  glShaderSource(f, 1, &fs, nullptr);
  glCompileShader(v);
  glCompileShader(f);
  const GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glBindAttribLocation(p, 0, "pos");
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::array<char, 1024> log{};
    glGetProgramInfoLog(p, log.size(), nullptr, log.data());
    ADD_FAILURE() << "link failed: " << log.data();
  }
  return p;
}

constexpr const char* kVs =
    "attribute vec4 pos;\n"
    "void main() { gl_Position = pos; }\n";
// Never ends: `limit` is 0, so the loop's exit is never taken, and the compiler cannot know it.
// The shader core's warp instruction budget stops it (a hang the kernel recovers from).
constexpr const char* kEndlessFs =
    "precision highp float;\n"
    "uniform float limit;\n"
    "void main() {\n"
    "  float x = 0.0;\n"
    "  while (true) {\n"
    "    x += 1.0;\n"
    "    if (limit > 0.0 && x > limit) break;\n"
    "  }\n"
    "  gl_FragColor = vec4(x, 0.0, 0.0, 1.0);\n"
    "}\n";
constexpr const char* kColorFs =
    "precision mediump float;\n"
    "uniform vec4 color;\n"
    "void main() { gl_FragColor = color; }\n";

// The left half of the viewport.
void drawLeftHalf() {
  static const std::array<float, 8> quad = {-1, -1, 0, -1, -1, 1, 0, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad.data());
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

Pixel pixel(int x, int y) {
  Pixel p{};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p.data());
  return p;
}

TEST_F(EglRobustness, ExtensionsAreListed) {
  const std::string egl = eglQueryString(egl_.display, EGL_EXTENSIONS);
  EXPECT_NE(egl.find("EGL_EXT_create_context_robustness"), std::string::npos) << egl;
  const std::string gl = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  EXPECT_NE(gl.find("GL_EXT_robustness"), std::string::npos) << gl;
  for (const char* name : {"glGetGraphicsResetStatusEXT", "glReadnPixelsEXT", "glGetnUniformfvEXT",
                           "glGetnUniformivEXT"})
    EXPECT_NE(eglGetProcAddress(name), nullptr) << name;
}

TEST_F(EglRobustness, CreationAttributesSetTheStrategyAndRobustAccess) {
  // The default context: no reset notification, no robust access, never a reset reported.
  GLint strategy = 0;
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY_EXT, &strategy);
  EXPECT_EQ(strategy, GL_NO_RESET_NOTIFICATION_EXT);
  GLboolean robust = GL_TRUE;
  glGetBooleanv(GL_CONTEXT_ROBUST_ACCESS_EXT, &robust);
  EXPECT_EQ(robust, GL_FALSE);
  EXPECT_EQ(glGetGraphicsResetStatusEXT(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  const EGLContext lose =
      context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT,
               EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE});
  ASSERT_NE(lose, EGL_NO_CONTEXT) << std::hex << eglGetError();
  ASSERT_TRUE(eglMakeCurrent(egl_.display, EGL_NO_SURFACE, EGL_NO_SURFACE, lose));
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY_EXT, &strategy);
  EXPECT_EQ(strategy, GL_LOSE_CONTEXT_ON_RESET_EXT);
  glGetBooleanv(GL_CONTEXT_ROBUST_ACCESS_EXT, &robust);
  EXPECT_EQ(robust, GL_TRUE);
  EXPECT_EQ(glGetGraphicsResetStatusEXT(), static_cast<GLenum>(GL_NO_ERROR));

  const EGLContext explicitNone =
      context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_NO_RESET_NOTIFICATION_EXT,
               EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_FALSE});
  EXPECT_NE(explicitNone, EGL_NO_CONTEXT);

  // Bad values, and sharing across strategies.
  EXPECT_EQ(context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_TRUE}),
            EGL_NO_CONTEXT);
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(context({EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 2}), EGL_NO_CONTEXT);
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(
      context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT},
              egl_.context),
      EGL_NO_CONTEXT);
  EXPECT_EQ(eglGetError(), EGL_BAD_MATCH);
  EXPECT_NE(
      context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT},
              lose),
      EGL_NO_CONTEXT);
}

TEST_F(EglRobustness, EndlessShaderMakesItsContextGuiltyAndLeavesTheOtherOneAlone) {
  // The good context (the fixture's) draws red over the left half of a blue frame.
  const GLuint good = program(kVs, kColorFs);
  auto renderGood = [&] {
    ASSERT_TRUE(eglMakeCurrent(egl_.display, egl_.surface, egl_.surface, egl_.context));
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(good);
    glUniform4f(glGetUniformLocation(good, "color"), 1, 0, 0, 1);
    drawLeftHalf();
    EXPECT_EQ(pixel(2, 8), (Pixel{255, 0, 0, 255}));
    EXPECT_EQ(pixel(13, 8), (Pixel{0, 0, 255, 255}));
    EXPECT_TRUE(eglSwapBuffers(egl_.display, egl_.surface));
    EXPECT_EQ(glGetGraphicsResetStatusEXT(), static_cast<GLenum>(GL_NO_ERROR));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  };

  const EGLContext bad =
      context({EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT});
  ASSERT_NE(bad, EGL_NO_CONTEXT);
  const EGLSurface badSurface = pbuffer();
  ASSERT_TRUE(eglMakeCurrent(egl_.display, badSurface, badSurface, bad));
  const GLuint endless = program(kVs, kEndlessFs);

  // Each frame faults; recovery replays, skips the IB, the command, the frame, then gives up.
  int frames = 0;
  GLenum status = GL_NO_ERROR;
  while (status == GL_NO_ERROR && frames < 8) {
    ASSERT_TRUE(eglMakeCurrent(egl_.display, badSurface, badSurface, bad));
    glUseProgram(endless);
    glUniform1f(glGetUniformLocation(endless, "limit"), 0.0f);
    drawLeftHalf();
    eglSwapBuffers(egl_.display, badSurface);
    ++frames;
    status = glGetGraphicsResetStatusEXT();
    renderGood();
  }
  EXPECT_EQ(status, static_cast<GLenum>(GL_GUILTY_CONTEXT_RESET_EXT))
      << "after " << frames << " frames";
  EXPECT_GE(frames, 2) << "recovery tries more than once before giving up";

  // Reported once: the reset completed, the context stays lost, and its calls fail quietly.
  ASSERT_TRUE(eglMakeCurrent(egl_.display, badSurface, badSurface, bad));
  EXPECT_EQ(glGetGraphicsResetStatusEXT(), static_cast<GLenum>(GL_NO_ERROR));
  while (glGetError() != GL_NO_ERROR) {
  }
  for (int frame = 0; frame < 2; ++frame) {
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(endless);
    drawLeftHalf();
    glFlush();
    glFinish();
    pixel(0, 0);
    EXPECT_TRUE(eglSwapBuffers(egl_.display, badSurface));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  }
  // A fence in the lost context: nothing of it will run, so it is signalled.
  const EGLSyncKHR sync = eglCreateSyncKHR(egl_.display, EGL_SYNC_FENCE_KHR, nullptr);
  ASSERT_NE(sync, EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglClientWaitSyncKHR(egl_.display, sync, 0, EGL_FOREVER_KHR),
            EGL_CONDITION_SATISFIED_KHR);
  EXPECT_TRUE(eglDestroySyncKHR(egl_.display, sync));
  EXPECT_EQ(glGetGraphicsResetStatusEXT(), static_cast<GLenum>(GL_NO_ERROR));

  // The good context never noticed.
  renderGood();
}

TEST_F(EglRobustness, ReadnPixelsChecksTheBufferSize) {
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  std::vector<uint8_t> buf(256, 7);
  // 4x4 RGBA8 needs 64 bytes.
  glReadnPixelsEXT(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 63, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  EXPECT_EQ(buf[0], 7) << "nothing is written on an error";
  glReadnPixelsEXT(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 64, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(buf[60], 255);
  EXPECT_EQ(buf[63], 255);
  EXPECT_EQ(buf[64], 7) << "nothing past bufSize";
  // Rows padded to PACK_ALIGNMENT, the last one not: 3 pixels = 12 bytes, pitch 16, 2 rows = 28.
  glPixelStorei(GL_PACK_ALIGNMENT, 8);
  glReadnPixelsEXT(0, 0, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, 27, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glReadnPixelsEXT(0, 0, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, 28, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  // Nothing to read needs no room; a negative size holds nothing.
  glReadnPixelsEXT(0, 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  glReadnPixelsEXT(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, -1, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  // glReadPixels' own errors come first.
  glReadnPixelsEXT(0, 0, -1, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_VALUE));
  glReadnPixelsEXT(0, 0, 4, 4, GL_LUMINANCE, GL_UNSIGNED_BYTE, 0, buf.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_ENUM));
}

TEST_F(EglRobustness, GetnUniformChecksTheBufferSize) {
  const GLuint p = program(
      kVs,
      "precision mediump float;\n"
      "uniform vec4 v; uniform mat3 m; uniform float f; uniform ivec2 iv; uniform sampler2D s;\n"
      "void main() {\n"
      "  gl_FragColor = v + vec4(m[1], f) + vec4(float(iv.y)) + texture2D(s, v.xy);\n"
      "}\n");
  glUseProgram(p);
  const GLint v = glGetUniformLocation(p, "v"), m = glGetUniformLocation(p, "m"),
              f = glGetUniformLocation(p, "f"), iv = glGetUniformLocation(p, "iv"),
              s = glGetUniformLocation(p, "s");
  ASSERT_GE(v, 0);
  ASSERT_GE(m, 0);
  ASSERT_GE(f, 0);
  ASSERT_GE(iv, 0);
  ASSERT_GE(s, 0);
  glUniform4f(v, 1, 2, 3, 4);
  const std::array<float, 9> mat = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  glUniformMatrix3fv(m, 1, GL_FALSE, mat.data());
  glUniform1f(f, 0.5f);
  glUniform2i(iv, -3, 9);
  glUniform1i(s, 5);
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  std::array<float, 16> out{};
  out.fill(-1);
  glGetnUniformfvEXT(p, v, 15, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  EXPECT_EQ(out[0], -1) << "nothing is written on an error";
  glGetnUniformfvEXT(p, v, 16, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(out[3], 4);
  EXPECT_EQ(out[4], -1);
  glGetnUniformfvEXT(p, m, 35, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glGetnUniformfvEXT(p, m, 36, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(out[8], 9);
  glGetnUniformfvEXT(p, f, 3, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glGetnUniformfvEXT(p, f, 4, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(out[0], 0.5f);

  std::array<GLint, 4> ints{};
  ints.fill(-1);
  glGetnUniformivEXT(p, iv, 7, ints.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  EXPECT_EQ(ints[0], -1);
  glGetnUniformivEXT(p, iv, 8, ints.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(ints[0], -3);
  EXPECT_EQ(ints[1], 9);
  glGetnUniformivEXT(p, s, 3, ints.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glGetnUniformivEXT(p, s, 4, ints.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(ints[0], 5);

  // glGetUniform's errors come first: no such program, a shader, a bad location.
  glGetnUniformfvEXT(12345, v, 0, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_VALUE));
  const GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glGetnUniformfvEXT(shader, v, 0, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glGetnUniformfvEXT(p, 999, 64, out.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glGetnUniformivEXT(p, -1, 64, ints.data());
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  glDeleteShader(shader);
}

}  // namespace
