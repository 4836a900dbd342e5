// Compressed textures on the GLES2 state machine: the formats and extensions it reports,
// CompressedTexImage2D / CompressedTexSubImage2D and their errors (GLES 2.0 §3.7.3,
// OES_compressed_ETC1_RGB8_texture, OpenGL ES 3.0 §3.8.6, KHR_texture_compression_astc_ldr),
// the calls a compressed image refuses, and drawing with the blocks decoded by the sampler.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr GLenum kEtc1 = 0x8D64, kEtc2Rgb = 0x9274, kEtc2Srgb = 0x9275, kAstc4x4 = 0x93B0,
                 kAstc12x12 = 0x93BD, kAstcSrgb4x4 = 0x93D0, kAstc6x5 = 0x93B3;

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(8, 8, false) { gl.viewport(0, 0, 8, 8); }
};

// An ETC1/ETC2 individual-mode block: sub-blocks (left, right) of 4-bit grey g1, g2 with table 0
// and every pixel index 00 (+2): texels g * 17 + 2.
std::array<uint8_t, 8> greyBlock(uint8_t g1, uint8_t g2) {
  const auto rg = static_cast<uint8_t>(g1 << 4 | g2);
  return {rg, rg, rg, 0, 0, 0, 0, 0};
}

TEST(Gles2Compressed, ReportsItsFormatsAndExtensions) {
  Fixture f;
  GLint n = 0;
  f.gl.getIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &n);
  EXPECT_EQ(n, 22);  // ETC1, 7 ETC2/EAC, 14 ASTC LDR
  std::vector<GLint> formats(static_cast<size_t>(n));
  f.gl.getIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, formats.data());
  auto has = [&](GLenum e) {
    return std::find(formats.begin(), formats.end(), static_cast<GLint>(e)) != formats.end();
  };
  for (GLenum e : {kEtc1, kEtc2Rgb, kAstc4x4, kAstc12x12, GLenum{0x9270}, GLenum{0x9278}})
    EXPECT_TRUE(has(e)) << std::hex << e;
  EXPECT_FALSE(has(kEtc2Srgb));  // no sRGB decode
  EXPECT_FALSE(has(kAstcSrgb4x4));
  const std::string ext = reinterpret_cast<const char*>(f.gl.getString(GL_EXTENSIONS));
  EXPECT_NE(ext.find("GL_OES_compressed_ETC1_RGB8_texture"), std::string::npos);
  EXPECT_NE(ext.find("GL_KHR_texture_compression_astc_ldr"), std::string::npos);
}

TEST(Gles2Compressed, ImageErrors) {
  Fixture f;
  f.texture();
  const std::vector<uint8_t> data(4096, 0);
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, 0x1234, 4, 4, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));  // unknown format
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc2Srgb, 4, 4, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));  // not exposed
  f.gl.compressedTexImage2D(GL_RGBA, 0, kEtc1, 4, 4, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));  // bad target
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, -1, kEtc1, 4, 4, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, -4, 4, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 4, 4, 1, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // border
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 4, 4, 0, -8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  // imageSize must be whole blocks: 5x5 ETC1 is 2x2 blocks of 8 bytes; 13x13 ASTC 6x5 is 3x3.
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 5, 5, 0, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 5, 5, 0, 32, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kAstc6x5, 13, 13, 0, 3 * 3 * 16, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kAstc6x5, 13, 13, 0, 3 * 4 * 16, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.texture(GL_TEXTURE_CUBE_MAP);
  f.gl.compressedTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, kEtc1, 4, 8, 0, 16, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // cube faces are square
}

TEST(Gles2Compressed, SubImageErrors) {
  Fixture f;
  f.texture();
  const std::vector<uint8_t> data(4096, 0);
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // no image yet
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 8, 8, 0, 32, data.data());
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, kEtc1, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // ETC1 has no sub-images
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc2Rgb, 10, 10, 0, 72, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, 0x1234, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_ENUM));
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, kAstc4x4, 16, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // not the image's format
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, -4, 0, 4, 4, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 8, 8, 4, 4, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // beyond 10x10
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // not on a block boundary
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 3, 4, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // partial block mid-image
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 8, 8, 2, 2, kEtc2Rgb, 8, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));  // a partial block at the edge
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, kEtc2Rgb, 16, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_VALUE));  // imageSize
}

