// The user-mode driver through the pipe API: dirty-state emission, glClear's write masks,
// restore/resolve decisions across batches, and every misuse reported as an error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "driver/driver_fixture.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;

constexpr RenderMode kModes[] = {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning};

TEST(Driver, UnchangedStateIsNotEmittedAgain) {
  DriverFixture one(RenderMode::Binning);
  one.drawQuad();
  one.ctx.flush();
  DriverFixture two(RenderMode::Binning);
  two.drawQuad();
  two.setColor({1, 0, 0, 1});            // the same constants again
  two.ctx.setBlend(pipe::BlendState{});  // the same (default) blend state again
  two.ctx.setVertexBuffer(0, two.quad);
  two.drawQuad();
  two.ctx.flush();
  // The second draw costs only its CP_DRAW_INDX packet: header + 2 dwords.
  EXPECT_EQ(two.drawIbDwords(), one.drawIbDwords() + 3);

  DriverFixture changed(RenderMode::Binning);
  changed.drawQuad();
  pipe::BlendState b;
  b.enable = true;
  changed.ctx.setBlend(b);
  changed.drawQuad();
  changed.ctx.flush();
  EXPECT_GT(changed.drawIbDwords(), one.drawIbDwords() + 3);
}

TEST(Driver, ClearHonoursWriteMasksInEveryMode) {
  for (RenderMode mode : kModes) {
    DriverFixture f(mode);
    f.ctx.clear(pipe::kClearColor, {1, 0, 0, 1}, 1.0f, 0);
    f.ctx.flush();
    pipe::BlendState greenOnly;
    greenOnly.colorWriteMask = 0x2;
    f.ctx.setBlend(greenOnly);
    f.ctx.clear(pipe::kClearColor, {0, 1, 1, 0}, 1.0f, 0);
    f.ctx.flush();
    const auto reports = f.ctx.takeReports();
    if (mode != RenderMode::Sysmem) {
      EXPECT_GT(reports.back().restores, 0u) << "a partial clear keeps the old bits";
    }
    const auto s = f.ctx.readSurface(f.fb.color);
    const uint8_t* p = f.pixel(s, 10, 10);
    EXPECT_EQ(p[0], 255);
    EXPECT_EQ(p[1], 255);
    EXPECT_EQ(p[2], 0);
    EXPECT_EQ(p[3], 255);
  }
}

TEST(Driver, ContentsSurviveBatchesThroughRestore) {
  std::vector<uint8_t> images[3];
  for (int m = 0; m < 3; ++m) {
    DriverFixture f(kModes[m]);
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth | pipe::kClearStencil, {0, 0, 1, 1}, 1.0f, 0);
    f.drawQuad();
    f.ctx.flush();
    // Second batch: no clear, so GMEM modes restore what the first one resolved.
    f.setColor({0, 1, 0, 1});
    pipe::Scissor sc{0, 0, DriverFixture::kW / 2, DriverFixture::kH};
    pipe::RasterizerState rs;
    rs.scissor = true;
    f.ctx.setRasterizer(rs);
    f.ctx.setScissor(sc);
    f.drawQuad();
    f.ctx.flush();
    const auto reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 2u);
    if (kModes[m] != RenderMode::Sysmem) {
      EXPECT_EQ(reports[0].restores, 0u);
      EXPECT_GT(reports[1].restores, 0u);
      // Only the scissored half is tiled, restored and resolved (colour only: no depth use).
      EXPECT_EQ(reports[1].stats.bus[gpu::BusClient::GmemRestore].readBytes,
                uint64_t{DriverFixture::kW / 2} * DriverFixture::kH * 4);
      EXPECT_EQ(reports[1].stats.bus[gpu::BusClient::GmemResolve].writeBytes,
                uint64_t{DriverFixture::kW / 2} * DriverFixture::kH * 4);
    }
    images[m] = f.ctx.readSurface(f.fb.color);
    const uint8_t* left = f.pixel(images[m], DriverFixture::kW / 2 - 10, DriverFixture::kH / 2);
    const uint8_t* right = f.pixel(images[m], DriverFixture::kW / 2 + 10, DriverFixture::kH / 2);
    EXPECT_EQ(left[1], 255);   // green: second batch, inside its scissor
    EXPECT_EQ(right[0], 255);  // red: first batch, kept
    const uint8_t* corner = f.pixel(images[m], 1, 1);
    EXPECT_EQ(corner[2], 255);  // the first clear, kept
  }
  EXPECT_EQ(images[0], images[1]);
  EXPECT_EQ(images[0], images[2]);
}

