// The compressed-format decoders against the system GL (Mesa's llvmpipe) as reference: blocks of
// every format are decoded by tex-decode-oracle in a separate process and by Tessera's texture
// unit (texelFetch-style fetches, so block addressing is tested too), texel by texel.
// Tolerances: ETC1/ETC2 colour and alpha are 8-bit values in both decoders and must be equal.
// EAC 11-bit values reach Mesa's sampler as 16-bit unorm/snorm (the 11 bits replicated into 16),
// Tessera divides by 2047 (1023): the two differ by less than 4e-5, far below one 11-bit step
// (4.9e-4 unsigned, 9.8e-4 signed), so any wrong 11-bit value still fails. ASTC reaches Mesa as
// RGBA8 holding the top 8 bits of the UNORM16 interpolation result (c >> 8, not round(c / 257)):
// Tessera's UNORM16 value is compared through the same >> 8, bit-exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/compressed/astc.h"
#include "gpu/tex/texture_unit.h"
#include "texdecode/block_gen.h"
#include "tools/process_temp_dir.h"

namespace tessera::texdecode {
namespace {

namespace fs = std::filesystem;
using gpu::tex::TexFormat;

struct FormatCase {
  const char* name;
  TexFormat format;
  uint32_t glEnum;
};
constexpr FormatCase kCases[] = {
    {"etc1", TexFormat::ETC1_RGB8, 0x8D64},
    {"etc2_rgb8", TexFormat::ETC2_RGB8, 0x9274},
    {"etc2_rgba8", TexFormat::ETC2_RGBA8, 0x9278},
    {"etc2_rgb8a1", TexFormat::ETC2_RGB8A1, 0x9276},
    {"eac_r11", TexFormat::EAC_R11, 0x9270},
    {"eac_r11_snorm", TexFormat::EAC_R11_SNORM, 0x9271},
    {"eac_rg11", TexFormat::EAC_RG11, 0x9272},
    {"eac_rg11_snorm", TexFormat::EAC_RG11_SNORM, 0x9273},
    {"astc_4x4", TexFormat::ASTC_4x4, 0x93B0},
    {"astc_5x4", TexFormat::ASTC_5x4, 0x93B1},
    {"astc_5x5", TexFormat::ASTC_5x5, 0x93B2},
    {"astc_6x5", TexFormat::ASTC_6x5, 0x93B3},
    {"astc_6x6", TexFormat::ASTC_6x6, 0x93B4},
    {"astc_8x5", TexFormat::ASTC_8x5, 0x93B5},
    {"astc_8x6", TexFormat::ASTC_8x6, 0x93B6},
    {"astc_8x8", TexFormat::ASTC_8x8, 0x93B7},
    {"astc_10x5", TexFormat::ASTC_10x5, 0x93B8},
    {"astc_10x6", TexFormat::ASTC_10x6, 0x93B9},
    {"astc_10x8", TexFormat::ASTC_10x8, 0x93BA},
    {"astc_10x10", TexFormat::ASTC_10x10, 0x93BB},
    {"astc_12x10", TexFormat::ASTC_12x10, 0x93BC},
    {"astc_12x12", TexFormat::ASTC_12x12, 0x93BD},
};
constexpr uint32_t kBlocksX = 16, kBlocksY = 16;

// The blocks of one test image, row-major.
std::vector<uint8_t> makeBlocks(const FormatCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  const gpu::tex::TexelBlock tb = gpu::tex::texelBlock(c.format);
  std::vector<uint8_t> out;
  auto append = [&](const auto& block) { out.insert(out.end(), block.begin(), block.end()); };
  const uint32_t n = kBlocksX * kBlocksY;
  if (gpu::tex::isAstcFormat(c.format)) {
    for (uint32_t i = 0; i < n; ++i) {
      if (i % 32 == 31) {
        append(makeAstcVoidExtent(static_cast<uint16_t>(rng()), static_cast<uint16_t>(rng()),
                                  static_cast<uint16_t>(rng()), static_cast<uint16_t>(rng())));
      } else if (i % 32 == 30) {
        Block16 random{};  // mostly error blocks: the error colour must agree as well
        for (auto& b : random) b = static_cast<uint8_t>(rng());
        append(random);
      } else {
        append(makeAstcBlock(rng, randomAstcParams(rng, tb.width, tb.height)));
      }
    }
    return out;
  }
  const bool eacOnly = c.format == TexFormat::EAC_R11 || c.format == TexFormat::EAC_R11_SNORM ||
                       c.format == TexFormat::EAC_RG11 || c.format == TexFormat::EAC_RG11_SNORM;
  const bool etc1 = c.format == TexFormat::ETC1_RGB8;
  for (uint32_t i = 0; i < n; ++i) {
    // Every EAC table with every 4th block's multiplier 0; colour modes in turn.
    const int table = static_cast<int>(i % 16), multiplier = i % 4 == 0 ? 0 : -1;
    if (eacOnly || c.format == TexFormat::ETC2_RGBA8) append(makeEacBlock(rng, table, multiplier));
    if (c.format == TexFormat::EAC_RG11 || c.format == TexFormat::EAC_RG11_SNORM)
      append(makeEacBlock(rng, 15 - table, multiplier));
    if (eacOnly) continue;
    // ETC1 has no T, H or planar mode: differential colours must stay in range.
    const EtcBlockKind kinds[] = {
        EtcBlockKind::Random, EtcBlockKind::Individual, EtcBlockKind::Differential,
        EtcBlockKind::T,      EtcBlockKind::H,          EtcBlockKind::Planar};
    EtcBlockKind kind = kinds[(i / 2) % 6];
    if (etc1 && kind != EtcBlockKind::Individual) kind = EtcBlockKind::Differential;
    // Punch-through: bit 33 is the opaque bit; half the blocks have it clear.
    append(makeEtcBlock(rng, kind, c.format != TexFormat::ETC2_RGB8A1 || i % 2 == 0));
  }
  return out;
}

class TexDecode : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string oracle = TEX_DECODE_ORACLE;
    if (oracle.empty()) return;
    static const test::ProcessTempDir dir("tessera-texdecode");
    dir_ = dir.path();
    std::ofstream jobs(dir_ / "jobs.txt");
    for (const FormatCase& c : kCases) {
      const std::vector<uint8_t> blocks = makeBlocks(c, c.glEnum);
      const gpu::tex::TexelBlock tb = gpu::tex::texelBlock(c.format);
      std::ofstream(dir_ / (std::string(c.name) + ".bin"), std::ios::binary)
          .write(reinterpret_cast<const char*>(blocks.data()),
                 static_cast<std::streamsize>(blocks.size()));
      jobs << std::hex << c.glEnum << std::dec << " " << kBlocksX * tb.width << " "
           << kBlocksY * tb.height << " " << (dir_ / (std::string(c.name) + ".bin")).string() << " "
           << (dir_ / (std::string(c.name) + ".out")).string() << "\n";
    }
    jobs.close();
    const std::string cmd = "env LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe '" + oracle +
                            "' '" + (dir_ / "jobs.txt").string() + "'";
    oracleStatus_ = std::system(cmd.c_str());
  }

