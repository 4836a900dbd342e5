// What the EGL entry points share across files: the per-thread error and current context, the
// display lock, and handle checks (egl_api.cpp defines them).
#pragma once
#include <EGL/egl.h>

#include <mutex>

#include "api/egl/egl_objects.h"

namespace tessera::egl {

// Displays and their object sets are guarded by this lock.
std::mutex& displayLock();
void setError(EGLint error);  // the calling thread's eglGetError
template <typename T>
T fail(EGLint error, T value) {
  setError(error);
  return value;
}
Context* currentContext();  // the calling thread's, or null
Display* currentDisplay();
Display& theDisplay();
// `dpy` as a display: EGL_BAD_DISPLAY if it is none, EGL_NOT_INITIALIZED if it must be and is not.
Display* display(EGLDisplay dpy, bool mustBeInitialized = true);

// EGL_KHR_fence_sync and EGL_KHR_wait_sync entry points by name (egl_sync.cpp), or null.
void* syncProcAddress(const char* name);

}  // namespace tessera::egl
