// Multisampling (docs/msaa.md): per-sample coverage at the standard positions with the top-left
// rule, edges that resolve to intermediate values, per-sample depth, tiled (naive and binning)
// rendering bit-exact with sysmem at 2x and 4x, the resolve byte rule (only the resolved image
// leaves GMEM when the samples need not survive), restores of kept and dropped samples, bins
// that shrink with the sample count, occlusion queries that count samples, the sample coverage
// and alpha-to-coverage masks, single-sample rendering unchanged, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "common/error.h"
#include "driver/bin_layout.h"
#include "driver/driver_fixture.h"
#include "gpu/pipeline/draw_state.h"
#include "gpu/ras/rasterizer.h"
#include "gpu/rb/render_backend.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;
constexpr uint32_t kW = DriverFixture::kW, kH = DriverFixture::kH;
constexpr RenderMode kModes[] = {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning};

// The driver fixture with a multisample colour (and optionally depth) framebuffer.
struct MsaaFixture : DriverFixture {
  MsaaFixture(RenderMode mode, uint32_t samples, bool withDepth = true,
              const gpu::Preset& preset = gpu::findPreset("adreno-a320"))
      : DriverFixture(mode, preset) {
    pipe::Framebuffer f;
    f.color = ctx.createColorSurface(pipe::ColorFormat::RGBA8, kW, kH, samples);
    if (withDepth) f.depth = ctx.createDepthSurface(pipe::DepthFormat::D24S8, kW, kH, samples);
    f.width = kW;
    f.height = kH;
    ctx.setFramebuffer(f);
    fb = f;
  }
  // Triangles given as clip-space (x, y, z) triples.
  void drawTriangles(const std::vector<float>& xyz) {
    const pipe::ResourceId buf =
        ctx.createBuffer({reinterpret_cast<const uint8_t*>(xyz.data()), xyz.size() * 4});
    ctx.setVertexBuffer(0, buf);
    ctx.draw({pipe::Primitive::Triangles, uint32_t(xyz.size() / 3)});
    ctx.setVertexBuffer(0, quad);
  }
  void depthTest(gpu::rb::CompareFunc func, bool write = true) {
    pipe::DepthStencilAlphaState d;
    d.depthTest = true;
    d.depthWrite = write;
    d.depthFunc = func;
    ctx.setDepthStencilAlpha(d);
  }
  uint8_t red(const std::vector<uint8_t>& img, uint32_t x, uint32_t y) const {
    return pixel(img, x, y)[0];
  }
};

// Window x (pixels) to clip x on the fixture's 640-wide viewport; likewise y.
float clipX(double x) {
  return float(x / (kW / 2.0) - 1.0);
}
float clipY(double y) {
  return float(y / (kH / 2.0) - 1.0);
}
// A clip-space rectangle [x0,x1) × [y0,y1) in window pixels as two triangles at depth z.
std::vector<float> rect(double x0, double y0, double x1, double y1, float z) {
  const float a = clipX(x0), b = clipX(x1), c = clipY(y0), d = clipY(y1);
  return {a, c, z, b, c, z, b, d, z, a, c, z, b, d, z, a, d, z};
}

// A scene with slanted edges, blending, depth-tested intersecting triangles and a second batch.
std::vector<uint8_t> renderScene(RenderMode mode, uint32_t samples, bool readDepth = false) {
  MsaaFixture f(mode, samples);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0.1f, 0.2f, 0.3f, 1}, 1.0f, 0);
  f.depthTest(gpu::rb::CompareFunc::Less);
  f.setColor({1, 0.5f, 0, 1});
  // Two triangles whose depths cross: the visible one changes inside pixels along the line.
  f.drawTriangles({-0.9f, -0.8f, 0.2f, 0.7f, -0.6f, 0.8f, -0.2f, 0.85f, 0.5f});
  f.setColor({0, 0.8f, 0.4f, 1});
  f.drawTriangles({-0.8f, 0.6f, 0.9f, 0.9f, 0.1f, 0.1f, -0.5f, -0.9f, 0.4f});
  // Blended thin sliver over both.
  pipe::BlendState blend;
  blend.enable = true;
  blend.srcRgb = blend.srcAlpha = pipe::BlendFactor::SrcAlpha;
  blend.dstRgb = blend.dstAlpha = pipe::BlendFactor::OneMinusSrcAlpha;
  f.ctx.setBlend(blend);
  f.depthTest(gpu::rb::CompareFunc::Always, false);
  f.setColor({0.2f, 0.3f, 1, 0.6f});
  f.drawTriangles({-1.0f, 0.02f, 0.1f, 1.0f, -0.03f, 0.1f, 0.97f, 0.08f, 0.1f});
  // A glFlush: the samples survive into the next batch, which draws over them.
  f.ctx.flush();
  f.ctx.setBlend({});
  f.depthTest(gpu::rb::CompareFunc::LEqual);
  f.setColor({1, 1, 1, 1});
  f.drawTriangles({0.3f, -0.95f, 0.3f, 0.95f, -0.5f, 0.3f, 0.5f, 0.9f, 0.3f});
  return f.ctx.readSurface(readDepth ? f.fb.depth : f.fb.color);
}

