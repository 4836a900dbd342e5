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
// The factor f of N pixels, out[i] from s[i], d[i] and the constant k: the switch is taken once
// for all of them.
template <int N>
[[gnu::always_inline]] inline void blendFactors(BlendFactor f, const __m128 (&s)[N],
                                                const __m128 (&d)[N], __m128 k, __m128 (&out)[N]) {
  const __m128 one = _mm_set1_ps(1.0f);
  auto each = [&](auto factor) __attribute__((always_inline)) {
    for (int i = 0; i < N; ++i) out[i] = factor(s[i], d[i]);
  };
  switch (f) {
    case BlendFactor::Zero:
      return each([](__m128, __m128) { return _mm_setzero_ps(); });
    case BlendFactor::One:
      return each([&](__m128, __m128) { return one; });
    case BlendFactor::SrcColor:
      return each([](__m128 sv, __m128) { return sv; });
    case BlendFactor::OneMinusSrcColor:
      return each([&](__m128 sv, __m128) { return _mm_sub_ps(one, sv); });
    case BlendFactor::DstColor:
      return each([](__m128, __m128 dv) { return dv; });
    case BlendFactor::OneMinusDstColor:
      return each([&](__m128, __m128 dv) { return _mm_sub_ps(one, dv); });
    case BlendFactor::SrcAlpha:
      return each([](__m128 sv, __m128) { return alphaOf(sv); });
    case BlendFactor::OneMinusSrcAlpha:
      return each([&](__m128 sv, __m128) { return _mm_sub_ps(one, alphaOf(sv)); });
    case BlendFactor::DstAlpha:
      return each([](__m128, __m128 dv) { return alphaOf(dv); });
    case BlendFactor::OneMinusDstAlpha:
      return each([&](__m128, __m128 dv) { return _mm_sub_ps(one, alphaOf(dv)); });
    case BlendFactor::ConstantColor:
      return each([&](__m128, __m128) { return k; });
    case BlendFactor::OneMinusConstantColor:
      return each([&](__m128, __m128) { return _mm_sub_ps(one, k); });
    case BlendFactor::ConstantAlpha:
      return each([&](__m128, __m128) { return alphaOf(k); });
    case BlendFactor::OneMinusConstantAlpha:
      return each([&](__m128, __m128) { return _mm_sub_ps(one, alphaOf(k)); });
    case BlendFactor::SrcAlphaSaturate:
      // std::min(a, b) is (b < a) ? b : a, which is _mm_min_ps(b, a).
      return each([&](__m128 sv, __m128 dv) {
        return pickAlpha(_mm_min_ps(_mm_sub_ps(one, alphaOf(dv)), alphaOf(sv)), one);
      });
  }
  return each([](__m128, __m128) { return _mm_setzero_ps(); });
}
// The equation e of N pixels.
template <int N>
[[gnu::always_inline]] inline void blendEquations(BlendEquation e, const __m128 (&s)[N],
                                                  const __m128 (&sf)[N], const __m128 (&d)[N],
                                                  const __m128 (&df)[N], __m128 (&out)[N]) {
  auto each = [&](auto equation) __attribute__((always_inline)) {
    for (int i = 0; i < N; ++i) out[i] = equation(_mm_mul_ps(s[i], sf[i]), _mm_mul_ps(d[i], df[i]));
  };
  switch (e) {
    case BlendEquation::Add:
      return each([](__m128 sv, __m128 dv) { return _mm_add_ps(sv, dv); });
    case BlendEquation::Subtract:
      return each([](__m128 sv, __m128 dv) { return _mm_sub_ps(sv, dv); });
    case BlendEquation::ReverseSubtract:
      return each([](__m128 sv, __m128 dv) { return _mm_sub_ps(dv, sv); });
  }
  return each([](__m128, __m128) { return _mm_setzero_ps(); });
}
}  // namespace detail

// blendPixel for N pixels side by side (out[i] from s[i] and d[i]), each state decision taken
// once for all of them.
template <int N>
[[gnu::always_inline]] inline void blendPixels(const BlendState& b, const __m128 (&s)[N],
                                               const __m128 (&d)[N], __m128 k, __m128 (&out)[N]) {
  using namespace detail;
  __m128 sf[N], df[N], alpha[N];
  blendFactors(b.srcRgb, s, d, k, sf);
  blendFactors(b.dstRgb, s, d, k, df);
  if (b.srcAlpha != b.srcRgb) {
    blendFactors(b.srcAlpha, s, d, k, alpha);
    for (int i = 0; i < N; ++i) sf[i] = pickAlpha(sf[i], alpha[i]);
  }
  if (b.dstAlpha != b.dstRgb) {
    blendFactors(b.dstAlpha, s, d, k, alpha);
    for (int i = 0; i < N; ++i) df[i] = pickAlpha(df[i], alpha[i]);
  }
  blendEquations(b.eqRgb, s, sf, d, df, out);
  if (b.eqAlpha != b.eqRgb) {
    blendEquations(b.eqAlpha, s, sf, d, df, alpha);
    for (int i = 0; i < N; ++i) out[i] = pickAlpha(out[i], alpha[i]);
  }
  // std::clamp(v, 0, 1): v < 0 ? 0 : (1 < v ? 1 : v), NaN staying NaN.
  for (int i = 0; i < N; ++i) {
    const __m128 v = _mm_andnot_ps(_mm_cmplt_ps(out[i], _mm_setzero_ps()), out[i]);
    const __m128 high = _mm_cmplt_ps(_mm_set1_ps(1.0f), v);
    out[i] = _mm_or_ps(_mm_andnot_ps(high, v), _mm_and_ps(high, _mm_set1_ps(1.0f)));
  }
}

inline __m128 blendPixel4(const BlendState& b, __m128 s, __m128 d, __m128 k) {
  const __m128 ss[1] = {s}, ds[1] = {d};
  __m128 out[1];
  blendPixels(b, ss, ds, k, out);
  return out[0];
}
#endif

}  // namespace tessera::gpu::rb
