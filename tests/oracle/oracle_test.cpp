// Runs the built tessera-oracle as a separate process, as the image tests will.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include "common/image.h"

namespace {

namespace fs = std::filesystem;

struct Result {
  int exitCode = -1;
  std::string output;  // stdout and stderr
};

Result runOracle(const std::string& args) {
  const std::string cmd = std::string("'") + TESSERA_ORACLE_PATH + "' " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 512> buf;
  while (size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class OracleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (std::string("tessera-oracle-test-") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OracleTest, RendersTheDefaultSceneWithLlvmpipe) {
  const std::string out = (dir_ / "default.png").string();
  const Result r = runOracle("--scene default --size 128x96 --threads 1 --out '" + out + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("frame_ms="), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("llvmpipe"), std::string::npos) << r.output;
  ASSERT_TRUE(fs::exists(out));
  const tessera::Image img = tessera::readPng(out);
  EXPECT_EQ(img.width, 128u);
  EXPECT_EQ(img.height, 96u);
  std::set<uint32_t> colours;
  for (uint32_t y = 0; y < img.height; ++y) {
    for (uint32_t x = 0; x < img.width; ++x) {
      const uint8_t* p = img.pixel(x, y);
      colours.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
    }
  }
  EXPECT_GT(colours.size(), 100u) << "image is (nearly) one flat colour";
  // Row 0 is the top: the sky (clear colour) is up there, the ground at the bottom.
  const uint8_t* top = img.pixel(64, 0);
  EXPECT_EQ(top[2], 184) << "expected the clear colour's blue (0.72) at the top centre";
}

// --exact-sampling must reach Mesa: the checker ground, filtered in float instead of with 8-bit
// weights, comes out different in some pixels and identical in the flat sky.
TEST_F(OracleTest, ExactSamplingChangesOnlyFilteredPixels) {
  const std::string fast = (dir_ / "fast.png").string(), exact = (dir_ / "exact.png").string();
  ASSERT_EQ(runOracle("--scene default --size 160x120 --out '" + fast + "'").exitCode, 0);
  const Result r =
      runOracle("--scene default --size 160x120 --exact-sampling --out '" + exact + "'");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const tessera::Image a = tessera::readPng(fast), b = tessera::readPng(exact);
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  EXPECT_NE(a.rgba, b.rgba);
  EXPECT_EQ(std::memcmp(a.pixel(80, 0), b.pixel(80, 0), 4), 0);
}

TEST_F(OracleTest, BadModelPathFailsNamingTheFile) {
  const std::string model = (dir_ / "no-such-model.obj").string();
  const std::string out = (dir_ / "x.png").string();
  const Result r = runOracle("--scene '" + model + "' --size 32x32 --out '" + out + "'");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find(model), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(OracleTest, BadArgumentsFailWithUsage) {
  for (const char* args :
       {"", "--scene default --size 12 --out x.png", "--scene default --size 0x5 --out x.png",
        "--scene default --size 8x8", "--bogus 1"}) {
    const Result r = runOracle(args);
    EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("usage:"), std::string::npos) << args;
  }
}

}  // namespace