// ---- rasterizer --------------------------------------------------------------------------

uint64_t samplesOf(gpu::ras::Rasterizer& ras, const gpu::ras::Triangle& t,
                   const gpu::ras::Scissor& s) {
  uint64_t n = 0;
  ras.rasterize(t, s, [&](const gpu::ras::Quad& q) {
    n += uint64_t(laneCount(q.sampleCoverage));
    EXPECT_EQ(gpu::ras::pixelsOf(q.sampleCoverage), q.coverage);
  });
  return n;
}

TEST(MsaaRasterizer, SharedEdgesCoverEverySampleOnce) {
  // Two triangles splitting a 37×23 rectangle along its slanted diagonal, and a fan of four
  // around an interior point: the top-left rule per sample counts each sample exactly once.
  const gpu::ras::Scissor scissor{0, 0, 64, 64};
  for (uint32_t samples : {2u, 4u}) {
    gpu::ras::Rasterizer ras;
    ras.setSamples(samples);
    const float x0 = 3.3f, y0 = 5.1f, x1 = 40.3f, y1 = 28.1f;
    auto tri = [](float ax, float ay, float bx, float by, float cx, float cy) {
      return gpu::ras::Triangle{{{ax, ay, 0.5f, 1}, {bx, by, 0.5f, 1}, {cx, cy, 0.5f, 1}}, true};
    };
    const uint64_t split = samplesOf(ras, tri(x0, y0, x1, y0, x1, y1), scissor) +
                           samplesOf(ras, tri(x0, y0, x1, y1, x0, y1), scissor);
    // Samples inside the rectangle, counted directly from the positions.
    const gpu::ras::SampleOffset* o = gpu::ras::sampleOffsets(samples);
    uint64_t expected = 0;
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x)
        for (uint32_t j = 0; j < samples; ++j) {
          const double sx = x + 0.5 + o[j].dx / 16.0, sy = y + 0.5 + o[j].dy / 16.0;
          expected += sx >= x0 && sx < x1 && sy >= y0 && sy < y1;
        }
    EXPECT_EQ(split, expected) << samples << "x";
    // A fan: four triangles around (20.25, 15.5) share every edge.
    const float cx = 20.25f, cy = 15.5f;
    const uint64_t fan = samplesOf(ras, tri(x0, y0, x1, y0, cx, cy), scissor) +
                         samplesOf(ras, tri(x1, y0, x1, y1, cx, cy), scissor) +
                         samplesOf(ras, tri(x1, y1, x0, y1, cx, cy), scissor) +
                         samplesOf(ras, tri(x0, y1, x0, y0, cx, cy), scissor);
    EXPECT_EQ(fan, expected) << samples << "x";
    EXPECT_EQ(ras.stats().samplesCovered, 2 * expected);
  }
}

