// Texel formats decode exactly; the mip chain layout matches the packing rule.
#include <gtest/gtest.h>

#include <vector>

#include "gpu/tex/texel_format.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using V = std::vector<float>;

V decode(TexFormat f, std::vector<uint8_t> bytes) {
  float out[4];
  decodeTexel(f, bytes.data(), out);
  return {out[0], out[1], out[2], out[3]};
}

TEST(TexFormat, BytesPerTexel) {
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA8), 4u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGB8), 3u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGB565), 2u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA4444), 2u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA5551), 2u);
  EXPECT_EQ(bytesPerTexel(TexFormat::L8), 1u);
  EXPECT_EQ(bytesPerTexel(TexFormat::A8), 1u);
  EXPECT_EQ(bytesPerTexel(TexFormat::LA8), 2u);
}

// Depth textures read as (d, d, d, 1) from the render backend's depth layouts: D16, and D24S8
// with depth in bits 0..23 (the stencil byte above is ignored).
TEST(TexFormat, DepthFormatsReadAsLuminance) {
  float out[4];
  const uint8_t d16[2] = {0xff, 0x7f};  // 32767
  decodeTexel(TexFormat::D16, d16, out);
  EXPECT_FLOAT_EQ(out[0], 32767.0f / 65535.0f);
  EXPECT_EQ(out[1], out[0]);
  EXPECT_EQ(out[3], 1.0f);
  const uint8_t d24[4] = {0x00, 0x00, 0x80, 0xab};  // depth 0x800000, stencil 0xab
  decodeTexel(TexFormat::D24S8, d24, out);
  EXPECT_FLOAT_EQ(out[2], 8388608.0f / 16777215.0f);
  EXPECT_EQ(bytesPerTexel(TexFormat::D24S8), 4u);
}

TEST(TexFormat, EightBitFormats) {
  EXPECT_EQ(decode(TexFormat::RGBA8, {0, 51, 255, 102}),
            (V{0.0f, 51 / 255.0f, 1.0f, 102 / 255.0f}));
  EXPECT_EQ(decode(TexFormat::RGB8, {255, 0, 17}), (V{1.0f, 0.0f, 17 / 255.0f, 1.0f}));
  EXPECT_EQ(decode(TexFormat::L8, {85}), (V{85 / 255.0f, 85 / 255.0f, 85 / 255.0f, 1.0f}));
  EXPECT_EQ(decode(TexFormat::A8, {170}), (V{0.0f, 0.0f, 0.0f, 170 / 255.0f}));
  EXPECT_EQ(decode(TexFormat::LA8, {255, 34}), (V{1.0f, 1.0f, 1.0f, 34 / 255.0f}));
}

TEST(TexFormat, PackedSixteenBitFormatsAreLittleEndianRedHigh) {
  // 565: R=31 G=0 B=0 -> 0xF800; G max -> 0x07E0; B max -> 0x001F; mixed 0x8410.
  EXPECT_EQ(decode(TexFormat::RGB565, {0x00, 0xF8}), (V{1, 0, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGB565, {0xE0, 0x07}), (V{0, 1, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGB565, {0x1F, 0x00}), (V{0, 0, 1, 1}));
  EXPECT_EQ(decode(TexFormat::RGB565, {0x10, 0x84}), (V{16 / 31.0f, 32 / 63.0f, 16 / 31.0f, 1}));
  // 4444: 0x1234 -> R=1 G=2 B=3 A=4.
  EXPECT_EQ(decode(TexFormat::RGBA4444, {0x34, 0x12}),
            (V{1 / 15.0f, 2 / 15.0f, 3 / 15.0f, 4 / 15.0f}));
  EXPECT_EQ(decode(TexFormat::RGBA4444, {0xFF, 0xFF}), (V{1, 1, 1, 1}));
  // 5551: R=3 G=7 B=21 A=1 -> (3<<11)|(7<<6)|(21<<1)|1 = 0x19EB.
  EXPECT_EQ(decode(TexFormat::RGBA5551, {0xEB, 0x19}), (V{3 / 31.0f, 7 / 31.0f, 21 / 31.0f, 1}));
  EXPECT_EQ(decode(TexFormat::RGBA5551, {0xFE, 0xFF}), (V{1, 1, 1, 0}));
}

TEST(TexFormat, SamplingReadsEachFormatFromMemory) {
  testing::TexFixture fx;
  // 2x1 textures sampled nearest at each texel centre.
  auto d = fx.make(TexFormat::RGB565, 2, 1, 1, {0x00, 0xF8, 0x1F, 0x00});
  d.minFilter = d.magFilter = Filter::Nearest;
  EXPECT_EQ(fx.lod(d, 0.25f, 0.5f, 0), (V{1, 0, 0, 1}));
  EXPECT_EQ(fx.lod(d, 0.75f, 0.5f, 0), (V{0, 0, 1, 1}));
  auto la = fx.make(TexFormat::LA8, 2, 1, 1, {10, 20, 30, 40});
  la.minFilter = la.magFilter = Filter::Nearest;
  EXPECT_EQ(fx.lod(la, 0.75f, 0.5f, 0), (V{30 / 255.0f, 30 / 255.0f, 30 / 255.0f, 40 / 255.0f}));
  auto rgb = fx.make(TexFormat::RGB8, 2, 1, 1, {1, 2, 3, 4, 5, 6});
  rgb.minFilter = rgb.magFilter = Filter::Nearest;
  EXPECT_EQ(fx.lod(rgb, 0.75f, 0.5f, 0), (V{4 / 255.0f, 5 / 255.0f, 6 / 255.0f, 1}));
}

TEST(TexLayout, MipLevelsPackedOneAfterAnother) {
  TextureDescriptor d;
  d.format = TexFormat::RGBA8;
  d.width = 8;
  d.height = 4;
  d.levels = 4;  // 8x4, 4x2, 2x1, 1x1
  EXPECT_EQ(levelOffset(d, 0), 0u);
  EXPECT_EQ(levelOffset(d, 1), 128u);
  EXPECT_EQ(levelOffset(d, 2), 160u);
  EXPECT_EQ(levelOffset(d, 3), 168u);
  EXPECT_EQ(totalBytes(d), 172u);
  d.format = TexFormat::RGB8;  // NPOT 5x3: 5x3, 2x1, 1x1
  d.width = 5;
  d.height = 3;
  d.levels = 3;
  EXPECT_EQ(levelOffset(d, 1), 45u);
  EXPECT_EQ(levelOffset(d, 2), 51u);
  EXPECT_EQ(totalBytes(d), 54u);
  EXPECT_EQ(levelExtent(5, 40), 1u);
  d.levels = 0xffffffffu;  // absurd level counts stay cheap and finite
  EXPECT_GT(totalBytes(d), 0xffffffffull);
}

}  // namespace
}  // namespace tessera::gpu::tex
