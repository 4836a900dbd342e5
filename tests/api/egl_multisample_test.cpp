// Multisampling through EGL and GLES2 on Tessera's libraries (linked directly): 4x configs,
// the order eglChooseConfig gives them, GL_SAMPLES of the window-system framebuffer and of a
// framebuffer object, an antialiased edge, and GL_SAMPLE_COVERAGE (GLES 2.0 §4.1.3).
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

#include "api/egl_pbuffer.h"

namespace {

constexpr int kSize = 16;

GLuint colourProgram() {
  auto compile = [](GLenum stage, const char* src) {
    const GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    return s;
  };
  const GLuint p = glCreateProgram();
  glAttachShader(
      p, compile(GL_VERTEX_SHADER, "attribute vec4 pos; void main() { gl_Position = pos; }\n"));
  glAttachShader(p,
                 compile(GL_FRAGMENT_SHADER,
                         "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n"));
  glBindAttribLocation(p, 0, "pos");
  glLinkProgram(p);
  return p;
}

// White over black: a triangle whose slanted edge crosses the surface, then the red channel.
std::vector<uint8_t> drawEdge() {
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(colourProgram());
  const float tri[] = {-1, -1, 1, -1, -1, 0.7f};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  std::vector<uint8_t> px(kSize * kSize * 4), red;
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  for (size_t i = 0; i < px.size(); i += 4) red.push_back(px[i]);
  return red;
}

TEST(EglMultisample, ConfigsOfferFourSamplesAfterSingleSampledOnes) {
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  ASSERT_TRUE(eglInitialize(d, nullptr, nullptr));
  const EGLint any[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  std::array<EGLConfig, 64> configs{};
  EGLint n = 0;
  ASSERT_TRUE(eglChooseConfig(d, any, configs.data(), configs.size(), &n));
  ASSERT_GT(n, 0);
  EGLint samples = -1, buffers = -1;
  eglGetConfigAttrib(d, configs[0], EGL_SAMPLES, &samples);
  eglGetConfigAttrib(d, configs[0], EGL_SAMPLE_BUFFERS, &buffers);
  EXPECT_EQ(samples, 0);  // EGL 1.4 §3.4.1.2: fewer samples first
  EXPECT_EQ(buffers, 0);
  const EGLint four[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_SAMPLES, 4, EGL_NONE};
  ASSERT_TRUE(eglChooseConfig(d, four, configs.data(), configs.size(), &n));
  ASSERT_GT(n, 0);
  for (EGLint i = 0; i < n; ++i) {
    eglGetConfigAttrib(d, configs[size_t(i)], EGL_SAMPLES, &samples);
    eglGetConfigAttrib(d, configs[size_t(i)], EGL_SAMPLE_BUFFERS, &buffers);
    EXPECT_EQ(samples, 4);
    EXPECT_EQ(buffers, 1);
  }
  const EGLint eight[] = {EGL_SAMPLES, 8, EGL_NONE};
  ASSERT_TRUE(eglChooseConfig(d, eight, configs.data(), configs.size(), &n));
  EXPECT_EQ(n, 0);
  eglTerminate(d);
}

TEST(EglMultisample, FourSamplesAntialiasAnEdgeAndOneDoesNot) {
  std::set<uint8_t> levels[2];
  for (EGLint samples : {0, 4}) {
    tessera::test::PbufferContext c = tessera::test::makePbufferContext(kSize, kSize, samples);
    ASSERT_TRUE(c.error.empty()) << c.error;
    GLint glSamples = -1, glBuffers = -1;
    glGetIntegerv(GL_SAMPLES, &glSamples);
    glGetIntegerv(GL_SAMPLE_BUFFERS, &glBuffers);
    EXPECT_EQ(glSamples, samples);
    EXPECT_EQ(glBuffers, samples ? 1 : 0);
    for (uint8_t v : drawEdge()) levels[samples != 0].insert(v);
    tessera::test::destroyPbufferContext(c);
  }
  EXPECT_EQ(levels[0], (std::set<uint8_t>{0, 255}));
  // Edge pixels resolve to k/4 of white (rounded): 64, 128 or 191.
  EXPECT_GT(levels[1].size(), 2u);
  for (uint8_t v : levels[1])
    EXPECT_TRUE(v == 0 || v == 64 || v == 128 || v == 191 || v == 255) << int(v);
}

TEST(EglMultisample, SampleCoverageMasksSamplesAndFboHasNone) {
  tessera::test::PbufferContext c = tessera::test::makePbufferContext(kSize, kSize, 4);
  ASSERT_TRUE(c.error.empty()) << c.error;
  glEnable(GL_SAMPLE_COVERAGE);
  glSampleCoverage(0.5f, GL_FALSE);  // two of the four samples
  const std::vector<uint8_t> half = drawEdge();
  EXPECT_EQ(half[0], 128);          // a pixel inside the triangle: half its samples white
  glSampleCoverage(0.5f, GL_TRUE);  // the other two
  const std::vector<uint8_t> other = drawEdge();
  EXPECT_EQ(other[0], 128);
  glDisable(GL_SAMPLE_COVERAGE);
  EXPECT_EQ(drawEdge()[0], 255);
  GLuint fbo = 0, rb = 0;
  glGenFramebuffers(1, &fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, 4, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  GLint samples = -1;
  glGetIntegerv(GL_SAMPLES, &samples);
  EXPECT_EQ(samples, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  tessera::test::destroyPbufferContext(c);
}

}  // namespace
