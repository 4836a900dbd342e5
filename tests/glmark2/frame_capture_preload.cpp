// An LD_PRELOAD library that captures an unmodified glmark2-es2's first frame the same way on any
// GL stack (llvmpipe or Tessera), and makes the frame deterministic:
// - glmark2 resolves EGL entry points with dlsym on the libEGL it dlopens and GL entry points with
//   eglGetProcAddress (then dlsym). Both are interposed for calls from the main program, so
//   the eglSwapBuffers it gets is this library's: before the first real swap it reads the back
//   buffer with glReadPixels (from the stack's own eglGetProcAddress) and writes it as a PNG to
//   $TESSERA_FIRST_FRAME_PNG.
// - glmark2 animates with clock_gettime(CLOCK_MONOTONIC). Calls from the main program (never
//   from the GL libraries and their threads, which keep the real clock) get a clock that stands
//   still between swaps and moves on by $TESSERA_FAKE_CLOCK_STEP_MS (default 500) at each swap,
//   so a scene's first frame is the same whenever it is drawn, and a run of duration D takes
//   D / step + 1 frames. time() from the main program returns a constant (random seeds).
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <link.h>
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/image.h"

namespace {

using DlsymFn = void* (*)(void*, const char*);
using ProcFn = void (*)();
using GetProcAddressFn = ProcFn (*)(const char*);
using SwapFn = EGLBoolean (*)(EGLDisplay, EGLSurface);
using QuerySurfaceFn = EGLBoolean (*)(EGLDisplay, EGLSurface, EGLint, EGLint*);
using ClockFn = int (*)(clockid_t, struct timespec*);
using TimeFn = time_t (*)(time_t*);

// glibc 2.34 moved dlsym into libc under a new version; older programs bind the 2.2.5 one.
DlsymFn realDlsym() {
  static const DlsymFn f = [] {
    void* p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!p) p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    return reinterpret_cast<DlsymFn>(p);
  }();
  return f;
}

// The main program's loaded segments: calls from there are glmark2's own.
struct Segment {
  uintptr_t begin, end;
};

std::vector<Segment> mainProgramSegments() {
  std::vector<Segment> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto& segs = *static_cast<std::vector<Segment>*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD)
            segs.push_back(
                {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz});
        }
        return 1;  // the first object is the main program
      },
      &out);
  return out;
}

bool fromMainProgram(const void* returnAddress) {
  static const std::vector<Segment> segs = mainProgramSegments();
  const auto a = reinterpret_cast<uintptr_t>(returnAddress);
  for (const Segment& s : segs)
    if (a >= s.begin && a < s.end) return true;
  return false;
}

// What the real libraries gave glmark2.
std::atomic<SwapFn> gRealSwap{nullptr};
std::atomic<GetProcAddressFn> gRealGetProcAddress{nullptr};
std::atomic<void*> gEglHandle{nullptr};
std::atomic<uint64_t> gSwaps{0};

EGLBoolean captureSwap(EGLDisplay dpy, EGLSurface surface);
ProcFn captureGetProcAddress(const char* name);

// The replacement for an entry point glmark2 asked for, or the real one.
void* wrap(const char* name, void* real, void* handle) {
  if (!real || !name) return real;
  if (std::strcmp(name, "eglSwapBuffers") == 0) {
    gRealSwap = reinterpret_cast<SwapFn>(real);
    if (handle) gEglHandle = handle;
    return reinterpret_cast<void*>(&captureSwap);
  }
  if (std::strcmp(name, "eglGetProcAddress") == 0) {
    gRealGetProcAddress = reinterpret_cast<GetProcAddressFn>(real);
    if (handle) gEglHandle = handle;
    return reinterpret_cast<void*>(&captureGetProcAddress);
  }
  return real;
}

ProcFn captureGetProcAddress(const char* name) {
  const GetProcAddressFn real = gRealGetProcAddress;
  ProcFn p = real ? real(name) : nullptr;
  return reinterpret_cast<ProcFn>(wrap(name, reinterpret_cast<void*>(p), nullptr));
}

