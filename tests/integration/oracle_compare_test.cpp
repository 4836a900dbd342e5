// Tessera against Mesa's llvmpipe: the same scene, matrices and shading rendered by the
// tessera-oracle program in its own process. At least 99.5% of pixels must be within 2/255
// per channel; on failure the worst pixels are printed and both images kept for inspection.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/image.h"
#include "common/image_compare.h"
#include "gpu/preset/preset.h"
#include "integration/scenes.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

constexpr uint32_t kW = 320, kH = 240;
constexpr double kRequired = 0.995;

class OracleCompare : public ::testing::TestWithParam<std::string> {};

// The scene on llvmpipe and on Tessera (binning, a630), `samples` per pixel, compared.
void compareWithLlvmpipe(const std::string& name, uint32_t samples) {
  const std::string label = test::sceneLabel(name) + (samples > 1 ? "-msaa" : "");
  const auto dir = std::filesystem::path(::testing::TempDir()) / "tessera-oracle";
  std::filesystem::create_directories(dir);
  const std::string oraclePng = (dir / (label + "-llvmpipe.png")).string();
  const std::string cmd = std::string(TESSERA_ORACLE_PATH) + " --scene '" + name +
                          "' --exact-sampling --samples " + std::to_string(samples) + " --size " +
                          std::to_string(kW) + "x" + std::to_string(kH) + " --out '" + oraclePng +
                          "' > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const Image reference = readPng(oraclePng);

  const scene::Scene s = scene::sceneByName(name, kW, kH);
  tools::FrameOptions o;
  o.mode = driver::RenderMode::Binning;
  o.samples = samples;
  const auto frame = tools::renderFrame(s, gpu::findPreset("adreno-a630"), o);
  const CompareResult r = compareImages(frame.image, reference, 2, 10);
  if (r.fractionWithin < kRequired) {
    const std::string ours = (dir / (label + "-tessera.png")).string();
    writePng(frame.image, ours);
    writePng(diffImage(frame.image, reference), (dir / (label + "-diff.png")).string());
    ADD_FAILURE() << label << ": " << r.summary() << "\n  images: " << ours << " vs " << oraclePng;
  }
  ::testing::Test::RecordProperty("fraction_within", std::to_string(r.fractionWithin));
}

TEST_P(OracleCompare, MatchesLlvmpipe) {
  compareWithLlvmpipe(GetParam(), 1);
}

// 4x multisampling: the same sample positions, per-sample coverage and tests, and resolve.
TEST(OracleCompareMsaa, MatchesLlvmpipeAt4x) {
  for (const char* name : {"default", "blend", "stencil"}) {
    SCOPED_TRACE(name);
    compareWithLlvmpipe(name, 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, OracleCompare, ::testing::ValuesIn(test::imageTestScenes()),
                         [](const auto& p) { return test::sceneLabel(p.param); });

}  // namespace
}  // namespace tessera
