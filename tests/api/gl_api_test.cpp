// GLES 2.0 programs (gl-check) run on Mesa's llvmpipe and on Tessera's libEGL/libGLESv2, each in
// its own process: the images must agree (99.5% of pixels within 2/255) and the logs of
// glGetError results and state queries must be identical.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/image.h"
#include "common/image_compare.h"

namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class GlApi : public ::testing::TestWithParam<std::string> {
 protected:
  // Runs gl-check on one stack; returns its image and log paths.
  std::pair<std::string, std::string> run(const std::string& who, const std::string& env) {
    const std::string scene = GetParam();
    const fs::path dir = fs::path(::testing::TempDir()) / "tessera-gl-api";
    fs::create_directories(dir);
    const std::string png = (dir / (scene + "-" + who + ".png")).string();
    const std::string log = (dir / (scene + "-" + who + ".txt")).string();
    const std::string cmd =
        env + " '" + std::string(GL_CHECK_PATH) + "' " + scene + " '" + png + "' '" + log + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return std::make_pair(png, log);
  }
  static std::string tessera(const std::string& mode) {
    return std::string("env TESSERA_MODE=") + mode + " LD_LIBRARY_PATH='" + TESSERA_GL_LIB_DIR +
           "'";
  }
};

TEST_P(GlApi, TesseraMatchesMesa) {
  // llvmpipe writes 16-bit colour formats by way of 8 bits, truncating (0.12 becomes 3/31, not
  // the round(0.12 x 31) = 4 of GLES 2.0 §2.1.2); softpipe rounds as the spec says.
  const std::string driver = GetParam() == "readback-formats" ? "softpipe" : "llvmpipe";
  const auto mesa = run(driver, "env LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=" + driver +
                                    " GALLIVM_PERF=no_aos_sampling");
  const auto ours = run("tessera", tessera("binning"));
  if (HasFailure()) return;
  EXPECT_EQ(readText(ours.second), readText(mesa.second))
      << "logs differ: " << ours.second << " vs " << mesa.second;
  // Mesa answers for a 4x pbuffer config but does not antialias its surfaceless pbuffers; the
  // multisample images are compared with llvmpipe's multisample framebuffer objects instead
  // (tests/integration/oracle_compare_test.cpp).
  if (GetParam() == "multisample") return;
  const tessera::CompareResult r =
      tessera::compareImages(tessera::readPng(ours.first), tessera::readPng(mesa.first), 2, 8);
  EXPECT_GE(r.fractionWithin, 0.995) << r.summary() << "\n  " << ours.first << " vs " << mesa.first;
}

// Binning, naive GMEM rendering and sysmem rendering give the same pixels and the same logs.
TEST_P(GlApi, EveryRenderingModeGivesTheSameResult) {
  const auto binning = run("binning", tessera("binning"));
  for (const char* mode : {"naive", "sysmem"}) {
    const auto other = run(mode, tessera(mode));
    if (HasFailure()) return;
    EXPECT_EQ(readText(other.second), readText(binning.second)) << mode;
    const tessera::Image a = tessera::readPng(other.first), b = tessera::readPng(binning.first);
    EXPECT_TRUE(a.rgba == b.rgba) << mode << ": " << other.first << " vs " << binning.first;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, GlApi,
                         ::testing::Values("triangles", "textured", "errors", "state",
                                           "framebuffer", "depth-texture", "copy-texture", "points",
                                           "lines", "polygon-offset", "readback-formats",
                                           "rendered-mipmaps", "shadow-samplers", "texture-3d",
                                           "compressed-filter", "float-textures", "occlusion-query",
                                           "timer-query", "multisample"));

}  // namespace
