// Render backend (rb/): the blend equation of GLES 2.0 §4.1.7 on float colours.
#pragma once
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

}  // namespace tessera::gpu::rb
