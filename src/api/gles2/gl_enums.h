// GL enums to the hardware's encodings: one table each, used by every GL call that takes them.
#pragma once
#include <GLES2/gl2.h>

#include <optional>

#include "pipe/state.h"

namespace tessera::gles2 {

// EXT_shadow_samplers (gl2ext.h names them with an _EXT suffix).
inline constexpr GLenum kTextureCompareMode = 0x884C, kTextureCompareFunc = 0x884D,
                        kCompareRefToTexture = 0x884E;
// OES_texture_3D (gl2ext.h: the _OES names).
inline constexpr GLenum kTexture3D = 0x806F, kTextureBinding3D = 0x806A, kTextureWrapR = 0x8072,
                        kMax3DTextureSize = 0x8073, kAttachmentTexture3DZoffset = 0x8CD4;
inline constexpr GLint kMax3DSize = 256;
// EXT_occlusion_query_boolean.
inline constexpr GLenum kAnySamplesPassed = 0x8C2F, kAnySamplesPassedConservative = 0x8D6A,
                        kCurrentQuery = 0x8865, kQueryResult = 0x8866,
                        kQueryResultAvailable = 0x8867;
// EXT_disjoint_timer_query (with the query names above).
inline constexpr GLenum kQueryCounterBits = 0x8864, kTimeElapsed = 0x88BF, kTimestamp = 0x8E28,
                        kGpuDisjoint = 0x8FBB;
// AMD_performance_monitor.
inline constexpr GLenum kCounterType = 0x8BC0, kCounterRange = 0x8BC1, kUnsignedInt64 = 0x8BC2,
                        kPerfmonResultAvailable = 0x8BC4, kPerfmonResultSize = 0x8BC5,
                        kPerfmonResult = 0x8BC6;
// EXT_robustness's state (the reset statuses are used by their gl2ext.h names).
inline constexpr GLenum kResetNotificationStrategy = 0x8256, kLoseContextOnReset = 0x8252,
                        kNoResetNotification = 0x8261, kContextRobustAccess = 0x90F3;
// OES_texture_half_float: the HALF_FLOAT_OES type.
inline constexpr GLenum kHalfFloat = 0x8D61;
// EXT_texture_filter_anisotropic.
inline constexpr GLenum kTextureMaxAnisotropy = 0x84FE, kMaxTextureMaxAnisotropy = 0x84FF;

inline std::optional<pipe::CompareFunc> compareFunc(GLenum e) {
  if (e < GL_NEVER || e > GL_ALWAYS) return std::nullopt;  // GL_NEVER..GL_ALWAYS are 0x200..0x207
  return static_cast<pipe::CompareFunc>(e - GL_NEVER);     // in the hardware's order
}

inline std::optional<pipe::StencilOp> stencilOpOf(GLenum e) {
  switch (e) {
    case GL_KEEP:
      return pipe::StencilOp::Keep;
    case GL_ZERO:
      return pipe::StencilOp::Zero;
    case GL_REPLACE:
      return pipe::StencilOp::Replace;
    case GL_INCR:
      return pipe::StencilOp::Incr;
    case GL_DECR:
      return pipe::StencilOp::Decr;
    case GL_INVERT:
      return pipe::StencilOp::Invert;
    case GL_INCR_WRAP:
      return pipe::StencilOp::IncrWrap;
    case GL_DECR_WRAP:
      return pipe::StencilOp::DecrWrap;
    default:
      return std::nullopt;
  }
}

inline std::optional<pipe::BlendFactor> blendFactor(GLenum e) {
  using F = pipe::BlendFactor;
  switch (e) {
    case GL_ZERO:
      return F::Zero;
    case GL_ONE:
      return F::One;
    case GL_SRC_COLOR:
      return F::SrcColor;
    case GL_ONE_MINUS_SRC_COLOR:
      return F::OneMinusSrcColor;
    case GL_DST_COLOR:
      return F::DstColor;
    case GL_ONE_MINUS_DST_COLOR:
      return F::OneMinusDstColor;
    case GL_SRC_ALPHA:
      return F::SrcAlpha;
    case GL_ONE_MINUS_SRC_ALPHA:
      return F::OneMinusSrcAlpha;
    case GL_DST_ALPHA:
      return F::DstAlpha;
    case GL_ONE_MINUS_DST_ALPHA:
      return F::OneMinusDstAlpha;
    case GL_CONSTANT_COLOR:
      return F::ConstantColor;
    case GL_ONE_MINUS_CONSTANT_COLOR:
      return F::OneMinusConstantColor;
    case GL_CONSTANT_ALPHA:
      return F::ConstantAlpha;
    case GL_ONE_MINUS_CONSTANT_ALPHA:
      return F::OneMinusConstantAlpha;
    case GL_SRC_ALPHA_SATURATE:
      return F::SrcAlphaSaturate;
    default:
      return std::nullopt;
  }
}

inline std::optional<pipe::BlendEquation> blendEquationOf(GLenum e) {
  switch (e) {
    case GL_FUNC_ADD:
      return pipe::BlendEquation::Add;
    case GL_FUNC_SUBTRACT:
      return pipe::BlendEquation::Subtract;
    case GL_FUNC_REVERSE_SUBTRACT:
      return pipe::BlendEquation::ReverseSubtract;
    default:
      return std::nullopt;
  }
}

}  // namespace tessera::gles2