TEST(Driver, InvalidatedBufferIsNotResolved) {
  DriverFixture f(RenderMode::Binning);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth | pipe::kClearStencil, {0, 0, 0, 1}, 1.0f, 0);
  f.drawQuad();
  f.ctx.invalidate(pipe::kClearDepth | pipe::kClearStencil);
  f.ctx.flush();
  const auto r = f.ctx.takeReports().back();
  // Colour alone is resolved, one blit per bin.
  EXPECT_EQ(r.resolves, r.layout->bins.size());
  EXPECT_EQ(r.stats.bus[gpu::BusClient::GmemResolve].writeBytes,
            uint64_t{DriverFixture::kW} * DriverFixture::kH * 4);
}

TEST(Driver, AGpuFaultFailsAFlushOrFinishAndTheContextGoesOn) {
  DriverFixture f(RenderMode::Binning);
  const std::vector<uint8_t> tiny(12, 0);  // one vertex, the draw reads six
  f.ctx.setVertexBuffer(0, f.ctx.createBuffer(tiny));
  f.drawQuad();
  try {
    // The flush reports it if the batch already ran, else the finish, which waits for it.
    f.ctx.flush();
    f.ctx.finish();
    ADD_FAILURE() << "neither flush nor finish reported the fault";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("page fault"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(f.ctx.takeReports().back().fault.has_value());
  f.ctx.setVertexBuffer(0, f.quad);
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.drawQuad();
  f.ctx.flush();
  const auto s = f.ctx.readSurface(f.fb.color);
  EXPECT_EQ(f.pixel(s, DriverFixture::kW / 2, DriverFixture::kH / 2)[0], 255);
}

// A buffer updated after a draw that uses it: the draw keeps the old vertices (rename), the next
// draw sees the new ones; a destroyed buffer cannot be used any more.
TEST(Driver, UpdatedBufferIsRenamedUnderPendingWork) {
  for (RenderMode mode : kModes) {
    DriverFixture f(mode);
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth | pipe::kClearStencil, {0, 0, 0, 1}, 1.0f, 0);
    f.drawQuad();  // the quad over the centre
    // Move the quad to the left edge: x in [-1, -0.5].
    std::vector<float> pos = {-1, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f,
                              -1, -0.5f, 0.5f, -0.5f, 0.5f,  0.5f, -1,    0.5f, 0.5f};
    f.ctx.updateBuffer(f.quad, 0, {reinterpret_cast<const uint8_t*>(pos.data()), pos.size() * 4});
    f.setColor({0, 1, 0, 1});
    f.drawQuad();
    f.ctx.flush();
    const auto img = f.ctx.readSurface(f.fb.color);
    EXPECT_EQ(f.pixel(img, DriverFixture::kW / 2, DriverFixture::kH / 2)[0], 255);  // old: red
    EXPECT_EQ(f.pixel(img, 2, DriverFixture::kH / 2)[1], 255);                      // new: green
    EXPECT_THROW(f.ctx.updateBuffer(f.quad, 70, std::vector<uint8_t>(4)), Error);
    f.ctx.destroyResource(f.quad);
    EXPECT_THROW(f.ctx.destroyResource(f.quad), Error);
    EXPECT_THROW(f.ctx.updateBuffer(f.quad, 0, std::vector<uint8_t>(4)), Error);
  }
}

TEST(Driver, CompressedTexturesAre2DAndNeverRenderTargets) {
  DriverFixture f(RenderMode::Binning);
  pipe::TextureDesc volume{pipe::TexFormat::ETC2_RGB8, 8, 8, 1};
  volume.volume = true;
  volume.depth = 4;
  EXPECT_THROW(f.ctx.createTexture(volume), Error);
  const pipe::ResourceId etc = f.ctx.createTexture({pipe::TexFormat::ETC2_RGB8, 8, 8, 1});
  try {
    f.ctx.createTextureSurface(etc, 0, 0);
    ADD_FAILURE() << "a compressed texture became a render target";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("compressed texture cannot be a render target"),
              std::string::npos)
        << e.what();
  }
  // A level's upload is its rows of 8-byte blocks: 2 × 2 blocks for 8×8.
  EXPECT_THROW(f.ctx.uploadTexture(etc, 0, 0, std::vector<uint8_t>(8 * 8 * 4)), Error);
  f.ctx.uploadTexture(etc, 0, 0, std::vector<uint8_t>(32));
}