  void SetUp() override {
    if (std::string(TEX_DECODE_ORACLE).empty())
      GTEST_SKIP() << "no system EGL/GLESv2 (pkg-config egl glesv2) to build tex-decode-oracle";
    ASSERT_EQ(oracleStatus_, 0) << "tex-decode-oracle failed";
  }

  // Compares every texel of one format's image (stopping after a few mismatches).
  void compare(const FormatCase& c) {
    const std::vector<uint8_t> blocks = makeBlocks(c, c.glEnum);
    const gpu::tex::TexelBlock tb = gpu::tex::texelBlock(c.format);
    const uint32_t w = kBlocksX * tb.width, h = kBlocksY * tb.height;
    std::ifstream in(dir_ / (std::string(c.name) + ".out"), std::ios::binary);
    std::vector<float> ref(size_t{w} * h * 4);
    in.read(reinterpret_cast<char*>(ref.data()), static_cast<std::streamsize>(ref.size() * 4));
    ASSERT_TRUE(in) << "no oracle output for " << c.name;
    gpu::GpuMemory memory;
    gpu::tex::TextureUnit unit(memory);
    gpu::tex::TextureDescriptor d;
    d.format = c.format, d.width = w, d.height = h;
    d.magFilter = d.minFilter = gpu::tex::Filter::Nearest;
    d.base = memory.allocate(blocks.size(), "texture");
    memory.write(gpu::BusClient::Host, d.base, blocks.data(), blocks.size());
    const bool eac = c.format >= TexFormat::EAC_R11 && c.format <= TexFormat::EAC_RG11_SNORM;
    const bool astc = gpu::tex::isAstcFormat(c.format);
    int mismatches = 0;
    for (uint32_t y = 0; y < h && mismatches < 8; ++y) {
      for (uint32_t x = 0; x < w && mismatches < 8; ++x) {
        float ours[4];
        unit.fetch(d, static_cast<int32_t>(x), static_cast<int32_t>(y), 0, ours);
        const float* theirs = &ref[(size_t{y} * w + x) * 4];
        if (astc) {
          // HDR content is an error in the LDR profile (magenta); Mesa decodes it anyway.
          const size_t block = (y / tb.height) * kBlocksX + x / tb.width;
          const gpu::tex::AstcBlock parsed =
              gpu::tex::parseAstcBlock(tb.width, tb.height, blocks.data() + block * 16);
          if (parsed.hdr) {
            EXPECT_TRUE(ours[0] == 1.0f && ours[1] == 0.0f && ours[2] == 1.0f && ours[3] == 1.0f);
            ++hdrTexels_;
            continue;
          }
          if (parsed.kind == gpu::tex::AstcBlock::Kind::Error) ++errorTexels_;
        }
        for (int ch = 0; ch < 4; ++ch) {
          const bool ok =
              eac    ? std::fabs(ours[ch] - theirs[ch]) <= 4e-5f
              : astc ? (std::lround(ours[ch] * 65535.0f) >> 8) == std::lround(theirs[ch] * 255.0f)
                     : std::lround(ours[ch] * 255.0f) == std::lround(theirs[ch] * 255.0f);
          if (!ok) {
            ADD_FAILURE() << c.name << " texel (" << x << ", " << y << ") channel " << ch
                          << ": Tessera " << ours[ch] << " (" << ours[ch] * 255.0f
                          << "), reference " << theirs[ch] << " (" << theirs[ch] * 255.0f << ")";
            ++mismatches;
            break;
          }
        }
      }
    }
    if (mismatches == 0) {
      EXPECT_EQ(unit.stats().texelFetches, uint64_t{w} * h);
    }
  }

