// Render backend (rb/): one draw's blend and colour write of one stored value, set up once per
// draw state and run per pixel or sample.
#pragma once
#include <algorithm>
#include <cstdint>

#include "gpu/rb/blend.h"
#include "gpu/rb/color_format.h"
#include "gpu/rb/quad_pixels.h"

namespace tessera::gpu::rb {

// One draw's blend and colour write (GLES 2.0 §4.1.7-4.1.8) of one stored value: a pixel, or a
// sample of a multisample buffer.
class ColorWrite final {
 public:
  ColorWrite(const BlendState& b, ColorFormat f)
      : b_(b),
        codec_(f),
        stored_(storedChannels(f)),
        written_(b.colorWriteMask & stored_),
        bytes_(layoutOf(f).bytes),
        partial_(written_ != stored_),
        writeBits_(channelBits(f, written_)) {
    for (int c = 0; c < 4; ++c) k_[c] = std::clamp(b.constant[c], 0.0f, 1.0f);  // §4.1.7
  }
  bool writesNothing() const { return written_ == 0; }
  // The destination is read only when it contributes: blending, or channels the mask keeps.
  bool readsDst() const { return b_.enable || partial_; }
  uint32_t bytes() const { return bytes_; }

  // src: the shader output already clamped to [0,1]. With SSE2 the four channels stay in one
  // register through blendPixel4 and the codec's vector forms.
  void run(uint8_t* p, const float src[4]) const {
    const uint32_t old = readsDst() ? loadPixel(p, bytes_) : 0;
#if defined(__SSE2__)
    const __m128 s = _mm_loadu_ps(src);
    write(p, old,
          codec_.pack4(b_.enable ? blendPixel4(b_, s, codec_.unpack4(old), _mm_loadu_ps(k_)) : s));
#else
    uint32_t out;
    if (b_.enable) {
      float dst[4], res[4];
      codec_.unpack(old, dst);
      blendPixel(b_, src, dst, k_, res);
      out = codec_.pack(res);
    } else {
      out = codec_.pack(src);
    }
    write(p, old, out);
#endif
  }

#if defined(__SSE2__)
  // Four bytes R, G, B, A (RGBA8): whole quads go through runQuad.
  bool writesQuads() const {
    return bytes_ == 4 && codec_.bytePerChannel();
  }
  // A quad's four pixels at once; src[i], pixel i's colour, is clamped to [0,1]. Each pixel
  // goes through run()'s operations, but the destination is taken apart, blended and narrowed
  // to bytes for the four pixels together.
  void runQuad(const QuadPixels& pixels, uint8_t mask, const __m128 (&src)[4]) const {
    const __m128i old = readsDst() ? pixels.load(mask) : _mm_setzero_si128();
    const __m128i zero = _mm_setzero_si128();
    const __m128i low = _mm_unpacklo_epi8(old, zero), high = _mm_unpackhi_epi8(old, zero);
    const __m128i dst[4] = {_mm_unpacklo_epi16(low, zero), _mm_unpackhi_epi16(low, zero),
                            _mm_unpacklo_epi16(high, zero), _mm_unpackhi_epi16(high, zero)};
    __m128 blended[4];
    if (b_.enable) {
      const __m128 d[4] = {codec_.expand4(dst[0]), codec_.expand4(dst[1]), codec_.expand4(dst[2]),
                           codec_.expand4(dst[3])};
      blendPixels(b_, src, d, _mm_loadu_ps(k_), blended);
    }
    __m128i v[4];
    for (int i = 0; i < 4; ++i) v[i] = codec_.quantize4(b_.enable ? blended[i] : src[i]);
    // Every value is in [0, 255]: the saturating narrowings change none.
    __m128i out = _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
    if (partial_) {
      const __m128i bits = _mm_set1_epi32(static_cast<int32_t>(writeBits_));
      out = _mm_or_si128(_mm_andnot_si128(bits, old), _mm_and_si128(bits, out));
    }
    pixels.store(mask, out);
  }
#endif

  // What the warp kernel (color_quads_avx2.cpp) reads: the blend state, its clamped constant,
  // and whether the write mask keeps bits of the destination (those of writeBits() are written).
  const BlendState& blend() const {
    return b_;
  }
  const float* constant() const {
    return k_;
  }
  bool partial() const {
    return partial_;
  }
  uint32_t writeBits() const {
    return writeBits_;
  }

 private:
  void write(uint8_t* p, uint32_t old, uint32_t out) const {
    if (partial_) out = (old & ~writeBits_) | (out & writeBits_);
    storePixel(p, bytes_, out);
  }

  BlendState b_;  // a copy: a write is kept across quads (RenderBackend::colorWrite)
  PixelCodec codec_;
  uint8_t stored_, written_;
  uint32_t bytes_;
  bool partial_;
  uint32_t writeBits_;
  float k_[4];
};

}  // namespace tessera::gpu::rb
