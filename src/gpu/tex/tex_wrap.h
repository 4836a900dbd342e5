// Texture unit (tex/): wrap modes of GLES 2.0 §3.7.6 applied to texel indices, and the float
// range reduction that keeps far-away coordinates exact before they become indices.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

// Fraction bits of a filtered texel address and of the blend between mip levels, as filtering
// hardware has (D3D10-class units: 8 bits); both the scalar and the SIMD filters use it.
inline constexpr int32_t kSubTexelBits = 8;
inline constexpr int32_t kSubTexelScale = 1 << kSubTexelBits;

// Brings s into a small range without changing the texels it selects: only the fraction matters
// for REPEAT, the fraction of s/2 for MIRRORED_REPEAT, and [0,1] for CLAMP_TO_EDGE (the clamp
// to [1/2N, 1 - 1/2N] of §3.7.6 then follows from clamping indices). NaN samples as 0.
inline float reduceCoord(Wrap w, float s) {
  if (!(s == s)) return 0.0f;
  switch (w) {
    case Wrap::Repeat:
      return std::isfinite(s) ? s - std::floor(s) : 0.0f;
    case Wrap::MirroredRepeat:
      return std::isfinite(s) ? s - 2.0f * std::floor(s * 0.5f) : 0.0f;
    case Wrap::ClampToEdge:
      return std::clamp(s, 0.0f, 1.0f);
  }
  return 0.0f;
}

// s in texel units of a level `size` texels wide, reduced so that whole-texel offsets of up to
// 16 still select what they would from the unreduced coordinate: REPEAT and MIRRORED_REPEAT are
// periodic in texels, and CLAMP_TO_EDGE clamps u only far beyond the edges, where every index
// clamps to the same edge texel either way.
// Always inlined: it sits on the per-texel path of every filter instance.
[[gnu::always_inline]] inline float texelCoord(Wrap w, float s, int32_t size) {
  const float n = static_cast<float>(size);
  if (w != Wrap::ClampToEdge || !(s == s)) return reduceCoord(w, s) * n;
  return std::clamp(s * n, -16.0f, n + 16.0f);
}

// Maps a texel index (possibly outside [0,size)) to the texel that the wrap mode selects.
[[gnu::always_inline]] inline int32_t wrapIndex(Wrap w, int32_t i, int32_t size) {
  if (static_cast<uint32_t>(i) < static_cast<uint32_t>(size)) return i;  // inside: every mode
  switch (w) {
    case Wrap::Repeat: {
      const int32_t m = i % size;
      return m < 0 ? m + size : m;
    }
    case Wrap::MirroredRepeat: {
      int32_t m = i % (2 * size);
      if (m < 0) m += 2 * size;
      return m < size ? m : 2 * size - 1 - m;
    }
    case Wrap::ClampToEdge:
      return std::clamp(i, 0, size - 1);
  }
  return 0;
}

}  // namespace tessera::gpu::tex