TEST(Gles2Compressed, UncompressedCallsRefuseACompressedImage) {
  Fixture f;
  f.texture();
  const std::vector<uint8_t> data(256, 0);
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc2Rgb, 8, 8, 0, 32, data.data());
  f.gl.texSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  // The compressed-image rule comes first: a region past the edge is not INVALID_VALUE here.
  f.gl.texSubImage2D(GL_TEXTURE_2D, 0, 7, 0, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, data.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.copyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));
  f.gl.generateMipmap(GL_TEXTURE_2D);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_INVALID_OPERATION));  // §3.7.11
  // Not colour-renderable: a framebuffer with it is not complete.
  GLuint tex = f.texture(), fbo = 0;
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc2Rgb, 8, 8, 0, 32, data.data());
  f.gl.genFramebuffers(1, &fbo);
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, fbo);
  f.gl.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  EXPECT_NE(f.gl.checkFramebufferStatus(GL_FRAMEBUFFER),
            static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
  // TexImage2D respecifies the level with an uncompressed image, as it may.
  f.gl.bindFramebuffer(GL_FRAMEBUFFER, 0);
  f.gl.texImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(Gles2Compressed, DrawsTheDecodedBlocksAndSubImageUpdates) {
  Fixture f;
  f.texture();
  // 8x8 ETC2: blocks (0,0) (1,0) (0,1) (1,1) of greys 1|2, 3|4, 5|6, 7|8 (left|right halves).
  std::vector<uint8_t> blocks;
  for (int b = 0; b < 4; ++b) {
    const auto blk = greyBlock(static_cast<uint8_t>(2 * b + 1), static_cast<uint8_t>(2 * b + 2));
    blocks.insert(blocks.end(), blk.begin(), blk.end());
  }
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc2Rgb, 8, 8, 0, 32, blocks.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(f.drawTexture(0, 0)[0], 1 * 17 + 2);
  EXPECT_EQ(f.drawTexture(3, 0)[0], 2 * 17 + 2);
  EXPECT_EQ(f.drawTexture(5, 2)[0], 3 * 17 + 2);
  EXPECT_EQ(f.drawTexture(7, 7)[0], 8 * 17 + 2);
  EXPECT_EQ(f.drawTexture(1, 6)[3], 255);
  const auto grey15 = greyBlock(15, 15);
  f.gl.compressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, kEtc2Rgb, 8, grey15.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(f.drawTexture(7, 7)[0], 255);  // 255 + 2 clamps
  EXPECT_EQ(f.drawTexture(0, 0)[0], 1 * 17 + 2);
  // ETC1 takes the same blocks (its individual mode is ETC2's).
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kEtc1, 8, 8, 0, 32, blocks.data());
  EXPECT_EQ(f.drawTexture(5, 2)[1], 3 * 17 + 2);
  // ASTC 4x4 void-extent blocks: one colour per block.
  std::vector<uint8_t> astc;
  for (int b = 0; b < 4; ++b) {
    std::array<uint8_t, 16> blk{};
    blk[0] = 0xfc, blk[1] = 0xfd;  // void extent, LDR; extent coordinates all ones
    for (int i = 2; i < 8; ++i) blk[static_cast<size_t>(i)] = 0xff;
    const uint16_t c[4] = {static_cast<uint16_t>(0x1111 * (b + 1)), 0x8080, 0, 0xffff};
    std::memcpy(blk.data() + 8, c, 8);
    astc.insert(astc.end(), blk.begin(), blk.end());
  }
  f.gl.compressedTexImage2D(GL_TEXTURE_2D, 0, kAstc4x4, 8, 8, 0, 64, astc.data());
  EXPECT_EQ(f.err(), static_cast<GLenum>(GL_NO_ERROR));
  EXPECT_EQ(f.drawTexture(6, 1)[0], 0x22);
  EXPECT_EQ(f.drawTexture(6, 6)[0], 0x44);
  EXPECT_EQ(f.drawTexture(6, 6)[1], 0x80);
}

}  // namespace
}  // namespace tessera::gles2
