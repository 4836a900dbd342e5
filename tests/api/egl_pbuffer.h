// A GLES2 context made current on a pbuffer, for the API tests and the small GL programs the tool
// tests run, through whichever libEGL the loader finds (Tessera's or Mesa's). The display is
// surfaceless where EGL_MESA_platform_surfaceless is offered, the default display otherwise; the
// config is RGBA8 with a 24-bit depth and an 8-bit stencil buffer, and `samples` samples per
// pixel when asked for (EGL_SAMPLES).
#pragma once
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <string>

namespace tessera::test {

struct PbufferContext {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLSurface surface = EGL_NO_SURFACE;
  EGLContext context = EGL_NO_CONTEXT;
  std::string error;  // the step that failed and its EGL error; empty when the context is current
};

inline PbufferContext makePbufferContext(EGLint width, EGLint height, EGLint samples = 0) {
  PbufferContext c;
  auto fail = [&](const char* what) {
    char text[96];
    std::snprintf(text, sizeof text, "%s failed (EGL error 0x%x)", what, eglGetError());
    c.error = text;
    return c;
  };
  auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  c.display = getPlatformDisplay
                  ? getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                  : eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (!eglInitialize(c.display, nullptr, nullptr)) return fail("eglInitialize");
  const EGLint attribs[] = {EGL_SURFACE_TYPE,
                            EGL_PBUFFER_BIT,
                            EGL_RENDERABLE_TYPE,
                            EGL_OPENGL_ES2_BIT,
                            EGL_RED_SIZE,
                            8,
                            EGL_GREEN_SIZE,
                            8,
                            EGL_BLUE_SIZE,
                            8,
                            EGL_ALPHA_SIZE,
                            8,
                            EGL_DEPTH_SIZE,
                            24,
                            EGL_STENCIL_SIZE,
                            8,
                            EGL_SAMPLE_BUFFERS,
                            samples > 0 ? 1 : 0,
                            EGL_SAMPLES,
                            samples,
                            EGL_NONE};
  EGLConfig config;
  EGLint n = 0;
  if (!eglChooseConfig(c.display, attribs, &config, 1, &n) || n < 1) return fail("eglChooseConfig");
  const EGLint size[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
  c.surface = eglCreatePbufferSurface(c.display, config, size);
  if (c.surface == EGL_NO_SURFACE) return fail("eglCreatePbufferSurface");
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint version[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  c.context = eglCreateContext(c.display, config, EGL_NO_CONTEXT, version);
  if (c.context == EGL_NO_CONTEXT) return fail("eglCreateContext");
  if (!eglMakeCurrent(c.display, c.surface, c.surface, c.context)) return fail("eglMakeCurrent");
  return c;
}

inline void destroyPbufferContext(PbufferContext& c) {
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (c.context != EGL_NO_CONTEXT) eglDestroyContext(c.display, c.context);
  if (c.surface != EGL_NO_SURFACE) eglDestroySurface(c.display, c.surface);
  eglTerminate(c.display);
  c = PbufferContext{};
}

}  // namespace tessera::test
