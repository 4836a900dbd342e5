// EXT_shadow_samplers on the GLES2 state machine: the compare mode and function of a texture
// (values and errors), sampler2DShadow in GLSL ES 1.00 as glGetActiveUniform reports it, and
// shadow2DEXT / shadow2DProjEXT drawing the comparison of each pixel's reference with a depth
// texture (OES_depth_texture).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr GLenum kCompareMode = 0x884C, kCompareFunc = 0x884D, kRefToTexture = 0x884E;
constexpr GLenum kSampler2DShadow = 0x8B62;

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(8, 2, false) { gl.viewport(0, 0, 8, 2); }
  GLint texParameter(GLenum pname) {
    GLint v = -1;
    gl.getTexParameter(GL_TEXTURE_2D, pname, &v);
    return v;
  }
};

TEST(Gles2Shadow, CompareModeAndFunctionParameters) {
  Fixture f;
  GLuint tex = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(GL_TEXTURE_2D, tex);
  EXPECT_EQ(f.texParameter(kCompareMode), GL_NONE);
  EXPECT_EQ(f.texParameter(kCompareFunc), GL_LEQUAL);
  f.gl.texParameter(GL_TEXTURE_2D, kCompareMode, static_cast<GLint>(kRefToTexture));
  f.gl.texParameter(GL_TEXTURE_2D, kCompareFunc, GL_GREATER);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(f.texParameter(kCompareMode), static_cast<GLint>(kRefToTexture));
  EXPECT_EQ(f.texParameter(kCompareFunc), GL_GREATER);
  // Values outside the lists are INVALID_ENUM and change nothing.
  f.gl.texParameter(GL_TEXTURE_2D, kCompareMode, GL_LEQUAL);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.texParameter(GL_TEXTURE_2D, kCompareFunc, GL_NONE);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.texParameter(GL_TEXTURE_2D, kCompareFunc, GL_ALWAYS + 1);
  EXPECT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_INVALID_ENUM));
  EXPECT_EQ(f.texParameter(kCompareMode), static_cast<GLint>(kRefToTexture));
  EXPECT_EQ(f.texParameter(kCompareFunc), GL_GREATER);
  f.gl.texParameter(GL_TEXTURE_2D, kCompareMode, GL_NONE);
  EXPECT_EQ(f.texParameter(kCompareMode), GL_NONE);
  const char* ext = reinterpret_cast<const char*>(f.gl.getString(GL_EXTENSIONS));
  EXPECT_NE(std::string(ext).find("GL_EXT_shadow_samplers"), std::string::npos);
}

// A 2x1 depth texture (0.25 | 0.75) over an 8x2 window; each pixel compares its reference
// (0.5 on the bottom row, 0.9 on the top row) with LESS: 1 only where ref < depth.
TEST(Gles2Shadow, Shadow2DComparesBeforeFiltering) {
  Fixture f;
  GLuint tex = 0;
  f.gl.genTextures(1, &tex);
  f.gl.bindTexture(GL_TEXTURE_2D, tex);
  const std::array<uint16_t, 2> depths = {16384, 49151};
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 2, 1, 0, GL_DEPTH_COMPONENT,
                  GL_UNSIGNED_SHORT, depths.data());
  f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  f.gl.texParameter(GL_TEXTURE_2D, kCompareMode, static_cast<GLint>(kRefToTexture));
  f.gl.texParameter(GL_TEXTURE_2D, kCompareFunc, GL_LESS);
  const GLuint p = f.program(
      "attribute vec4 pos; varying vec2 v;\n"
      "void main() { gl_Position = pos; v = pos.xy * 0.5 + 0.5; }\n",
      "#extension GL_EXT_shadow_samplers : require\n"
      "precision mediump float; uniform lowp sampler2DShadow u_depth; varying vec2 v;\n"
      "void main() {\n"
      "  float ref = v.y < 0.5 ? 0.5 : 0.9;\n"
      "  float a = shadow2DEXT(u_depth, vec3(v.x, 0.5, ref));\n"
      "  float b = shadow2DProjEXT(u_depth, vec4(v.x * 2.0, 1.0, ref * 2.0, 2.0));\n"
      "  gl_FragColor = vec4(a, b, 0.0, 1.0);\n"
      "}\n");
  GLint linked = 0;
  f.gl.getProgramiv(p, GL_LINK_STATUS, &linked);
  ASSERT_EQ(linked, GL_TRUE);
  char name[32];
  GLint size = 0;
  GLenum type = 0;
  f.gl.getActiveUniform(p, 0, sizeof name, nullptr, &size, &type, name);
  EXPECT_EQ(type, kSampler2DShadow);
  f.gl.useProgram(p);
  const std::array<float, 8> quad = {-1, -1, 1, -1, -1, 1, 1, 1};
  f.gl.vertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad.data());
  f.gl.enableVertexAttribArray(0, true);
  f.gl.bindAttribLocation(p, 0, "pos");
  f.gl.linkProgram(p);
  f.gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<uint8_t> pixels(8 * 2 * 4);
  f.gl.readPixels(0, 0, 8, 2, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  ASSERT_EQ(f.gl.takeError(), static_cast<GLenum>(GL_NO_ERROR));
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 8; ++x) {
      const uint8_t* px = &pixels[static_cast<size_t>((y * 8 + x) * 4)];
      const bool pass = y == 0 && x >= 4;  // 0.5 < 0.75 on the right of the bottom row
      EXPECT_EQ(px[0], pass ? 255 : 0) << x << "," << y;
      EXPECT_EQ(px[1], pass ? 255 : 0) << x << "," << y;
    }
  }
  // With the compare mode off the lookup reads the depth itself (undefined in the extension;
  // Tessera returns the texel): not 0 or 1.
  f.gl.texParameter(GL_TEXTURE_2D, kCompareMode, GL_NONE);
  f.gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
  f.gl.readPixels(0, 0, 8, 2, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  EXPECT_EQ(pixels[0], 64);  // 0.25
}

}  // namespace
}  // namespace tessera::gles2
