// No sequence of GL calls crashes Tessera's libraries: tens of thousands of entry-point calls
// with random arguments (valid and invalid enums, names, sizes, offsets), interleaved with
// draws, reads and object deletion, on a surfaceless pbuffer context. Every error must be one
// of the GLES 2.0 error codes, and the context must still render correctly afterwards.
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

#include "api/egl_pbuffer.h"

namespace {

constexpr int kSize = 32;

class GlFuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    egl_ = tessera::test::makePbufferContext(kSize, kSize);
    ASSERT_TRUE(egl_.error.empty()) << egl_.error;
  }
  void TearDown() override { tessera::test::destroyPbufferContext(egl_); }
  tessera::test::PbufferContext egl_;
};

// Enums the calls draw from: most of them valid somewhere, some valid nowhere.
constexpr std::array<GLenum, 64> kEnums = {GL_TEXTURE_2D,
                                           GL_TEXTURE_CUBE_MAP,
                                           GL_TEXTURE_CUBE_MAP_POSITIVE_X,
                                           GL_TEXTURE_CUBE_MAP_NEGATIVE_Z,
                                           GL_ARRAY_BUFFER,
                                           GL_ELEMENT_ARRAY_BUFFER,
                                           GL_FRAMEBUFFER,
                                           GL_RENDERBUFFER,
                                           GL_RGBA,
                                           GL_RGB,
                                           GL_ALPHA,
                                           GL_LUMINANCE,
                                           GL_LUMINANCE_ALPHA,
                                           GL_DEPTH_COMPONENT,
                                           GL_DEPTH_STENCIL_OES,
                                           GL_BGRA_EXT,
                                           GL_UNSIGNED_BYTE,
                                           GL_UNSIGNED_SHORT,
                                           GL_UNSIGNED_INT,
                                           GL_FLOAT,
                                           GL_FIXED,
                                           GL_BYTE,
                                           GL_SHORT,
                                           GL_HALF_FLOAT_OES,
                                           GL_UNSIGNED_SHORT_5_6_5,
                                           GL_UNSIGNED_SHORT_4_4_4_4,
                                           GL_UNSIGNED_SHORT_5_5_5_1,
                                           GL_UNSIGNED_INT_24_8_OES,
                                           GL_RGBA4,
                                           GL_RGB565,
                                           GL_RGB5_A1,
                                           GL_DEPTH_COMPONENT16,
                                           GL_STENCIL_INDEX8,
                                           GL_DEPTH24_STENCIL8_OES,
                                           GL_COLOR_ATTACHMENT0,
                                           GL_DEPTH_ATTACHMENT,
                                           GL_STENCIL_ATTACHMENT,
                                           GL_POINTS,
                                           GL_LINES,
                                           GL_LINE_LOOP,
                                           GL_LINE_STRIP,
                                           GL_TRIANGLES,
                                           GL_TRIANGLE_STRIP,
                                           GL_TRIANGLE_FAN,
                                           GL_STATIC_DRAW,
                                           GL_DYNAMIC_DRAW,
                                           GL_STREAM_DRAW,
                                           GL_TEXTURE_MIN_FILTER,
                                           GL_TEXTURE_MAG_FILTER,
                                           GL_TEXTURE_WRAP_S,
                                           GL_NEAREST,
                                           GL_LINEAR_MIPMAP_LINEAR,
                                           GL_REPEAT,
                                           GL_MIRRORED_REPEAT,
                                           GL_BLEND,
                                           GL_DEPTH_TEST,
                                           GL_STENCIL_TEST,
                                           GL_CULL_FACE,
                                           GL_SCISSOR_TEST,
                                           GL_POLYGON_OFFSET_FILL,
                                           GL_VERTEX_SHADER,
                                           GL_FRAGMENT_SHADER,
                                           0,
                                           0x1234};

constexpr std::array<GLint, 14> kInts = {-1, 0,  1,   2,    3,     4,       7,
                                         16, 33, 255, 4096, 70000, INT_MAX, INT_MIN};

