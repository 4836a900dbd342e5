// The GLES2 state machine on its own (no EGL, no other process): GLES 2.0 rules where later
// versions (and so Mesa's contexts) differ, and object lifetimes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(16, 16, true) {}
};

TEST(Gles2Context, SrcAlphaSaturateIsASourceFactorOnly) {
  Fixture f;
  f.gl.blendFunc(GL_SRC_ALPHA_SATURATE, GL_ONE, GL_SRC_ALPHA_SATURATE, GL_ONE);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.blendFunc(GL_ONE, GL_SRC_ALPHA_SATURATE, GL_ONE, GL_ONE);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));  // GLES 2.0 Table 4.1
}

TEST(Gles2Context, FirstErrorIsKeptUntilRead) {
  Fixture f;
  f.gl.enable(0x1234, true);
  f.gl.viewport(0, 0, -1, 1);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(Gles2Context, ShadersLiveWhileAttached) {
  Fixture f;
  const GLuint p = f.gl.createProgram();
  const GLuint s = f.gl.createShader(GL_VERTEX_SHADER);
  EXPECT_NE(p, s);  // one name space for shaders and programs
  f.gl.attachShader(p, s);
  f.gl.deleteShader(s);
  EXPECT_TRUE(f.gl.isShader(s));  // flagged, still attached
  GLint status = 0;
  f.gl.getShaderiv(s, GL_DELETE_STATUS, &status);
  EXPECT_EQ(status, GL_TRUE);
  f.gl.detachShader(p, s);
  EXPECT_FALSE(f.gl.isShader(s));
  f.gl.attachShader(p, s);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_VALUE));
}

TEST(Gles2Context, UniformTypeMismatchesAreInvalidOperation) {
  Fixture f;
  const GLuint vs = f.gl.createShader(GL_VERTEX_SHADER), fs = f.gl.createShader(GL_FRAGMENT_SHADER);
  const char* v = "attribute vec4 p; void main() { gl_Position = p; }";
  const char* g =
      "precision mediump float; uniform vec4 c; uniform int k; uniform float a[3];\n"
      "void main() { gl_FragColor = c * float(k) * a[2]; }";
  f.gl.shaderSource(vs, 1, &v, nullptr);
  f.gl.shaderSource(fs, 1, &g, nullptr);
  f.gl.compileShader(vs);
  f.gl.compileShader(fs);
  const GLuint p = f.gl.createProgram();
  f.gl.attachShader(p, vs);
  f.gl.attachShader(p, fs);
  f.gl.linkProgram(p);
  f.gl.useProgram(p);
  ASSERT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  const GLint c = f.gl.getUniformLocation(p, "c"), k = f.gl.getUniformLocation(p, "k");
  const GLint a2 = f.gl.getUniformLocation(p, "a[2]");
  ASSERT_GE(c, 0);
  ASSERT_GE(k, 0);
  ASSERT_GE(a2, 0);
  EXPECT_EQ(f.gl.getUniformLocation(p, "a[3]"), -1);
  EXPECT_EQ(f.gl.getUniformLocation(p, "c[0]"), -1);
  const float one[4] = {1, 2, 3, 4};
  const GLint ione[1] = {5};
  f.gl.uniform(c, 1, 3, one, nullptr);  // vec3 call on a vec4
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.uniform(k, 1, 1, one, nullptr);  // float call on an int
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.uniform(k, 1, 1, nullptr, ione);
  f.gl.uniform(a2, 1, 1, one, nullptr);
  f.gl.uniform(c, 1, 4, one, nullptr);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  GLint got = 0;
  f.gl.getUniform(p, k, nullptr, &got);
  EXPECT_EQ(got, 5);
  float back[4] = {};
  f.gl.getUniform(p, c, back, nullptr);
  EXPECT_EQ(back[3], 4.0f);
  f.gl.uniform(-1, 1, 4, one, nullptr);  // location -1 is ignored
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
}

// GLES 2.0 §4.4.5: attachments of different sizes make a framebuffer incomplete (GLES 3.0 lifted
// this, so Mesa's contexts differ); a colour format the render backend lacks is unsupported.
TEST(Gles2Context, FramebufferCompleteness) {
  Fixture f;
  GLuint fbo = 0, rb[2] = {}, tex = 0;
  f.gl.genFramebuffers(1, &fbo);
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, fbo);
  f.gl.genRenderbuffers(2, rb);
  f.gl.bindRenderbuffer(GL_RENDERBUFFER, rb[0]);
  f.gl.renderbufferStorage(GL_RENDERBUFFER, GL_RGB565, 16, 16);
  f.gl.bindRenderbuffer(GL_RENDERBUFFER, rb[1]);
  f.gl.renderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 8, 8);
  f.gl.framebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
  EXPECT_EQ(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
  f.gl.framebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
  EXPECT_EQ(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS));
  f.gl.clear(GL_COLOR_BUFFER_BIT);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_FRAMEBUFFER_OPERATION));
  f.gl.framebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 0);
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(GL_TEXTURE_2D, tex);
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 16, 16, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE,
                  nullptr);
  f.gl.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  EXPECT_EQ(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_UNSUPPORTED));
  f.gl.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 1);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_VALUE));  // level 0 only in GLES 2.0
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, 0);
  f.gl.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_OPERATION));  // no object bound
}