  static inline fs::path dir_;
  static inline uint64_t hdrTexels_ = 0, errorTexels_ = 0;
  static inline int oracleStatus_ = -1;
};

TEST_F(TexDecode, Etc1MatchesReference) {
  compare(kCases[0]);
}
TEST_F(TexDecode, Etc2Rgb8MatchesReference) {
  compare(kCases[1]);
}
TEST_F(TexDecode, Etc2Rgba8MatchesReference) {
  compare(kCases[2]);
}
TEST_F(TexDecode, Etc2PunchThroughMatchesReference) {
  compare(kCases[3]);
}
TEST_F(TexDecode, EacR11MatchesReference) {
  compare(kCases[4]);
}
TEST_F(TexDecode, EacR11SnormMatchesReference) {
  compare(kCases[5]);
}
TEST_F(TexDecode, EacRg11MatchesReference) {
  compare(kCases[6]);
}
TEST_F(TexDecode, EacRg11SnormMatchesReference) {
  compare(kCases[7]);
}
TEST_F(TexDecode, AstcEveryFootprintMatchesReference) {
  for (size_t i = 8; i < std::size(kCases); ++i) compare(kCases[i]);
  // The random blocks hit both kinds of error block.
  EXPECT_GT(errorTexels_, 0u);
  EXPECT_GT(hdrTexels_, 0u);
}

// The generator's blocks are what they claim: valid ASTC blocks parse as normal blocks.
TEST(AstcBlockGen, GeneratedBlocksAreValid) {
  std::mt19937 rng(7);
  for (const FormatCase& c : kCases) {
    if (!gpu::tex::isAstcFormat(c.format)) continue;
    const gpu::tex::TexelBlock tb = gpu::tex::texelBlock(c.format);
    for (int i = 0; i < 200; ++i) {
      const AstcParams p = randomAstcParams(rng, tb.width, tb.height);
      const Block16 b = makeAstcBlock(rng, p);
      const gpu::tex::AstcBlock parsed = gpu::tex::parseAstcBlock(tb.width, tb.height, b.data());
      ASSERT_EQ(parsed.kind, gpu::tex::AstcBlock::Kind::Normal) << c.name << " block " << i;
      EXPECT_EQ(parsed.partitions, p.partitions);
      EXPECT_EQ(parsed.dualPlane, p.dualPlane);
      EXPECT_EQ(parsed.gridWidth, p.gridW);
      EXPECT_EQ(parsed.gridHeight, p.gridH);
      for (uint32_t k = 0; k < p.partitions; ++k) EXPECT_EQ(parsed.cem[k], p.cem[k]);
    }
  }
}

}  // namespace
}  // namespace tessera::texdecode
