// Dirty-state emission into the draw IB (freedreno's fd*_emit_state): only the groups that
// changed since the last draw of the batch are written again.
#include <bit>
#include <cstring>

#include "common/error.h"
#include "driver/batch.h"
#include "driver/context.h"
#include "gpu/pipeline/tex_const.h"
#include "gpu/sp/shader_core.h"

namespace tessera::driver {

using gpu::cp::CommandWriter;
using gpu::cp::packXY;
using gpu::cp::Reg;

namespace {
uint32_t stencilBits(const gpu::rb::StencilFace& f) {
  return static_cast<uint32_t>(f.ref) | (uint32_t{f.valueMask} << 8) |
         (uint32_t{f.writeMask} << 16);
}
uint32_t u(auto e) {
  return static_cast<uint32_t>(e);
}
}  // namespace

void Context::emitConstants(CommandWriter& w, pipe::ShaderStage stage) {
  const auto& c = constants_[static_cast<int>(stage)];
  const gpu::GpuAddress at = batch_->uploads.upload(c);
  const bool vs = stage == pipe::ShaderStage::Vertex;
  w.address(vs ? Reg::SP_VS_CONST_LO : Reg::SP_FS_CONST_LO,
            vs ? Reg::SP_VS_CONST_HI : Reg::SP_FS_CONST_HI, at);
  w.reg(vs ? Reg::SP_VS_CONST_SIZE : Reg::SP_FS_CONST_SIZE, static_cast<uint32_t>(c.size()));
}

void Context::emitTextures(CommandWriter& w, pipe::ShaderStage stage) {
  const auto& units = textures_[static_cast<int>(stage)];
  uint32_t count = 0;
  for (uint32_t i = 0; i < units.size(); ++i)
    if (units[i].set) count = i + 1;
  std::vector<uint32_t> table(size_t{count} * gpu::kTexConstDwords, 0);
  for (uint32_t i = 0; i < count; ++i) {
    gpu::tex::TextureDescriptor d;  // an unbound unit samples as incomplete: (0,0,0,1)
    d.levels = 0;
    if (units[i].texture) {
      d = resources_.get(units[i].texture, ResourceKind::Texture, "draw texture").texture;
      use(units[i].texture);
      const auto& s = units[i].sampler;
      d.wrapS = s.wrapS;
      d.wrapT = s.wrapT;
      d.magFilter = s.magFilter;
      d.minFilter = s.minFilter;
      d.mipFilter = s.mipFilter;
      d.wrapR = s.wrapR;
      d.compare = s.compare;
      d.compareFunc = s.compareFunc;
      d.maxAnisotropy = s.maxAnisotropy;
    }
    const auto words = gpu::encodeTexConst(d);
    std::memcpy(table.data() + size_t{i} * gpu::kTexConstDwords, words.data(), sizeof words);
  }
  const gpu::GpuAddress at = batch_->uploads.upload(table);
  const bool vs = stage == pipe::ShaderStage::Vertex;
  w.address(vs ? Reg::SP_VS_TEX_LO : Reg::SP_FS_TEX_LO, vs ? Reg::SP_VS_TEX_HI : Reg::SP_FS_TEX_HI,
            at);
  w.reg(vs ? Reg::SP_VS_TEX_COUNT : Reg::SP_FS_TEX_COUNT, count);
}

// Private memory holds one warp's spills (the model runs spilling warps one at a time); the
// buffer only grows, and a replaced one stays alive until the batch that may use it retires.
void Context::emitPrivate(CommandWriter& w, pipe::ShaderStage stage, uint32_t dwords) {
  const int s = static_cast<int>(stage);
  const uint64_t bytes = uint64_t{dwords} * gpu::sp::kPrivateLineBytes;
  if (bytes > privateBytes_[s]) {
    if (private_[s] != 0) releaseLater(private_[s]);
    private_[s] = memory_.allocate(bytes, "private memory");
    privateBytes_[s] = bytes;
  }
  const bool vs = stage == pipe::ShaderStage::Vertex;
  w.address(vs ? Reg::SP_VS_PVT_LO : Reg::SP_FS_PVT_LO, vs ? Reg::SP_VS_PVT_HI : Reg::SP_FS_PVT_HI,
            private_[s]);
  w.reg(vs ? Reg::SP_VS_PVT_SIZE : Reg::SP_FS_PVT_SIZE, static_cast<uint32_t>(privateBytes_[s]));
}

void Context::emitState(CommandWriter& w, uint32_t groups) {
  const uint32_t dirty = dirty_ & groups;
  if (dirty & kDirtyBlend) {
    const auto& b = blend_;
    w.reg(Reg::RB_BLEND_CNTL, u(b.enable) | u(b.srcRgb) << 4 | u(b.dstRgb) << 8 |
                                  u(b.srcAlpha) << 12 | u(b.dstAlpha) << 16 | u(b.eqRgb) << 20 |
                                  u(b.eqAlpha) << 22);
    for (uint32_t i = 0; i < 4; ++i) w.regFloat(Reg::RB_BLEND_CONSTANT, b.constant[i], i);
    const uint32_t format =
        fb_.color ? u(resources_.get(fb_.color, ResourceKind::ColorSurface, "draw").colorFormat) + 1
                  : 0;
    w.reg(Reg::RB_COLOR_INFO, format | (uint32_t{b.colorWriteMask} & 0xf) << 4);
    // Multisample coverage operations (docs/msaa.md): the value as unorm8.
    const float cv = b.sampleCoverageValue;  // clamped to [0,1] (NaN: 0)
    const uint32_t cv8 = cv > 0.0f ? (cv < 1.0f ? uint32_t(cv * 255.0f + 0.5f) : 255u) : 0u;
    w.reg(Reg::GRAS_SAMPLE_CNTL, u(b.sampleCoverage) | u(b.sampleCoverageInvert) << 1 |
                                     u(b.alphaToCoverage) << 2 | cv8 << 8);
  }
  if (dirty & kDirtyDsa) {
    const auto& d = dsa_;
    w.reg(Reg::RB_DEPTH_CNTL, u(d.depthTest) | u(d.depthWrite) << 1 | u(d.depthFunc) << 4);
    w.reg(Reg::RB_STENCIL_CNTL, u(d.stencilTest) | u(d.front.func) << 4 | u(d.front.fail) << 8 |
                                    u(d.front.zfail) << 12 | u(d.front.zpass) << 16 |
                                    u(d.back.func) << 20 | u(d.back.fail) << 24 |
                                    u(d.back.zfail) << 28);
    w.reg(Reg::RB_STENCIL_CNTL2, u(d.back.zpass));
    w.reg(Reg::RB_STENCILREFMASK, stencilBits(d.front));
    w.reg(Reg::RB_STENCILREFMASK_BF, stencilBits(d.back));
  }
  if (dirty & kDirtyRaster) {
    const bool front =
        raster_.cull == pipe::CullMode::Front || raster_.cull == pipe::CullMode::FrontAndBack;
    const bool back =
        raster_.cull == pipe::CullMode::Back || raster_.cull == pipe::CullMode::FrontAndBack;
    w.reg(Reg::GRAS_SU_CNTL,
          u(front) | u(back) << 1 | u(!raster_.frontCCW) << 2 | u(raster_.polygonOffset) << 3);
    // GLES 2.0 leaves the size of a point whose vertex shader writes no gl_PointSize undefined;
    // one pixel, as other implementations draw.
    w.regFloat(Reg::GRAS_SU_POINT_SIZE, 1.0f);
    w.regFloat(Reg::GRAS_SU_LINE_WIDTH, raster_.lineWidth);
    w.regFloat(Reg::GRAS_SU_POLY_OFFSET_SCALE, raster_.offsetFactor);
    w.regFloat(Reg::GRAS_SU_POLY_OFFSET_OFFSET, raster_.offsetUnits);
  }
  if (dirty & kDirtyScissor) {
    const Rect r = scissorRect();
    w.reg(Reg::GRAS_SC_SCREEN_SCISSOR_TL, packXY(r.x0, r.y0));
    w.reg(Reg::GRAS_SC_SCREEN_SCISSOR_BR, packXY(r.x1, r.y1));
  }
  if (dirty & kDirtyViewport) {
    // GLES 2.0 §2.12.1: xw = (w/2) xd + (x + w/2), zw = ((f-n)/2) zd + (n+f)/2.
    const auto& v = viewport_;
    w.regFloat(Reg::GRAS_CL_VPORT_XOFFSET, v.x + v.width / 2);
    w.regFloat(Reg::GRAS_CL_VPORT_XSCALE, v.width / 2);
    w.regFloat(Reg::GRAS_CL_VPORT_YOFFSET, v.y + v.height / 2);
    w.regFloat(Reg::GRAS_CL_VPORT_YSCALE, v.height / 2);
    const float n = std::clamp(v.zNear, 0.0f, 1.0f), f = std::clamp(v.zFar, 0.0f, 1.0f);
    w.regFloat(Reg::GRAS_CL_VPORT_ZOFFSET, (n + f) / 2);
    w.regFloat(Reg::GRAS_CL_VPORT_ZSCALE, (f - n) / 2);
  }
  if (dirty & kDirtyVertex) {
    w.reg(Reg::VFD_CONTROL, static_cast<uint32_t>(elements_.size()));
    for (uint32_t a = 0; a < elements_.size(); ++a) {
      const auto& e = elements_[a];
      if (!vertexBuffers_[e.buffer])
        throw Error("draw: vertex element " + std::to_string(a) + " has no buffer");
      const Resource& r =
          resources_.get(vertexBuffers_[e.buffer], ResourceKind::Buffer, "draw vertex buffer");
      const uint64_t size = e.offset < r.size ? r.size - e.offset : 0;
      use(vertexBuffers_[e.buffer]);
      w.address(Reg::VFD_ATTR_BASE_LO, Reg::VFD_ATTR_BASE_HI, r.address + e.offset, a);
      w.reg(Reg::VFD_ATTR_SIZE, static_cast<uint32_t>(size), a);
      w.reg(Reg::VFD_ATTR_CNTL, e.stride | u(e.format) << 16 | (e.components - 1) << 20, a);
    }
  }
  if (dirty & kDirtyProgram) {
    const Resource& vs = resources_.get(vs_, ResourceKind::VertexShader, "draw");
    const Resource& fs = resources_.get(fs_, ResourceKind::FragmentShader, "draw");
    use(vs_);
    use(fs_);
    w.address(Reg::SP_VS_PROGRAM_LO, Reg::SP_VS_PROGRAM_HI, vs.address);
    w.reg(Reg::SP_VS_PROGRAM_SIZE, vs.dwords);
    w.address(Reg::SP_BS_PROGRAM_LO, Reg::SP_BS_PROGRAM_HI, vs.positionOnly);
    w.reg(Reg::SP_BS_PROGRAM_SIZE, vs.positionOnlyDwords);
    w.address(Reg::SP_FS_PROGRAM_LO, Reg::SP_FS_PROGRAM_HI, fs.address);
    w.reg(Reg::SP_FS_PROGRAM_SIZE, fs.dwords);
    emitPrivate(w, pipe::ShaderStage::Vertex, vs.privateDwords);
    emitPrivate(w, pipe::ShaderStage::Fragment, fs.privateDwords);
  }
  if (dirty & kDirtyVsConst) emitConstants(w, pipe::ShaderStage::Vertex);
  if (dirty & kDirtyFsConst) emitConstants(w, pipe::ShaderStage::Fragment);
  if (dirty & kDirtyVsTex) emitTextures(w, pipe::ShaderStage::Vertex);
  if (dirty & kDirtyFsTex) emitTextures(w, pipe::ShaderStage::Fragment);
  dirty_ &= ~groups;
}

}  // namespace tessera::driver
