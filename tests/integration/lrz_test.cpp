// Low-resolution Z never changes a pixel: every test scene renders bit-identically with LRZ on
// and off, on Adreno and Milo832 bin layouts, while LRZ really culls triangles from the
// visibility streams and rejects quads before shading where the scene has occlusion. Batches
// whose draws could observe a hidden fragment (blending, stencil) run without it.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/preset/preset.h"
#include "integration/scenes.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using driver::RenderMode;

tools::FrameResult render(const scene::Scene& s, gpu::Preset preset, bool lrz) {
  preset.lrz = lrz;
  tools::FrameOptions o;
  o.mode = RenderMode::Binning;
  o.warmupFrames = 1;
  return tools::renderFrame(s, preset, o);
}

TEST(LowResZ, ImagesAreIdenticalWithAndWithout) {
  for (const char* preset : {"adreno-a320", "milo832-kv260"})
    for (const std::string& name : test::imageTestScenes()) {
      const scene::Scene s = scene::sceneByName(name, 240, 160);
      const gpu::Preset& p = gpu::findPreset(preset);
      const auto off = render(s, p, false);
      const auto on = render(s, p, true);
      EXPECT_TRUE(on.image == off.image) << preset << " " << name;
      for (const auto& b : off.batches) EXPECT_FALSE(b.lrz);
    }
}

TEST(LowResZ, CullsAndRejectsHiddenWorkInAnOpaqueScene) {
  // The default scene: opaque, depth-tested, objects in front of a ground plane and each other.
  const scene::Scene s = scene::sceneByName("default", 320, 240);
  const gpu::Preset& p = gpu::findPreset("adreno-a320");
  const auto off = render(s, p, false);
  const auto on = render(s, p, true);
  ASSERT_EQ(on.batches.size(), 1u);
  const driver::BatchReport& b = on.batches[0];
  EXPECT_TRUE(b.lrz);
  EXPECT_GT(b.stats.lrz.occluders, 0u);
  EXPECT_GT(b.stats.fragment.lrzRejected, 0u);
  EXPECT_LT(b.stats.fragment.fragmentsShaded, off.batches[0].stats.fragment.fragmentsShaded);
  // The buffer: written once by binning, each bin reads its blocks.
  EXPECT_EQ(b.stats.bus[gpu::BusClient::Lrz].writeBytes, uint64_t{40} * 30 * 2);
  EXPECT_GE(b.stats.bus[gpu::BusClient::Lrz].readBytes, uint64_t{40} * 30 * 2);
  EXPECT_TRUE(on.image == off.image);
  // LRZ only removes work: no client moves more bytes but its own and the command processor
  // (which fetches the few register writes that set LRZ up).
  for (size_t c = 0; c < size_t(gpu::BusClient::Count); ++c) {
    const auto client = gpu::BusClient(c);
    if (client == gpu::BusClient::Lrz || client == gpu::BusClient::CommandProcessor) continue;
    const auto& a = b.stats.bus.client[c];
    const auto& z = off.batches[0].stats.bus.client[c];
    EXPECT_LE(a.readBytes + a.writeBytes, z.readBytes + z.writeBytes) << gpu::kBusClientNames[c];
  }
}

// A wall near the camera drawn first, then an n×n grid of quads behind it: the binning pass
// sees the wall before the grid, so no grid triangle reaches a visibility stream.
scene::Scene wallThenGrid(uint32_t n) {
  scene::Scene s;
  s.name = "wall";
  s.width = 256;
  s.height = 128;
  scene::Mesh wall, grid;
  auto vertex = [](scene::Mesh& m, float x, float y, float z) {
    m.positions.insert(m.positions.end(), {x, y, z});
    m.normals.insert(m.normals.end(), {0.0f, 0.0f, 1.0f});
  };
  for (float y : {-1.0f, 1.0f})
    for (float x : {-1.0f, 1.0f}) vertex(wall, x, y, -0.5f);
  wall.indices = {0, 1, 3, 0, 3, 2};
  for (uint32_t y = 0; y <= n; ++y)
    for (uint32_t x = 0; x <= n; ++x)
      vertex(grid, -0.9f + 1.8f * x / n, -0.9f + 1.8f * y / n, 0.5f);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      const uint32_t i = y * (n + 1) + x;
      grid.indices.insert(grid.indices.end(), {i, i + 1, i + n + 2, i, i + n + 2, i + n + 1});
    }
  s.meshes = {wall, grid};
  for (uint32_t m = 0; m < 2; ++m) {
    scene::Draw d;
    d.mesh = m;
    d.shading = scene::Shading::Constant;
    for (int c = 0; c < 4; ++c) d.constants[scene::kSlotMvp * 4 + c * 5] = 1.0f;  // identity
    d.constants[scene::kSlotDiffuse * 4 + m] = 1.0f;
    d.constants[scene::kSlotDiffuse * 4 + 3] = 1.0f;
    s.draws.push_back(d);
  }
  return s;
}

TEST(LowResZ, BinningDropsTrianglesBehindAnEarlierWall) {
  const scene::Scene s = wallThenGrid(16);
  for (const char* preset : {"adreno-a320", "milo832-kv260"}) {
    gpu::Preset p = gpu::findPreset(preset);
    p.gmemBytes = std::min(p.gmemBytes, 128u * 1024);  // several bins at this size
    const auto off = render(s, p, false);
    const auto on = render(s, p, true);
    ASSERT_EQ(on.batches.size(), 1u);
    ASSERT_EQ(on.batches[0].mode, RenderMode::Binning) << preset;
    const auto& b = on.batches[0].stats;
    EXPECT_EQ(b.lrz.trianglesCulled, 2u * 16 * 16) << preset;  // every grid triangle
    EXPECT_LT(b.vsc.binHits, off.batches[0].stats.vsc.binHits) << preset;
    EXPECT_EQ(b.fragment.fragmentsShaded, uint64_t{256} * 128) << preset;  // the wall alone
    EXPECT_TRUE(on.image == off.image) << preset;
  }
}

TEST(LowResZ, StaysOffWhenADrawCouldSeeHiddenFragments) {
  const gpu::Preset& p = gpu::findPreset("adreno-a320");
  for (const char* name : {"blend", "stencil"}) {
    const auto on = render(scene::sceneByName(name, 240, 160), p, true);
    for (const auto& b : on.batches) {
      EXPECT_FALSE(b.lrz) << name;
      EXPECT_EQ(b.stats.lrz.trianglesCulled, 0u) << name;
    }
  }
}

}  // namespace
}  // namespace tessera