TEST(MsaaRasterizer, SampleOnlyCoverageIsFound) {
  // A sliver between x = 10.05 and 10.2 covers no pixel centre but 4x sample 2 (x + 0.125) of
  // pixel 10: the block walk's margin must not reject it.
  gpu::ras::Rasterizer ras;
  ras.setSamples(4);
  const gpu::ras::Triangle t{{{10.05f, 0, 0.5f, 1}, {10.2f, 0, 0.5f, 1}, {10.2f, 8, 0.5f, 1}},
                             true};
  uint16_t seen = 0;
  ras.rasterize(t, {0, 0, 32, 32}, [&](const gpu::ras::Quad& q) { seen |= q.sampleCoverage; });
  EXPECT_NE(seen, 0);
  gpu::ras::Rasterizer one;
  one.rasterize(t, {0, 0, 32, 32}, [](const gpu::ras::Quad&) { FAIL() << "no centre covered"; });
}

TEST(MsaaRasterizer, SampleDepthFollowsThePlane) {
  gpu::ras::Rasterizer ras;
  ras.setSamples(4);
  // z = x / 64 over the window.
  const gpu::ras::Triangle t{{{0, 0, 0, 1}, {64, 0, 1, 1}, {0, 64, 0, 1}}, true};
  bool checked = false;
  ras.rasterize(t, {0, 0, 64, 64}, [&](const gpu::ras::Quad& q) {
    if (q.x != 8 || q.y != 8) return;
    checked = true;
    const gpu::ras::SampleOffset* o = gpu::ras::sampleOffsets(4);
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(q.sampleZ[0][j], (8.5 + o[j].dx / 16.0) / 64.0, 1e-6);
  });
  EXPECT_TRUE(checked);
}

TEST(MsaaRenderBackend, DepthAndColourPerSample) {
  gpu::rb::RenderBackend rb;
  // One quad of 4x D24S8 and RGBA8 at (0,0): 2 pixels × 4 samples per row.
  std::vector<uint8_t> depth(2 * 4 * 4 * 2, 0xff), color(2 * 4 * 4 * 2, 0);
  const gpu::rb::SurfaceView dv{depth.data(), 2 * 4 * 4, 0, 0}, cv{color.data(), 2 * 4 * 4, 0, 0};
  gpu::rb::DepthStencilState ds;
  ds.depthTest = true;
  ds.depthFunc = gpu::rb::CompareFunc::Less;
  float z[4][4] = {};
  for (auto& p : z) p[3] = 2.0f;  // clamped to 1: fails LESS against the cleared 1.0
  const uint16_t pass =
      rb.depthStencilSamples(ds, gpu::rb::DepthFormat::D24S8, dv, 0, 0, 4, 0x7fff, z, true);
  EXPECT_EQ(pass, 0x7777);  // sample 3 fails everywhere (pixel 3's was not even covered)
  EXPECT_EQ(rb.stats().samplesTested, 15u);
  EXPECT_EQ(rb.stats().samplesPassed, 12u);
  const float rgba[4][4] = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}};
  rb.colorSamples({}, gpu::rb::ColorFormat::RGBA8, cv, 0, 0, 4, pass, rgba);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(color[size_t(s) * 4], s < 3 ? 0xff : 0) << s;
  EXPECT_EQ(rb.stats().colorBytesWritten, 12u * 4);
}

// ---- the driver ------------------------------------------------------------------------

TEST(Msaa, TiledMatchesSysmemBitExact) {
  for (uint32_t samples : {2u, 4u}) {
    const std::vector<uint8_t> sysmem = renderScene(RenderMode::Sysmem, samples);
    const std::vector<uint8_t> sysDepth = renderScene(RenderMode::Sysmem, samples, true);
    for (RenderMode mode : {RenderMode::Naive, RenderMode::Binning}) {
      SCOPED_TRACE(std::string(driver::renderModeName(mode)) + " " + std::to_string(samples));
      EXPECT_TRUE(renderScene(mode, samples) == sysmem);
      EXPECT_TRUE(renderScene(mode, samples, true) == sysDepth);
    }
    // The edges produce values no single-sample render has.
    EXPECT_FALSE(sysmem == renderScene(RenderMode::Sysmem, 1));
  }
}

