// Compressed formats in the texture unit: the block table and mip layout, texel addressing in
// rows of blocks, filtering identical to the same texels stored uncompressed, the bytes a fetch
// charges (the whole block), and decoder corner cases (punch-through, EAC, ASTC errors).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu/pipeline/tex_const.h"
#include "gpu/tex/compressed/astc.h"
#include "gpu/tex/compressed/etc.h"
#include "gpu/tex/texel_format.h"
#include "tex/tex_fixture.h"

namespace tessera::gpu::tex {
namespace {

using testing::TexFixture;

TEST(CompressedLayout, BlocksAndImageBytes) {
  EXPECT_EQ(texelBlock(TexFormat::ETC2_RGB8).bytes, 8u);
  EXPECT_EQ(texelBlock(TexFormat::ETC2_RGBA8).bytes, 16u);
  EXPECT_EQ(texelBlock(TexFormat::ASTC_10x6).width, 10u);
  EXPECT_EQ(texelBlock(TexFormat::ASTC_10x6).height, 6u);
  EXPECT_EQ(bytesPerTexel(TexFormat::ETC1_RGB8), 0u);
  EXPECT_EQ(bytesPerTexel(TexFormat::RGBA8), 4u);
  EXPECT_EQ(imageBytes(TexFormat::ETC1_RGB8, 5, 5), 2u * 2u * 8u);
  EXPECT_EQ(imageBytes(TexFormat::ASTC_12x12, 13, 13), 2u * 2u * 16u);
  EXPECT_EQ(imageBytes(TexFormat::ASTC_12x12, 1, 1), 16u);
  EXPECT_EQ(imageBytes(TexFormat::RGB8, 3, 2), 18u);
  // 8x8 ETC2 with three levels: 2x2 blocks, then 1x1 for the 4x4 and 2x2 levels.
  TextureDescriptor d;
  d.format = TexFormat::ETC2_RGB8, d.width = 8, d.height = 8, d.levels = 3;
  EXPECT_EQ(levelOffset(d, 1), 32u);
  EXPECT_EQ(levelOffset(d, 2), 40u);
  EXPECT_EQ(totalBytes(d), 48u);
  d.cube = true;
  EXPECT_EQ(faceOffset(d, 1, 2), 6u * 32u + 2u * 8u);
}

TEST(CompressedLayout, TexConstCarriesTheFormatCode) {
  TextureDescriptor d;
  d.format = TexFormat::ASTC_12x12, d.width = 24, d.height = 24;
  const auto words = encodeTexConst(d);
  TextureDescriptor back;
  ASSERT_TRUE(decodeTexConst(words.data(), back));
  EXPECT_EQ(back.format, TexFormat::ASTC_12x12);
  auto bad = words;
  bad[3] = (bad[3] & ~0xffu) | kTexFormatCount;
  EXPECT_FALSE(decodeTexConst(bad.data(), back));
  // MAX_ANISO round-trips; 0 (descriptors written before it existed) reads as 1.
  for (uint8_t aniso : {1, 4, 16}) {
    d.maxAnisotropy = aniso;
    ASSERT_TRUE(decodeTexConst(encodeTexConst(d).data(), back));
    EXPECT_EQ(back.maxAnisotropy, aniso);
  }
  auto zero = encodeTexConst(d);
  zero[5] &= ~(0x1fu << 4);
  ASSERT_TRUE(decodeTexConst(zero.data(), back));
  EXPECT_EQ(back.maxAnisotropy, 1);
}

// A random ETC2 texture and the same texels decoded into RGBA8 sample identically: the filter
// path is the uncompressed one with a block decode per texel.
TEST(CompressedSampling, FiltersLikeTheDecodedTexels) {
  std::mt19937 rng(3);
  TexFixture fx;
  const uint32_t w = 16, h = 12;
  TextureDescriptor dc;
  dc.format = TexFormat::ETC2_RGBA8, dc.width = w, dc.height = h, dc.levels = 3;
  std::vector<uint8_t> blocks(totalBytes(dc));
  for (auto& b : blocks) b = static_cast<uint8_t>(rng());
  dc = fx.make(TexFormat::ETC2_RGBA8, w, h, 3, blocks);
  // The reference: every level decoded texel by texel into RGBA8.
  std::vector<uint8_t> rgba;
  for (uint32_t level = 0; level < 3; ++level) {
    const uint32_t lw = levelExtent(w, level), lh = levelExtent(h, level);
    const uint8_t* base = blocks.data() + levelOffset(dc, level);
    for (uint32_t y = 0; y < lh; ++y) {
      for (uint32_t x = 0; x < lw; ++x) {
        const uint8_t* blk = base + ((y / 4) * ((lw + 3) / 4) + x / 4) * 16;
        Rgba8 c = decodeEtcColor(blk + 8, x % 4, y % 4, EtcVariant::Etc2);
        c.a = decodeEacAlpha(blk, x % 4, y % 4);
        rgba.insert(rgba.end(), {c.r, c.g, c.b, c.a});
      }
    }
  }
  TextureDescriptor du = fx.make(TexFormat::RGBA8, w, h, 3, rgba);
  for (Wrap wrap : {Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat}) {
    for (MipFilter mip : {MipFilter::None, MipFilter::Nearest, MipFilter::Linear}) {
      for (Filter filter : {Filter::Nearest, Filter::Linear}) {
        for (TextureDescriptor* d : {&dc, &du}) {
          d->wrapS = d->wrapT = wrap;
          d->mipFilter = mip;
          d->minFilter = d->magFilter = filter;
        }
        std::uniform_real_distribution<float> coord(-1.5f, 2.5f), lod(-1.0f, 3.0f);
        for (int i = 0; i < 50; ++i) {
          const float s = coord(rng), t = coord(rng), l = lod(rng);
          EXPECT_EQ(fx.lod(dc, s, t, l), fx.lod(du, s, t, l)) << s << " " << t << " " << l;
        }
      }
    }
  }
}

TEST(CompressedSampling, ChargesTheBlockOfEveryTexelFetch) {
  TexFixture fx;
  TextureDescriptor etc = fx.make(TexFormat::ETC2_RGB8, 8, 8, 1, std::vector<uint8_t>(32, 0));
  etc.magFilter = etc.minFilter = Filter::Nearest;
  fx.lod(etc, 0.5f, 0.5f, 0.0f);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 8u);
  fx.unit.resetStats();
  etc.magFilter = Filter::Linear;
  fx.lod(etc, 0.5f, 0.5f, 0.0f);  // four texels, straddling all four blocks
  EXPECT_EQ(fx.unit.stats().texelFetches, 4u);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 4u * 8u);
  fx.unit.resetStats();
  TextureDescriptor astc = fx.make(TexFormat::ASTC_8x8, 8, 8, 1, std::vector<uint8_t>(16, 0));
  float out[4];
  fx.unit.fetch(astc, 3, 5, 0, out);
  EXPECT_EQ(fx.unit.stats().bytesFetched, 16u);
  // The all-zero block has a reserved block mode: the error colour.
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 1.0f);
}

