// Rendering interleaved with resolve (US 8,902,228) never changes a pixel: every test scene
// renders bit-identically with 4, 8 and 16-pixel blocks and without them, with and without LRZ.
// Blocks are resolved after their last triangle, in FIFO order, before the next bin; untouched
// blocks move no byte; blocks a later opaque triangle covers are neither restored nor shaded.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "driver/driver_fixture.h"
#include "gpu/preset/preset.h"
#include "integration/scenes.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using driver::RenderMode;

tools::FrameResult render(const scene::Scene& s, gpu::Preset preset, uint32_t block,
                          bool lrz = false) {
  preset.resolveBlock = block;
  preset.lrz = lrz;
  tools::FrameOptions o;
  o.mode = RenderMode::Binning;
  o.warmupFrames = 1;
  return tools::renderFrame(s, preset, o);
}

// The batch with the most draws: the scene's main render pass.
const driver::BatchReport& mainBatch(const tools::FrameResult& f) {
  const driver::BatchReport* main = &f.batches.at(0);
  for (const auto& b : f.batches)
    if (b.draws > main->draws) main = &b;
  return *main;
}

TEST(InterleavedResolve, ImagesAreIdenticalWithAndWithout) {
  std::vector<std::string> scenes = test::imageTestScenes();
  scenes.push_back("compositor");
  // Sizes with several bins on each preset (binning needs two).
  for (const auto& [preset, w, h] :
       {std::tuple{"adreno-a320", 320u, 240u}, std::tuple{"milo832-kv260", 240u, 160u}})
    for (const std::string& name : scenes) {
      const scene::Scene s = scene::sceneByName(name, w, h);
      const gpu::Preset& p = gpu::findPreset(preset);
      const auto off = render(s, p, 0);
      for (uint32_t block : {4u, 8u, 16u}) {
        const auto on = render(s, p, block);
        EXPECT_TRUE(on.image == off.image) << preset << " " << name << " block " << block;
        const driver::BatchReport& b = mainBatch(on);
        ASSERT_TRUE(b.layout) << name;
        EXPECT_TRUE(b.blockResolve);
        EXPECT_EQ(b.stats.blockResolve.bins, b.layout->bins.size()) << preset << " " << name;
      }
      EXPECT_TRUE(render(s, p, 8, true).image == render(s, p, 0, true).image)
          << preset << " " << name << " with LRZ";
    }
}

TEST(InterleavedResolve, BlocksResolveAfterTheirLastTriangleInFifoOrder) {
  const scene::Scene s = scene::sceneByName("compositor", 320, 240);
  const auto on = render(s, gpu::findPreset("adreno-a320"), 8);
  const driver::BatchReport& b = mainBatch(on);
  const auto& events = b.stats.blockResolves;
  ASSERT_FALSE(events.empty());
  uint64_t early = 0;
  std::map<std::tuple<uint32_t, int, int>, int> resolvedEarly;
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (i > 0) {
      const auto& p = events[i - 1];
      // A bin's blocks all leave before the next bin starts writing tile memory.
      ASSERT_GE(e.bin, p.bin) << i;
      if (e.bin == p.bin) {
        EXPECT_EQ(e.order, p.order + 1) << i;
        EXPECT_FALSE(e.early && !p.early) << i;  // nothing enters the FIFO after the RESOLVE
        if (e.early && p.early) {
          // FIFO order: blocks leave in the order their last triangles completed.
          EXPECT_GE(e.counter, p.counter) << i;
          EXPECT_GE(e.last, p.last) << i;
        }
      } else {
        EXPECT_EQ(e.order, 0u) << i;
      }
    }
    if (e.early) {
      ++early;
      // Final: the rolling counter had passed the block's last triangle.
      EXPECT_GE(e.counter, e.last) << i;
      EXPECT_GT(e.last, 0u) << i;
      const int times = ++resolvedEarly[std::make_tuple(e.bin, e.rect.x0, e.rect.y0)];
      EXPECT_EQ(times, 1) << "resolved twice " << i;
    }
  }
  EXPECT_EQ(early, b.stats.blockResolve.resolvedEarly);
  // Most blocks of a scene of layered windows are done before their bin's last triangle.
  EXPECT_GT(early, events.size() / 2);
  EXPECT_FALSE(b.stats.pipeline.bins.empty());
  uint64_t slices = 0;
  for (const auto& bin : b.stats.pipeline.bins) slices += bin.earlyResolves.size();
  EXPECT_EQ(slices, early);
}

