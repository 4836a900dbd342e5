// Float and half-float textures (OES_texture_float, OES_texture_half_float and their _linear
// extensions), anisotropic filtering state (EXT_texture_filter_anisotropic) and the depth
// texture extensions on the GLES2 state machine: what is reported, what is sampled, the errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr GLenum kHalfFloatOes = 0x8D61, kMaxAnisotropy = 0x84FE, kMaxMaxAnisotropy = 0x84FF;

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(8, 8, false) { gl.viewport(0, 0, 8, 8); }
};

void expectPixel(const std::array<uint8_t, 4>& px, std::array<int, 4> want, const char* what) {
  for (int c = 0; c < 4; ++c)
    EXPECT_NEAR(px[static_cast<size_t>(c)], want[static_cast<size_t>(c)], 1)
        << what << " channel " << c;
}

TEST(Gles2FloatTexture, ReportsTheExtensions) {
  Fixture f;
  const std::string ext = reinterpret_cast<const char*>(f.gl.getString(GL_EXTENSIONS));
  for (const char* e :
       {"GL_OES_texture_float", "GL_OES_texture_half_float", "GL_OES_texture_float_linear",
        "GL_OES_texture_half_float_linear", "GL_EXT_texture_filter_anisotropic",
        "GL_OES_depth_texture", "GL_OES_packed_depth_stencil"})
    EXPECT_NE((" " + ext + " ").find(std::string(" ") + e + " "), std::string::npos) << e;
  GLint maxAniso = 0;
  f.gl.getIntegerv(kMaxMaxAnisotropy, &maxAniso);
  EXPECT_EQ(maxAniso, 16);
  GLfloat maxAnisoF = 0;
  f.gl.getFloatv(kMaxMaxAnisotropy, &maxAnisoF);
  EXPECT_EQ(maxAnisoF, 16.0f);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
}

// Every base format with FLOAT and HALF_FLOAT_OES, a 1x1 texture drawn over the window: GLES 2.0
// Table 3.8's channel mapping; values above 1 saturate in the RGBA8 framebuffer.
TEST(Gles2FloatTexture, EveryBaseFormatSamples) {
  Fixture f;
  struct Case {
    GLenum format;
    std::vector<float> v;
    std::array<int, 4> want;
  };
  const Case cases[] = {
      {GL_RGBA, {0.25f, 0.5f, 2.0f, 0.75f}, {64, 128, 255, 191}},
      {GL_RGB, {1.0f, 0.5f, 0.0f}, {255, 128, 0, 255}},
      {GL_LUMINANCE_ALPHA, {0.5f, 0.25f}, {128, 128, 128, 64}},
      {GL_LUMINANCE, {0.75f}, {191, 191, 191, 255}},
      {GL_ALPHA, {0.5f}, {0, 0, 0, 128}},
  };
  for (const Case& c : cases) {
    f.texture();
    f.gl.texImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(c.format), 1, 1, 0, c.format, GL_FLOAT,
                    c.v.data());
    EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
    expectPixel(f.drawTexture(3, 3), c.want, "float");
    // The same values as halves (all exact in binary16).
    std::vector<uint16_t> h;
    for (float x : c.v) {
      uint32_t bits;
      std::memcpy(&bits, &x, 4);
      h.push_back(static_cast<uint16_t>(((bits >> 16) & 0x8000) |
                                        (x == 0 ? 0 : (((bits >> 23) & 0xff) - 112) << 10) |
                                        ((bits >> 13) & 0x3ff)));
    }
    f.texture();
    f.gl.texImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(c.format), 1, 1, 0, c.format,
                    kHalfFloatOes, h.data());
    EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
    expectPixel(f.drawTexture(3, 3), c.want, "half");
  }
}

// OES_texture_float_linear: LINEAR filtering of a 2x1 float texture with values -1 and 3 gives
// their blend, clamped only when written: at the middle 1.0, a quarter in 0.0.
TEST(Gles2FloatTexture, LinearFilteringAndMipmaps) {
  Fixture f;
  f.texture(GL_TEXTURE_2D, GL_LINEAR);
  f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  const float v[2] = {-1.0f, 3.0f};
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 2, 1, 0, GL_LUMINANCE, GL_FLOAT, v);
  // Pixel x = 3 is at u = 3.5 / 8 of the texture: 0.875 texels, a blend of 0.375 towards 3.
  EXPECT_NEAR(f.drawTexture(3, 0)[0], 128, 1);  // -1 + 0.375 * 4 = 0.5
  EXPECT_EQ(f.drawTexture(0, 0)[0], 0);         // -1: clamped by the framebuffer
  // GenerateMipmap averages the floats: a 16x16 checker of 0 and 1 has level 1 at 0.5, which a
  // 2:1 minification over the 8x8 window selects.
  f.texture(GL_TEXTURE_2D, GL_NEAREST);
  std::vector<float> checker(16 * 16);
  for (size_t i = 0; i < checker.size(); ++i) checker[i] = float((i % 16 + i / 16) % 2);
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 16, 16, 0, GL_LUMINANCE, GL_FLOAT,
                  checker.data());
  const int plain = f.drawTexture(3, 3)[0];
  EXPECT_TRUE(plain == 0 || plain == 255) << plain;
  f.gl.generateMipmap(GL_TEXTURE_2D);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  EXPECT_NEAR(f.drawTexture(3, 3)[0], 128, 1);
}

