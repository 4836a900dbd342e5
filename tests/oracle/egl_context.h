// A headless GLES 2.0 context on Mesa's llvmpipe: surfaceless EGL display, no window, rendering
// into an FBO with RGBA8 colour and packed depth24/stencil8 renderbuffers.
#pragma once
#include <EGL/egl.h>
#include <GLES2/gl2.h>

#include <cstdint>
#include <string>

#include "common/image.h"

namespace tessera::oracle {

// Must run before the first EGL call: Mesa reads these when it loads the driver. `driver` is
// llvmpipe (JIT-compiled, fast approximations of exp2, log2 and rsqrt) or softpipe (interpreted,
// libm precision). threads < 0 keeps Mesa's choice. exactSampling turns off llvmpipe's AoS
// texture path, which filters 8-bit texels with 8-bit weights and its own rounding, so that the
// oracle filters in float.
void forceDriver(const std::string& driver, int threads, bool exactSampling);

class EglContext final {
 public:
  // Throws tessera::Error with the failing EGL/GL step. With `samples` > 1 the scene draws into
  // a multisample framebuffer (OpenGL ES 3.0 renderbuffers) that readback() resolves with
  // glBlitFramebuffer.
  EglContext(uint32_t width, uint32_t height, uint32_t samples = 1);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  std::string renderer() const;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  // glReadPixels of the FBO, rows flipped so row 0 is the top.
  Image readback() const;

 private:
  uint32_t width_, height_;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  GLuint fbo_ = 0, color_ = 0, depthStencil_ = 0;
  GLuint msFbo_ = 0, msColor_ = 0, msDepthStencil_ = 0;  // multisample: where the scene draws
};

}  // namespace tessera::oracle