TEST(Driver, MisuseIsReportedAsErrors) {
  DriverFixture f(RenderMode::Binning);
  auto& c = f.ctx;
  EXPECT_THROW(c.createTexture({pipe::TexFormat::RGBA8, 0, 4, 1}), Error);
  EXPECT_THROW(c.createTexture({pipe::TexFormat::RGBA8, 8, 8, 5}), Error);  // 8×8 has 4 levels
  const pipe::ResourceId tex = c.createTexture({pipe::TexFormat::RGBA8, 8, 8, 4});
  EXPECT_THROW(c.uploadTexture(tex, 0, 4, std::vector<uint8_t>(4)), Error);
  EXPECT_THROW(c.uploadTexture(tex, 0, 0, std::vector<uint8_t>(10)), Error);
  EXPECT_NO_THROW(c.uploadTexture(tex, 0, 1, std::vector<uint8_t>(4 * 4 * 4)));
  EXPECT_THROW(c.uploadTexture(f.quad, 0, 0, std::vector<uint8_t>(4)), Error);  // not a texture
  EXPECT_THROW(c.uploadTexture(tex, 1, 0, std::vector<uint8_t>(8 * 8 * 4)), Error);  // 2D: face 0
  EXPECT_THROW(c.createTexture({pipe::TexFormat::RGBA8, 8, 4, 1, true}), Error);     // not square
  const pipe::ResourceId cube = c.createTexture({pipe::TexFormat::RGBA8, 4, 4, 1, true});
  EXPECT_NO_THROW(c.uploadTexture(cube, 5, 0, std::vector<uint8_t>(4 * 4 * 4)));
  EXPECT_THROW(c.uploadTexture(cube, 6, 0, std::vector<uint8_t>(4 * 4 * 4)), Error);
  EXPECT_THROW(c.createColorSurface(pipe::ColorFormat::RGBA8, 0, 10), Error);
  EXPECT_THROW(c.createDepthSurface(pipe::DepthFormat::None, 10, 10), Error);
  EXPECT_THROW(c.setVertexBuffer(16, f.quad), Error);
  EXPECT_THROW(c.setVertexBuffer(0, 999), Error);
  EXPECT_THROW(c.setVertexElements(std::vector<pipe::VertexElement>(17)), Error);
  EXPECT_THROW(c.setVertexElements(
                   std::vector<pipe::VertexElement>{{0, 0, 12, pipe::VertexFormat::Float32, 5}}),
               Error);
  EXPECT_THROW(c.bindShaders(f.fsId, f.vsId), Error);
  EXPECT_THROW(c.setTexture(pipe::ShaderStage::Fragment, 16, tex, {}), Error);
  EXPECT_THROW(c.readSurface(tex), Error);
  pipe::Framebuffer bad = f.fb;
  bad.width = 10;
  EXPECT_THROW(c.setFramebuffer(bad), Error);
  EXPECT_THROW(c.draw({pipe::Primitive::Triangles, 3, 999, pipe::IndexSize::U16, 0}), Error);
  EXPECT_THROW(driver::parseRenderMode("tiled"), Error);

  gpu::Device device(gpu::findPreset("adreno-a630"));
  driver::Context empty(device, {});
  EXPECT_THROW(empty.draw({pipe::Primitive::Triangles, 3}), Error);  // no framebuffer
  pipe::Framebuffer fb;
  fb.color = empty.createColorSurface(pipe::ColorFormat::RGBA8, 4, 4);
  fb.width = fb.height = 4;
  empty.setFramebuffer(fb);
  EXPECT_THROW(empty.draw({pipe::Primitive::Triangles, 3}), Error);  // no shaders
}

}  // namespace
}  // namespace tessera
