// EGL 1.4 objects (EGL 1.4 §2-§3): displays with their configs, surfaces and contexts. A display
// owns one Tessera GPU (the preset and rendering mode come from TESSERA_PRESET and TESSERA_MODE);
// every context on it gets its own driver context.
#pragma once
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/egl/window_presenter.h"
#include "api/egl/x11_presenter.h"
#include "api/gles2/gl_context.h"
#include "gpu/device.h"
#include "kmd/device.h"
#include "report/frame_reporter.h"

namespace tessera::egl {

struct Config {
  EGLint id = 0;
  EGLint visualId = 0;  // X11 visual of window surfaces (EGL_NATIVE_VISUAL_ID)
  EGLint red = 8, green = 8, blue = 8, alpha = 8, depth = 24, stencil = 8;
  EGLint samples = 0;  // EGL_SAMPLES: 0 or 4 (the surfaces' buffers live in tile memory)
  EGLint surfaceTypes = EGL_PBUFFER_BIT;
  EGLint attribute(EGLint name) const;  // EGL_BAD_ATTRIBUTE -> -1
};

struct Context;

struct Surface {
  const Config* config = nullptr;
  X11Window window;  // window surfaces: where eglSwapBuffers presents
  EGLint width = 0, height = 0;
  Context* owner = nullptr;  // the context whose driver holds the surface's resources
  gles2::DefaultFramebuffer fb;
  // Window surfaces: the other colour buffer of the swap chain, and the thread that presents
  // (null: presented on the swapping thread).
  pipe::ResourceId spareColor = pipe::kNoResource;
  std::unique_ptr<WindowPresenter> presenter;
  bool destroyPending = false;
  bool current = false;
  pipe::ColorFormat colorFormat() const {
    return config->red == 5 ? pipe::ColorFormat::RGB565 : pipe::ColorFormat::RGBA8;
  }
  // The colour buffer as the frame reports read it.
  report::SwapSurface swapSurface() const { return {fb.color, fb.width, fb.height, colorFormat()}; }
};

struct Context {
  const Config* config = nullptr;
  std::unique_ptr<gles2::Context> gl;
  Surface* draw = nullptr;
  bool destroyPending = false;
  bool current = false;
  // Its kernel context and the name the per-context summary (TESSERA_TOP) gives it.
  kmd::ContextId kernelId = 0;
  std::string name;
};

// An EGL_KHR_fence_sync object: a kernel fence on the last batch its context had submitted.
// Shared, so a wait in progress keeps it alive when another thread destroys it (EGL_KHR_fence_sync:
// deletion is deferred until no thread waits on it).
struct Sync {
  EGLenum type = EGL_SYNC_FENCE_KHR;
  kmd::Fence fence;
};

struct Display {
  bool initialized = false;
  void* x11 = nullptr;  // the X11 Display* given to eglGetDisplay, if any
  std::vector<Config> configs;
  std::unique_ptr<gpu::Device> device;
  // The kernel-mode layer over it, shared by the display's contexts (after `device`: it goes
  // first).
  std::unique_ptr<kmd::Device> kernel;
  driver::DriverOptions options;
  std::set<Surface*> surfaces;
  std::set<Context*> contexts;
  std::map<Sync*, std::shared_ptr<Sync>> syncs;  // after `kernel`: their fences go first
  int contextsCreated = 0;                       // names contexts "egl context N"
  // TESSERA_TOP=1: the per-context summary is printed at eglTerminate and at exit, with the rows
  // of contexts destroyed since the last one (the kernel forgets a context once it drained).
  bool top = false;
  std::vector<kmd::ContextSummary> finishedContexts;
  bool topPending = false;  // something happened since the last summary printed
  std::unique_ptr<report::FrameReporter> reporter;  // from the first eglInitialize on
  std::string error;                                // why initialization failed
};

}  // namespace tessera::egl
