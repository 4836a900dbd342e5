// The texture cache and compressed scene textures on rendered frames: texture bus bytes follow
// the bytes per texel of the format the scene's textures are stored in, images stay close to
// the RGBA8 rendering, and the cache changes bytes, never pixels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "gpu/preset/preset.h"
#include "gpu/preset/preset_field.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using tools::TextureFormat;

struct Frame {
  Image image;
  uint64_t textureBytes = 0, fetches = 0, lookups = 0, hits = 0, misses = 0, missBytes = 0;
};

Frame render(const gpu::Preset& p, TextureFormat f) {
  tools::FrameOptions o;
  o.textureFormat = f;
  const tools::FrameResult r = tools::renderFrame(scene::defaultScene(160, 120), p, o);
  Frame out;
  out.image = r.image;
  for (const driver::BatchReport& b : r.batches) {
    out.textureBytes += b.stats.bus[gpu::BusClient::Texture].readBytes;
    out.fetches += b.stats.tex.texelFetches;
    out.lookups += b.stats.tex.lookups;
    out.hits += b.stats.tex.hits;
    out.misses += b.stats.tex.misses;
    out.missBytes += b.stats.tex.missBytes;
  }
  return out;
}

double psnr(const Image& a, const Image& b) {
  double se = 0;
  for (size_t i = 0; i < a.rgba.size(); ++i) {
    const double d = double(a.rgba[i]) - double(b.rgba[i]);
    se += d * d;
  }
  const double mse = se / double(a.rgba.size());
  return mse == 0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

gpu::Preset withoutCache(const gpu::Preset& p) {
  gpu::Preset q = p;
  q.texCacheBytes = 0;
  return q;
}

TEST(TextureBandwidth, CacheCountersAddUpAndImagesAreUnchanged) {
  const gpu::Preset& a630 = gpu::findPreset("adreno-a630");
  const Frame cached = render(a630, TextureFormat::Rgba8);
  const Frame plain = render(withoutCache(a630), TextureFormat::Rgba8);
  EXPECT_EQ(cached.image.rgba, plain.image.rgba);  // the cache holds no data
  EXPECT_EQ(cached.fetches, plain.fetches);
  EXPECT_GT(cached.lookups, 0u);
  EXPECT_EQ(cached.hits + cached.misses, cached.lookups);
  EXPECT_EQ(cached.missBytes, cached.misses * a630.texCacheLineBytes);
  EXPECT_EQ(cached.textureBytes, cached.missBytes);
  // No cache: every texel fetch is charged its 4 bytes, as before the cache.
  EXPECT_EQ(plain.textureBytes, plain.fetches * 4);
  EXPECT_EQ(plain.lookups, 0u);
  EXPECT_LT(cached.textureBytes, plain.textureBytes / 4);
  std::printf(
      "a630 RGBA8: %llu texel fetches, hit rate %.1f%%, %llu bytes with the cache, %llu "
      "without\n",
      static_cast<unsigned long long>(cached.fetches),
      100.0 * double(cached.hits) / double(cached.lookups),
      static_cast<unsigned long long>(cached.textureBytes),
      static_cast<unsigned long long>(plain.textureBytes));
}

// Fragment warps are dealt to the shader cores, each with its own texture cache
// (FragmentStage::configureCores). With caches that hold every texture, a core misses each line
// it touches once per bin: more cores miss more (a line two cores read is a miss in each), but
// never more than once per core for each miss of a single core; pixels and lookups do not
// change.
TEST(TextureBandwidth, EachShaderCoreHasItsOwnTextureCache) {
  gpu::Preset p = gpu::findPreset("adreno-a630");
  p.texCacheBytes = 1u << 20;
  p.texCacheWays = 64;
  Frame frames[3];
  const uint32_t cores[3] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    p.shaderCores = cores[i];
    frames[i] = render(p, TextureFormat::Rgba8);
  }
  ASSERT_GT(frames[0].misses, 0u);
  for (int i = 1; i < 3; ++i) {
    SCOPED_TRACE(std::to_string(cores[i]) + " cores");
    EXPECT_EQ(frames[i].image.rgba, frames[0].image.rgba);
    EXPECT_EQ(frames[i].fetches, frames[0].fetches);
    EXPECT_EQ(frames[i].lookups, frames[0].lookups);
    EXPECT_EQ(frames[i].hits + frames[i].misses, frames[i].lookups);
    EXPECT_GT(frames[i].misses, frames[i - 1].misses);
    EXPECT_LE(frames[i].misses, cores[i] * frames[0].misses);
  }
}

