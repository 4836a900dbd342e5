// Exact invariants of tiling (DESIGN.md "Correctness oracles"): for every preset and scene, the
// GMEM render (naive and binning) is bit-identical to the sysmem render, and binning draws the
// same image as naive tiling.
#include <gtest/gtest.h>

#include <cstring>

#include "gpu/preset/preset.h"
#include "integration/scenes.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using driver::RenderMode;

struct Case {
  std::string preset, scene;
};

class TilingInvariants : public ::testing::TestWithParam<Case> {};

TEST_P(TilingInvariants, TiledEqualsSysmemAndBinningEqualsNaive) {
  const auto& c = GetParam();
  const gpu::Preset& preset = gpu::findPreset(c.preset);
  // 200×150: several bins on every tiling preset at small GMEM sizes, quick enough for CI.
  const scene::Scene s = scene::sceneByName(c.scene, 200, 150);
  tools::FrameOptions o;
  o.mode = RenderMode::Sysmem;
  const auto sysmem = tools::renderFrame(s, preset, o);
  o.mode = RenderMode::Naive;
  const auto naive = tools::renderFrame(s, preset, o);
  o.mode = RenderMode::Binning;
  o.warmupFrames = 1;  // the first frame sizes the visibility-stream buffers (see overflow test)
  const auto binning = tools::renderFrame(s, preset, o);
  ASSERT_EQ(sysmem.image.rgba.size(), size_t{200} * 150 * 4);
  EXPECT_TRUE(naive.image == sysmem.image) << "naive tiling differs from sysmem";
  EXPECT_TRUE(binning.image == naive.image) << "binning differs from naive tiling";
  if (!preset.sysmemOnly) {
    ASSERT_FALSE(binning.batches.empty());
    const auto& b = binning.batches.back();
    // REFERENCES.md §1: binning only with at least 2 bins, else naive tiling.
    EXPECT_EQ(b.mode, b.layout->bins.size() >= 2 ? RenderMode::Binning : RenderMode::Naive);
    EXPECT_FALSE(b.visibilityOverflow);
  }
  // The image is not trivially empty: at least a tenth of the pixels differ from the clear colour.
  size_t differing = 0;
  const uint8_t* first = sysmem.image.rgba.data();
  for (size_t i = 0; i < sysmem.image.rgba.size(); i += 4)
    differing += std::memcmp(first, sysmem.image.rgba.data() + i, 3) != 0;
  EXPECT_GT(differing, size_t{200} * 150 / 10);
}

// A visibility stream too small for the frame: the bins of the overflowed pipes draw every
// primitive, the image is still exact, the overflow is reported and the next frame fits.
TEST(VisibilityOverflow, FrameStaysCorrectAndBuffersGrow) {
  gpu::Preset preset = gpu::findPreset("adreno-a320");
  preset.vscPipeBytes = 64;
  const scene::Scene s = scene::sceneByName("default", 640, 480);
  tools::FrameOptions o;
  o.mode = RenderMode::Sysmem;
  const auto sysmem = tools::renderFrame(s, preset, o);
  o.mode = RenderMode::Binning;
  const auto first = tools::renderFrame(s, preset, o);
  ASSERT_EQ(first.batches.back().mode, RenderMode::Binning);
  EXPECT_TRUE(first.batches.back().visibilityOverflow);
  EXPECT_GT(first.batches.back().stats.vsc.overflowedPipes, 0u);
  EXPECT_TRUE(first.image == sysmem.image);
  o.warmupFrames = 1;
  const auto second = tools::renderFrame(s, preset, o);
  EXPECT_FALSE(second.batches.back().visibilityOverflow);
  EXPECT_TRUE(second.image == sysmem.image);
  // With the stream in use, bins draw fewer primitives than the whole draw list.
  uint64_t drawn = 0;
  for (const auto& bin : second.batches.back().stats.pipeline.bins) {
    EXPECT_TRUE(bin.usedStream) << "bin at " << bin.window.x0 << "," << bin.window.y0;
    drawn += bin.primitives;
  }
  EXPECT_LT(drawn, s.triangleCount() * second.batches.back().stats.pipeline.bins.size());
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const auto& p : gpu::allPresets())
    for (const auto& s : test::imageTestScenes()) v.push_back({std::string(p.name), s});
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllPresets, TilingInvariants, ::testing::ValuesIn(cases()),
                         [](const auto& p) {
                           std::string n = p.param.preset + "_" + test::sceneLabel(p.param.scene);
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace tessera