TEST(CompressedSampling, AddressesRowsOfBlocks) {
  // 12x8 ASTC 4x4: 3x2 blocks of void-extent colours; texel (x, y) is block (x/4, y/4).
  TexFixture fx;
  std::vector<uint8_t> blocks;
  for (uint16_t b = 0; b < 6; ++b) {
    std::vector<uint8_t> blk = {0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const uint16_t c[4] = {static_cast<uint16_t>(b * 257 * 40), 0, 0, 0xffff};
    for (uint16_t v : c)
      blk.insert(blk.end(), {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)});
    blocks.insert(blocks.end(), blk.begin(), blk.end());
  }
  TextureDescriptor d = fx.make(TexFormat::ASTC_4x4, 12, 8, 1, blocks);
  for (int32_t y = 0; y < 8; ++y) {
    for (int32_t x = 0; x < 12; ++x) {
      float out[4];
      fx.unit.fetch(d, x, y, 0, out);
      EXPECT_FLOAT_EQ(out[0] * 255.0f, static_cast<float>(((y / 4) * 3 + x / 4) * 40)) << x << y;
    }
  }
}

TEST(EtcDecode, PunchThroughAndModes) {
  // Differential (bit 33 = opaque bit clear): index 10 is transparent, 00 adds nothing.
  // Base 16 (5 bits) in every channel, no delta, table 0; pixel (0,0) index 10, (0,1) 00.
  const uint8_t blk[8] = {0x80, 0x80, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00};
  EXPECT_EQ(etcModeOf(blk, EtcVariant::PunchThrough), EtcMode::Differential);
  EXPECT_EQ(etcModeOf(blk, EtcVariant::Etc2), EtcMode::Individual);
  const Rgba8 t = decodeEtcColor(blk, 0, 0, EtcVariant::PunchThrough);
  EXPECT_EQ(t.a, 0);
  EXPECT_EQ(t.r, 0);
  const Rgba8 o = decodeEtcColor(blk, 0, 1, EtcVariant::PunchThrough);
  EXPECT_EQ(o.a, 255);
  EXPECT_EQ(o.r, 16 * 8 + 16 / 4);  // 5-bit 16 expanded, modifier 0
  // Red 31 + delta +1 overflows: T mode in ETC2, still differential in ETC1.
  const uint8_t tMode[8] = {0xf9, 0x00, 0x00, 0x02, 0, 0, 0, 0};
  EXPECT_EQ(etcModeOf(tMode, EtcVariant::Etc2), EtcMode::T);
  EXPECT_EQ(etcModeOf(tMode, EtcVariant::Etc1), EtcMode::Differential);
}

