// Rasterizer throughput inside one 256x256 bin (the window scissor of a GMEM render pass):
// triangle setup plus the hierarchical 8x8-block quad walk and per-quad interpolation, reported
// as covered pixels per second (and quads per second). Three sizes model the three regimes of a
// frame: ~10-pixel triangles of dense meshes (setup-bound), ~1000-pixel triangles of ordinary
// geometry, and a full-screen triangle (a post-processing pass) clipped to the bin.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_random.h"
#include "gpu/ras/rasterizer.h"

namespace tessera::gpu::ras {
namespace {

constexpr int kBin = 256;
// The bin at column 2, row 1 of a 1920x1080 surface.
constexpr Scissor kBinScissor{2 * kBin, kBin, 3 * kBin, 2 * kBin};

// Right triangles with legs `leg` pixels (area leg^2 / 2) at random sub-pixel positions inside
// the bin, random winding, and per-vertex depth and 1/w so interpolation does real work.
std::vector<Triangle> triangles(float leg, int count) {
  bench::BenchRandom rng(21);
  std::vector<Triangle> tris;
  for (int i = 0; i < count; ++i) {
    const float x = static_cast<float>(kBinScissor.x0) + rng.uniform(0.0f, kBin - leg);
    const float y = static_cast<float>(kBinScissor.y0) + rng.uniform(0.0f, kBin - leg);
    Triangle t{{{x, y, rng.uniform(0.0f, 1.0f), rng.uniform(0.1f, 1.0f)},
                {x + leg, y, rng.uniform(0.0f, 1.0f), rng.uniform(0.1f, 1.0f)},
                {x, y + leg, rng.uniform(0.0f, 1.0f), rng.uniform(0.1f, 1.0f)}},
               true};
    if (i % 2) std::swap(t.v[1], t.v[2]);
    tris.push_back(t);
  }
  return tris;
}

// Walks the triangles round-robin; every emitted quad is handed on (DoNotOptimize stands for
// the early-Z / fragment stage that consumes it).
void walk(benchmark::State& state, const std::vector<Triangle>& tris) {
  Rasterizer ras;
  size_t i = 0;
  for (auto _ : state) {
    ras.rasterize(tris[i], kBinScissor, [](const Quad& q) { benchmark::DoNotOptimize(q); });
    i = i + 1 == tris.size() ? 0 : i + 1;
  }
  const RasStats& s = ras.stats();
  state.SetItemsProcessed(static_cast<int64_t>(s.pixelsCovered));
  state.counters["quads/s"] =
      benchmark::Counter(static_cast<double>(s.quads), benchmark::Counter::kIsRate);
  state.counters["px/tri"] =
      static_cast<double>(s.pixelsCovered) / static_cast<double>(s.triangles);
}

void BM_RasterizeSmall(benchmark::State& state) {
  walk(state, triangles(4.5f, 4096));
}
void BM_RasterizeMedium(benchmark::State& state) {
  walk(state, triangles(45.0f, 1024));
}

// The screen-covering triangle of a full-screen pass on a 1920x1080 surface; each bin sees it
// as a whole 256x256 square of covered quads.
void BM_RasterizeFullScreen(benchmark::State& state) {
  walk(state,
       {Triangle{
           {{0.0f, 0.0f, 0.5f, 1.0f}, {3840.0f, 0.0f, 0.5f, 1.0f}, {0.0f, 2160.0f, 0.5f, 1.0f}},
           true}});
}

BENCHMARK(BM_RasterizeSmall);
BENCHMARK(BM_RasterizeMedium);
BENCHMARK(BM_RasterizeFullScreen);

}  // namespace
}  // namespace tessera::gpu::ras
