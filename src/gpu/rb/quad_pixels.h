// Render backend (rb/): the four pixels of a quad in one surface, moved as four 32-bit lanes of
// an SSE register (a 2-byte pixel in the low half of its lane). The depth test and the colour
// write of whole quads load and store through it.
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>

#include <cstdint>

#include "gpu/rb/color_format.h"
#include "gpu/rb/rb_state.h"

namespace tessera::gpu::rb {

// Pixel i of the quad at (x, y) is (x + (i & 1), y + (i >> 1)): lane i.
class QuadPixels {
 public:
  QuadPixels(SurfaceView s, int x, int y, uint32_t bytes)
      : QuadPixels(s.pixel(x, y, bytes), s.pitch, bytes) {}
  // The quad whose top-left pixel is at `row0`, in rows `pitch` bytes apart.
  QuadPixels(uint8_t* row0, uint32_t pitch, uint32_t bytes)
      : row0_(row0), row1_(row0 + pitch), bytes_(bytes) {}

  // A covered quad of 4-byte pixels reads both rows whole; otherwise only the pixels of `mask`
  // are read, since the others may lie outside the surface. Lanes not read are 0.
  __m128i load(uint32_t mask) const {
    if (mask == 0xf && bytes_ == 4)
      return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(row0_)),
                                _mm_loadl_epi64(reinterpret_cast<const __m128i*>(row1_)));
    // Assembled in registers: four scalar stores read back as one vector would wait for store
    // forwarding, which cannot merge them.
    uint32_t v[4];
    for (int i = 0; i < 4; ++i) v[i] = (mask >> i) & 1 ? loadPixel(pixel(i), bytes_) : 0u;
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(v[0])),
                                                 _mm_cvtsi32_si128(static_cast<int>(v[1]))),
                              _mm_unpacklo_epi32(_mm_cvtsi32_si128(static_cast<int>(v[2])),
                                                 _mm_cvtsi32_si128(static_cast<int>(v[3]))));
  }
  // Writes the lanes of `mask` to their pixels.
  void store(uint32_t mask, __m128i v) const {
    if (mask == 0xf && bytes_ == 4) {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(row0_), v);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(row1_), _mm_unpackhi_epi64(v, v));
      return;
    }
    alignas(16) uint32_t lanes[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), v);
    for (int i = 0; i < 4; ++i)
      if ((mask >> i) & 1) storePixel(pixel(i), bytes_, lanes[i]);
  }

 private:
  uint8_t* pixel(int i) const { return (i < 2 ? row0_ : row1_) + (i & 1) * bytes_; }

  uint8_t* row0_;
  uint8_t* row1_;
  uint32_t bytes_;
};

}  // namespace tessera::gpu::rb
#endif
