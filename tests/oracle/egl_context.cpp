#include "oracle/egl_context.h"

#include <EGL/eglext.h>
#include <GLES2/gl2ext.h>
#include <GLES3/gl3.h>

#include <cstdlib>
#include <cstring>

#include "common/error.h"

namespace tessera::oracle {
namespace {

[[noreturn]] void eglFail(const char* step) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%04x", static_cast<unsigned>(eglGetError()));
  throw Error(std::string("EGL: ") + step + " failed (error " + code + ")");
}

bool hasExtension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + n, name)) {
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  }
  return false;
}

}  // namespace

void forceDriver(const std::string& driver, int threads, bool exactSampling) {
  if (driver != "llvmpipe" && driver != "softpipe") {
    throw Error("unknown driver '" + driver + "' (llvmpipe or softpipe)");
  }
  setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  setenv("GALLIUM_DRIVER", driver.c_str(), 1);
  if (threads >= 0) setenv("LP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  if (exactSampling) setenv("GALLIVM_PERF", "no_aos_sampling", 1);
}

EglContext::EglContext(uint32_t width, uint32_t height, uint32_t samples)
    : width_(width), height_(height) {
  const char* clientExts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!hasExtension(clientExts, "EGL_MESA_platform_surfaceless")) {
    throw Error(
        "EGL: EGL_MESA_platform_surfaceless is not available (is Mesa's libEGL installed?)");
  }
  auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!getPlatformDisplay) throw Error("EGL: eglGetPlatformDisplayEXT is not available");
  display_ = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display_ == EGL_NO_DISPLAY) eglFail("eglGetPlatformDisplayEXT(surfaceless)");
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display_, &major, &minor)) eglFail("eglInitialize");
  if (!hasExtension(eglQueryString(display_, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
    throw Error("EGL: EGL_KHR_surfaceless_context is not supported");
  }
  if (!eglBindAPI(EGL_OPENGL_ES_API)) eglFail("eglBindAPI(EGL_OPENGL_ES_API)");
  // EGL_SURFACE_TYPE defaults to EGL_WINDOW_BIT, which a surfaceless display never offers.
  const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE,
                                  EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display_, configAttribs, &config, 1, &count) || count < 1) {
    eglFail("eglChooseConfig(ES2)");
  }
  // Multisample renderbuffers need OpenGL ES 3.0.
  const EGLint contextAttribs[] = {EGL_CONTEXT_CLIENT_VERSION, samples > 1 ? 3 : 2, EGL_NONE};
  context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, contextAttribs);
  if (context_ == EGL_NO_CONTEXT) eglFail("eglCreateContext(ES2)");
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
    eglFail("eglMakeCurrent(no surface)");
  }

  const char* glExts = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  for (const char* need :
       {"GL_OES_rgb8_rgba8", "GL_OES_packed_depth_stencil", "GL_OES_element_index_uint"}) {
    if (!hasExtension(glExts, need))
      throw Error(std::string("GLES: ") + need + " is not supported");
  }
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, GLsizei(width), GLsizei(height));
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  glGenRenderbuffers(1, &depthStencil_);
  glBindRenderbuffer(GL_RENDERBUFFER, depthStencil_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8_OES, GLsizei(width), GLsizei(height));
  // ES 2.0 has no combined attachment point: the packed buffer is attached twice.
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthStencil_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depthStencil_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    throw Error("GLES: framebuffer incomplete (status " + std::to_string(status) + ") at " +
                std::to_string(width) + "x" + std::to_string(height));
  }
  if (samples > 1) {
    glGenFramebuffers(1, &msFbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, msFbo_);
    glGenRenderbuffers(1, &msColor_);
    glBindRenderbuffer(GL_RENDERBUFFER, msColor_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, GLsizei(samples), GL_RGBA8, GLsizei(width),
                                     GLsizei(height));
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msColor_);
    glGenRenderbuffers(1, &msDepthStencil_);
    glBindRenderbuffer(GL_RENDERBUFFER, msDepthStencil_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, GLsizei(samples), GL_DEPTH24_STENCIL8,
                                     GLsizei(width), GLsizei(height));
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                              msDepthStencil_);
    GLint got = 0;
    glGetIntegerv(GL_SAMPLES, &got);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE ||
        got != GLint(samples))
      throw Error("GLES: no " + std::to_string(samples) + "x multisample framebuffer (got " +
                  std::to_string(got) + " samples)");
  }
  if (glGetError() != GL_NO_ERROR) throw Error("GLES: error while creating the framebuffer");
}

EglContext::~EglContext() {
  if (msFbo_) {
    glDeleteFramebuffers(1, &msFbo_);
    glDeleteRenderbuffers(1, &msColor_);
    glDeleteRenderbuffers(1, &msDepthStencil_);
  }
  if (fbo_) {
    glDeleteFramebuffers(1, &fbo_);
    glDeleteRenderbuffers(1, &color_);
    glDeleteRenderbuffers(1, &depthStencil_);
  }
  if (display_ != EGL_NO_DISPLAY) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
}

std::string EglContext::renderer() const {
  const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return r ? r : "?";
}

Image EglContext::readback() const {
  Image img = Image::blank(width_, height_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (msFbo_) {
    // The multisample resolve: each pixel the average of its samples.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, msFbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glBlitFramebuffer(0, 0, GLint(width_), GLint(height_), 0, 0, GLint(width_), GLint(height_),
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, msFbo_);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  // GL's window row 0 is the bottom (GLES 2.0 spec 4.3.1): read, then flip to top-first.
  std::vector<uint8_t> bottomUp(img.rgba.size());
  glReadPixels(0, 0, GLsizei(width_), GLsizei(height_), GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  if (glGetError() != GL_NO_ERROR) throw Error("GLES: glReadPixels failed");
  const size_t row = size_t{width_} * 4;
  for (uint32_t y = 0; y < height_; ++y) {
    std::memcpy(img.pixel(0, y), bottomUp.data() + (height_ - 1 - y) * row, row);
  }
  return img;
}

}  // namespace tessera::oracle
