// Render backend (rb/): depth quantization, the compare functions shared by the depth and
// stencil tests, and the stencil operations (GLES 2.0 §4.1.5-4.1.6).
#pragma once
#include <algorithm>
#include <cstdint>

#include "gpu/rb/rb_state.h"

namespace tessera::gpu::rb {

inline constexpr uint32_t kD16Max = 0xffffu;
inline constexpr uint32_t kD24Max = 0xffffffu;
inline constexpr uint32_t kStencilShift = 24;

// round(z * (2^n - 1)) with z clamped to [0,1] (§2.12.1: window z is clamped); NaN -> 0.
inline uint32_t quantizeDepth(float z, uint32_t max) {
  const double c = z > 0.0f ? (z < 1.0f ? static_cast<double>(z) : 1.0) : 0.0;
  return static_cast<uint32_t>(c * static_cast<double>(max) + 0.5);
}

// True when the incoming value passes against the stored one ("incoming func stored").
inline bool compare(CompareFunc f, uint32_t incoming, uint32_t stored) {
  switch (f) {
    case CompareFunc::Never:
      return false;
    case CompareFunc::Less:
      return incoming < stored;
    case CompareFunc::Equal:
      return incoming == stored;
    case CompareFunc::LEqual:
      return incoming <= stored;
    case CompareFunc::Greater:
      return incoming > stored;
    case CompareFunc::NotEqual:
      return incoming != stored;
    case CompareFunc::GEqual:
      return incoming >= stored;
    case CompareFunc::Always:
      return true;
  }
  return false;
}

// The new stencil value before the write mask; INCR/DECR saturate, the _WRAP forms wrap.
inline uint8_t stencilOp(StencilOp op, uint8_t s, uint8_t ref) {
  switch (op) {
    case StencilOp::Keep:
      return s;
    case StencilOp::Zero:
      return 0;
    case StencilOp::Replace:
      return ref;
    case StencilOp::Incr:
      return s == 0xff ? s : static_cast<uint8_t>(s + 1);
    case StencilOp::Decr:
      return s == 0 ? s : static_cast<uint8_t>(s - 1);
    case StencilOp::Invert:
      return static_cast<uint8_t>(~s);
    case StencilOp::IncrWrap:
      return static_cast<uint8_t>(s + 1);
    case StencilOp::DecrWrap:
      return static_cast<uint8_t>(s - 1);
  }
  return s;
}

}  // namespace tessera::gpu::rb
