// Fixed-function state of GLES 2.0 §4.1 (per-fragment operations), §3.5 (polygons), §2.12
// (viewport): validated here, turned into pipe state objects when a draw or clear needs them.
#include <algorithm>

#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"

namespace tessera::gles2 {

// Read by every GL call: initial-exec reads it with one move instead of a call into the dynamic
// linker (the library is loaded with its program).
[[gnu::tls_model("initial-exec")]] thread_local Context* tCurrent = nullptr;
Context* current() {
  return tCurrent;
}
void makeCurrent(Context* c) {
  tCurrent = c;
}

Context::Context(kmd::Device& kernel, driver::DriverOptions options)
    : device_(kernel.gpu()), pipe_(kernel, options) {
  for (auto& v : currentValues_) v = {0, 0, 0, 1};  // §2.7: (0, 0, 0, 1) until set
}

Context::~Context() = default;

void Context::setDefaultFramebuffer(const DefaultFramebuffer& fb) {
  const bool first = default_.width == 0;
  default_ = fb;
  if (first) {  // §2.12, §4.1.2: the first surface a context is bound to sets viewport and scissor
    viewport_ = {0, 0, static_cast<GLint>(fb.width), static_cast<GLint>(fb.height)};
    scissor_ = viewport_;
  }
}

void Context::enable(GLenum cap, bool on) {
  switch (cap) {
    case GL_BLEND:
      blend_.enable = on;
      return;
    case GL_CULL_FACE:
      cullEnabled_ = on;
      return;
    case GL_DEPTH_TEST:
      dsa_.depthTest = on;
      return;
    case GL_STENCIL_TEST:
      dsa_.stencilTest = on;
      return;
    case GL_SCISSOR_TEST:
      scissorEnabled_ = on;
      return;
    case GL_DITHER:
      ditherEnabled_ = on;
      return;  // dithering is a no-op (§4.1.9 allows it)
    case GL_POLYGON_OFFSET_FILL:
      polygonOffsetFill_ = on;
      return;
    case GL_SAMPLE_ALPHA_TO_COVERAGE:
      blend_.alphaToCoverage = on;
      return;
    case GL_SAMPLE_COVERAGE:
      blend_.sampleCoverage = on;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

GLboolean Context::isEnabled(GLenum cap) {
  switch (cap) {
    case GL_BLEND:
      return blend_.enable;
    case GL_CULL_FACE:
      return cullEnabled_;
    case GL_DEPTH_TEST:
      return dsa_.depthTest;
    case GL_STENCIL_TEST:
      return dsa_.stencilTest;
    case GL_SCISSOR_TEST:
      return scissorEnabled_;
    case GL_DITHER:
      return ditherEnabled_;
    case GL_POLYGON_OFFSET_FILL:
      return polygonOffsetFill_;
    case GL_SAMPLE_ALPHA_TO_COVERAGE:
      return blend_.alphaToCoverage;
    case GL_SAMPLE_COVERAGE:
      return blend_.sampleCoverage;
    default:
      error(GL_INVALID_ENUM);
      return GL_FALSE;
  }
}

void Context::viewport(GLint x, GLint y, GLsizei w, GLsizei h) {
  if (w < 0 || h < 0) return error(GL_INVALID_VALUE);
  constexpr GLint kMax = 8192;  // GL_MAX_VIEWPORT_DIMS
  viewport_ = {x, y, std::min(w, kMax), std::min(h, kMax)};
}

void Context::scissor(GLint x, GLint y, GLsizei w, GLsizei h) {
  if (w < 0 || h < 0) return error(GL_INVALID_VALUE);
  scissor_ = {x, y, w, h};
}

void Context::depthRange(float n, float f) {
  depthNear_ = std::clamp(n, 0.0f, 1.0f);
  depthFar_ = std::clamp(f, 0.0f, 1.0f);
}

void Context::colorMask(bool r, bool g, bool b, bool a) {
  blend_.colorWriteMask = static_cast<uint8_t>(r | g << 1 | b << 2 | a << 3);
}

void Context::depthFunc(GLenum f) {
  const auto c = compareFunc(f);
  if (!c) return error(GL_INVALID_ENUM);
  dsa_.depthFunc = *c;
}

// Applies `fn` to the stencil faces `face` names; false for a bad enum.
template <typename F>
bool forFaces(pipe::DepthStencilAlphaState& dsa, GLenum face, F fn) {
  if (face != GL_FRONT && face != GL_BACK && face != GL_FRONT_AND_BACK) return false;
  if (face != GL_BACK) fn(dsa.front);
  if (face != GL_FRONT) fn(dsa.back);
  return true;
}

void Context::stencilFunc(GLenum face, GLenum func, GLint ref, GLuint mask) {
  const auto c = compareFunc(func);
  if (!c) return error(GL_INVALID_ENUM);
  // §4.1.5: ref is clamped to [0, 2^s - 1] with s = 8 stencil bits.
  const auto r = static_cast<uint8_t>(std::clamp(ref, 0, 255));
  if (!forFaces(dsa_, face, [&](gpu::rb::StencilFace& f) {
        f.func = *c;
        f.ref = r;
        f.valueMask = static_cast<uint8_t>(mask);
      })) {
    error(GL_INVALID_ENUM);
  }
}

void Context::stencilOp(GLenum face, GLenum fail, GLenum zfail, GLenum zpass) {
  const auto a = stencilOpOf(fail), b = stencilOpOf(zfail), c = stencilOpOf(zpass);
  if (!a || !b || !c) return error(GL_INVALID_ENUM);
  if (!forFaces(dsa_, face, [&](gpu::rb::StencilFace& f) {
        f.fail = *a;
        f.zfail = *b;
        f.zpass = *c;
      })) {
    error(GL_INVALID_ENUM);
  }
}

void Context::stencilMask(GLenum face, GLuint mask) {
  if (!forFaces(dsa_, face,
                [&](gpu::rb::StencilFace& f) { f.writeMask = static_cast<uint8_t>(mask); }))
    error(GL_INVALID_ENUM);
}

void Context::blendFunc(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha, GLenum dstAlpha) {
  const auto a = blendFactor(srcRgb), b = blendFactor(dstRgb), c = blendFactor(srcAlpha),
             d = blendFactor(dstAlpha);
  // GL_SRC_ALPHA_SATURATE is a source factor only (§4.1.6).
  if (!a || !b || !c || !d || dstRgb == GL_SRC_ALPHA_SATURATE || dstAlpha == GL_SRC_ALPHA_SATURATE)
    return error(GL_INVALID_ENUM);
  blend_.srcRgb = *a, blend_.dstRgb = *b, blend_.srcAlpha = *c, blend_.dstAlpha = *d;
  blendFuncs_ = {srcRgb, dstRgb, srcAlpha, dstAlpha};
}

void Context::blendEquation(GLenum rgb, GLenum alpha) {
  const auto a = blendEquationOf(rgb), b = blendEquationOf(alpha);
  if (!a || !b) return error(GL_INVALID_ENUM);
  blend_.eqRgb = *a, blend_.eqAlpha = *b;
  blendEquations_ = {rgb, alpha};
}

void Context::blendColor(float r, float g, float b, float a) {
  const float c[4] = {r, g, b, a};
  for (int i = 0; i < 4; ++i) blend_.constant[i] = std::clamp(c[i], 0.0f, 1.0f);
}

void Context::cullFace(GLenum mode) {
  if (mode != GL_FRONT && mode != GL_BACK && mode != GL_FRONT_AND_BACK)
    return error(GL_INVALID_ENUM);
  cullFace_ = mode;
}

void Context::frontFace(GLenum mode) {
  if (mode != GL_CW && mode != GL_CCW) return error(GL_INVALID_ENUM);
  frontFace_ = mode;
}

void Context::pixelStore(GLenum pname, GLint value) {
  if (pname != GL_PACK_ALIGNMENT && pname != GL_UNPACK_ALIGNMENT) return error(GL_INVALID_ENUM);
  if (value != 1 && value != 2 && value != 4 && value != 8) return error(GL_INVALID_VALUE);
  (pname == GL_PACK_ALIGNMENT ? packAlignment_ : unpackAlignment_) = value;
}

void Context::lineWidth(float w) {
  if (!(w > 0)) return error(GL_INVALID_VALUE);
  lineWidth_ = w;
}

void Context::polygonOffset(float factor, float units) {
  polygonFactor_ = factor;
  polygonUnits_ = units;
}

void Context::hint(GLenum target, GLenum mode) {
  if (mode != GL_FASTEST && mode != GL_NICEST && mode != GL_DONT_CARE)
    return error(GL_INVALID_ENUM);
  if (target != GL_GENERATE_MIPMAP_HINT) return error(GL_INVALID_ENUM);
  generateMipmapHint_ = mode;
}

void Context::sampleCoverage(float value, bool invert) {
  // The render backend's coverage mask state (§4.1.3), kept with the rest of the blend state.
  blend_.sampleCoverageValue = std::clamp(value, 0.0f, 1.0f);
  blend_.sampleCoverageInvert = invert;
}

void Context::applyState() {
  // blend_ carries the §4.1.3 coverage masks too; the render backend applies them only to a
  // multisample framebuffer.
  pipe_.setBlend(blend_);
  pipe_.setDepthStencilAlpha(dsa_);
  pipe::RasterizerState rs;
  // Front faces are counter-clockwise unless glFrontFace(GL_CW) (§3.5.1).
  rs.frontCCW = frontFace_ == GL_CCW;
  rs.cull = !cullEnabled_           ? pipe::CullMode::None
            : cullFace_ == GL_FRONT ? pipe::CullMode::Front
            : cullFace_ == GL_BACK  ? pipe::CullMode::Back
                                    : pipe::CullMode::FrontAndBack;
  rs.scissor = scissorEnabled_;
  rs.lineWidth = lineWidth_;
  rs.polygonOffset = polygonOffsetFill_;
  rs.offsetFactor = polygonFactor_;
  rs.offsetUnits = polygonUnits_;
  pipe_.setRasterizer(rs);
  // Scissor rectangles are clamped to the surface; negative origins clip.
  const Target t = target();
  const GLint w = static_cast<GLint>(t.fb.width), h = static_cast<GLint>(t.fb.height);
  const GLint x0 = std::clamp(scissor_[0], 0, w), y0 = std::clamp(scissor_[1], 0, h);
  // The far edge in 64 bits: x + width may exceed GLint (both are the application's).
  const auto x1 =
      static_cast<GLint>(std::clamp<int64_t>(int64_t{scissor_[0]} + scissor_[2], x0, w));
  const auto y1 =
      static_cast<GLint>(std::clamp<int64_t>(int64_t{scissor_[1]} + scissor_[3], y0, h));
  pipe_.setScissor({static_cast<uint32_t>(x0), static_cast<uint32_t>(y0),
                    static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0)});
  pipe_.setViewport({static_cast<float>(viewport_[0]), static_cast<float>(viewport_[1]),
                     static_cast<float>(viewport_[2]), static_cast<float>(viewport_[3]), depthNear_,
                     depthFar_});
  pipe_.setFramebuffer(t.fb);
}

}  // namespace tessera::gles2