TEST(Gles2FloatTexture, Errors) {
  Fixture f;
  f.texture();
  const float v[4] = {};
  // internalformat must equal format (GLES 2.0 §3.7.1).
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_RGB, 1, 1, 0, GL_RGBA, GL_FLOAT, v);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  // No float depth textures (OES_depth_texture takes UNSIGNED_SHORT and UNSIGNED_INT).
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 1, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, v);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  // Packed types only go with their formats.
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 1, 1, 0, GL_LUMINANCE, GL_UNSIGNED_SHORT_5_6_5,
                  v);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, 0x140B /* desktop HALF_FLOAT */, v);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  // A sub-image must keep the image's type.
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_FLOAT, nullptr);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  const uint16_t h[4] = {};
  f.gl.texSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, kHalfFloatOes, h);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.texSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 1, 1, GL_RGBA, GL_FLOAT, v);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  // Float textures are not colour-renderable in OpenGL ES 2.0.
  GLuint fb = 0;
  f.gl.genFramebuffers(1, &fb);
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, fb);
  GLuint tex = 0;
  f.gl.getIntegerv(GL_TEXTURE_BINDING_2D, reinterpret_cast<GLint*>(&tex));
  f.gl.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  EXPECT_NE(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, 0);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
}

// EXT_texture_filter_anisotropic: a per-texture float parameter >= 1, INVALID_VALUE below.
TEST(Gles2Anisotropic, ParameterAndErrors) {
  Fixture f;
  f.texture();
  GLfloat a = 0;
  f.gl.getTexParameterf(GL_TEXTURE_2D, kMaxAnisotropy, &a);
  EXPECT_EQ(a, 1.0f);  // the initial value
  f.gl.texParameterf(GL_TEXTURE_2D, kMaxAnisotropy, 4.5f);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.getTexParameterf(GL_TEXTURE_2D, kMaxAnisotropy, &a);
  EXPECT_EQ(a, 4.5f);
  GLint i = 0;
  f.gl.getTexParameter(GL_TEXTURE_2D, kMaxAnisotropy, &i);
  EXPECT_EQ(i, 4);
  f.gl.texParameter(GL_TEXTURE_2D, kMaxAnisotropy, 64);  // above the maximum: kept, clamped later
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.texParameterf(GL_TEXTURE_2D, kMaxAnisotropy, 0.5f);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.texParameter(GL_TEXTURE_2D, kMaxAnisotropy, 0);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.getTexParameterf(GL_TEXTURE_2D, kMaxAnisotropy, &a);
  EXPECT_EQ(a, 64.0f);  // unchanged by the failed calls
  f.gl.texParameterf(GL_RENDERBUFFER, kMaxAnisotropy, 2.0f);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.getTexParameterf(GL_RENDERBUFFER, kMaxAnisotropy, &a);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  // Other float parameters still go through the enum path.
  f.gl.texParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, static_cast<GLfloat>(GL_LINEAR));
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.texParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, 1.0f);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
}

// Through the whole stack: a texture squeezed 8:1 along t keeps its one-texel stripes along s
// with anisotropic filtering (the level of detail follows the minor axis), and loses them to
// a blurry level without it; the probes show in the texel fetches.
TEST(Gles2Anisotropic, SharpensASqueezedTexture) {
  auto render = [](GLfloat aniso, uint64_t& fetches) {
    Fixture f;
    f.texture(GL_TEXTURE_2D, GL_LINEAR);
    f.gl.texParameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    std::vector<uint8_t> texels(8 * 64 * 4);
    for (size_t i = 0; i < 8 * 64; ++i)
      for (int c = 0; c < 4; ++c) texels[i * 4 + size_t(c)] = (i % 2) ? 0 : 255;
    f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    f.gl.generateMipmap(GL_TEXTURE_2D);
    f.gl.texParameterf(GL_TEXTURE_2D, kMaxAnisotropy, aniso);
    const int contrast = std::abs(int(f.drawTexture(2, 4)[0]) - int(f.drawTexture(3, 4)[0]));
    fetches = 0;
    for (const auto& r : f.gl.pipe().takeReports()) fetches += r.stats.tex.texelFetches;
    EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
    return contrast;
  };
  uint64_t isoFetches = 0, anisoFetches = 0;
  EXPECT_LT(render(1.0f, isoFetches), 16);
  EXPECT_GT(render(8.0f, anisoFetches), 200);
  EXPECT_GT(anisoFetches, 2 * isoFetches);
}

// OES_depth_texture with OES_packed_depth_stencil: a DEPTH_STENCIL texture is accepted, sampled
// as its depth, and refuses what the extension forbids.
TEST(Gles2DepthTexture, PackedDepthStencilWorks) {
  Fixture f;
  f.texture();
  const uint32_t d24s8 = 0x80000000u | 0x55u;  // depth 0.5 (top 24 bits), stencil 0x55
  f.gl.texImage2D(GL_TEXTURE_2D, 0, 0x84F9, 1, 1, 0, 0x84F9, 0x84FA, &d24s8);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_NEAR(f.drawTexture(2, 2)[0], 128, 1);
  f.gl.texImage2D(GL_TEXTURE_2D, 1, 0x84F9, 1, 1, 0, 0x84F9, 0x84FA, &d24s8);  // level 0 only
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.generateMipmap(GL_TEXTURE_2D);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
}

}  // namespace
}  // namespace tessera::gles2
