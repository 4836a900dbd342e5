// Binning throughput: the VSC visibility-stream writer over one frame's binning pass, reported as
// triangles per second. A 1920x1080 surface is cut into 256x256 bins (8x5) grouped 2x2 into 12
// VSC pipes, the layout a 1 MiB GMEM gives colour + depth; 4096 triangles arrive as 16 draws of
// 256, each draw ending with a record written to every pipe's stream in GPU memory. Two sizes:
// small triangles that mostly touch one bin, and large ones that straddle several.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "bench_random.h"
#include "gpu/mem/gpu_memory.h"
#include "gpu/vsc/visibility_stream.h"

namespace tessera::gpu::vsc {
namespace {

constexpr int kWidth = 1920, kHeight = 1080, kBin = 256;
constexpr uint32_t kBinsX = 8, kBinsY = 5, kPipeBins = 2;
constexpr int kTriangles = 4096, kDrawSize = 256;
static_assert(kBinsX * kBin >= kWidth && kBinsY * kBin >= kHeight, "bins cover the surface");

// Screen-space bounding rectangles of triangles, clipped to the surface (what the binning pass
// hands the writer after the position-only vertex shader and setup).
struct Rect {
  int x0, y0, x1, y1;
};

std::vector<Rect> boxes(float size) {
  bench::BenchRandom rng(31);
  std::vector<Rect> r;
  for (int i = 0; i < kTriangles; ++i) {
    const float x = rng.uniform(-size / 2, kWidth), y = rng.uniform(-size / 2, kHeight);
    const float w = rng.uniform(size / 2, size), h = rng.uniform(size / 2, size);
    r.push_back({std::max(0, static_cast<int>(x)), std::max(0, static_cast<int>(y)),
                 std::min(kWidth, static_cast<int>(x + w) + 1),
                 std::min(kHeight, static_cast<int>(y + h) + 1)});
  }
  return r;
}

void binFrame(benchmark::State& state, float size) {
  const std::vector<Rect> rects = boxes(size);
  GpuMemory memory;
  std::vector<PipeConfig> pipes;
  for (uint32_t y = 0; y < kBinsY; y += kPipeBins)
    for (uint32_t x = 0; x < kBinsX; x += kPipeBins) {
      // Room for every triangle in every pipe: the streams never overflow.
      const uint32_t bytes = 4 * (kTriangles / kDrawSize + 2 * kTriangles);
      pipes.push_back({x, y, kPipeBins, std::min(kPipeBins, kBinsY - y),
                       memory.allocate(bytes, "vsc pipe"), bytes});
    }
  const GpuAddress sizes = memory.allocate(4 * kMaxPipes, "vsc sizes");
  const BinGrid grid{0, 0, kBin, kBin, kBinsX, kBinsY};
  VisibilityWriter writer;
  uint64_t binHits = 0;
  for (auto _ : state) {
    writer.begin(grid, pipes);
    for (int d = 0; d < kTriangles; d += kDrawSize) {
      writer.beginDraw();
      for (int t = d; t < d + kDrawSize; ++t) {
        const Rect& r = rects[t];
        writer.addPrimitive(static_cast<uint32_t>(t - d), r.x0, r.y0, r.x1, r.y1);
      }
      writer.endDraw(memory);
    }
    writer.flush(memory, sizes);
    benchmark::DoNotOptimize(writer.stats().bytesWritten);
    binHits += writer.stats().binHits;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kTriangles);
  state.counters["bins/tri"] =
      static_cast<double>(binHits) / static_cast<double>(state.iterations() * kTriangles);
}

void BM_BinSmallTriangles(benchmark::State& state) {
  binFrame(state, 24.0f);
}
void BM_BinLargeTriangles(benchmark::State& state) {
  binFrame(state, 400.0f);
}

BENCHMARK(BM_BinSmallTriangles);
BENCHMARK(BM_BinLargeTriangles);

}  // namespace
}  // namespace tessera::gpu::vsc