TEST(EtcDecode, EacElevenBit) {
  // Base 0x80 signed is -128, read as -127; multiplier 0 adds the modifier unscaled.
  const uint8_t s[8] = {0x80, 0x00, 0, 0, 0, 0, 0, 0};  // table 0, index 0: modifier -3
  EXPECT_EQ(decodeEac11(s, 0, 0, true), -1016 - 3);
  EXPECT_EQ(decodeEac11(s, 0, 0, false), 128 * 8 + 4 - 3);
  // Base 255, multiplier 15, index 7 of table 0 (+14): clamps to 2047.
  const uint8_t u[8] = {0xff, 0xf0, 0, 0, 0, 0, 0, 0x07};
  EXPECT_EQ(decodeEac11(u, 3, 3, false), 2047);
  EXPECT_EQ(decodeEacAlpha(u, 3, 3), 255);
  EXPECT_EQ(decodeEacAlpha(u, 0, 0), 255 - 3 * 15);
}

TEST(AstcDecode, ErrorsAndVoidExtent) {
  uint8_t blk[16] = {0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8};
  AstcBlock b = parseAstcBlock(6, 6, blk);
  EXPECT_EQ(b.kind, AstcBlock::Kind::VoidExtent);
  EXPECT_EQ(astcTexel(b, 6, 6, 5, 5)[1], 0x0403);
  blk[1] = 0xff;  // bit 9: an HDR void extent is an error in the LDR profile
  b = parseAstcBlock(6, 6, blk);
  EXPECT_EQ(b.kind, AstcBlock::Kind::Error);
  EXPECT_TRUE(b.hdr);
  // A 12-wide weight grid (block mode 0x00C: W = 12) does not fit a 6x6 footprint.
  uint8_t wide[16] = {0x0c, 0x00};
  EXPECT_EQ(parseAstcBlock(6, 6, wide).kind, AstcBlock::Kind::Error);
  // 12x5 weights of 24 levels with H set (mode 0x26C) need 276 bits: more than 96.
  const uint8_t heavy[16] = {0x6c, 0x02};
  EXPECT_EQ(parseAstcBlock(12, 12, heavy).kind, AstcBlock::Kind::Error);
}

TEST(AstcDecode, PartitionHashUsesEveryPartition) {
  int seen[4] = {};
  for (uint32_t seed = 0; seed < 64; ++seed)
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) ++seen[astcPartition(seed, x, y, 0, 4, false)];
  for (int p = 0; p < 4; ++p) EXPECT_GT(seen[p], 0) << p;
  EXPECT_EQ(astcPartition(5, 3, 3, 0, 1, false), 0u);
}

}  // namespace
}  // namespace tessera::gpu::tex
