// Integer texel formats (OpenGL ES 3.0 Table 3.13): raw channel values as int32/uint32 bit
// patterns, sign extension, missing channels, and the NEAREST-only completeness rule of §3.8.13.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

#include "gpu/tex/texel_format.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;
using Bits = std::vector<uint32_t>;

Bits decode(TexFormat f, std::vector<uint8_t> bytes) {
  float out[4];
  decodeTexel(f, bytes.data(), out);
  return {std::bit_cast<uint32_t>(out[0]), std::bit_cast<uint32_t>(out[1]),
          std::bit_cast<uint32_t>(out[2]), std::bit_cast<uint32_t>(out[3])};
}

TEST(TexInteger, BytesPerTexel) {
  EXPECT_EQ(bytesPerTexel(TexFormat::R8I), 1u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RG8UI), 2u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA8I), 4u);
  EXPECT_EQ(bytesPerTexel(TexFormat::R16UI), 2u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA16I), 8u);
  EXPECT_EQ(bytesPerTexel(TexFormat::R32I), 4u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA32UI), 16u);
  EXPECT_TRUE(isIntegerFormat(TexFormat::R8I));
  EXPECT_TRUE(isIntegerFormat(TexFormat::RGBA32UI));
  EXPECT_FALSE(isIntegerFormat(TexFormat::D24S8));
}

TEST(TexInteger, SignedChannelsAreSignExtended) {
  EXPECT_EQ(decode(TexFormat::R8I, {0x80}), (Bits{0xffffff80u, 0, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RG8I, {0x7f, 0xff}), (Bits{127, 0xffffffffu, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGBA8I, {1, 2, 0xfe, 0x81}), (Bits{1, 2, 0xfffffffeu, 0xffffff81u}));
  EXPECT_EQ(decode(TexFormat::R16I, {0x00, 0x80}), (Bits{0xffff8000u, 0, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGBA16I, {1, 0, 0xff, 0xff, 0x34, 0x12, 0, 0x80}),
            (Bits{1, 0xffffffffu, 0x1234, 0xffff8000u}));
  EXPECT_EQ(decode(TexFormat::R32I, {0x78, 0x56, 0x34, 0x92}), (Bits{0x92345678u, 0, 0, 1}));
}

TEST(TexInteger, UnsignedChannelsAreZeroExtended) {
  EXPECT_EQ(decode(TexFormat::R8UI, {0x80}), (Bits{0x80, 0, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RG8UI, {0xff, 7}), (Bits{0xff, 7, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGBA8UI, {1, 2, 3, 0xff}), (Bits{1, 2, 3, 0xff}));
  EXPECT_EQ(decode(TexFormat::R16UI, {0x00, 0x80}), (Bits{0x8000, 0, 0, 1}));
  EXPECT_EQ(decode(TexFormat::RGBA16UI, {1, 0, 0xff, 0xff, 0, 0, 2, 0}), (Bits{1, 0xffff, 0, 2}));
  EXPECT_EQ(decode(TexFormat::R32UI, {0xff, 0xff, 0xff, 0xff}), (Bits{0xffffffffu, 0, 0, 1}));
  std::vector<uint8_t> b(16);
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t v = 0x80000000u + c;
    std::memcpy(&b[4 * c], &v, 4);
  }
  EXPECT_EQ(decode(TexFormat::RGBA32UI, b),
            (Bits{0x80000000u, 0x80000001u, 0x80000002u, 0x80000003u}));
}

// Texels go through the unit's nearest path unchanged (no float arithmetic on the bits, even
// when they are NaN patterns).
TEST(TexInteger, NearestSamplingKeepsTheBits) {
  TexFixture fx;
  std::vector<uint8_t> bytes(8);
  const uint32_t a = 0x7fc00001u, b = 0xffffffffu;
  std::memcpy(&bytes[0], &a, 4);
  std::memcpy(&bytes[4], &b, 4);
  TextureDescriptor d = fx.make(TexFormat::R32UI, 2, 1, 1, bytes);
  d.magFilter = d.minFilter = Filter::Nearest;
  float out[4];
  fx.unit.sampleLod(d, 0.25f, 0.5f, 0, out);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), a);
  fx.unit.sampleLodVec(d, {0.75f, 0.5f, 0, 0}, true, 0, out);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), b);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[3]), 1u);
  fx.unit.fetch(d, 1, 0, 0, out);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), b);
}

// OpenGL ES 3.0 §3.8.13: LINEAR magnification or minification, or a LINEAR mip filter, makes an
// integer texture incomplete: it reads (0, 0, 0, 1.0f) without a fetch, the float one as Mesa
// returns it (an integer sampler sees 0x3f800000).
TEST(TexInteger, LinearFilteringIsIncomplete) {
  TexFixture fx;
  TextureDescriptor d = fx.make(TexFormat::RGBA8UI, 1, 1, 1, {9, 9, 9, 9});
  d.magFilter = d.minFilter = Filter::Nearest;
  EXPECT_TRUE(isComplete(d));
  d.mipFilter = MipFilter::Nearest;
  EXPECT_TRUE(isComplete(d));
  for (int c = 0; c < 3; ++c) {
    TextureDescriptor bad = d;
    if (c == 0) bad.magFilter = Filter::Linear;
    if (c == 1) bad.minFilter = Filter::Linear;
    if (c == 2) bad.mipFilter = MipFilter::Linear;
    EXPECT_FALSE(isComplete(bad)) << c;
    float out[4];
    fx.unit.sampleLod(bad, 0.5f, 0.5f, 0, out);
    EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0u) << c;
    EXPECT_EQ(std::bit_cast<uint32_t>(out[3]), 0x3f800000u) << c;
  }
  EXPECT_EQ(fx.unit.stats().texelFetches, 0u);
}

}  // namespace
}  // namespace tessera::gpu::tex