TEST(InterleavedResolve, FullCoverSkipsExactlyTheHiddenFragments) {
  // No depth buffer, no LRZ: every rasterized fragment is shaded unless a later opaque window
  // covers its block, so the skipped and shaded fragments add up to those shaded without it.
  const scene::Scene s = scene::sceneByName("compositor", 320, 240);
  const gpu::Preset& p = gpu::findPreset("milo832-kv260");
  const auto off = render(s, p, 0);
  const auto on = render(s, p, 8);
  const auto& a = mainBatch(on).stats.fragment;
  const auto& z = mainBatch(off).stats.fragment;
  EXPECT_GT(a.fullCoverSkipped, z.fragmentsShaded / 4);
  EXPECT_EQ(a.fragmentsShaded + a.fullCoverSkipped, z.fragmentsShaded);
  EXPECT_EQ(z.fullCoverSkipped, 0u);
  EXPECT_GT(mainBatch(on).stats.blockTable.fullCovers, 0u);
  EXPECT_TRUE(on.image == off.image);
}

// The same two batches with and without the interleaved resolve on a320 (8×8 blocks): a clear
// and a quad, then a second quad over the first that must restore what it does not cover.
struct TwoBatches {
  std::vector<uint8_t> image;
  driver::BatchReport second;
};
TwoBatches twoBatches(uint32_t block) {
  gpu::Preset preset = gpu::findPreset("adreno-a320");
  preset.resolveBlock = block;
  test::DriverFixture f(RenderMode::Binning, preset);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0.1f, 0.2f, 0.3f, 1}, 1.0f, 0);
  f.drawQuad();
  f.ctx.flush();
  f.setColor({0, 1, 0, 1});
  f.drawQuad();
  f.ctx.flush();
  return {f.ctx.readSurface(f.fb.color), f.ctx.takeReports().back()};
}

TEST(InterleavedResolve, UntouchedBlocksMoveNoBytesAndCoveredBlocksSkipRestore) {
  const TwoBatches off = twoBatches(0), on = twoBatches(8);
  EXPECT_EQ(on.image, off.image);
  const auto& g = on.second.stats.gmem;
  const auto& r = on.second.stats.blockResolve;
  // Whole bins without blocks: the 640×480 colour surface read and written once.
  EXPECT_EQ(off.second.stats.gmem.restoreBytes, 640u * 480 * 4);
  EXPECT_EQ(off.second.stats.gmem.resolveBytes, 640u * 480 * 4);
  // The quad covers pixels [160, 480) × [120, 360); its conservative bounds (one pixel wider
  // each way) touch the 8×8 blocks from (152, 112) to (488, 368): 42 × 32 blocks.
  constexpr uint64_t kTouched = 42 * 32, kBlockBytes = 8 * 8 * 4;
  EXPECT_EQ(g.resolveBytes, kTouched * kBlockBytes);
  EXPECT_EQ(r.resolvedEarly + r.resolvedAtEnd, kTouched);
  EXPECT_EQ(r.blocksUntouched, 80u * 60 - kTouched);
  // Blocks wholly inside one of the quad's triangles need no restore.
  EXPECT_GT(r.restoresSkipped, kTouched / 2);
  EXPECT_EQ(r.blocksRestored + r.restoresSkipped, kTouched);
  EXPECT_EQ(g.restoreBytes, r.blocksRestored * kBlockBytes);
  EXPECT_EQ(g.resolves + g.restores, 0u);  // only block transfers
}

TEST(InterleavedResolve, ClearsBetweenDrawsReachMemory) {
  // A scissored clear after a draw and before another: the blocks it writes stay open until
  // the counter passes the draw after it, so the resolve copies the cleared pixels.
  auto run = [](uint32_t block) {
    gpu::Preset preset = gpu::findPreset("adreno-a320");
    preset.resolveBlock = block;
    test::DriverFixture f(RenderMode::Binning, preset);
    f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
    f.drawQuad();
    pipe::RasterizerState scissored;
    scissored.scissor = true;
    f.ctx.setRasterizer(scissored);
    f.ctx.setScissor({100, 100, 200, 100});
    f.ctx.clear(pipe::kClearColor, {1, 1, 0, 1}, 1.0f, 0);
    f.ctx.setRasterizer({});
    f.setColor({0, 0, 1, 1});
    f.ctx.draw({pipe::Primitive::Triangles, 3});
    f.ctx.flush();
    return f.ctx.readSurface(f.fb.color);
  };
  const auto off = run(0), on = run(8);
  EXPECT_EQ(on, off);
  const uint8_t* yellow = on.data() + (size_t{110} * test::DriverFixture::kW + 110) * 4;
  EXPECT_EQ(yellow[0], 255);  // the clear's, outside both draws
  EXPECT_EQ(yellow[1], 255);
  EXPECT_EQ(yellow[2], 0);
  const uint8_t* black = on.data() + (size_t{50} * test::DriverFixture::kW + 50) * 4;
  EXPECT_EQ(black[0] + black[1] + black[2], 0);  // outside the scissored clear
}

}  // namespace
}  // namespace tessera
