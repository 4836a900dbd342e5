// Render backend (rb/): the blend equation of GLES 2.0 §4.1.7 on float colours.
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>

#include "gpu/rb/rb_state.h"

namespace tessera::gpu::rb {

// The factor of channel c (3 = alpha) for source s, destination d and constant k, all in
// [0,1]. For alpha the colour factors use their alpha component; SRC_ALPHA_SATURATE is
// min(As, 1 - Ad) for RGB and 1 for alpha.
inline float blendFactor(BlendFactor f, int c, const float s[4], const float d[4],
                         const float k[4]) {
  switch (f) {
    case BlendFactor::Zero:
      return 0.0f;
    case BlendFactor::One:
      return 1.0f;
    case BlendFactor::SrcColor:
      return s[c];
    case BlendFactor::OneMinusSrcColor:
      return 1.0f - s[c];
    case BlendFactor::DstColor:
      return d[c];
    case BlendFactor::OneMinusDstColor:
      return 1.0f - d[c];
    case BlendFactor::SrcAlpha:
      return s[3];
    case BlendFactor::OneMinusSrcAlpha:
      return 1.0f - s[3];
    case BlendFactor::DstAlpha:
      return d[3];
    case BlendFactor::OneMinusDstAlpha:
      return 1.0f - d[3];
    case BlendFactor::ConstantColor:
      return k[c];
    case BlendFactor::OneMinusConstantColor:
      return 1.0f - k[c];
    case BlendFactor::ConstantAlpha:
      return k[3];
    case BlendFactor::OneMinusConstantAlpha:
      return 1.0f - k[3];
    case BlendFactor::SrcAlphaSaturate:
      return c == 3 ? 1.0f : std::min(s[3], 1.0f - d[3]);
  }
  return 0.0f;
}

inline float blendEquation(BlendEquation e, float s, float sf, float d, float df) {
  switch (e) {
    case BlendEquation::Add:
      return s * sf + d * df;
    case BlendEquation::Subtract:
      return s * sf - d * df;
    case BlendEquation::ReverseSubtract:
      return d * df - s * sf;
  }
  return 0.0f;
}

// out = clamp(blend(s, d)) for all four channels; k is the clamped blend constant.
inline void blendPixel(const BlendState& b, const float s[4], const float d[4], const float k[4],
                       float out[4]) {
  for (int c = 0; c < 4; ++c) {
    const bool alpha = c == 3;
    const float sf = blendFactor(alpha ? b.srcAlpha : b.srcRgb, c, s, d, k);
    const float df = blendFactor(alpha ? b.dstAlpha : b.dstRgb, c, s, d, k);
    const float v = blendEquation(alpha ? b.eqAlpha : b.eqRgb, s[c], sf, d[c], df);
    out[c] = std::clamp(v, 0.0f, 1.0f);
  }
}

#if defined(__SSE2__)
// blendPixel with the four channels side by side in SSE registers: each channel goes through the
// same operations in the same order, so the result is the same to the bit (the render backend
// tests compare the two on every factor and equation).
namespace detail {
[[gnu::always_inline]] inline __m128 alphaOf(__m128 v) {
  return _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 3));
}
// Lane 3 (alpha) set.
[[gnu::always_inline]] inline __m128 alphaLane() {
  return _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
}
[[gnu::always_inline]] inline __m128 pickAlpha(__m128 rgb, __m128 alpha) {
  return _mm_or_ps(_mm_andnot_ps(alphaLane(), rgb), _mm_and_ps(alphaLane(), alpha));
}
[[gnu::always_inline]] inline __m128 blendFactor4(BlendFactor f, __m128 s, __m128 d, __m128 k) {
  const __m128 one = _mm_set1_ps(1.0f);
  switch (f) {
    case BlendFactor::Zero:
      return _mm_setzero_ps();
    case BlendFactor::One:
      return one;
    case BlendFactor::SrcColor:
      return s;
    case BlendFactor::OneMinusSrcColor:
      return _mm_sub_ps(one, s);
    case BlendFactor::DstColor:
      return d;
    case BlendFactor::OneMinusDstColor:
      return _mm_sub_ps(one, d);
    case BlendFactor::SrcAlpha:
      return alphaOf(s);
    case BlendFactor::OneMinusSrcAlpha:
      return _mm_sub_ps(one, alphaOf(s));
    case BlendFactor::DstAlpha:
      return alphaOf(d);
    case BlendFactor::OneMinusDstAlpha:
      return _mm_sub_ps(one, alphaOf(d));
    case BlendFactor::ConstantColor:
      return k;
    case BlendFactor::OneMinusConstantColor:
      return _mm_sub_ps(one, k);
    case BlendFactor::ConstantAlpha:
      return alphaOf(k);
    case BlendFactor::OneMinusConstantAlpha:
      return _mm_sub_ps(one, alphaOf(k));
    case BlendFactor::SrcAlphaSaturate:
      // std::min(a, b) is (b < a) ? b : a, which is _mm_min_ps(b, a).
      return pickAlpha(_mm_min_ps(_mm_sub_ps(one, alphaOf(d)), alphaOf(s)), one);
  }
  return _mm_setzero_ps();
}
[[gnu::always_inline]] inline __m128 blendEquation4(BlendEquation e, __m128 s, __m128 sf, __m128 d,
                                                    __m128 df) {
  switch (e) {
    case BlendEquation::Add:
      return _mm_add_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
    case BlendEquation::Subtract:
      return _mm_sub_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
    case BlendEquation::ReverseSubtract:
      return _mm_sub_ps(_mm_mul_ps(d, df), _mm_mul_ps(s, sf));
  }
  return _mm_setzero_ps();
}
}  // namespace detail

inline __m128 blendPixel4(const BlendState& b, __m128 s, __m128 d, __m128 k) {
  using namespace detail;
  __m128 sf = blendFactor4(b.srcRgb, s, d, k), df = blendFactor4(b.dstRgb, s, d, k);
  if (b.srcAlpha != b.srcRgb) sf = pickAlpha(sf, blendFactor4(b.srcAlpha, s, d, k));
  if (b.dstAlpha != b.dstRgb) df = pickAlpha(df, blendFactor4(b.dstAlpha, s, d, k));
  __m128 v = blendEquation4(b.eqRgb, s, sf, d, df);
  if (b.eqAlpha != b.eqRgb) v = pickAlpha(v, blendEquation4(b.eqAlpha, s, sf, d, df));
  // std::clamp(v, 0, 1): v < 0 ? 0 : (1 < v ? 1 : v), NaN staying NaN.
  const __m128 low = _mm_cmplt_ps(v, _mm_setzero_ps());
  v = _mm_andnot_ps(low, v);
  const __m128 high = _mm_cmplt_ps(_mm_set1_ps(1.0f), v);
  return _mm_or_ps(_mm_andnot_ps(high, v), _mm_and_ps(high, _mm_set1_ps(1.0f)));
}
#endif

}  // namespace tessera::gpu::rb