const char* const kVertexSources[] = {
    "attribute vec4 a; attribute vec4 b; varying vec4 v; uniform mat4 m;\n"
    "void main() { gl_Position = m * a; v = b; gl_PointSize = 3.0; }\n",
    "attribute vec4 a; void main() { gl_Position = a; }\n", "this is not glsl", ""};
const char* const kFragmentSources[] = {
    "precision mediump float; varying vec4 v; uniform sampler2D s; uniform vec4 c;\n"
    "void main() { gl_FragColor = texture2D(s, v.xy) * c + v; }\n",
    "precision mediump float; void main() { gl_FragColor = vec4(gl_PointCoord, 0.0, 1.0); }\n",
    "void main() { gl_FragColor = undefined; }\n"};

TEST_F(GlFuzz, RandomCallSequencesNeverCrash) {
  // A fixed sequence by default; TESSERA_FUZZ_SEED explores others.
  const char* seed = std::getenv("TESSERA_FUZZ_SEED");
  std::mt19937 rng(seed ? static_cast<uint32_t>(std::strtoul(seed, nullptr, 10)) : 20261122u);
  auto pick = [&](auto& list) { return list[rng() % std::size(list)]; };
  auto e = [&] { return pick(kEnums); };
  auto i = [&] { return rng() % 4 ? static_cast<GLint>(rng() % 40) : pick(kInts); };
  auto name = [&] { return static_cast<GLuint>(rng() % 8 ? rng() % 6 : rng()); };
  // Input bytes large enough for every size the calls below can pass with a pointer.
  static std::vector<uint8_t> input(1 << 20, 0);
  for (size_t k = 0; k < input.size(); ++k) input[k] = static_cast<uint8_t>(k % 7);
  static std::vector<uint8_t> output(1 << 20);
  // Client-memory indices stay below 64 whatever the index type reads them as.
  static std::vector<uint32_t> indices(256);
  for (size_t k = 0; k < indices.size(); ++k) indices[k] = static_cast<uint32_t>(k * 7 % 64);
  auto smallSize = [&] { return static_cast<GLsizei>(rng() % 33) - (rng() % 16 == 0 ? 40 : 0); };

  const std::vector<std::function<void()>> calls = {
      [&] { glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(rng() % 40)); },
      [&] { glBindTexture(e(), name()); },
      [&] { glBindBuffer(e(), name()); },
      [&] { glBindFramebuffer(e(), name()); },
      [&] { glBindRenderbuffer(e(), name()); },
      [&] {
        GLuint n[3];
        const int which = rng() % 4;
        if (which == 0) glGenTextures(3, n);
        if (which == 1) glGenBuffers(3, n);
        if (which == 2) glGenFramebuffers(3, n);
        if (which == 3) glGenRenderbuffers(3, n);
      },
      [&] {
        const GLuint n[2] = {name(), name()};
        const int which = rng() % 5;
        if (which == 0) glDeleteTextures(2, n);
        if (which == 1) glDeleteBuffers(2, n);
        if (which == 2) glDeleteFramebuffers(2, n);
        if (which == 3) glDeleteRenderbuffers(2, n);
        if (which == 4) glDeleteProgram(n[0]), glDeleteShader(n[1]);
      },
      [&] {
        const GLsizei w = smallSize(), h = smallSize();
        const bool data = w > 0 && h > 0 && rng() % 2;
        glTexImage2D(e(), i(), static_cast<GLint>(e()), w, h, rng() % 8 == 0, e(), e(),
                     data ? input.data() : nullptr);
      },
      [&] {
        glTexSubImage2D(e(), i() % 4, i() % 40, i() % 40, smallSize(), smallSize(), e(), e(),
                        input.data());
      },
      [&] { glCopyTexImage2D(e(), i() % 3, e(), i(), i(), smallSize(), smallSize(), 0); },
      [&] {
        glCopyTexSubImage2D(e(), i() % 3, i() % 40, i() % 40, i(), i(), smallSize(), smallSize());
      },
      [&] { glCompressedTexImage2D(e(), i(), e(), smallSize(), smallSize(), 0, 8, input.data()); },
      [&] { glTexParameteri(e(), e(), static_cast<GLint>(e())); },
      [&] { glGenerateMipmap(e()); },
      [&] {
        const GLsizeiptr size = rng() % 3 ? static_cast<GLsizeiptr>(rng() % 4096) : i();
        glBufferData(e(), size, rng() % 2 && size > 0 && size <= 4096 ? input.data() : nullptr,
                     e());
      },
      [&] {
        const GLsizeiptr size = static_cast<GLsizeiptr>(rng() % 300) - 10;
        glBufferSubData(e(), i(), size, input.data());
      },
      [&] {
        void* p = glMapBufferOES(e(), GL_WRITE_ONLY_OES);
        GLint size = 0;
        glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
        if (p && size > 0 && rng() % 2) static_cast<uint8_t*>(p)[0] = 1;
        glUnmapBufferOES(e());
      },
      [&] { glRenderbufferStorage(e(), e(), smallSize(), smallSize()); },
      [&] { glFramebufferTexture2D(e(), e(), e(), name(), i() % 3); },
      [&] { glFramebufferRenderbuffer(e(), e(), e(), name()); },
      [&] { glCheckFramebufferStatus(e()); },
      [&] {
        const GLenum att[2] = {e(), GL_COLOR_EXT};
        glDiscardFramebufferEXT(e(), static_cast<GLsizei>(rng() % 3), att);
      },
      [&] {
        const GLuint s = glCreateShader(e());
        const char* src = rng() % 2 ? pick(kVertexSources) : pick(kFragmentSources);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        const GLuint p = rng() % 2 ? name() : glCreateProgram();
        glAttachShader(p, s);
        glAttachShader(p, rng() % 2 ? name() : s);
        glBindAttribLocation(p, static_cast<GLuint>(i()), "a");
        glLinkProgram(p);
        glUseProgram(rng() % 4 ? p : name());
      },
      [&] {
        const GLuint vs = glCreateShader(GL_VERTEX_SHADER), fs = glCreateShader(GL_FRAGMENT_SHADER);
        const char* v = kVertexSources[rng() % 2];
        const char* f = kFragmentSources[rng() % 2];
        glShaderSource(vs, 1, &v, nullptr);
        glShaderSource(fs, 1, &f, nullptr);
        glCompileShader(vs);
        glCompileShader(fs);
        const GLuint p = glCreateProgram();
        glAttachShader(p, vs);
        glAttachShader(p, fs);
        glLinkProgram(p);
        glUseProgram(p);
        glDeleteShader(vs);
        glDeleteShader(fs);
      },
      [&] { glUniform4f(i(), 0.5f, 1.0f, 2.0f, 1.0f); },
      [&] { glUniform1i(i(), i()); },
      [&] {
        const float m[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        glUniformMatrix4fv(i(), static_cast<GLsizei>(rng() % 3), rng() % 5 == 0, m);
      },
      [&] {
        // Client arrays point into `input`; the strides and sizes keep reads inside it.
        glBindBuffer(GL_ARRAY_BUFFER, rng() % 3 ? 0 : name());
        glVertexAttribPointer(static_cast<GLuint>(i() % 20), i() % 6, e(), rng() % 2,
                              static_cast<GLsizei>(rng() % 70), input.data());
        rng() % 2 ? glEnableVertexAttribArray(static_cast<GLuint>(i() % 20))
                  : glDisableVertexAttribArray(static_cast<GLuint>(i() % 20));
      },
      [&] { glVertexAttrib4f(static_cast<GLuint>(i() % 20), 0.25f, 0.5f, 0.75f, 1.0f); },
      [&] { glDrawArrays(e(), i() % 64, static_cast<GLsizei>(rng() % 200) - 5); },
      [&] {
        // An offset is only an offset with an element buffer bound; otherwise it would be a
        // (wild) client pointer, which no GL can check.
        GLint bound = 0;
        glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &bound);
        const bool client = bound == 0 || rng() % 2;
        if (client) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
        glDrawElements(e(), static_cast<GLsizei>(rng() % 200) - 5, e(),
                       client ? static_cast<const void*>(indices.data())
                              : reinterpret_cast<const void*>(static_cast<uintptr_t>(rng() % 64)));
      },
      [&] { glClear(rng() % 2 ? GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT : rng()); },
      [&] { glClearColor(0.1f, 0.2f, 0.3f, 0.4f); },
      [&] { rng() % 2 ? glEnable(e()) : glDisable(e()); },
      [&] { glBlendFunc(e(), e()); },
      [&] { glDepthFunc(e()); },
      [&] { glStencilOpSeparate(e(), e(), e(), e()); },
      [&] { glCullFace(e()); },
      [&] { glLineWidth(static_cast<float>(i()) * 0.5f); },
      [&] { glPolygonOffset(static_cast<float>(i()), static_cast<float>(i())); },
      [&] { glViewport(i(), i(), i(), i()); },
      [&] { glScissor(i(), i(), i(), i()); },
      [&] { glColorMask(rng() % 2, rng() % 2, rng() % 2, rng() % 2); },
      [&] { glPixelStorei(e(), i()); },
      [&] {
        const GLsizei w = smallSize(), h = smallSize();
        glReadPixels(i() % 40, i() % 40, w, h, rng() % 4 ? GL_RGBA : e(),
                     rng() % 4 ? GL_UNSIGNED_BYTE : e(), output.data());
      },
      [&] {
        GLint v[16];
        GLfloat f[16];
        GLboolean b[16];
        glGetIntegerv(e(), v);
        glGetFloatv(e(), f);
        glGetBooleanv(e(), b);
        glGetTexParameteriv(e(), e(), v);
        glGetBufferParameteriv(e(), e(), v);
        glGetFramebufferAttachmentParameteriv(e(), e(), e(), v);
        glGetRenderbufferParameteriv(e(), e(), v);
        glGetString(e());
      },
      [&] {
        GLint v[4];
        char text[64];
        GLsizei len = 0;
        GLenum type = 0;
        const GLuint obj = name();
        glGetProgramiv(obj, e(), v);
        glGetShaderiv(obj, e(), v);
        glGetProgramInfoLog(obj, static_cast<GLsizei>(rng() % 64), &len, text);
        glGetShaderInfoLog(obj, static_cast<GLsizei>(rng() % 64), &len, text);
        glGetShaderSource(obj, static_cast<GLsizei>(rng() % 64), &len, text);
        glGetActiveUniform(obj, static_cast<GLuint>(i()), static_cast<GLsizei>(rng() % 64), &len, v,
                           &type, text);
        glGetActiveAttrib(obj, static_cast<GLuint>(i()), static_cast<GLsizei>(rng() % 64), &len, v,
                          &type, text);
        glGetUniformLocation(obj, "m");
        glGetAttribLocation(obj, "a");
        GLfloat u[16];
        glGetUniformfv(obj, i(), u);
        void* ptr = nullptr;
        glGetVertexAttribPointerv(static_cast<GLuint>(i() % 20), e(), &ptr);
        glGetVertexAttribiv(static_cast<GLuint>(i() % 20), e(), v);
      },
      [&] {
        GLuint vao = 0;
        glGenVertexArraysOES(1, &vao);
        glBindVertexArrayOES(rng() % 2 ? vao : name());
        if (rng() % 2) glDeleteVertexArraysOES(1, &vao);
      },
      [&] { glFlush(); },
      [&] { glFinish(); },
  };

  for (int n = 0; n < 20000; ++n) {
    calls[rng() % calls.size()]();
    const GLenum err = glGetError();
    ASSERT_TRUE(err == GL_NO_ERROR || err == GL_INVALID_ENUM || err == GL_INVALID_VALUE ||
                err == GL_INVALID_OPERATION || err == GL_INVALID_FRAMEBUFFER_OPERATION ||
                err == GL_OUT_OF_MEMORY)
        << "call " << n << " left error 0x" << std::hex << err;
  }

  // The context still works: reset the state that matters and draw a known colour.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindVertexArrayOES(0);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  uint8_t px[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(px[0], 0);
  EXPECT_EQ(px[1], 255);
  EXPECT_EQ(px[3], 255);
}

}  // namespace
