#include "gpu/pipeline/draw_state.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gpu/rb/depth_stencil.h"

namespace tessera::gpu {
namespace {

using cp::Reg;

[[noreturn]] void bad(Reg r, uint32_t value, const char* what) {
  throw GpuFault(
      FaultKind::BadState, static_cast<uint32_t>(r), BusClient::CommandProcessor,
      cp::registerName(static_cast<uint32_t>(r)) + " = " + std::to_string(value) + ": " + what);
}

uint32_t field(uint32_t v, int lo, int bits) {
  return (v >> lo) & ((1u << bits) - 1);
}

template <class E>
E checked(Reg r, uint32_t value, int lo, int bits, uint32_t count, const char* what) {
  const uint32_t f = field(value, lo, bits);
  if (f >= count) bad(r, value, what);
  return static_cast<E>(f);
}

ShaderBinding binding(const cp::RegisterFile& regs, Reg progLo, Reg progHi, Reg progSize,
                      Reg constLo, Reg constHi, Reg constSize, Reg texLo, Reg texHi, Reg texCount,
                      Reg pvtLo, Reg pvtHi, Reg pvtSize) {
  ShaderBinding b;
  b.program = regs.getAddress(progLo, progHi);
  b.programDwords = regs.get(progSize);
  b.constants = regs.getAddress(constLo, constHi);
  b.constantCount = regs.get(constSize);
  b.textures = regs.getAddress(texLo, texHi);
  b.textureCount = regs.get(texCount);
  if (b.textureCount > 16) bad(texCount, b.textureCount, "more than 16 sampler units");
  b.privateBase = regs.getAddress(pvtLo, pvtHi);
  b.privateBytes = regs.get(pvtSize);
  return b;
}

rb::StencilFace stencilFace(Reg cntlReg, uint32_t cntl, uint32_t refMask, int funcLo, int failLo,
                            int zfailLo, uint32_t zpass) {
  rb::StencilFace f;
  f.func = checked<rb::CompareFunc>(cntlReg, cntl, funcLo, 3, 8, "bad stencil function");
  f.fail = checked<rb::StencilOp>(cntlReg, cntl, failLo, 3, 8, "bad stencil op");
  f.zfail = checked<rb::StencilOp>(cntlReg, cntl, zfailLo, 3, 8, "bad stencil op");
  f.zpass = static_cast<rb::StencilOp>(zpass & 7);
  f.ref = static_cast<uint8_t>(refMask);
  f.valueMask = static_cast<uint8_t>(refMask >> 8);
  f.writeMask = static_cast<uint8_t>(refMask >> 16);
  return f;
}

}  // namespace

ras::Scissor decodeRect(const cp::RegisterFile& regs, cp::Reg topLeft, cp::Reg bottomRight) {
  const uint32_t tl = regs.get(topLeft), br = regs.get(bottomRight);
  return {static_cast<int>(tl & 0xffff), static_cast<int>(tl >> 16), static_cast<int>(br & 0xffff),
          static_cast<int>(br >> 16)};
}

DrawState decodeDrawState(const cp::RegisterFile& regs) {
  DrawState s;
  // Vertex fetch.
  s.fetch.attributeCount = field(regs.get(Reg::VFD_CONTROL), 0, 5);
  if (s.fetch.attributeCount > vfd::kMaxAttributes)
    bad(Reg::VFD_CONTROL, regs.get(Reg::VFD_CONTROL), "more than 16 attributes");
  for (uint32_t a = 0; a < s.fetch.attributeCount; ++a) {
    auto& f = s.fetch.attributes[a];
    f.base = regs.getAddress(Reg::VFD_ATTR_BASE_LO, Reg::VFD_ATTR_BASE_HI, a);
    f.size = regs.get(Reg::VFD_ATTR_SIZE, a);
    const uint32_t cntl = regs.get(Reg::VFD_ATTR_CNTL, a);
    f.stride = field(cntl, 0, 16);
    f.format = checked<vfd::VertexFormat>(Reg::VFD_ATTR_CNTL, cntl, 16, 4,
                                          static_cast<uint32_t>(vfd::VertexFormat::Count),
                                          "unknown vertex format");
    f.components = field(cntl, 20, 2) + 1;
  }
  // Shaders.
  s.vs = binding(regs, Reg::SP_VS_PROGRAM_LO, Reg::SP_VS_PROGRAM_HI, Reg::SP_VS_PROGRAM_SIZE,
                 Reg::SP_VS_CONST_LO, Reg::SP_VS_CONST_HI, Reg::SP_VS_CONST_SIZE, Reg::SP_VS_TEX_LO,
                 Reg::SP_VS_TEX_HI, Reg::SP_VS_TEX_COUNT, Reg::SP_VS_PVT_LO, Reg::SP_VS_PVT_HI,
                 Reg::SP_VS_PVT_SIZE);
  s.bs = s.vs;
  s.bs.program = regs.getAddress(Reg::SP_BS_PROGRAM_LO, Reg::SP_BS_PROGRAM_HI);
  s.bs.programDwords = regs.get(Reg::SP_BS_PROGRAM_SIZE);
  s.fs = binding(regs, Reg::SP_FS_PROGRAM_LO, Reg::SP_FS_PROGRAM_HI, Reg::SP_FS_PROGRAM_SIZE,
                 Reg::SP_FS_CONST_LO, Reg::SP_FS_CONST_HI, Reg::SP_FS_CONST_SIZE, Reg::SP_FS_TEX_LO,
                 Reg::SP_FS_TEX_HI, Reg::SP_FS_TEX_COUNT, Reg::SP_FS_PVT_LO, Reg::SP_FS_PVT_HI,
                 Reg::SP_FS_PVT_SIZE);
  // Viewport, culling.
  s.viewport = {
      regs.getFloat(Reg::GRAS_CL_VPORT_XOFFSET), regs.getFloat(Reg::GRAS_CL_VPORT_XSCALE),
      regs.getFloat(Reg::GRAS_CL_VPORT_YOFFSET), regs.getFloat(Reg::GRAS_CL_VPORT_YSCALE),
      regs.getFloat(Reg::GRAS_CL_VPORT_ZOFFSET), regs.getFloat(Reg::GRAS_CL_VPORT_ZSCALE)};
  for (float f : {s.viewport.xOffset, s.viewport.xScale, s.viewport.yOffset, s.viewport.yScale,
                  s.viewport.zOffset, s.viewport.zScale})
    if (!std::isfinite(f)) bad(Reg::GRAS_CL_VPORT_XOFFSET, 0, "viewport value is not finite");
  const uint32_t su = regs.get(Reg::GRAS_SU_CNTL);
  s.cull = {(su & 1) != 0, (su & 2) != 0, (su & 4) != 0};
  s.prim.polygonOffset = (su & 8) != 0;
  s.prim.pointSize = regs.getFloat(Reg::GRAS_SU_POINT_SIZE);
  s.prim.lineWidth = regs.getFloat(Reg::GRAS_SU_LINE_WIDTH);
  s.prim.offsetFactor = regs.getFloat(Reg::GRAS_SU_POLY_OFFSET_SCALE);
  s.prim.offsetUnits = regs.getFloat(Reg::GRAS_SU_POLY_OFFSET_OFFSET);
  for (Reg r : {Reg::GRAS_SU_POINT_SIZE, Reg::GRAS_SU_LINE_WIDTH, Reg::GRAS_SU_POLY_OFFSET_SCALE,
                Reg::GRAS_SU_POLY_OFFSET_OFFSET})
    if (!std::isfinite(regs.getFloat(r))) bad(r, regs.get(r), "value is not finite");
  // Surfaces.
  const uint32_t size = regs.get(Reg::RB_SURFACE_SIZE);
  s.surfaceWidth = size & 0xffff;
  s.surfaceHeight = size >> 16;
  const uint32_t colorInfo = regs.get(Reg::RB_COLOR_INFO);
  const uint32_t cf = field(colorInfo, 0, 4);
  if (cf > 4) bad(Reg::RB_COLOR_INFO, colorInfo, "unknown colour format");
  s.hasColor = cf != 0;
  if (s.hasColor) s.colorFormat = static_cast<rb::ColorFormat>(cf - 1);
  s.depthFormat = checked<rb::DepthFormat>(Reg::RB_DEPTH_INFO, regs.get(Reg::RB_DEPTH_INFO), 0, 4,
                                           3, "unknown depth format");
  // §3.5.2's r: one step of the fixed-point depth buffer.
  if (s.depthFormat != rb::DepthFormat::None)
    s.prim.depthResolution =
        1.0f /
        static_cast<float>(s.depthFormat == rb::DepthFormat::D24S8 ? rb::kD24Max : rb::kD16Max);
  s.colorBase = regs.getAddress(Reg::RB_COLOR_BASE_LO, Reg::RB_COLOR_BASE_HI);
  s.colorPitch = regs.get(Reg::RB_COLOR_PITCH);
  s.depthBase = regs.getAddress(Reg::RB_DEPTH_BASE_LO, Reg::RB_DEPTH_BASE_HI);
  s.depthPitch = regs.get(Reg::RB_DEPTH_PITCH);
  s.gmemColorBase = regs.get(Reg::RB_GMEM_COLOR_BASE);
  s.gmemDepthBase = regs.get(Reg::RB_GMEM_DEPTH_BASE);
  const uint32_t bin = regs.get(Reg::RB_BIN_SIZE);
  s.binWidth = bin & 0xffff;
  s.binHeight = bin >> 16;
  const uint32_t msaa = regs.get(Reg::RB_MSAA_CNTL);
  if (field(msaa, 0, 2) > 2 || (msaa >> 2) != 0)
    bad(Reg::RB_MSAA_CNTL, msaa, "samples per pixel must be 1, 2 or 4");
  s.samples = 1u << field(msaa, 0, 2);
  s.blitDst = regs.getAddress(Reg::RB_BLIT_DST_LO, Reg::RB_BLIT_DST_HI);
  s.blitDstPitch = regs.get(Reg::RB_BLIT_DST_PITCH);
  // Scissors: the rasterizer never writes outside the surface or the viewport (the clip volume).
  const ras::Scissor surface{0, 0, static_cast<int>(s.surfaceWidth),
                             static_cast<int>(s.surfaceHeight)};
  const ras::Scissor app =
      decodeRect(regs, Reg::GRAS_SC_SCREEN_SCISSOR_TL, Reg::GRAS_SC_SCREEN_SCISSOR_BR);
  const float vx0 = s.viewport.xOffset - std::fabs(s.viewport.xScale);
  const float vy0 = s.viewport.yOffset - std::fabs(s.viewport.yScale);
  const ras::Scissor vp{
      static_cast<int>(std::floor(std::max(vx0, -32768.0f))),
      static_cast<int>(std::floor(std::max(vy0, -32768.0f))),
      static_cast<int>(std::ceil(std::min(vx0 + 2 * std::fabs(s.viewport.xScale), 32768.0f))),
      static_cast<int>(std::ceil(std::min(vy0 + 2 * std::fabs(s.viewport.yScale), 32768.0f)))};
  s.appScissor = intersect(app, surface);
  s.screenScissor = intersect(s.appScissor, vp);
  s.windowScissor =
      decodeRect(regs, Reg::GRAS_SC_WINDOW_SCISSOR_TL, Reg::GRAS_SC_WINDOW_SCISSOR_BR);
  // Depth, stencil, blend.
  const uint32_t dc = regs.get(Reg::RB_DEPTH_CNTL);
  s.depthStencil.depthTest = (dc & 1) != 0;
  s.depthStencil.depthWrite = (dc & 2) != 0;
  s.depthStencil.depthFunc = static_cast<rb::CompareFunc>(field(dc, 4, 3));
  const uint32_t sc = regs.get(Reg::RB_STENCIL_CNTL), sc2 = regs.get(Reg::RB_STENCIL_CNTL2);
  s.depthStencil.stencilTest = (sc & 1) != 0;
  s.depthStencil.front = stencilFace(Reg::RB_STENCIL_CNTL, sc, regs.get(Reg::RB_STENCILREFMASK), 4,
                                     8, 12, field(sc, 16, 3));
  s.depthStencil.back = stencilFace(Reg::RB_STENCIL_CNTL, sc, regs.get(Reg::RB_STENCILREFMASK_BF),
                                    20, 24, 28, field(sc2, 0, 3));
  const uint32_t bc = regs.get(Reg::RB_BLEND_CNTL);
  auto factor = [&](int lo) {
    return checked<rb::BlendFactor>(Reg::RB_BLEND_CNTL, bc, lo, 4, 15, "unknown blend factor");
  };
  auto equation = [&](int lo) {
    return checked<rb::BlendEquation>(Reg::RB_BLEND_CNTL, bc, lo, 2, 3, "unknown blend equation");
  };
  s.blend.enable = (bc & 1) != 0;
  s.blend.srcRgb = factor(4);
  s.blend.dstRgb = factor(8);
  s.blend.srcAlpha = factor(12);
  s.blend.dstAlpha = factor(16);
  s.blend.eqRgb = equation(20);
  s.blend.eqAlpha = equation(22);
  for (int i = 0; i < 4; ++i) s.blend.constant[i] = regs.getFloat(Reg::RB_BLEND_CONSTANT, i);
  s.blend.colorWriteMask = static_cast<uint8_t>(field(colorInfo, 4, 4));
  // GLES 2.0 §4.1.3: the coverage operations; they apply only to multisample targets.
  const uint32_t sample = regs.get(Reg::GRAS_SAMPLE_CNTL);
  s.blend.sampleCoverage = (sample & 1) != 0;
  s.blend.sampleCoverageInvert = (sample & 2) != 0;
  s.blend.alphaToCoverage = (sample & 4) != 0;
  s.blend.sampleCoverageValue = static_cast<float>(field(sample, 8, 8)) / 255.0f;
  return s;
}

bool overwritesAttachments(const DrawState& s, bool zsStatic) {
  if (s.hasColor && (s.blend.enable || (s.blend.colorWriteMask & 0xf) != 0xf)) return false;
  if (s.depthFormat == rb::DepthFormat::None) return true;
  const rb::DepthStencilState& ds = s.depthStencil;
  if (zsStatic)
    return (!ds.depthTest || ds.depthFunc == rb::CompareFunc::Always) &&
           (!ds.stencilTest || s.depthFormat != rb::DepthFormat::D24S8 ||
            (ds.front.func == rb::CompareFunc::Always && ds.back.func == rb::CompareFunc::Always));
  if (!ds.depthTest || !ds.depthWrite || ds.depthFunc != rb::CompareFunc::Always) return false;
  if (s.depthFormat != rb::DepthFormat::D24S8) return true;
  auto replaces = [](const rb::StencilFace& f) {
    return f.func == rb::CompareFunc::Always && f.zpass == rb::StencilOp::Replace &&
           f.writeMask == 0xff;
  };
  return ds.stencilTest && replaces(ds.front) && replaces(ds.back);
}

}  // namespace tessera::gpu
