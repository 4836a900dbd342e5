// The driver's per-batch choice in auto mode (REFERENCES.md §1): batches built to hit each
// rule pick the expected mode and say why, the history of samples passed per framebuffer moves
// the choice, binning needs 2 bins and a draw, and every mode gives the same image.
#include <gtest/gtest.h>

#include <functional>

#include "driver/driver_fixture.h"
#include "driver/mode_policy.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;

// Flushes one batch and returns its report.
driver::BatchReport flushed(DriverFixture& f) {
  f.ctx.takeReports();
  f.ctx.flush();
  std::vector<driver::BatchReport> r = f.ctx.takeReports();
  EXPECT_EQ(r.size(), 1u);
  return r.empty() ? driver::BatchReport{} : r[0];
}

struct Case {
  const char* name;
  std::function<void(DriverFixture&)> record;
  RenderMode expected;
  const char* reason;  // a part of the report's reason
};

void smallQuads(DriverFixture& f, int n) {
  pipe::RasterizerState rs;
  rs.scissor = true;
  f.ctx.setRasterizer(rs);
  f.ctx.setScissor({300, 220, 8, 8});  // 64 pixels each
  for (int i = 0; i < n; ++i) f.drawQuad();
  f.ctx.setRasterizer({});
}

std::vector<Case> cases() {
  return {
      {"clear only",
       [](DriverFixture& f) {
         f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1, 0);
       },
       RenderMode::Sysmem, "no draws"},
      {"one plain draw", [](DriverFixture& f) { f.drawQuad(); }, RenderMode::Sysmem, "no history"},
      {"clear and draw",
       [](DriverFixture& f) {
         f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1, 0);
         f.drawQuad();
       },
       RenderMode::Binning, "clears"},
      {"depth test",
       [](DriverFixture& f) {
         pipe::DepthStencilAlphaState ds;
         ds.depthTest = true;
         ds.depthWrite = true;
         f.ctx.setDepthStencilAlpha(ds);
         f.drawQuad();
         f.ctx.setDepthStencilAlpha({});
       },
       RenderMode::Binning, "depth or stencil"},
      {"blend",
       [](DriverFixture& f) {
         pipe::BlendState b;
         b.enable = true;
         b.srcRgb = gpu::rb::BlendFactor::SrcAlpha;
         b.dstRgb = gpu::rb::BlendFactor::OneMinusSrcAlpha;
         f.ctx.setBlend(b);
         f.drawQuad();
         f.ctx.setBlend({});
       },
       RenderMode::Binning, "blends"},
      {"multisample",
       [](DriverFixture& f) {
         pipe::Framebuffer ms;
         ms.color = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, f.kW, f.kH, 4);
         ms.width = f.kW;
         ms.height = f.kH;
         f.ctx.setFramebuffer(ms);
         f.fb = ms;  // what the image comparison reads back
         // Defined contents first, in a batch of their own: the draw's batch has no clear.
         f.ctx.clear(pipe::kClearColor, {0.2f, 0.2f, 0.2f, 1}, 1, 0);
         f.ctx.flush();
         f.drawQuad();
       },
       RenderMode::Binning, "multisampled"},
      // Tiled, but the scissored area is one bin: no binning pass.
      {"six draws", [](DriverFixture& f) { smallQuads(f, 6); }, RenderMode::Naive, "6 draws"},
  };
}

TEST(ModePolicy, EachRulePicksItsMode) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    DriverFixture f(RenderMode::Auto);
    c.record(f);
    const driver::BatchReport r = flushed(f);
    EXPECT_EQ(r.mode, c.expected) << r.reason;
    EXPECT_NE(r.reason.find(c.reason), std::string::npos) << r.reason;
  }
}

TEST(ModePolicy, TheSamplesOfEarlierBatchesDecide) {
  DriverFixture f(RenderMode::Auto);
  // Large draws on this framebuffer: 76800 samples each, so later plain batches tile.
  f.drawQuad();
  EXPECT_EQ(flushed(f).mode, RenderMode::Sysmem);  // no history yet
  f.drawQuad();
  const driver::BatchReport big = flushed(f);
  EXPECT_EQ(big.mode, RenderMode::Binning);
  EXPECT_NE(big.reason.find("76800 samples on average"), std::string::npos) << big.reason;
  // Tiny draws pull the average of the last 5 batches below 500: bypass again.
  for (int i = 0; i < 5; ++i) {
    smallQuads(f, 1);
    flushed(f);
  }
  smallQuads(f, 1);
  const driver::BatchReport small = flushed(f);
  EXPECT_EQ(small.mode, RenderMode::Sysmem);
  EXPECT_NE(small.reason.find("64 samples on average"), std::string::npos) << small.reason;
  // Another framebuffer has its own history.
  pipe::Framebuffer other = f.fb;
  other.depth = pipe::kNoResource;
  f.ctx.setFramebuffer(other);
  f.drawQuad();
  EXPECT_NE(flushed(f).reason.find("no history"), std::string::npos);
}

TEST(ModePolicy, BinningNeedsTwoBinsAndADraw) {
  DriverFixture f(RenderMode::Auto);
  smallQuads(f, 6);  // tile memory, over one 8x8 bin
  const driver::BatchReport one = flushed(f);
  EXPECT_EQ(one.mode, RenderMode::Naive);
  EXPECT_NE(one.reason.find("at least 2 bins"), std::string::npos) << one.reason;
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1, 0);
  f.drawQuad();  // the whole surface: several bins
  EXPECT_EQ(flushed(f).mode, RenderMode::Binning);
}

TEST(ModePolicy, EveryModeGivesTheSameImage) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> reference;
    for (RenderMode m :
         {RenderMode::Auto, RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning}) {
      DriverFixture f(m);
      f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0.2f, 0.2f, 0.2f, 1}, 1, 0);
      f.ctx.flush();
      f.setColor({0.5f, 0.25f, 1, 0.5f});
      c.record(f);
      f.ctx.flush();
      const std::vector<uint8_t> image = f.ctx.readSurface(f.fb.color);
      if (reference.empty()) reference = image;
      EXPECT_TRUE(image == reference) << driver::renderModeName(m);
    }
  }
}

TEST(ModePolicy, ABatchGmemCannotHoldRendersInSysmem) {
  // 4x colour and depth need 32 KiB for the smallest bin; kv260 has 8 KiB of GMEM.
  std::vector<uint8_t> images[2];
  for (RenderMode m : {RenderMode::Binning, RenderMode::Sysmem}) {
    DriverFixture f(m, "milo832-kv260");
    pipe::Framebuffer ms;
    ms.color = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, f.kW, f.kH, 4);
    ms.depth = f.ctx.createDepthSurface(pipe::DepthFormat::D24S8, f.kW, f.kH, 4);
    ms.width = f.kW;
    ms.height = f.kH;
    f.ctx.setFramebuffer(ms);
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1, 0);
    f.drawQuad();
    const driver::BatchReport r = flushed(f);
    EXPECT_EQ(r.mode, RenderMode::Sysmem);
    if (m == RenderMode::Binning) {
      EXPECT_NE(r.reason.find("GMEM cannot hold the batch's buffers (no bin layout fits"),
                std::string::npos)
          << r.reason;
    }
    images[m == RenderMode::Sysmem] = f.ctx.readSurface(ms.color);
  }
  EXPECT_TRUE(images[0] == images[1]);
}

TEST(ModePolicy, AutoIsAModeName) {
  EXPECT_EQ(driver::parseRenderMode("auto"), RenderMode::Auto);
}

}  // namespace
}  // namespace tessera
