// OES_texture_3D on the GLES2 state machine: the TEXTURE_3D_OES target and its binding, image
// specification and its errors, WRAP_R, sampler3D / texture3D drawing each slice, mipmap
// generation that halves the depth too, and rendering into one slice (FramebufferTexture3DOES).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr GLenum kTexture3D = 0x806F, kBinding3D = 0x806A, kWrapR = 0x8072, kMax3D = 0x8073;
constexpr GLenum kZoffset = 0x8CD4, kSampler3D = 0x8B5F;

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(4, 4, false) { gl.viewport(0, 0, 4, 4); }
  // A program drawing texture3D(u_volume, (0.5, 0.5, r)) with r from a uniform, plus `bias`.
  GLuint program(const char* lookup) {
    const std::string fs = std::string(
                               "#extension GL_OES_texture_3D : require\n"
                               "precision mediump float; uniform lowp sampler3D u_volume;\n"
                               "uniform float r;\n"
                               "void main() { gl_FragColor = ") +
                           lookup + "; }\n";
    return Gles2Fixture::program("attribute vec4 pos; void main() { gl_Position = pos; }\n",
                                 fs.c_str(), "pos");
  }
  // Draws a full-window quad with `p` and r, and returns the red and green of pixel (1, 1).
  std::array<uint8_t, 2> draw(GLuint p, float r) {
    gl.useProgram(p);
    gl.uniform(gl.getUniformLocation(p, "r"), 1, 1, &r, nullptr);
    static const std::array<float, 8> quad = {-1, -1, 1, -1, -1, 1, 1, 1};
    gl.vertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad.data());
    gl.enableVertexAttribArray(0, true);
    gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
    std::array<uint8_t, 4> px{};
    gl.readPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    return {px[0], px[1]};
  }
};

// A 2x2x4 RGBA volume: slice z is red 60 * z + 10, green 200.
std::vector<uint8_t> slices() {
  std::vector<uint8_t> t;
  for (int z = 0; z < 4; ++z)
    for (int i = 0; i < 4; ++i) t.insert(t.end(), {uint8_t(60 * z + 10), 200, 0, 255});
  return t;
}