TEST(Msaa, HalfCoveredPixelsResolveToTheAverage) {
  for (uint32_t samples : {2u, 4u}) {
    for (RenderMode mode : kModes) {
      SCOPED_TRACE(std::string(driver::renderModeName(mode)) + " " + std::to_string(samples));
      MsaaFixture f(mode, samples, false);
      f.ctx.clear(pipe::kClearColor, {0, 0, 0, 0}, 1.0f, 0);
      // A vertical edge through the centres of column 100: half of each pixel's samples lie
      // left of it (2x: x+0.25; 4x: x+0.375, x+0.125).
      f.drawTriangles(rect(20.0, 200.0, 100.5, 280.0, 0.5f));
      const std::vector<uint8_t> img = f.ctx.readSurface(f.fb.color);
      EXPECT_EQ(f.red(img, 99, 240), 255);
      EXPECT_EQ(f.red(img, 100, 240), 128);  // (255 × n/2 + n/2) / n, rounded
      EXPECT_EQ(f.red(img, 101, 240), 0);
      // A slanted edge gives intermediate values, each a multiple of 255/n.
      f.ctx.clear(pipe::kClearColor, {0, 0, 0, 0}, 1.0f, 0);
      f.drawTriangles({clipX(200), clipY(100), 0.5f, clipX(400), clipY(130), 0.5f, clipX(200),
                       clipY(300), 0.5f});
      const std::vector<uint8_t> slant = f.ctx.readSurface(f.fb.color);
      std::set<int> values;
      for (uint32_t y = 0; y < kH; ++y)
        for (uint32_t x = 0; x < kW; ++x) values.insert(f.red(slant, x, y));
      std::set<int> allowed;
      for (uint32_t k = 0; k <= samples; ++k)
        allowed.insert(int((255 * k + samples / 2) / samples));
      EXPECT_EQ(values, allowed);
    }
  }
}

TEST(Msaa, SingleSampleIsUnchanged) {
  // Explicit samples = 1 is the default surface; the coverage operations do nothing on it and
  // edges stay hard.
  for (RenderMode mode : kModes) {
    MsaaFixture f(mode, 1, false);
    pipe::BlendState b;
    b.sampleCoverage = true;
    b.sampleCoverageValue = 0.25f;
    b.alphaToCoverage = true;
    f.ctx.setBlend(b);
    f.setColor({1, 0, 0, 0.1f});
    f.ctx.clear(pipe::kClearColor, {0, 0, 0, 0}, 1.0f, 0);
    f.drawTriangles(
        {clipX(200), clipY(100), 0.5f, clipX(400), clipY(130), 0.5f, clipX(200), clipY(300), 0.5f});
    const std::vector<uint8_t> img = f.ctx.readSurface(f.fb.color);
    std::set<int> values;
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x) values.insert(f.red(img, x, y));
    EXPECT_EQ(values, (std::set<int>{0, 255}));
    const std::vector<driver::BatchReport> reports = f.ctx.takeReports();
    EXPECT_EQ(reports.back().stats.gmem.sampleResolves, 0u);
  }
}

uint64_t busWrites(const driver::BatchReport& r, gpu::BusClient c) {
  return r.stats.bus.client[size_t(c)].writeBytes;
}
uint64_t busReads(const driver::BatchReport& r, gpu::BusClient c) {
  return r.stats.bus.client[size_t(c)].readBytes;
}

TEST(Msaa, OnlyTheResolvedImageLeavesGmemAtTheEndOfAFrame) {
  constexpr uint64_t kImage = uint64_t{kW} * kH * 4;
  for (uint32_t samples : {2u, 4u}) {
    for (RenderMode mode : {RenderMode::Naive, RenderMode::Binning}) {
      SCOPED_TRACE(std::string(driver::renderModeName(mode)) + " " + std::to_string(samples));
      MsaaFixture f(mode, samples);
      f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
      f.drawQuad();
      f.drawQuad();
      f.ctx.readSurface(f.fb.color);  // ends the frame: the samples are dropped
      driver::BatchReport r = f.ctx.takeReports().back();
      EXPECT_EQ(busWrites(r, gpu::BusClient::GmemResolve), kImage);
      EXPECT_EQ(busReads(r, gpu::BusClient::GmemRestore), 0u);
      EXPECT_EQ(r.stats.gmem.sampleResolves, r.layout->bins.size());
      // The next batch needs the old contents: rebuilt from the resolved image.
      f.drawQuad();
      f.ctx.flush();  // not the end of the frame: the samples are stored as well
      r = f.ctx.takeReports().back();
      EXPECT_EQ(busReads(r, gpu::BusClient::GmemRestore), kImage);
      EXPECT_EQ(r.stats.gmem.sampleRestores, r.layout->bins.size());
      EXPECT_EQ(busWrites(r, gpu::BusClient::GmemResolve), kImage * (1 + samples));
      // ... so the one after restores the samples themselves.
      f.drawQuad();
      f.ctx.readSurface(f.fb.color);
      r = f.ctx.takeReports().back();
      EXPECT_EQ(busReads(r, gpu::BusClient::GmemRestore), kImage * samples);
      EXPECT_EQ(r.stats.gmem.sampleRestores, 0u);
      EXPECT_GT(r.restores, 0u);
      EXPECT_FALSE(r.lrz);
      EXPECT_FALSE(r.blockResolve);
    }
  }
}

