// Gallium-like pipe state: plain, zero-initialised state objects that an API layer (the C++ API
// of `tessera render`, later GLES2) fills and a driver turns into register writes. The enums are
// the hardware's own encodings (gpu/rb, gpu/tex, gpu/vfd), so no translation table is needed.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "gpu/cp/opcodes.h"
#include "gpu/rb/rb_state.h"
#include "gpu/tex/texture_descriptor.h"
#include "gpu/vfd/vertex_format.h"

namespace tessera::pipe {

using gpu::rb::BlendEquation;
using gpu::rb::BlendFactor;
using gpu::rb::ColorFormat;
using gpu::rb::CompareFunc;
using gpu::rb::DepthFormat;
using gpu::rb::StencilOp;
using gpu::tex::TexFormat;
using gpu::vfd::VertexFormat;

// Incl. constant colour, write mask and the multisample coverage operations (sample coverage,
// alpha to coverage), which act only on multisample framebuffers.
using BlendState = gpu::rb::BlendState;
using DepthStencilAlphaState = gpu::rb::DepthStencilState;

enum class CullMode : uint8_t { None, Front, Back, FrontAndBack };

struct RasterizerState {
  CullMode cull = CullMode::None;
  bool frontCCW = true;
  bool scissor = false;
  float lineWidth = 1;  // clamped to [1, gpu::pc::kMaxLineWidth] by the hardware
  // Polygon offset of filled primitives (GL_POLYGON_OFFSET_FILL, GLES 2.0 §3.5.2).
  bool polygonOffset = false;
  float offsetFactor = 0, offsetUnits = 0;
  bool operator==(const RasterizerState&) const = default;
};

struct Scissor {
  uint32_t x = 0, y = 0, width = 0, height = 0;  // GL window coordinates (origin bottom-left)
  bool operator==(const Scissor&) const = default;
};

struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, zNear = 0, zFar = 1;
  bool operator==(const Viewport&) const = default;
};

struct SamplerState {
  gpu::tex::Wrap wrapS = gpu::tex::Wrap::Repeat, wrapT = gpu::tex::Wrap::Repeat;
  gpu::tex::Filter magFilter = gpu::tex::Filter::Linear, minFilter = gpu::tex::Filter::Linear;
  gpu::tex::MipFilter mipFilter = gpu::tex::MipFilter::None;
  gpu::tex::Wrap wrapR = gpu::tex::Wrap::Repeat;  // 3D textures
  // GL_TEXTURE_COMPARE_MODE / _FUNC (OpenGL ES 3.0 §3.8.16): shadow lookups on depth textures.
  bool compare = false;
  gpu::tex::CompareFunc compareFunc = gpu::tex::CompareFunc::LEqual;
  // EXT_texture_filter_anisotropic: probes along the footprint's major axis (1..16; 1 = off).
  uint8_t maxAnisotropy = 1;
  bool operator==(const SamplerState&) const = default;
};

struct VertexElement {
  uint32_t buffer = 0;  // vertex buffer slot
  uint32_t offset = 0;  // bytes from the buffer's start
  uint32_t stride = 0;  // bytes between vertices
  VertexFormat format = VertexFormat::Float32;
  uint32_t components = 4;
  bool operator==(const VertexElement&) const = default;
};

// The primitive types are the command processor's own (CP_DRAW_INDX encodes them as they are).
using Primitive = gpu::cp::PrimType;
enum class IndexSize : uint8_t { None = 0, U8 = 1, U16 = 2, U32 = 4 };

// Buffers a clear touches (GL's COLOR/DEPTH/STENCIL_BUFFER_BIT).
enum ClearBits : uint32_t { kClearColor = 1, kClearDepth = 2, kClearStencil = 4 };

// Handles to driver resources: GPU buffer objects behind them.
using ResourceId = uint32_t;
inline constexpr ResourceId kNoResource = 0;

struct Framebuffer {
  ResourceId color = kNoResource;  // a surface created with ColorFormat
  ResourceId depth = kNoResource;  // a surface created with DepthFormat
  uint32_t width = 0, height = 0;
  bool operator==(const Framebuffer&) const = default;
};

struct DrawInfo {
  Primitive primitive = Primitive::Triangles;
  uint32_t count = 0;  // vertices or indices
  ResourceId indexBuffer = kNoResource;
  IndexSize indexSize = IndexSize::None;
  uint32_t indexOffset = 0;  // bytes
};

}  // namespace tessera::pipe