TEST(Gles2Texture3D, TargetBindingAndErrors) {
  Fixture f;
  GLuint tex = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(kTexture3D, tex);
  GLint v = 0;
  f.gl.getIntegerv(kBinding3D, &v);
  EXPECT_EQ(v, static_cast<GLint>(tex));
  f.gl.getIntegerv(kMax3D, &v);
  EXPECT_EQ(v, 256);
  f.gl.bindTexture(GL_TEXTURE_2D, tex);  // a 3D texture stays 3D
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  const auto data = slices();
  f.gl.texImage3D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 257, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.texImage3D(kTexture3D, 0, GL_RGB, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.texImage3D(kTexture3D, 0, GL_DEPTH_COMPONENT, 2, 2, 4, 0, GL_DEPTH_COMPONENT,
                  GL_UNSIGNED_SHORT, nullptr);  // depth textures are 2D only
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.texSubImage3D(kTexture3D, 0, 0, 0, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // no image yet
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.texSubImage3D(kTexture3D, 0, 0, 0, 3, 1, 1, 2, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // slices 3..4 of 4
  f.gl.compressedTexImage3D(kTexture3D, 0, 4, 4, 4, 0, 16);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.texParameter(kTexture3D, kWrapR, GL_CLAMP_TO_EDGE);
  f.gl.getTexParameter(kTexture3D, kWrapR, &v);
  EXPECT_EQ(v, GL_CLAMP_TO_EDGE);
  f.gl.texParameter(kTexture3D, kWrapR, GL_NEAREST);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
}

TEST(Gles2Texture3D, Texture3DReadsEachSlice) {
  Fixture f;
  GLuint tex = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(kTexture3D, tex);
  const auto data = slices();
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  const GLuint p = f.program("texture3D(u_volume, vec3(0.5, 0.5, r))");
  GLint linked = 0;
  f.gl.getProgramiv(p, GL_LINK_STATUS, &linked);
  ASSERT_EQ(linked, GL_TRUE);
  char name[32];
  GLint size = 0;
  GLenum type = 0;
  for (GLuint i = 0; i < 2; ++i) {
    f.gl.getActiveUniform(p, i, sizeof name, nullptr, &size, &type, name);
    if (std::string(name) == "u_volume") {
      EXPECT_EQ(type, kSampler3D);
    }
  }
  for (int z = 0; z < 4; ++z) EXPECT_EQ(f.draw(p, (z + 0.5f) / 4)[0], 60 * z + 10) << z;
  EXPECT_EQ(f.draw(p, 1.1f)[0], 10);  // REPEAT along r: slice 0
  f.gl.texParameter(kTexture3D, kWrapR, GL_CLAMP_TO_EDGE);
  EXPECT_EQ(f.draw(p, 1.1f)[0], 190);  // clamped: slice 3
  // A slice updated by TexSubImage3DOES.
  const std::array<uint8_t, 16> blue = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
  f.gl.texSubImage3D(kTexture3D, 0, 0, 0, 2, 2, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, blue.data());
  EXPECT_EQ(f.draw(p, 2.5f / 4)[0], 1);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(Gles2Texture3D, GenerateMipmapHalvesTheDepth) {
  Fixture f;
  GLuint tex = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(kTexture3D, tex);
  const auto data = slices();
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  // Without the mipmaps a mipmapped filter makes the texture incomplete: (0, 0, 0, 1).
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // s moves half the texture per pixel: one level-0 texel, lambda 0; the bias makes it level 1.
  const GLuint p = f.program("texture3D(u_volume, vec3(gl_FragCoord.x * 0.5, 0.5, r), 1.0)");
  EXPECT_EQ(f.draw(p, 0.1f)[1], 0);
  f.gl.generateMipmap(kTexture3D);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  // Level 1 is 1x1x2: slices (10 + 70) / 2 = 40 and (130 + 190) / 2 = 160.
  EXPECT_EQ(f.draw(p, 0.1f)[0], 40);
  EXPECT_EQ(f.draw(p, 0.9f)[0], 160);
  EXPECT_EQ(f.draw(p, 0.9f)[1], 200);
}

TEST(Gles2Texture3D, RenderIntoASlice) {
  Fixture f;
  GLuint tex = 0, fbo = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(kTexture3D, tex);
  const auto data = slices();
  f.gl.texImage3D(kTexture3D, 0, GL_RGBA, 2, 2, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  f.gl.texParameter(kTexture3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  f.gl.genFramebuffers(1, &fbo);
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, fbo);
  f.gl.framebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0, 1);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.framebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, kTexture3D, tex, 1, 1);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // level 0 only
  f.gl.framebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, kTexture3D, tex, 0, 1);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  GLint z = -1;
  f.gl.getFramebufferAttachmentParameter(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, kZoffset, &z);
  EXPECT_EQ(z, 1);
  EXPECT_EQ(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
  f.gl.viewport(0, 0, 2, 2);
  f.gl.clearColor(1, 0, 1, 1);
  f.gl.clear(GL_COLOR_BUFFER_BIT);
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, 0);
  f.gl.viewport(0, 0, 4, 4);
  const GLuint p = f.program("texture3D(u_volume, vec3(0.5, 0.5, r))");
  EXPECT_EQ(f.draw(p, 1.5f / 4)[0], 255);  // the cleared slice
  EXPECT_EQ(f.draw(p, 1.5f / 4)[1], 0);
  EXPECT_EQ(f.draw(p, 2.5f / 4)[0], 130);  // its neighbours keep their texels
  EXPECT_EQ(f.draw(p, 0.5f / 4)[0], 10);
  // A slice beyond the depth leaves the framebuffer without a colour attachment.
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, fbo);
  f.gl.framebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, kTexture3D, tex, 0, 4);
  EXPECT_NE(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
}

}  // namespace
}  // namespace tessera::gles2
