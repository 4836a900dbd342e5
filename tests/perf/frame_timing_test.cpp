// The timing model on rendered frames: the passes it schedules account for all of a batch's
// work, it is deterministic, a wider bus never slows a frame, and frame cycles grow linearly
// with the triangle and pixel counts of synthetic scenes.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "gpu/perf/timing_model.h"
#include "gpu/preset/preset.h"
#include "report/counters_json.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using driver::RenderMode;
using gpu::perf::PassKind;

tools::FrameResult render(const scene::Scene& s, const gpu::Preset& p, RenderMode mode) {
  tools::FrameOptions o;
  o.mode = mode;
  o.warmupFrames = 1;  // visibility streams sized by the frame before, as in an application
  return tools::renderFrame(s, p, o);
}

TEST(FrameTiming, PassesAccountForEveryByteAndTriangleOfTheBatch) {
  const scene::Scene s = scene::defaultScene(160, 120);
  for (const gpu::Preset& p : gpu::allPresets())
    for (RenderMode mode : {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning}) {
      const tools::FrameResult f = render(s, p, mode);
      for (const driver::BatchReport& b : f.batches) {
        const auto passes = gpu::passWork(b.stats.pipeline);
        gpu::perf::BlockWork sum;
        for (const auto& pw : passes) sum += pw.work;
        EXPECT_EQ(sum.busBytes, b.stats.bus.totalGpuBytes()) << p.name;
        EXPECT_EQ(sum.triangles, b.stats.ras.triangles) << p.name;
        EXPECT_EQ(sum.resolveBytes, b.stats.gmem.resolveBytes) << p.name;
        EXPECT_EQ(sum.cpPackets, b.stats.cp.packets) << p.name;
        EXPECT_EQ(sum.texels, b.stats.tex.texelFetches) << p.name;
        ASSERT_EQ(b.timing.passes.size(), passes.size());
        size_t bins = 0;
        for (const auto& t : b.timing.passes) bins += t.kind == PassKind::Bin;
        EXPECT_EQ(bins, b.layout ? b.stats.pipeline.bins.size() : 0u) << p.name;
        EXPECT_GT(b.timing.cycles, 0.0);
      }
    }
}

TEST(FrameTiming, SameFrameGivesTheSameCycles) {
  const scene::Scene s = scene::defaultScene(200, 150);
  const gpu::Preset& p = gpu::findPreset("milo832-kv260");
  const auto a = report::frameTiming(render(s, p, RenderMode::Binning).batches);
  const auto b = report::frameTiming(render(s, p, RenderMode::Binning).batches);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.busy, b.busy);
}

TEST(FrameTiming, DoublingBusWidthNeverSlowsAFrame) {
  const scene::Scene s = scene::defaultScene(160, 120);
  for (const gpu::Preset& narrow : gpu::allPresets()) {
    gpu::Preset wide = narrow;
    wide.busBytesPerCycle *= 2;
    for (RenderMode mode : {RenderMode::Sysmem, RenderMode::Binning}) {
      const double a = report::frameTiming(render(s, narrow, mode).batches).cycles;
      const double b = report::frameTiming(render(s, wide, mode).batches).cycles;
      EXPECT_LE(b, a) << narrow.name;
    }
  }
}

// A grid of n×n quads (2n² triangles) covering `side`×`side` pixels of a `frame`×`frame`
// frame, drawn flat in one draw.
scene::Scene grid(uint32_t n, uint32_t side, uint32_t frame) {
  scene::Scene s;
  s.name = "grid";
  s.width = s.height = frame;
  scene::Mesh m;
  const float extent = 2.0f * side / float(frame);
  for (uint32_t y = 0; y <= n; ++y)
    for (uint32_t x = 0; x <= n; ++x) {
      m.positions.insert(m.positions.end(), {-1.0f + extent * x / n, -1.0f + extent * y / n, 0.0f});
      m.normals.insert(m.normals.end(), {0.0f, 0.0f, 1.0f});
    }
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      const uint32_t i = y * (n + 1) + x;
      m.indices.insert(m.indices.end(), {i, i + 1, i + n + 2, i, i + n + 2, i + n + 1});
    }
  s.meshes.push_back(std::move(m));
  scene::Draw d;
  d.shading = scene::Shading::Constant;
  for (int c = 0; c < 4; ++c) d.constants[scene::kSlotMvp * 4 + c * 5] = 1.0f;  // identity
  d.constants[scene::kSlotDiffuse * 4 + 0] = 1.0f;
  d.constants[scene::kSlotDiffuse * 4 + 3] = 1.0f;
  s.draws.push_back(d);
  return s;
}

// The coefficient of determination of the least-squares line through (x, y).
double linearFit(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy * sxy / (sxx * syy);
}

TEST(FrameTiming, CyclesGrowLinearlyWithTriangles) {
  for (const char* name : {"adreno-a330", "milo832-kv260"}) {
    const gpu::Preset& p = gpu::findPreset(name);
    std::vector<double> tris, cycles;
    for (uint32_t n : {64u, 96u, 128u, 160u, 192u}) {
      const auto t = report::frameTiming(render(grid(n, 128, 128), p, RenderMode::Binning).batches);
      tris.push_back(2.0 * n * n);
      cycles.push_back(t.cycles);
    }
    EXPECT_GT(cycles.back(), cycles.front()) << name;
    EXPECT_GT(linearFit(tris, cycles), 0.98) << name;
  }
}

TEST(FrameTiming, CyclesGrowLinearlyWithPixels) {
  for (const char* name : {"adreno-a330", "milo832-kv260"}) {
    const gpu::Preset& p = gpu::findPreset(name);
    std::vector<double> pixels, cycles;
    for (uint32_t side : {64u, 96u, 128u, 160u, 192u, 224u, 256u}) {
      const auto t = report::frameTiming(render(grid(4, side, 256), p, RenderMode::Sysmem).batches);
      pixels.push_back(double(side) * side);
      cycles.push_back(t.cycles);
    }
    EXPECT_GT(cycles.back(), cycles.front()) << name;
    EXPECT_GT(linearFit(pixels, cycles), 0.98) << name;
  }
}

}  // namespace
}  // namespace tessera
