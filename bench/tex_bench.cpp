// Texture unit throughput: pixels sampled per second for the filter paths a frame exercises
// (magnified bilinear, minified trilinear, nearest, a cube map), on a 256x256 RGBA8 texture
// with a full mip chain. Each quad walks the texture so that caches see a realistic stream.
// The Cached ones go through the adreno-a630's texture cache, so that the cost of the cache model
// shows: BM_QuadNearestCachedRGB8 is the lookup of glmark2's effect2d (an RGB8 image, NEAREST,
// about a texel per pixel), BM_QuadBilinearCached that of its desktop blur (RGBA8, bilinear, a
// texel per pixel), BM_QuadTrilinearCachedRGB8 that of its mipmapped texture scene (RGB8,
// trilinear, minified).
#include <benchmark/benchmark.h>

#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/preset/preset.h"
#include "gpu/tex/texture_unit.h"

namespace tessera::gpu::tex {
namespace {

struct Texture {
  GpuMemory memory;
  TextureUnit unit{memory};
  TextureDescriptor desc;

  Texture(bool cube, Filter filter, MipFilter mip, TexFormat format = TexFormat::RGBA8) {
    desc.format = format;
    desc.width = desc.height = 256;
    desc.levels = 9;
    desc.cube = cube;
    desc.magFilter = desc.minFilter = filter;
    desc.mipFilter = mip;
    std::vector<uint8_t> texels(totalBytes(desc));
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 2654435761u);
    desc.base = memory.allocate(texels.size(), "texture");
    memory.write(BusClient::Host, desc.base, texels.data(), texels.size());
  }
};

// `scale` texels per pixel: below 1 magnifies, above 1 minifies. A warp is 8 quads, 4 across
// and 2 down, sampled in one call as the shader core does; the memory is pinned as in a GPU run.
void quads(benchmark::State& state, Filter filter, MipFilter mip, float scale,
           TexFormat format = TexFormat::RGBA8, TexCacheConfig cache = {}) {
  Texture tex(false, filter, mip, format);
  tex.unit.configureCache(cache);
  const GpuMemory::ViewScope pinned(tex.memory, tex.memory.view());
  const float step = scale / 256.0f;
  constexpr int kQuads = 8;
  float s[4 * kQuads], t[4 * kQuads], bias[kQuads] = {}, rows[4][4 * kQuads];
  float* const out[4] = {rows[0], rows[1], rows[2], rows[3]};
  int64_t n = 0;
  for (auto _ : state) {
    const float x = static_cast<float>(n % 32) * 8.0f * step;
    const float y = static_cast<float>(n / 32 % 64) * 4.0f * step;
    for (int q = 0; q < kQuads; ++q) {
      const float qx = x + static_cast<float>(q % 4) * 2.0f * step;
      const float qy = y + static_cast<float>(q / 4) * 2.0f * step;
      for (int p = 0; p < 4; ++p) {
        s[4 * q + p] = qx + static_cast<float>(p & 1) * step;
        t[4 * q + p] = qy + static_cast<float>(p >> 1) * step;
      }
    }
    tex.unit.sampleQuads(tex.desc, s, t, bias, (1u << kQuads) - 1, out);
    benchmark::DoNotOptimize(rows);
    ++n;
  }
  state.SetItemsProcessed(n * 4 * kQuads);
}

void BM_QuadBilinearMagnified(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, 0.5f);
}
void BM_QuadTrilinearMinified(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::Linear, 3.0f);
}
void BM_QuadNearest(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, 1.0f);
}
TexCacheConfig a630Cache() {
  const Preset& a630 = findPreset("adreno-a630");
  return {a630.texCacheBytes, a630.texCacheLineBytes, a630.texCacheWays};
}
void BM_QuadNearestCachedRGB8(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, 1.0f, TexFormat::RGB8, a630Cache());
}
void BM_QuadBilinearCached(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, 1.0f, TexFormat::RGBA8, a630Cache());
}
void BM_QuadTrilinearCachedRGB8(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::Linear, 1.5f, TexFormat::RGB8, a630Cache());
}

void BM_QuadCubeBilinear(benchmark::State& state) {
  Texture tex(true, Filter::Linear, MipFilter::Linear);
  float out[4][4];
  int64_t n = 0;
  for (auto _ : state) {
    const float a = static_cast<float>(n % 4096) / 4096.0f * 6.2831853f;
    const float x[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const float y[4] = {a - 3.1f, a - 3.1f + 0.004f, a - 3.1f, a - 3.1f + 0.004f};
    const float z[4] = {0.3f, 0.3f, 0.304f, 0.304f};
    tex.unit.sampleQuadCube(tex.desc, x, y, z, 0.0f, out);
    benchmark::DoNotOptimize(out);
    ++n;
  }
  state.SetItemsProcessed(n * 4);
}

BENCHMARK(BM_QuadBilinearMagnified);
BENCHMARK(BM_QuadTrilinearMinified);
BENCHMARK(BM_QuadNearest);
BENCHMARK(BM_QuadNearestCachedRGB8);
BENCHMARK(BM_QuadBilinearCached);
BENCHMARK(BM_QuadTrilinearCachedRGB8);
BENCHMARK(BM_QuadCubeBilinear);

}  // namespace
}  // namespace tessera::gpu::tex
