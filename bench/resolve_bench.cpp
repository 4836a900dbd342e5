// GMEM blit engine throughput: the per-bin traffic of a tiled render pass between the 1 MiB tile
// memory and a 1920x1080 RGBA8 colour + D24S8 depth surface pair in system memory, reported as
// system-memory bytes per second. One iteration is one bin's worth of both buffers: resolve
// (GMEM -> memory, end of every bin) or restore (memory -> GMEM, when the pass loads the previous
// contents). Bins are visited row-major across the surface, so edge bins are clipped as in a
// frame. Arguments are the bin width and height; all fit colour + depth in 1 MiB.
#include <benchmark/benchmark.h>

#include <vector>

#include "gpu/gmem/blit_engine.h"
#include "gpu/gmem/tile_memory.h"
#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::gmem {
namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080, kBytesPerPixel = 4;
constexpr uint32_t kGmemBytes = 1u << 20;

struct Surfaces {
  GpuMemory memory;
  TileMemory gmem{kGmemBytes};
  SysmemSurface color, depth;

  Surfaces() {
    for (SysmemSurface* s : {&color, &depth}) {
      *s = {0, kWidth * kBytesPerPixel, kWidth, kHeight, kBytesPerPixel};
      s->base = memory.allocate(size_t{s->pitch} * kHeight, "surface");
      std::vector<uint8_t> fill(size_t{s->pitch} * kHeight);
      for (size_t i = 0; i < fill.size(); ++i) fill[i] = static_cast<uint8_t>(i * 2654435761u);
      memory.write(BusClient::Host, s->base, fill.data(), fill.size());
    }
  }
};

void blitBins(benchmark::State& state, bool toGmem) {
  const uint32_t binW = static_cast<uint32_t>(state.range(0));
  const uint32_t binH = static_cast<uint32_t>(state.range(1));
  const uint32_t depthBase = binW * binH * kBytesPerPixel;  // depth slice after colour
  if (2 * depthBase > kGmemBytes) {
    state.SkipWithError("colour + depth of the bin do not fit GMEM");
    return;
  }
  Surfaces s;
  BlitEngine blit;
  const uint32_t binsX = (kWidth + binW - 1) / binW, binsY = (kHeight + binH - 1) / binH;
  uint32_t bin = 0;
  for (auto _ : state) {
    const int x = static_cast<int>(bin % binsX * binW), y = static_cast<int>(bin / binsX * binH);
    const BinRect rect{x, y, x + static_cast<int>(binW), y + static_cast<int>(binH)};
    blit.transfer(s.memory, s.gmem, s.color, 0, binW, rect, toGmem);
    blit.transfer(s.memory, s.gmem, s.depth, depthBase, binW, rect, toGmem);
    benchmark::DoNotOptimize(blit.stats());  // the copies and their byte counts
    bin = bin + 1 == binsX * binsY ? 0 : bin + 1;
  }
  const GmemStats& st = blit.stats();
  state.SetBytesProcessed(static_cast<int64_t>(toGmem ? st.restoreBytes : st.resolveBytes));
}

void BM_ResolveBin(benchmark::State& state) {
  blitBins(state, false);
}
void BM_RestoreBin(benchmark::State& state) {
  blitBins(state, true);
}

BENCHMARK(BM_ResolveBin)->Args({128, 128})->Args({256, 256})->Args({512, 256});
BENCHMARK(BM_RestoreBin)->Args({128, 128})->Args({256, 256})->Args({512, 256});

}  // namespace
}  // namespace tessera::gpu::gmem