TEST(Msaa, SysmemResolvesWithABlitOnTheBus) {
  constexpr uint64_t kImage = uint64_t{kW} * kH * 4;
  MsaaFixture f(RenderMode::Sysmem, 4, false);
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.drawQuad();
  f.ctx.readSurface(f.fb.color);
  const driver::BatchReport r = f.ctx.takeReports().back();
  EXPECT_EQ(busReads(r, gpu::BusClient::GmemResolve), kImage * 4);
  EXPECT_EQ(busWrites(r, gpu::BusClient::GmemResolve), kImage);
  // The RB wrote every sample of the clear and of the quad in system memory.
  EXPECT_GE(busWrites(r, gpu::BusClient::RenderBackend), kImage * 4);
  EXPECT_EQ(r.stats.gmem.sampleResolves, 1u);
}

TEST(Msaa, BinsShrinkWithTheSampleCount) {
  const gpu::Preset& preset = gpu::findPreset("adreno-a320");
  size_t previous = 0;
  for (uint32_t samples : {1u, 2u, 4u}) {
    driver::BinLayoutInput in;
    in.width = kW;
    in.height = kH;
    in.bufferCpp = {4, 4};
    in.samples = samples;
    const driver::BinLayout l = driver::computeBinLayout(preset, in);
    EXPECT_LE(uint64_t{l.gmemUsed}, preset.gmemBytes);
    EXPECT_EQ(l.gmemUsed - l.gmemBase[1], uint64_t{4} * samples * l.binW * l.binH);
    EXPECT_GT(l.bins.size(), previous) << samples;
    previous = l.bins.size();
    // The driver lays out the same bins for a multisample framebuffer.
    MsaaFixture f(RenderMode::Naive, samples);
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
    f.depthTest(gpu::rb::CompareFunc::Less);
    f.drawQuad();
    f.ctx.flush();
    EXPECT_EQ(f.ctx.takeReports().back().layout->bins.size(), l.bins.size());
  }
  driver::BinLayoutInput bad;
  bad.width = bad.height = 64;
  bad.bufferCpp = {4};
  bad.samples = 3;
  EXPECT_THROW(driver::computeBinLayout(preset, bad), Error);
  driver::BinLayoutInput two = bad;
  two.samples = 2;
  bad.samples = 4;
  EXPECT_FALSE(driver::BinLayoutKey::make(preset, two) == driver::BinLayoutKey::make(preset, bad));
}

uint64_t occlusion(MsaaFixture& f, pipe::QueryId q) {
  return f.ctx.queryResult(q, true).value;
}

TEST(Msaa, OcclusionQueriesCountSamples) {
  for (uint32_t samples : {1u, 4u}) {
    for (RenderMode mode : kModes) {
      SCOPED_TRACE(std::string(driver::renderModeName(mode)) + " " + std::to_string(samples));
      MsaaFixture f(mode, samples);
      const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
      f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
      f.depthTest(gpu::rb::CompareFunc::Less);
      f.ctx.beginQuery(q);
      f.drawTriangles(rect(0, 0, kW, kH, 0.5f));
      f.ctx.endQuery(q);
      EXPECT_EQ(occlusion(f, q), uint64_t{samples} * kW * kH);
      // Alpha to coverage at alpha 0.5 keeps half of each pixel's samples (all at 1x).
      pipe::BlendState b;
      b.alphaToCoverage = true;
      f.ctx.setBlend(b);
      f.setColor({1, 0, 0, 0.5f});
      f.ctx.beginQuery(q);
      f.drawTriangles(rect(0, 0, kW, kH, 0.25f));
      f.ctx.endQuery(q);
      EXPECT_EQ(occlusion(f, q), uint64_t{samples == 1 ? 1u : samples / 2} * kW * kH);
    }
  }
}

