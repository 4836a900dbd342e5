// The block encoders (gpu/tex/compressed/encode.h), checked through the sampler's own decoders:
// what they write must decode close to the source texels.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "gpu/tex/compressed/encode.h"
#include "gpu/tex/texel_format.h"

namespace tessera::gpu::tex {
namespace {

// A smooth, coloured test image with some detail: gradients plus a soft diagonal wave.
std::vector<uint8_t> testImage(uint32_t w, uint32_t h, bool withAlpha) {
  std::vector<uint8_t> img(size_t{w} * h * 4);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = &img[(size_t{y} * w + x) * 4];
      const float wave = 0.5f + 0.5f * std::sin(static_cast<float>(x + y) * 0.2f);
      p[0] = static_cast<uint8_t>(255.0f * static_cast<float>(x) / static_cast<float>(w - 1));
      p[1] = static_cast<uint8_t>(255.0f * static_cast<float>(y) / static_cast<float>(h - 1));
      p[2] = static_cast<uint8_t>(200.0f * wave + 20);
      p[3] = withAlpha ? static_cast<uint8_t>(x * 255 / (w - 1)) : 255;
    }
  return img;
}

// Decodes every texel of an encoded image and returns the PSNR of RGB (and A if asked) in dB.
double psnr(TexFormat f, const std::vector<uint8_t>& blocks, const std::vector<uint8_t>& img,
            uint32_t w, uint32_t h, int channels) {
  const TexelBlock b = texelBlock(f);
  const uint32_t bx = (w + b.width - 1) / b.width;
  double se = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      float out[4];
      const size_t index = size_t{y / b.height} * bx + x / b.width;
      decodeBlockTexel(f, blocks.data() + index * b.bytes, x % b.width, y % b.height, out);
      for (int c = 0; c < channels; ++c) {
        const double d = out[c] * 255.0 - img[(size_t{y} * w + x) * 4 + static_cast<size_t>(c)];
        se += d * d;
      }
    }
  const double mse = se / (double(w) * h * channels);
  return mse == 0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

TEST(TexEncode, SizesAreWholeBlocks) {
  const auto img = testImage(20, 12, false);
  EXPECT_EQ(encodeImage(TexFormat::ETC2_RGB8, img, 20, 12).size(),
            imageBytes(TexFormat::ETC2_RGB8, 20, 12));
  EXPECT_EQ(encodeImage(TexFormat::ETC2_RGBA8, img, 20, 12).size(), 5u * 3 * 16);
  EXPECT_EQ(encodeImage(TexFormat::ASTC_8x8, img, 20, 12).size(), 3u * 2 * 16);
  EXPECT_EQ(encodeImage(TexFormat::ASTC_6x5, img, 20, 12).size(),
            imageBytes(TexFormat::ASTC_6x5, 20, 12));
  const auto one = testImage(2, 2, false);  // a level smaller than a block: one block
  EXPECT_EQ(encodeImage(TexFormat::ETC2_RGB8, one, 2, 2).size(), 8u);
}

TEST(TexEncode, RejectsWhatItCannotEncode) {
  const auto img = testImage(8, 8, false);
  EXPECT_THROW(encodeImage(TexFormat::RGBA8, img, 8, 8), std::invalid_argument);
  EXPECT_THROW(encodeImage(TexFormat::EAC_R11, img, 8, 8), std::invalid_argument);
  EXPECT_THROW(encodeImage(TexFormat::ETC2_RGB8, img, 8, 7), std::invalid_argument);
}

TEST(TexEncode, Etc2QualityAndFlatBlocks) {
  const uint32_t w = 64, h = 64;
  const auto img = testImage(w, h, false);
  const auto etc = encodeImage(TexFormat::ETC2_RGB8, img, w, h);
  // ETC has one chroma per sub-block (texels only move in luminance) and the blue wave changes
  // chroma inside blocks: about 29 dB here, where RGB565 would give about 41.
  EXPECT_GT(psnr(TexFormat::ETC2_RGB8, etc, img, w, h, 3), 28.0);
  // Flat colours land within the quantization of a 5-bit base plus the smallest modifier.
  for (uint8_t g : {0, 37, 128, 200, 255}) {
    std::vector<uint8_t> flat(16 * 4, g);
    for (size_t i = 3; i < flat.size(); i += 4) flat[i] = 255;
    const auto block = encodeEtc2RgbBlock(flat.data());
    EXPECT_NE(etcModeOf(block.data(), EtcVariant::Etc2), EtcMode::T);  // never overflows
    for (uint32_t i = 0; i < 16; ++i) {
      const Rgba8 c = decodeEtcColor(block.data(), i % 4, i / 4, EtcVariant::Etc2);
      EXPECT_LE(std::abs(int(c.r) - g), 3) << int(g);
    }
  }
}

TEST(TexEncode, Etc2AlphaUsesEac) {
  const uint32_t w = 32, h = 16;
  const auto img = testImage(w, h, true);
  const auto blocks = encodeImage(TexFormat::ETC2_RGBA8, img, w, h);
  EXPECT_GT(psnr(TexFormat::ETC2_RGBA8, blocks, img, w, h, 4), 28.0);
}

TEST(TexEncode, AstcParsesAsTheChosenModeAndIsClose) {
  const uint32_t w = 64, h = 64;
  const auto img = testImage(w, h, false);
  const auto a4 = encodeImage(TexFormat::ASTC_4x4, img, w, h);
  const AstcBlock parsed = parseAstcBlock(4, 4, a4.data());
  ASSERT_EQ(parsed.kind, AstcBlock::Kind::Normal);
  EXPECT_EQ(parsed.gridWidth, 4);
  EXPECT_EQ(parsed.gridHeight, 4);
  EXPECT_EQ(parsed.partitions, 1);
  EXPECT_EQ(parsed.cem[0], 8);  // LDR RGB direct
  EXPECT_GT(psnr(TexFormat::ASTC_4x4, a4, img, w, h, 3), 32.0);
  // 8x8 texels from 16 weights: blurrier, still recognisable.
  const auto a8 = encodeImage(TexFormat::ASTC_8x8, img, w, h);
  EXPECT_EQ(parseAstcBlock(8, 8, a8.data()).kind, AstcBlock::Kind::Normal);
  EXPECT_GT(psnr(TexFormat::ASTC_8x8, a8, img, w, h, 3), 24.0);
  // With alpha: RGBA direct endpoints and 2-bit weights.
  const auto alpha = testImage(w, h, true);
  const auto aa = encodeImage(TexFormat::ASTC_4x4, alpha, w, h);
  EXPECT_EQ(parseAstcBlock(4, 4, aa.data()).cem[0], 12);
  EXPECT_GT(psnr(TexFormat::ASTC_4x4, aa, alpha, w, h, 4), 28.0);
}

TEST(TexEncode, AstcEndpointsOfATwoColourBlockAreExact) {
  // Left half red, right half blue: the endpoints are the two colours, the weights 0 and 1.
  std::vector<uint8_t> t(16 * 4);
  for (uint32_t i = 0; i < 16; ++i) {
    const bool right = i % 4 >= 2;
    t[i * 4 + 0] = right ? 10 : 240, t[i * 4 + 1] = 30, t[i * 4 + 2] = right ? 220 : 5;
    t[i * 4 + 3] = 255;
  }
  const auto block = encodeAstcBlock(4, 4, t.data());
  for (uint32_t i = 0; i < 16; ++i) {
    float out[4];
    decodeAstcTexel(4, 4, block.data(), i % 4, i / 4, out);
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(out[c] * 255.0f, t[i * 4 + static_cast<uint32_t>(c)], 0.51f) << i;
  }
}

}  // namespace
}  // namespace tessera::gpu::tex