template <class Fn>
Fn glProc(const char* name) {
  const GetProcAddressFn real = gRealGetProcAddress;
  return real ? reinterpret_cast<Fn>(real(name)) : nullptr;
}

// The back buffer as glReadPixels returns it, written top row first.
void writeFirstFrame(EGLDisplay dpy, EGLSurface surface, const char* path) {
  void* egl = gEglHandle;
  auto query =
      egl ? reinterpret_cast<QuerySurfaceFn>(realDlsym()(egl, "eglQuerySurface")) : nullptr;
  auto readPixels =
      glProc<void (*)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*)>("glReadPixels");
  auto getIntegerv = glProc<void (*)(GLenum, GLint*)>("glGetIntegerv");
  auto bindFramebuffer = glProc<void (*)(GLenum, GLuint)>("glBindFramebuffer");
  auto pixelStorei = glProc<void (*)(GLenum, GLint)>("glPixelStorei");
  EGLint w = 0, h = 0;
  if (!query || !readPixels || !getIntegerv || !bindFramebuffer || !pixelStorei ||
      !query(dpy, surface, EGL_WIDTH, &w) || !query(dpy, surface, EGL_HEIGHT, &h) || w <= 0 ||
      h <= 0) {
    std::fprintf(stderr, "frame capture: cannot read the first frame\n");
    return;
  }
  GLint fbo = 0, alignment = 4;
  getIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
  getIntegerv(GL_PACK_ALIGNMENT, &alignment);
  bindFramebuffer(GL_FRAMEBUFFER, 0);
  pixelStorei(GL_PACK_ALIGNMENT, 4);
  std::vector<uint8_t> rows(size_t(w) * size_t(h) * 4);
  readPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  pixelStorei(GL_PACK_ALIGNMENT, alignment);
  bindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(fbo));
  tessera::Image img = tessera::Image::blank(uint32_t(w), uint32_t(h));
  const size_t row = size_t(w) * 4;
  for (EGLint y = 0; y < h; ++y)
    std::memcpy(img.pixel(0, uint32_t(y)), rows.data() + size_t(h - 1 - y) * row, row);
  try {
    tessera::writePng(img, path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "frame capture: %s\n", e.what());
  }
}

EGLBoolean captureSwap(EGLDisplay dpy, EGLSurface surface) {
  const char* path = std::getenv("TESSERA_FIRST_FRAME_PNG");
  if (gSwaps.load() == 0 && path && *path) writeFirstFrame(dpy, surface, path);
  const SwapFn real = gRealSwap;
  const EGLBoolean ok = real ? real(dpy, surface) : EGL_FALSE;
  ++gSwaps;
  return ok;
}

int64_t stepNanoseconds() {
  static const int64_t step = [] {
    const char* s = std::getenv("TESSERA_FAKE_CLOCK_STEP_MS");
    return int64_t(s && *s ? std::atof(s) * 1e6 : 500e6);
  }();
  return step;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void* dlsym(void* handle, const char* name) noexcept {
  void* real = realDlsym()(handle, name);
  if (!fromMainProgram(__builtin_return_address(0))) return real;
  return wrap(name, real, handle);
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t id,
                                                         struct timespec* ts) noexcept {
  static const ClockFn real = reinterpret_cast<ClockFn>(realDlsym()(RTLD_NEXT, "clock_gettime"));
  if (id != CLOCK_MONOTONIC || !fromMainProgram(__builtin_return_address(0))) return real(id, ts);
  static const int64_t start = [] {
    struct timespec t {};
    real(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
  }();
  const int64_t now = start + int64_t(gSwaps.load()) * stepNanoseconds();
  ts->tv_sec = now / 1000000000;
  ts->tv_nsec = now % 1000000000;
  return 0;
}

__attribute__((visibility("default"))) time_t time(time_t* out) noexcept {
  static const TimeFn real = reinterpret_cast<TimeFn>(realDlsym()(RTLD_NEXT, "time"));
  if (!fromMainProgram(__builtin_return_address(0))) return real(out);
  const time_t fixed = 1700000000;  // 2023-11-14: any constant will do
  if (out) *out = fixed;
  return fixed;
}

}  // extern "C"
