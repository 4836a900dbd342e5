// Render backend throughput: the per-quad work after shading, on a 256x256 bin of RGBA8 colour
// and D24S8 depth (512 KiB, as a bin of the A630's GMEM holds). Quads are visited row by row
// across the bin, as a full-screen triangle's would be; items are pixels.
//   BM_RbDepthQuads   LESS depth test with writes, fragments nearer than the stored depth
//   BM_RbColorOpaque  colour write without blending
//   BM_RbColorBlend   SRC_ALPHA, ONE_MINUS_SRC_ALPHA blending (reads the destination)
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_random.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {
namespace {

constexpr int kBin = 256;

struct Bin {
  std::vector<uint8_t> color = std::vector<uint8_t>(size_t{kBin} * kBin * 4, 0x40);
  std::vector<uint8_t> depth = std::vector<uint8_t>(size_t{kBin} * kBin * 4, 0xff);
  SurfaceView colorView() { return {color.data(), kBin * 4, 0, 0}; }
  SurfaceView depthView() { return {depth.data(), kBin * 4, 0, 0}; }
};

// The shader outputs of one warp (8 quads), as the fragment stage hands them over.
struct Shaded {
  alignas(32) float channels[4][32];
  explicit Shaded(bench::BenchRandom& r) {
    for (auto& channel : channels)
      for (float& v : channel) v = r.uniform(0.0f, 1.0f);
  }
};

void BM_RbDepthQuads(benchmark::State& state) {
  Bin bin;
  RenderBackend rb;
  DepthStencilState ds;
  ds.depthTest = true;
  float z = 0.999f;
  for (auto _ : state) {
    const float quadZ[4] = {z, z, z, z};
    for (int y = 0; y < kBin; y += 2)
      for (int x = 0; x < kBin; x += 2)
        benchmark::DoNotOptimize(
            rb.depthStencil(ds, DepthFormat::D24S8, bin.depthView(), x, y, 0xf, quadZ, true));
    z = z > 0.01f ? z - 0.001f : 0.999f;  // each pass nearer: every pixel passes and is written
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kBin * kBin);
}

void colorQuads(benchmark::State& state, const BlendState& blend) {
  Bin bin;
  RenderBackend rb;
  bench::BenchRandom random(3);
  const Shaded shaded(random);
  const float* const channels[4] = {shaded.channels[0], shaded.channels[1], shaded.channels[2],
                                    shaded.channels[3]};
  const ColorWrite& write = rb.colorWrite(blend, ColorFormat::RGBA8);
  for (auto _ : state) {
    int lane = 0;
    for (int y = 0; y < kBin; y += 2)
      for (int x = 0; x < kBin; x += 2) {
        rb.color(write, bin.colorView(), x, y, 0xf, channels, lane);
        lane = (lane + 4) & 31;
      }
    benchmark::DoNotOptimize(bin.color.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kBin * kBin);
}

void BM_RbColorOpaque(benchmark::State& state) {
  colorQuads(state, BlendState{});
}

void BM_RbColorBlend(benchmark::State& state) {
  BlendState b;
  b.enable = true;
  b.srcRgb = b.srcAlpha = BlendFactor::SrcAlpha;
  b.dstRgb = b.dstAlpha = BlendFactor::OneMinusSrcAlpha;
  colorQuads(state, b);
}

BENCHMARK(BM_RbDepthQuads);
BENCHMARK(BM_RbColorOpaque);
BENCHMARK(BM_RbColorBlend);

}  // namespace
}  // namespace tessera::gpu::rb
