// The seed's bandwidth analysis of Milo832 (seed on tile-based rendering, "Memory bandwidth
// analysis") reproduced: the analytic full-screen figures, and a rendered 640×480 frame on the
// milo832-de2-115 preset whose framebuffer bytes follow the same arithmetic with the scene's
// measured overdraw in sysmem mode, and are the colour writeback of the dirty pixels when tiled.
#include "gpu/perf/framebuffer_bandwidth.h"

#include <gtest/gtest.h>

#include "gpu/preset/preset.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using gpu::BusClient;
using gpu::perf::FramebufferFormat;

constexpr uint32_t kW = 640, kH = 480;
constexpr uint64_t kPixels = uint64_t{kW} * kH;

TEST(FramebufferBandwidth, SeedFullScreenFigures) {
  // 307,200 pixels × 10 bytes (Z read 3 + Z write 3 + colour 4) × 60 = 184 MB/s.
  const double immediate = gpu::perf::immediateFramebufferBytes(kPixels, 1.0);
  EXPECT_DOUBLE_EQ(immediate, 3'072'000.0);
  EXPECT_NEAR(gpu::perf::bytesPerSecond(immediate, 60) / 1e6, 184.0, 0.5);
  // 1,200 tiles × 1,024 bytes of colour = 1.2 MB per frame; the seed's 72 MB/s at 60 fps is
  // 1.2 MB × 60 (the exact 1,228,800 bytes give 73.7 MB/s).
  const double tiled = gpu::perf::tiledWritebackBytes(kPixels);
  EXPECT_DOUBLE_EQ(tiled, 1200.0 * 1024.0);
  EXPECT_NEAR(gpu::perf::bytesPerSecond(1.2e6, 60) / 1e6, 72.0, 1e-9);
  EXPECT_NEAR(gpu::perf::bytesPerSecond(tiled, 60) / 1e6, 73.7, 0.05);
}

tools::FrameResult render(driver::RenderMode mode) {
  tools::FrameOptions o;
  o.mode = mode;
  o.discardDepth = true;  // a frame's depth is not needed after it, as the seed assumes
  gpu::Preset p = gpu::findPreset("milo832-de2-115");
  p.vscPipeBytes = 64 * 1024;  // streams that fit the first frame: no fallback to drawing all
  return tools::renderFrame(scene::defaultScene(kW, kH), p, o);
}

TEST(FramebufferBandwidth, SysmemFrameMovesDepthAndColourPerFragment) {
  const tools::FrameResult f = render(driver::RenderMode::Sysmem);
  ASSERT_EQ(f.batches.size(), 1u);
  const driver::BlockStats& s = f.batches[0].stats;
  const FramebufferFormat d24s8{4, 4};  // Tessera keeps depth as packed D24S8 words
  const uint64_t tested = s.rb.samplesTested, passed = s.rb.samplesPassed;
  const double overdraw = double(tested) / double(kPixels);
  EXPECT_GT(overdraw, 0.5);  // the ground plane and the objects on it cover the frame
  // Every fragment tested reads depth; an opaque fragment that passes LESS writes a new depth
  // and its colour; the clear writes both buffers once.
  EXPECT_EQ(s.bus[BusClient::RenderBackend].readBytes, tested * d24s8.depthBytes);
  EXPECT_EQ(s.bus[BusClient::RenderBackend].writeBytes,
            kPixels * (d24s8.depthBytes + d24s8.colorBytes) +
                passed * (d24s8.depthBytes + d24s8.colorBytes));
  // The seed's formula charges a depth write and a colour write to every fragment, so it bounds
  // the fragments' traffic from above; they meet when nothing fails the depth test.
  const uint64_t fragmentBytes = s.bus[BusClient::RenderBackend].readBytes +
                                 s.bus[BusClient::RenderBackend].writeBytes -
                                 kPixels * (d24s8.depthBytes + d24s8.colorBytes);
  EXPECT_LE(double(fragmentBytes), gpu::perf::immediateFramebufferBytes(kPixels, overdraw, d24s8));
  EXPECT_EQ(s.bus[BusClient::GmemResolve].writeBytes, 0u);
}

TEST(FramebufferBandwidth, TiledFrameWritesBackColourOnce) {
  const tools::FrameResult f = render(driver::RenderMode::Binning);
  ASSERT_EQ(f.batches.size(), 1u);
  const driver::BlockStats& s = f.batches[0].stats;
  // Depth lives and dies in tile memory; the cleared frame makes every pixel dirty.
  EXPECT_EQ(s.bus[BusClient::GmemResolve].writeBytes, gpu::perf::tiledWritebackBytes(kPixels));
  EXPECT_EQ(s.bus[BusClient::GmemResolve].writeBytes, 1'228'800u);
  EXPECT_EQ(s.bus[BusClient::GmemRestore].readBytes, 0u);
  EXPECT_EQ(s.bus[BusClient::RenderBackend].readBytes + s.bus[BusClient::RenderBackend].writeBytes,
            0u);
  EXPECT_EQ(f.batches[0].layout->bins.size(), 1200u);  // 40 × 30 tiles of 16×16
  EXPECT_FALSE(f.batches[0].visibilityOverflow);
}

}  // namespace
}  // namespace tessera
