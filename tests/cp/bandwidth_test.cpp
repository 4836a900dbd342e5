// Bandwidth accounting on a synthetic frame: after a whole-surface clear nothing is restored,
// and the resolve writes exactly the tiled pixels × bytes per pixel of every written buffer;
// sysmem mode instead moves every depth test and colour write over the bus.
#include <gtest/gtest.h>

#include "gpu/preset/preset.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

// A quad covering the middle half of the screen (identity matrices: positions are clip space).
scene::Scene quadScene(uint32_t w, uint32_t h) {
  scene::Scene s;
  s.name = "quad";
  s.width = w;
  s.height = h;
  s.clearColor = {0.1f, 0.2f, 0.3f, 1.0f};
  scene::Mesh m;
  m.positions = {-0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0.5f};
  m.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  m.indices = {0, 1, 2, 0, 2, 3};
  s.meshes.push_back(m);
  scene::Draw d;
  d.shading = scene::Shading::Constant;
  for (int c = 0; c < 4; ++c) {
    d.constants[size_t(c * 4 + c)] = 1.0f;                            // MVP = identity
    d.constants[size_t((scene::kSlotModelView + c) * 4 + c)] = 1.0f;  // MV = identity
  }
  d.constants[scene::kSlotDiffuse * 4 + 0] = 1.0f;
  d.constants[scene::kSlotDiffuse * 4 + 3] = 1.0f;
  s.draws.push_back(d);
  return s;
}

TEST(Bandwidth, ResolveIsDirtyPixelsTimesBppAndNoRestoreAfterClear) {
  const uint32_t w = 640, h = 480;
  const scene::Scene s = quadScene(w, h);
  for (auto mode : {driver::RenderMode::Naive, driver::RenderMode::Binning}) {
    tools::FrameOptions o;
    o.mode = mode;
    const auto f = tools::renderFrame(s, gpu::findPreset("adreno-a320"), o);
    ASSERT_EQ(f.batches.size(), 1u);
    const auto& b = f.batches[0];
    ASSERT_TRUE(b.layout);
    EXPECT_GT(b.layout->bins.size(), 1u);
    EXPECT_EQ(b.stats.bus[gpu::BusClient::GmemRestore].readBytes, 0u);
    EXPECT_EQ(b.restores, 0u);
    // Colour (RGBA8) and depth/stencil (D24S8) were both cleared, so both are resolved.
    EXPECT_EQ(b.stats.bus[gpu::BusClient::GmemResolve].writeBytes, uint64_t{w} * h * (4 + 4));
    EXPECT_EQ(b.stats.bus[gpu::BusClient::RenderBackend].writeBytes, 0u);
    // The quad's pixels: the middle half of each axis.
    EXPECT_EQ(b.stats.fragment.fragmentsShaded, uint64_t{w / 2} * (h / 2));
  }
  tools::FrameOptions o;
  o.mode = driver::RenderMode::Sysmem;
  const auto f = tools::renderFrame(s, gpu::findPreset("adreno-a320"), o);
  const auto& b = f.batches[0];
  // Sysmem: the clear writes both surfaces, then each quad pixel reads and writes depth and
  // writes colour.
  const uint64_t quad = uint64_t{w / 2} * (h / 2);
  EXPECT_EQ(b.stats.bus[gpu::BusClient::RenderBackend].writeBytes, uint64_t{w} * h * 8 + quad * 8);
  EXPECT_EQ(b.stats.bus[gpu::BusClient::RenderBackend].readBytes, quad * 4);
  EXPECT_EQ(b.stats.bus[gpu::BusClient::GmemResolve].writeBytes, 0u);
}

}  // namespace
}  // namespace tessera
