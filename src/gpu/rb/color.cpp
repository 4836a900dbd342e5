#include <algorithm>
#include <bit>
#include <cstring>

#include "common/lane_count.h"
#include "common/simd.h"
#include "gpu/rb/color_write.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {

namespace {

// The shader's colour clamped to [0,1], as a fixed-point colour buffer takes it; NaN to 0.
#if defined(__SSE2__)
[[gnu::always_inline]] inline __m128 clampColor4(__m128 v) {
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 below = _mm_cmplt_ps(v, one);
  const __m128 upper = _mm_or_ps(_mm_and_ps(below, v), _mm_andnot_ps(below, one));
  return _mm_and_ps(_mm_cmpgt_ps(v, _mm_setzero_ps()), upper);
}
#endif

void clampColor(const float in[4], float out[4]) {
#if defined(__SSE2__)
  _mm_storeu_ps(out, clampColor4(_mm_loadu_ps(in)));
#else
  for (int c = 0; c < 4; ++c) {
    const float v = in[c];
    out[c] = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;  // also maps NaN to 0
  }
#endif
}

}  // namespace

// Draws change blend state and format rarely and quads come by the thousand: the write is set up
// again only when either differs, bit for bit, from the last one.
const ColorWrite& RenderBackend::colorWrite(const BlendState& b, ColorFormat f) {
  if (!colorWrite_ || colorFormat_ != f || std::memcmp(&blend_, &b, sizeof b) != 0) {
    std::memcpy(&blend_, &b, sizeof b);
    colorFormat_ = f;
    colorWrite_.emplace(b, f);
  }
  return *colorWrite_;
}

void RenderBackend::color(const BlendState& b, ColorFormat f, SurfaceView surface, int x, int y,
                          uint8_t mask, const float rgba[4][4]) {
  float channels[4][4];
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) channels[c][i] = rgba[i][c];
  const float* const rows[4] = {channels[0], channels[1], channels[2], channels[3]};
  color(colorWrite(b, f), surface, x, y, mask, rows, 0);
}

void RenderBackend::color(const ColorWrite& write, SurfaceView surface, int x, int y, uint8_t mask,
                          const float* const channels[4], int lane) {
  mask &= 0xf;
  if (mask == 0 || write.writesNothing()) return;
  const uint32_t bytes = write.bytes();
  // On the active SIMD path: the AVX2 clone inlines the blend and the codec.
  withSimdPath([&] {
#if defined(__SSE2__)
    if (write.writesQuads()) {
      __m128 src[4];
      for (int c = 0; c < 4; ++c) src[c] = _mm_loadu_ps(channels[c] + lane);
      _MM_TRANSPOSE4_PS(src[0], src[1], src[2], src[3]);  // channel rows to pixel rows
      for (__m128& pixel : src) pixel = clampColor4(pixel);
      write.runQuad(QuadPixels(surface, x, y, 4), mask, src);
      return;
    }
#endif
    for (int i = 0; i < 4; ++i) {
      if (!((mask >> i) & 1)) continue;
      const float shaded[4] = {channels[0][lane + i], channels[1][lane + i], channels[2][lane + i],
                               channels[3][lane + i]};
      float src[4];
      clampColor(shaded, src);
      write.run(surface.pixel(x + (i & 1), y + (i >> 1), bytes), src);
    }
  });
  const uint64_t pixels = static_cast<uint64_t>(quadLaneCount(mask));
  if (write.readsDst()) stats_.colorBytesRead += pixels * bytes;
  stats_.colorBytesWritten += pixels * bytes;
}

void RenderBackend::colorQuads(const ColorWrite& write, SurfaceView surface, const QuadWrite* quads,
                               int count, const float* const channels[4]) {
  if (write.writesNothing()) return;
#if TESSERA_AVX2_CLONES
  if (simdPath() == SimdPath::Avx2 && write.writesQuads()) {
    uint64_t pixels = 0;
    for (int i = 0; i < count; ++i) pixels += static_cast<uint64_t>(quadLaneCount(quads[i].mask));
    detail::colorQuadsAvx2(write, surface, quads, count, channels);
    if (write.readsDst()) stats_.colorBytesRead += pixels * 4;
    stats_.colorBytesWritten += pixels * 4;
    return;
  }
#endif
  for (int i = 0; i < count; ++i)
    color(write, surface, quads[i].x, quads[i].y, quads[i].mask, channels, 4 * quads[i].slot);
}

void RenderBackend::colorSamples(const BlendState& b, ColorFormat f, SurfaceView surface, int x,
                                 int y, uint32_t samples, uint16_t mask, const float rgba[4][4]) {
  const ColorWrite& write = colorWrite(b, f);
  if (mask == 0 || write.writesNothing()) return;
  const uint32_t bytes = write.bytes();
  for (int i = 0; i < 4; ++i) {
    if (!((mask >> (4 * i)) & 0xf)) continue;
    float src[4];
    clampColor(rgba[i], src);
    const int px = x + (i & 1), py = y + (i >> 1);
    for (uint32_t j = 0; j < samples; ++j)
      if ((mask >> (4u * uint32_t(i) + j)) & 1)
        write.run(surface.pixel(px * int(samples) + int(j), py, bytes), src);
  }
  const uint64_t written = static_cast<uint64_t>(laneCount(mask));
  if (write.readsDst()) stats_.colorBytesRead += written * bytes;
  stats_.colorBytesWritten += written * bytes;
}

void RenderBackend::clearColor(ColorFormat f, SurfaceView v, int x0, int y0, int x1, int y1,
                               const float rgba[4], uint8_t writeMask) {
  // GLES 2.0 §4.2.3: a clear writes only the channels the colour mask enables.
  const uint8_t written = writeMask & storedChannels(f);
  if (x0 >= x1 || y0 >= y1 || written == 0) return;
  float c[4];
  for (int i = 0; i < 4; ++i) c[i] = rgba[i] > 0.0f ? (rgba[i] < 1.0f ? rgba[i] : 1.0f) : 0.0f;
  const uint32_t bytes = layoutOf(f).bytes;
  const uint32_t writeBits = channelBits(f, written);
  const uint32_t value = packColor(f, c) & writeBits;
  const bool partial = written != storedChannels(f);
  if (!partial) return fillRect(v, x0, y0, x1, y1, bytes, value);
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = v.pixel(x0, y, bytes);
    for (int x = 0; x < x1 - x0; ++x) {
      uint8_t* p = row + x * bytes;
      storePixel(p, bytes, partial ? (loadPixel(p, bytes) & ~writeBits) | value : value);
    }
  }
}

}  // namespace tessera::gpu::rb
