// The overdraw map counts every rasterized fragment once at its pixel: its sum is the
// rasterizer's covered-pixel count, and tiling does not change it (every bin rasterizes only its
// own pixels), so sysmem and binning give the same map.
#include <gtest/gtest.h>

#include <numeric>

#include "gpu/preset/preset.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

TEST(Overdraw, MapSumsToCoveredPixelsAndIgnoresTiling) {
  const scene::Scene s = scene::sceneByName("blend", 160, 120);
  const gpu::Preset& p = gpu::findPreset("milo832-kv260");
  tools::FrameOptions o;
  o.overdraw = true;
  o.mode = driver::RenderMode::Sysmem;
  const auto sysmem = tools::renderFrame(s, p, o);
  o.mode = driver::RenderMode::Binning;
  o.warmupFrames = 1;
  const auto binning = tools::renderFrame(s, p, o);
  ASSERT_EQ(sysmem.overdraw.size(), size_t{160} * 120);
  uint64_t covered = 0;
  for (const auto& b : sysmem.batches) covered += b.stats.ras.pixelsCovered;
  EXPECT_EQ(std::accumulate(sysmem.overdraw.begin(), sysmem.overdraw.end(), uint64_t{0}), covered);
  EXPECT_EQ(binning.overdraw, sysmem.overdraw);
  // The translucent layers pile up: some pixel is drawn more than twice.
  EXPECT_GT(*std::max_element(sysmem.overdraw.begin(), sysmem.overdraw.end()), 2u);
  // Without asking, nothing is counted.
  o.overdraw = false;
  EXPECT_TRUE(tools::renderFrame(s, p, o).overdraw.empty());
}

}  // namespace
}  // namespace tessera