// OES_vertex_array_object: array state and the element buffer belong to the bound vertex array;
// current attribute values stay context state.
TEST(Gles2Context, VertexArrayObjectsHoldArrayState) {
  Fixture f;
  GLuint vao = 0, buf[2] = {};
  f.gl.genVertexArrays(1, &vao);
  f.gl.genBuffers(2, buf);
  f.gl.bindVertexArray(vao);
  f.gl.bindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[0]);
  f.gl.bindBuffer(GL_ARRAY_BUFFER, buf[1]);
  f.gl.vertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, 8, nullptr);
  f.gl.enableVertexAttribArray(3, true);
  const float value[4] = {1, 2, 3, 4};
  f.gl.vertexAttrib(5, value, 4);
  GLint v = 0;
  f.gl.getIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
  EXPECT_EQ(v, static_cast<GLint>(buf[0]));
  f.gl.bindVertexArray(0);  // the default vertex array knows none of it
  f.gl.getIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &v);
  EXPECT_EQ(v, 0);
  f.gl.getVertexAttrib(3, GL_VERTEX_ATTRIB_ARRAY_ENABLED, nullptr, &v, nullptr);
  EXPECT_EQ(v, 0);
  float cur[4] = {};
  f.gl.getVertexAttrib(5, GL_CURRENT_VERTEX_ATTRIB, cur, nullptr, nullptr);
  EXPECT_EQ(cur[3], 4.0f);
  f.gl.bindVertexArray(vao);
  f.gl.getVertexAttrib(3, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, nullptr, &v, nullptr);
  EXPECT_EQ(v, static_cast<GLint>(buf[1]));
  f.gl.getIntegerv(0x85B5, &v);  // GL_VERTEX_ARRAY_BINDING_OES
  EXPECT_EQ(v, static_cast<GLint>(vao));
  f.gl.deleteVertexArrays(1, &vao);
  f.gl.getIntegerv(0x85B5, &v);
  EXPECT_EQ(v, 0);
  f.gl.bindVertexArray(12345);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_OPERATION));
}

TEST(Gles2Context, DrawWithoutProgramIsNoOpAndBadModeIsInvalidEnum) {
  Fixture f;
  // With no program nothing is drawn and there is no error; with a bad mode, INVALID_ENUM.
  f.gl.drawArrays(GL_POINTS, 0, 3);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.drawArrays(0x77, 0, 3);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));
}

// glGenerateMipmap of the byte formats (§3.7.11): every texel of every level the rounded average
// of its 2x2 texels in the level above, the last row or column repeated where a level is one
// texel wide or high. Each level is read back by drawing it texel for pixel: a viewport of the
// level's size under NEAREST_MIPMAP_NEAREST picks that level.
TEST(Gles2Context, GenerateMipmapAveragesTwoByTwoTexels) {
  Gles2Fixture f(64, 64, false);
  struct Format {
    GLenum format;
    int bytes;
    std::array<int, 4>
        channel;  // each of R, G, B, A: the texel byte it shows, or -1 for 0, -2 for 255
  };
  const Format formats[] = {{GL_RGBA, 4, {0, 1, 2, 3}},
                            {GL_RGB, 3, {0, 1, 2, -2}},
                            {GL_LUMINANCE_ALPHA, 2, {0, 0, 0, 1}},
                            {GL_LUMINANCE, 1, {0, 0, 0, -2}},
                            {GL_ALPHA, 1, {-1, -1, -1, 0}}};
  uint32_t seed = 12345;
  auto random = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<uint8_t>(seed >> 24);
  };
  for (const Format& fm : formats) {
    for (auto [w0, h0] :
         {std::pair{37, 11}, std::pair{1, 9}, std::pair{12, 1}, std::pair{16, 16}}) {
      std::vector<uint8_t> level(static_cast<size_t>(w0 * h0 * fm.bytes));
      for (uint8_t& b : level) b = random();
      f.texture();
      f.gl.pixelStore(GL_UNPACK_ALIGNMENT, 1);
      f.gl.texImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(fm.format), w0, h0, 0, fm.format,
                      GL_UNSIGNED_BYTE, level.data());
      f.gl.generateMipmap(GL_TEXTURE_2D);
      f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
      ASSERT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
      int w = w0, h = h0;
      for (int lv = 1; w > 1 || h > 1; ++lv) {
        const int nw = std::max(1, w / 2), nh = std::max(1, h / 2);
        std::vector<uint8_t> next(static_cast<size_t>(nw * nh * fm.bytes));
        for (int y = 0; y < nh; ++y)
          for (int x = 0; x < nw; ++x)
            for (int b = 0; b < fm.bytes; ++b) {
              int sum = 0;
              for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx)
                  sum += level[static_cast<size_t>(
                      ((std::min(h - 1, 2 * y + dy) * w) + std::min(w - 1, 2 * x + dx)) * fm.bytes +
                      b)];
              next[static_cast<size_t>((y * nw + x) * fm.bytes + b)] =
                  static_cast<uint8_t>((sum + 2) / 4);
            }
        level = std::move(next);
        w = nw, h = nh;
        f.gl.viewport(0, 0, w, h);
        f.drawTexture(0, 0);
        std::vector<uint8_t> pixels(static_cast<size_t>(w * h * 4));
        f.gl.readPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
        for (int i = 0; i < w * h; ++i)
          for (int c = 0; c < 4; ++c) {
            const int from = fm.channel[static_cast<size_t>(c)];
            const int want = from == -1   ? 0
                             : from == -2 ? 255
                                          : level[static_cast<size_t>(i * fm.bytes + from)];
            ASSERT_EQ(pixels[static_cast<size_t>(4 * i + c)], want)
                << "format " << std::hex << fm.format << std::dec << " " << w0 << "x" << h0
                << " level " << lv << " texel " << i << " channel " << c;
          }
      }
    }
  }
}

}  // namespace
}  // namespace tessera::gles2
