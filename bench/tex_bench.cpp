// Texture unit throughput: pixels sampled per second for the filter paths a frame exercises
// (magnified bilinear, minified trilinear, nearest, a cube map), on a 256x256 RGBA8 texture
// with a full mip chain. Each quad walks the texture so that caches see a realistic stream.
// The Cached ones go through the adreno-a630's texture cache, so that the cost of the cache model
// shows: BM_QuadNearestCachedRGB8 is the lookup of glmark2's effect2d (an RGB8 image, NEAREST,
// about a texel per pixel), BM_QuadBilinearCached that of its desktop blur (RGBA8, bilinear, a
// texel per pixel), BM_QuadTrilinearCachedRGB8 that of its mipmapped texture scene (RGB8,
// trilinear, minified), BM_QuadNearestMinifiedCachedRGB8 that of its nearest-filtered one (RGB8,
// NEAREST, about two texels per pixel, turned), BM_QuadBilinearTurnedCached one like most of
// jellyfish's (RGBA8, bilinear, a pair's texels over many lines). The Cached ones report the
// cache's hit rate.
#include <benchmark/benchmark.h>

#include <bit>
#include <cmath>
#include <numbers>
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

  Texture(bool cube, Filter filter, MipFilter mip, TexFormat format = TexFormat::RGBA8,
          int size = 256) {
    desc.format = format;
    desc.width = desc.height = size;
    desc.levels = mip == MipFilter::None ? 1 : std::bit_width(static_cast<unsigned>(size));
    desc.cube = cube;
    desc.magFilter = desc.minFilter = filter;
    desc.mipFilter = mip;
    std::vector<uint8_t> texels(totalBytes(desc));
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 2654435761u);
    desc.base = memory.allocate(texels.size(), "texture");
    memory.write(BusClient::Host, desc.base, texels.data(), texels.size());
  }
};

// How quads() walks a texture: `scale` texels per pixel (below 1 magnifies, above 1 minifies),
// the screen turned by `degrees` against the texture's axes, on a `size`-texel square texture.
struct Walk {
  float scale = 1.0f;
  float degrees = 0.0f;
  int size = 256;
};

// A warp is 8 quads, 4 across and 2 down, sampled in one call as the shader core does; the
// memory is pinned as in a GPU run.
void quads(benchmark::State& state, Filter filter, MipFilter mip, Walk walk,
           TexFormat format = TexFormat::RGBA8, TexCacheConfig cache = {}) {
  Texture tex(false, filter, mip, format, walk.size);
  tex.unit.configureCache(cache);
  const GpuMemory::ViewScope pinned(tex.memory, tex.memory.view());
  const float step = walk.scale / static_cast<float>(walk.size);
  const float turn = walk.degrees * std::numbers::pi_v<float> / 180.0f;
  const float c = std::cos(turn), sn = std::sin(turn);
  constexpr int kQuads = 8;
  float s[4 * kQuads], t[4 * kQuads], bias[kQuads] = {}, rows[4][4 * kQuads];
  float* const out[4] = {rows[0], rows[1], rows[2], rows[3]};
  int64_t n = 0;
  for (auto _ : state) {
    // Warps in rows of 32 across, 64 rows down, as a bin's blocks are walked.
    const float x = static_cast<float>(n % 32) * 8.0f, y = static_cast<float>(n / 32 % 64) * 4.0f;
    for (int q = 0; q < kQuads; ++q) {
      for (int p = 0; p < 4; ++p) {
        const float px = x + static_cast<float>(2 * (q % 4) + (p & 1));
        const float py = y + static_cast<float>(2 * (q / 4) + (p >> 1));
        s[4 * q + p] = (c * px - sn * py) * step;
        t[4 * q + p] = (sn * px + c * py) * step;
      }
    }
    tex.unit.sampleQuads(tex.desc, s, t, bias, (1u << kQuads) - 1, out);
    benchmark::DoNotOptimize(rows);
    ++n;
  }
  state.SetItemsProcessed(n * 4 * kQuads);
  if (cache.bytes != 0) {
    const TexStats stats = tex.unit.takeStats();
    state.counters["hit_rate"] =
        static_cast<double>(stats.hits) / static_cast<double>(stats.lookups);
  }
}

void BM_QuadBilinearMagnified(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, {.scale = 0.5f});
}
void BM_QuadTrilinearMinified(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::Linear, {.scale = 3.0f});
}
void BM_QuadNearest(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, {});
}
TexCacheConfig a630Cache() {
  const Preset& a630 = findPreset("adreno-a630");
  return {a630.texCacheBytes, a630.texCacheLineBytes, a630.texCacheWays};
}
void BM_QuadNearestCachedRGB8(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, {}, TexFormat::RGB8, a630Cache());
}
void BM_QuadBilinearCached(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, {}, TexFormat::RGBA8, a630Cache());
}
void BM_QuadTrilinearCachedRGB8(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::Linear, {.scale = 1.5f}, TexFormat::RGB8, a630Cache());
}
// glmark2's nearest-filtered texture scene: a 512x512 RGB8 image without mipmaps on a turning
// cube, about two texels per pixel, its rows slanted across the screen's. With and without the
// a630's cache, so that the cost of the cache model shows.
constexpr Walk kTurnedCube{.scale = 2.0f, .degrees = 30.0f, .size = 512};
void BM_QuadNearestMinifiedRGB8(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, kTurnedCube, TexFormat::RGB8);
}
void BM_QuadNearestMinifiedCachedRGB8(benchmark::State& state) {
  quads(state, Filter::Nearest, MipFilter::None, kTurnedCube, TexFormat::RGB8, a630Cache());
}
// RGBA8, bilinear without mipmaps, 1.5 texels a pixel and turned against the screen, so that a
// pair's texels mostly spread over more lines than a few, as most of glmark2 jellyfish's do. With
// and without the a630's cache, so that the cost of the cache model shows.
constexpr Walk kTurnedBilinear{.scale = 1.5f, .degrees = 30.0f, .size = 512};
void BM_QuadBilinearTurned(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, kTurnedBilinear, TexFormat::RGBA8);
}
void BM_QuadBilinearTurnedCached(benchmark::State& state) {
  quads(state, Filter::Linear, MipFilter::None, kTurnedBilinear, TexFormat::RGBA8, a630Cache());
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
BENCHMARK(BM_QuadNearestMinifiedRGB8);
BENCHMARK(BM_QuadNearestMinifiedCachedRGB8);
BENCHMARK(BM_QuadBilinearTurned);
BENCHMARK(BM_QuadBilinearTurnedCached);
BENCHMARK(BM_QuadCubeBilinear);

}  // namespace
}  // namespace tessera::gpu::tex