// RGBA8 is 4 bytes per texel, ETC2 RGB 0.5 and ASTC 4x4 1, ASTC 8x8 0.25: with a cache, lines
// hold 8 times more ETC2 texels than RGBA8 ones, so about an eighth of the misses. Not exactly:
// ETC2's 4x4 blocks put a 2D neighbourhood in one line where RGBA8 lines are 16-texel rows
// (better reuse across rows), while lines fetched at the edges of the textures' footprints are
// mostly unused whatever the format; and mip levels smaller than a line are one line either way.
// Hence a band of [4, 12] around 8 for ETC2, and the ASTC formats ordered by their density.
TEST(TextureBandwidth, CompressedScenesReadFewerBytes) {
  const gpu::Preset& a630 = gpu::findPreset("adreno-a630");
  const Frame rgba = render(a630, TextureFormat::Rgba8);
  const Frame etc2 = render(a630, TextureFormat::Etc2);
  const Frame astc4 = render(a630, TextureFormat::Astc4x4);
  const Frame astc8 = render(a630, TextureFormat::Astc8x8);
  const double ratio = double(rgba.textureBytes) / double(etc2.textureBytes);
  std::printf(
      "a630 texture bytes: RGBA8 %llu, ETC2 %llu (%.2fx fewer), ASTC 4x4 %llu, ASTC 8x8 "
      "%llu; hit rates %.1f / %.1f / %.1f / %.1f%%\n",
      static_cast<unsigned long long>(rgba.textureBytes),
      static_cast<unsigned long long>(etc2.textureBytes), ratio,
      static_cast<unsigned long long>(astc4.textureBytes),
      static_cast<unsigned long long>(astc8.textureBytes),
      100.0 * double(rgba.hits) / double(rgba.lookups),
      100.0 * double(etc2.hits) / double(etc2.lookups),
      100.0 * double(astc4.hits) / double(astc4.lookups),
      100.0 * double(astc8.hits) / double(astc8.lookups));
  EXPECT_GE(ratio, 4.0);
  EXPECT_LE(ratio, 12.0);
  EXPECT_LT(astc4.textureBytes, rgba.textureBytes / 2);
  EXPECT_LT(astc8.textureBytes, astc4.textureBytes);
  EXPECT_EQ(etc2.fetches, rgba.fetches);  // the same texels filtered, from other bytes
  // The images: the filtering is the same, the encoders approximate. The scene's textures are
  // the worst case for block formats: the checker has one-texel dark grid lines and the stripes
  // hard colour edges inside blocks (about 27.6 dB for ETC2, 29 for ASTC 4x4), and ASTC 8x8's
  // 4x4 weight grid cannot place a one-texel line at all (about 21 dB). Measured over the whole
  // frame, untextured pixels included; the bounds leave a dB or two of margin.
  EXPECT_GT(psnr(rgba.image, etc2.image), 26.0);
  EXPECT_GT(psnr(rgba.image, astc4.image), 27.0);
  EXPECT_GT(psnr(rgba.image, astc8.image), 19.0);
  EXPECT_GT(psnr(rgba.image, astc4.image), psnr(rgba.image, astc8.image));
  // Without a cache each compressed texel costs its whole block (an upper bound): ETC2 then
  // reads twice RGBA8's bytes, the reason the cache matters for block formats.
  const Frame etcNoCache = render(withoutCache(a630), TextureFormat::Etc2);
  EXPECT_EQ(etcNoCache.textureBytes, etcNoCache.fetches * 8);
}

TEST(TextureBandwidth, TextureFormatNames) {
  for (TextureFormat f :
       {TextureFormat::Rgba8, TextureFormat::Etc2, TextureFormat::Astc4x4, TextureFormat::Astc8x8})
    EXPECT_EQ(tools::parseTextureFormat(tools::textureFormatName(f)), f);
  EXPECT_FALSE(tools::parseTextureFormat("bc1").has_value());
  EXPECT_EQ(tools::storedFormat(TextureFormat::Etc2, false), gpu::tex::TexFormat::ETC2_RGBA8);
  EXPECT_EQ(tools::storedFormat(TextureFormat::Etc2, true), gpu::tex::TexFormat::ETC2_RGB8);
}

}  // namespace
}  // namespace tessera
