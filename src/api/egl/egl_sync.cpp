// EGL_KHR_fence_sync and EGL_KHR_wait_sync over the kernel's fences (kmd::Fence). A fence sync
// flushes the current context and waits on the last batch it submitted; it is signalled once
// that batch retires, or once the context is lost (nothing of it will run any more). Where the
// extension texts leave the order of checks open, the checks follow Mesa's libEGL: the display,
// then the sync handle, then the current context.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "api/egl/egl_internal.h"

namespace tessera::egl {
namespace {

std::shared_ptr<Sync> findSync(Display* d, EGLSyncKHR handle) {
  const auto it = d->syncs.find(static_cast<Sync*>(handle));
  return it == d->syncs.end() ? fail<std::shared_ptr<Sync>>(EGL_BAD_PARAMETER, nullptr)
                              : it->second;
}

// The flush a fence command implies (EGL_KHR_fence_sync: the fence is inserted into the client
// API's command stream and flushed). A lost context has nothing to submit; a batch that faults
// still retires, so the fence after it is signalled.
void flushCurrent() {
  Context* c = currentContext();
  if (!c || c->gl->lost()) return;
  try {
    c->gl->pipe().flush();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
  }
}

}  // namespace
}  // namespace tessera::egl

using namespace tessera::egl;

extern "C" {

EGLAPI EGLSyncKHR EGLAPIENTRY eglCreateSyncKHR(EGLDisplay dpy, EGLenum type,
                                               const EGLint* attribs) {
  std::lock_guard<std::mutex> lock(displayLock());
  Display* d = display(dpy);
  if (!d) return EGL_NO_SYNC_KHR;
  // EGL_KHR_fence_sync: a fence needs a context current on this display.
  Context* c = currentContext();
  if (!c || currentDisplay() != d) return fail(EGL_BAD_MATCH, EGL_NO_SYNC_KHR);
  if (type != EGL_SYNC_FENCE_KHR) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC_KHR);
  // A fence sync takes no attributes: the list must be null or empty.
  if (attribs && attribs[0] != EGL_NONE) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SYNC_KHR);
  flushCurrent();
  auto sync = std::make_shared<Sync>();
  try {
    sync->fence = c->gl->pipe().fence();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: EGL: %s\n", e.what());
    return fail(EGL_BAD_ALLOC, EGL_NO_SYNC_KHR);
  }
  Sync* handle = sync.get();
  d->syncs.emplace(handle, std::move(sync));
  setError(EGL_SUCCESS);
  return handle;
}

EGLAPI EGLBoolean EGLAPIENTRY eglDestroySyncKHR(EGLDisplay dpy, EGLSyncKHR sync) {
  std::lock_guard<std::mutex> lock(displayLock());
  Display* d = display(dpy);
  if (!d || !findSync(d, sync)) return EGL_FALSE;
  d->syncs.erase(static_cast<Sync*>(sync));  // a thread waiting on it keeps its own reference
  setError(EGL_SUCCESS);
  return EGL_TRUE;
}

EGLAPI EGLint EGLAPIENTRY eglClientWaitSyncKHR(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags,
                                               EGLTimeKHR timeout) {
  std::shared_ptr<Sync> s;
  {
    std::lock_guard<std::mutex> lock(displayLock());
    Display* d = display(dpy);
    if (!d) return EGL_FALSE;
    s = findSync(d, sync);
    if (!s) return EGL_FALSE;
    if (s->fence.signaled()) {
      setError(EGL_SUCCESS);
      return EGL_CONDITION_SATISFIED_KHR;
    }
    // Unknown flag bits are ignored, as Mesa does; FLUSH_COMMANDS flushes the current context.
    if (flags & EGL_SYNC_FLUSH_COMMANDS_BIT_KHR) flushCurrent();
  }
  // Waits without the display lock, so other threads' EGL calls (a destroy, a flush that
  // retires the fence) go on meanwhile.
  const auto ns = timeout == EGL_FOREVER_KHR || timeout > static_cast<EGLTimeKHR>(INT64_MAX)
                      ? std::chrono::nanoseconds::max()
                      : std::chrono::nanoseconds(static_cast<int64_t>(timeout));
  const tessera::kmd::WaitResult r = s->fence.wait(ns);
  setError(EGL_SUCCESS);
  return r == tessera::kmd::WaitResult::Timeout ? EGL_TIMEOUT_EXPIRED_KHR
                                                : EGL_CONDITION_SATISFIED_KHR;
}

EGLAPI EGLBoolean EGLAPIENTRY eglGetSyncAttribKHR(EGLDisplay dpy, EGLSyncKHR sync, EGLint attribute,
                                                  EGLint* value) {
  if (!value) return fail(EGL_BAD_PARAMETER, EGL_FALSE);  // checked first, as Mesa does
  std::lock_guard<std::mutex> lock(displayLock());
  Display* d = display(dpy);
  if (!d) return EGL_FALSE;
  const std::shared_ptr<Sync> s = findSync(d, sync);
  if (!s) return EGL_FALSE;
  // On an error *value is left as it was (EGL_KHR_fence_sync).
  switch (attribute) {
    case EGL_SYNC_TYPE_KHR:
      *value = static_cast<EGLint>(s->type);
      break;
    case EGL_SYNC_STATUS_KHR:
      *value = s->fence.signaled() ? EGL_SIGNALED_KHR : EGL_UNSIGNALED_KHR;
      break;
    case EGL_SYNC_CONDITION_KHR:
      *value = EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR;
      break;
    default:
      return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  setError(EGL_SUCCESS);
  return EGL_TRUE;
}

// EGL_KHR_wait_sync: the current context's later commands wait for the fence on the GPU. The
// driver submits a batch only after every earlier one of the display retired (it waits for
// each), so the fence is always reached before anything the context submits next: nothing to
// do beyond the checks.
EGLAPI EGLint EGLAPIENTRY eglWaitSyncKHR(EGLDisplay dpy, EGLSyncKHR sync, EGLint flags) {
  std::lock_guard<std::mutex> lock(displayLock());
  Display* d = display(dpy);
  if (!d || !findSync(d, sync)) return EGL_FALSE;
  if (!currentContext() || currentDisplay() != d) return fail(EGL_BAD_MATCH, EGL_FALSE);
  if (flags != 0) return fail(EGL_BAD_PARAMETER, EGL_FALSE);  // no flags are defined
  setError(EGL_SUCCESS);
  return EGL_TRUE;
}

}  // extern "C"

namespace tessera::egl {

void* syncProcAddress(const char* name) {
  static const struct {
    const char* name;
    void* fn;
  } kProcs[] = {
      {"eglCreateSyncKHR", reinterpret_cast<void*>(&eglCreateSyncKHR)},
      {"eglDestroySyncKHR", reinterpret_cast<void*>(&eglDestroySyncKHR)},
      {"eglClientWaitSyncKHR", reinterpret_cast<void*>(&eglClientWaitSyncKHR)},
      {"eglGetSyncAttribKHR", reinterpret_cast<void*>(&eglGetSyncAttribKHR)},
      {"eglWaitSyncKHR", reinterpret_cast<void*>(&eglWaitSyncKHR)},
  };
  for (const auto& p : kProcs) {
    if (std::strcmp(p.name, name) == 0) return p.fn;
  }
  return nullptr;
}

}  // namespace tessera::egl
