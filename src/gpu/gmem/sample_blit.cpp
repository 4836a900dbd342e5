// RESOLVED blits (RB_BLIT_CNTL.RESOLVED): a multisample buffer's samples averaged into its
// single-sample image on the way out of GMEM, or that image copied into every sample on the way
// in. The seed notes the resolve step can serve as the multisample resolve (docs/msaa.md).
#include <algorithm>
#include <cstring>

#include "gpu/gmem/blit_engine.h"
#include "gpu/rb/color_format.h"

namespace tessera::gpu::gmem {
namespace {

// Combines the samples of `pixels` pixels (src: each pixel's samples side by side) into one
// value each: per channel (sum + samples/2) / samples, the average rounded to the unorm; depth
// and stencil take sample 0 (averaging depths would invent surfaces, and stencil is no number).
void downsampleRow(const uint8_t* src, uint8_t* dst, uint64_t pixels, const SampleFormat& f) {
  const uint32_t bpp = f.bytesPerPixel, n = f.samples;
  if (!f.color || n == 1) {
    for (uint64_t p = 0; p < pixels; ++p) std::memcpy(dst + p * bpp, src + p * bpp * n, bpp);
    return;
  }
  const rb::ColorLayout& l = rb::layoutOf(f.colorFormat);
  for (uint64_t p = 0; p < pixels; ++p) {
    const uint8_t* s = src + p * bpp * n;
    uint32_t v[4];  // each sample (RB_MSAA_CNTL allows at most 4) loaded once, then averaged
    for (uint32_t j = 0; j < n; ++j) v[j] = rb::loadPixel(s + j * bpp, bpp);
    uint32_t out = 0;
    for (int c = 0; c < 4; ++c) {
      if (l.bits[c] == 0) continue;
      const uint32_t max = (1u << l.bits[c]) - 1u;
      uint32_t sum = 0;
      for (uint32_t j = 0; j < n; ++j) sum += (v[j] >> l.shift[c]) & max;
      out |= ((sum + n / 2) / n) << l.shift[c];
    }
    rb::storePixel(dst + p * bpp, bpp, out);
  }
}

void upsampleRow(const uint8_t* src, uint8_t* dst, uint64_t pixels, const SampleFormat& f) {
  const uint32_t bpp = f.bytesPerPixel, n = f.samples;
  for (uint64_t p = 0; p < pixels; ++p)
    for (uint32_t j = 0; j < n; ++j) std::memcpy(dst + (p * n + j) * bpp, src + p * bpp, bpp);
}

struct Rows {
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

Rows clip(const BinRect& b, const SysmemSurface& s) {
  return {std::max(b.x0, 0), std::max(b.y0, 0), std::min<int>(b.x1, static_cast<int>(s.width)),
          std::min<int>(b.y1, static_cast<int>(s.height))};
}

// The rows of `r` in a surface: (first byte, bytes spanned, bytes per row of r).
struct Span {
  uint64_t first, bytes, rowBytes;
};
Span spanOf(const Rows& r, uint32_t pitch, uint32_t bytesPerPixel) {
  const uint64_t rowBytes = uint64_t(r.x1 - r.x0) * bytesPerPixel;
  return {uint64_t(r.y0) * pitch + uint64_t(r.x0) * bytesPerPixel,
          uint64_t(r.y1 - r.y0 - 1) * pitch + rowBytes, rowBytes};
}

}  // namespace

void BlitEngine::transferResolved(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& target,
                                  uint32_t gmemBase, uint32_t binW, const BinRect& bin,
                                  const SampleFormat& format, bool toGmem) {
  const BusClient client = toGmem ? BusClient::GmemRestore : BusClient::GmemResolve;
  const Rows r = clip(bin, target);
  if (!r.empty()) {
    const uint32_t bpp = format.bytesPerPixel, n = format.samples;
    const Span sys = spanOf(r, target.pitch, bpp);
    uint8_t* s = memory.span(client, target.base + sys.first, sys.bytes).data();
    const uint64_t gmemPitch = uint64_t{binW} * bpp * n;
    const uint64_t gmemRow = uint64_t(r.x1 - r.x0) * bpp * n;
    uint8_t* g = gmem.slice(
        gmemBase + uint64_t(r.y0 - bin.y0) * gmemPitch + uint64_t(r.x0 - bin.x0) * bpp * n,
        uint64_t(r.y1 - r.y0 - 1) * gmemPitch + gmemRow);
    const uint64_t pixels = uint64_t(r.x1 - r.x0);
    for (int y = 0; y < r.y1 - r.y0; ++y) {
      uint8_t* sysRow = s + uint64_t(y) * target.pitch;
      uint8_t* gmemRowPtr = g + uint64_t(y) * gmemPitch;
      if (toGmem)
        upsampleRow(sysRow, gmemRowPtr, pixels, format);
      else
        downsampleRow(gmemRowPtr, sysRow, pixels, format);
    }
    const uint64_t bytes = sys.rowBytes * uint64_t(r.y1 - r.y0);
    if (toGmem) {
      memory.countRead(client, bytes);
      stats_.restoreBytes += bytes;
    } else {
      memory.countWrite(client, bytes);
      stats_.resolveBytes += bytes;
    }
  }
  ++(toGmem ? stats_.restores : stats_.resolves);
  ++(toGmem ? stats_.sampleRestores : stats_.sampleResolves);
}

void BlitEngine::transferResolvedSysmem(GpuMemory& memory, const SysmemSurface& samples,
                                        const SysmemSurface& target, const BinRect& window,
                                        const SampleFormat& format, bool toSamples) {
  const BusClient client = toSamples ? BusClient::GmemRestore : BusClient::GmemResolve;
  const Rows r = clip(window, target);
  if (!r.empty()) {
    const Span one = spanOf(r, target.pitch, format.bytesPerPixel);
    const Span all = spanOf(r, samples.pitch, samples.bytesPerPixel);
    uint8_t* t = memory.span(client, target.base + one.first, one.bytes).data();
    uint8_t* s = memory.span(client, samples.base + all.first, all.bytes).data();
    const uint64_t pixels = uint64_t(r.x1 - r.x0);
    for (int y = 0; y < r.y1 - r.y0; ++y) {
      uint8_t* tRow = t + uint64_t(y) * target.pitch;
      uint8_t* sRow = s + uint64_t(y) * samples.pitch;
      if (toSamples)
        upsampleRow(tRow, sRow, pixels, format);
      else
        downsampleRow(sRow, tRow, pixels, format);
    }
    const uint64_t rows = uint64_t(r.y1 - r.y0);
    const uint64_t oneBytes = one.rowBytes * rows, allBytes = all.rowBytes * rows;
    memory.countRead(client, toSamples ? oneBytes : allBytes);
    memory.countWrite(client, toSamples ? allBytes : oneBytes);
    (toSamples ? stats_.restoreBytes : stats_.resolveBytes) += oneBytes;
  }
  ++(toSamples ? stats_.restores : stats_.resolves);
  ++(toSamples ? stats_.sampleRestores : stats_.sampleResolves);
}

}  // namespace tessera::gpu::gmem
