// The state of a draw as the blocks see it, decoded from the CP's register file once per change
// of the registers (not per draw), with every field range-checked: a register value no hardware
// mode has is a BadState fault naming the register.
#pragma once
#include <cstdint>

#include "gpu/cp/register_file.h"
#include "gpu/pc/primitive_setup.h"
#include "gpu/ras/ras_types.h"
#include "gpu/rb/render_backend.h"
#include "gpu/vfd/vertex_fetch.h"

namespace tessera::gpu {

struct ShaderBinding {
  GpuAddress program = 0;
  uint32_t programDwords = 0;
  GpuAddress constants = 0;
  uint32_t constantCount = 0;  // fp32 scalars
  GpuAddress textures = 0;
  uint32_t textureCount = 0;  // descriptors
  GpuAddress privateBase = 0;
  uint32_t privateBytes = 0;  // private memory (register spills) for one warp
};

struct DrawState {
  vfd::FetchState fetch;
  ShaderBinding vs, bs, fs;  // bs: the binning pass's position-only vertex shader
  pc::ViewportState viewport;
  pc::CullState cull;
  pc::PrimitiveState prim;       // pointSizeFloat comes from the bound vertex shader, not registers
  ras::Scissor appScissor{};     // application scissor ∩ surface (what clears respect)
  ras::Scissor screenScissor{};  // appScissor ∩ viewport (what draws respect)
  ras::Scissor windowScissor{};  // the bin (CP_SET_BIN) or the whole surface in sysmem mode
  uint32_t surfaceWidth = 0, surfaceHeight = 0;
  bool hasColor = false;
  rb::ColorFormat colorFormat = rb::ColorFormat::RGBA8;
  rb::DepthFormat depthFormat = rb::DepthFormat::None;
  GpuAddress colorBase = 0, depthBase = 0;
  uint32_t colorPitch = 0, depthPitch = 0;
  uint32_t gmemColorBase = 0, gmemDepthBase = 0, binWidth = 0, binHeight = 0;
  // RB_MSAA_CNTL: samples per pixel of both buffers (docs/msaa.md); GMEM slices, the pitches
  // above and the surfaces at the bases hold that many samples per pixel.
  uint32_t samples = 1;
  // RB_BLIT_DST*: the single-sample image of RESOLVED blits.
  GpuAddress blitDst = 0;
  uint32_t blitDstPitch = 0;
  rb::DepthStencilState depthStencil;
  rb::BlendState blend;
};

// Whether a draw leaves every attachment of its pass as if nothing had been drawn before at the
// pixels it covers: colour (if any) written with all four channels and no blending; depth (if
// any) tested ALWAYS and written, stencil (if the format has it) tested ALWAYS and replaced with
// all eight bits on both faces. In a batch whose draws never write depth or stencil
// (`zsStatic`) it is enough that the draw surely passes both tests. With a fragment shader that
// cannot discard, earlier fragments at the pixels such a triangle covers can no longer be seen
// (the full-cover index of US 8,902,228).
bool overwritesAttachments(const DrawState& s, bool zsStatic);

// A half-open pixel rectangle from a pair of X[15:0] Y[31:16] registers.
ras::Scissor decodeRect(const cp::RegisterFile& regs, cp::Reg topLeft, cp::Reg bottomRight);

// Throws GpuFault(BadState) naming the register whose value is invalid.
DrawState decodeDrawState(const cp::RegisterFile& regs);

inline ras::Scissor intersect(const ras::Scissor& a, const ras::Scissor& b) {
  ras::Scissor r{a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0, a.x1 < b.x1 ? a.x1 : b.x1,
                 a.y1 < b.y1 ? a.y1 : b.y1};
  if (r.x1 < r.x0) r.x1 = r.x0;
  if (r.y1 < r.y0) r.y1 = r.y0;
  return r;
}

}  // namespace tessera::gpu