TEST(Msaa, SampleCoverageAndAlphaToCoverageMasks) {
  struct Case {
    bool coverage, invert, alpha;
    float value, a;
    int red4, red2;  // resolved red of a red draw on black, 4x and 2x
  };
  const Case cases[] = {
      {true, false, false, 0.5f, 1, 128, 128},     // 2 of 4, 1 of 2
      {true, true, false, 0.5f, 1, 128, 128},      // the complement
      {true, false, false, 0.25f, 1, 64, 128},     // 1 of 4; round(0.5) = 1 of 2
      {true, true, false, 0.25f, 1, 191, 128},     // 3 of 4
      {true, false, false, 0.0f, 1, 0, 0},         // nothing
      {false, false, true, 0, 0.75f, 191, 255},    // 3 of 4, round(1.5) = 2 of 2
      {false, false, true, 0, 0.1f, 0, 0},         // round(0.4) = 0, round(0.2) = 0
      {true, false, true, 0.5f, 0.75f, 128, 128},  // patterns AND: {0,3} ∩ {0,1,3}
  };
  for (uint32_t samples : {2u, 4u}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::to_string(samples) + "x value " + std::to_string(c.value) + " alpha " +
                   std::to_string(c.a) + (c.invert ? " inverted" : ""));
      MsaaFixture f(RenderMode::Binning, samples, false);
      f.ctx.clear(pipe::kClearColor, {0, 0, 0, 0}, 1.0f, 0);
      pipe::BlendState b;
      b.sampleCoverage = c.coverage;
      b.sampleCoverageInvert = c.invert;
      b.sampleCoverageValue = c.value;
      b.alphaToCoverage = c.alpha;
      f.ctx.setBlend(b);
      f.setColor({1, 0, 0, c.a});
      f.drawQuad();
      const std::vector<uint8_t> img = f.ctx.readSurface(f.fb.color);
      EXPECT_EQ(f.red(img, kW / 2, kH / 2), samples == 4 ? c.red4 : c.red2);
      EXPECT_EQ(f.red(img, 5, 5), 0);
    }
  }
}

TEST(Msaa, Errors) {
  DriverFixture f(RenderMode::Binning);
  EXPECT_THROW(f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 8, 8, 3), Error);
  EXPECT_THROW(f.ctx.createDepthSurface(pipe::DepthFormat::D16, 8, 8, 8), Error);
  EXPECT_THROW(f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 8, 8, 0), Error);
  pipe::Framebuffer fb;
  fb.color = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 8, 8, 4);
  fb.depth = f.ctx.createDepthSurface(pipe::DepthFormat::D24S8, 8, 8, 2);
  fb.width = fb.height = 8;
  EXPECT_THROW(f.ctx.setFramebuffer(fb), Error);
  // The GPU rejects a sample count it does not have.
  gpu::cp::RegisterFile regs;
  regs.set(gpu::cp::Reg::RB_MSAA_CNTL, 3);
  EXPECT_THROW(gpu::decodeDrawState(regs), gpu::GpuFault);
  regs.set(gpu::cp::Reg::RB_MSAA_CNTL, 2);
  EXPECT_EQ(gpu::decodeDrawState(regs).samples, 4u);
}

TEST(Msaa, InvalidatedSamplesAreNeitherStoredNorResolved) {
  MsaaFixture f(RenderMode::Naive, 4);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  f.depthTest(gpu::rb::CompareFunc::Less);
  f.drawQuad();
  f.ctx.invalidate(pipe::kClearDepth);  // depth is discarded; colour is kept
  f.ctx.flush();
  const driver::BatchReport r = f.ctx.takeReports().back();
  // Colour: resolved image and samples; depth: nothing.
  EXPECT_EQ(busWrites(r, gpu::BusClient::GmemResolve), uint64_t{kW} * kH * 4 * 5);
}

}  // namespace
}  // namespace tessera
