#include <algorithm>
#include <bit>

#include "common/lane_count.h"
#include "gpu/rb/blend.h"
#include "gpu/rb/color_format.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {

void RenderBackend::color(const BlendState& b, ColorFormat f, SurfaceView surface, int x, int y,
                          uint8_t mask, const float rgba[4][4]) {
  mask &= 0xf;
  const uint8_t stored = storedChannels(f);
  const uint8_t written = b.colorWriteMask & stored;
  if (mask == 0 || written == 0) return;
  const uint32_t bytes = layoutOf(f).bytes;
  // The destination is read only when it contributes: blending, or channels the mask keeps.
  const bool partial = written != stored;
  const bool readDst = b.enable || partial;
  const uint32_t writeBits = channelBits(f, written);
  float k[4];
  for (int c = 0; c < 4; ++c) k[c] = std::clamp(b.constant[c], 0.0f, 1.0f);  // §4.1.7

  for (int i = 0; i < 4; ++i) {
    if (!((mask >> i) & 1)) continue;
    uint8_t* p = surface.pixel(x + (i & 1), y + (i >> 1), bytes);
    float src[4];
    for (int c = 0; c < 4; ++c) {
      const float v = rgba[i][c];
      src[c] = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;  // also maps NaN to 0
    }
    const uint32_t old = readDst ? loadPixel(p, bytes) : 0;
    uint32_t out;
    if (b.enable) {
      float dst[4], res[4];
      unpackColor(f, old, dst);
      blendPixel(b, src, dst, k, res);
      out = packColor(f, res);
    } else {
      out = packColor(f, src);
    }
    if (partial) out = (old & ~writeBits) | (out & writeBits);
    storePixel(p, bytes, out);
  }
  const uint64_t pixels = static_cast<uint64_t>(laneCount(mask));
  if (readDst) stats_.colorBytesRead += pixels * bytes;
  stats_.colorBytesWritten += pixels * bytes;
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
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = v.pixel(x0, y, bytes);
    for (int x = 0; x < x1 - x0; ++x) {
      uint8_t* p = row + x * bytes;
      storePixel(p, bytes, partial ? (loadPixel(p, bytes) & ~writeBits) | value : value);
    }
  }
}

}  // namespace tessera::gpu::rb
