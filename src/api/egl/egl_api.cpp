// The EGL 1.4 C API over Tessera's GLES2 contexts, for surfaceless and pbuffer use (EGL 1.4
// §3; EGL_MESA_platform_surfaceless, EGL_EXT_platform_base, EGL_KHR_surfaceless_context,
// EGL_EXT_create_context_robustness; fence syncs are in egl_sync.cpp).
// Errors are per thread (eglGetError); no call crashes on a bad handle: handles are checked
// against the display's sets before use.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

#include "api/egl/egl_internal.h"
#include "api/egl/egl_objects.h"
#include "api/egl/egl_top.h"
#include "common/error.h"
#include "gpu/preset/preset.h"
#include "gpu/preset/preset_field.h"
#include "gpu/rb/color_format.h"

namespace tessera::egl {

EGLint Config::attribute(EGLint name) const {
  switch (name) {
    case EGL_CONFIG_ID:
      return id;
    case EGL_BUFFER_SIZE:
      return red + green + blue + alpha;
    case EGL_RED_SIZE:
      return red;
    case EGL_GREEN_SIZE:
      return green;
    case EGL_BLUE_SIZE:
      return blue;
    case EGL_ALPHA_SIZE:
      return alpha;
    case EGL_DEPTH_SIZE:
      return depth;
    case EGL_STENCIL_SIZE:
      return stencil;
    case EGL_SURFACE_TYPE:
      return surfaceTypes;
    case EGL_RENDERABLE_TYPE:
    case EGL_CONFORMANT:
      return EGL_OPENGL_ES2_BIT;
    case EGL_COLOR_BUFFER_TYPE:
      return EGL_RGB_BUFFER;
    case EGL_CONFIG_CAVEAT:
      return EGL_NONE;
    case EGL_SAMPLES:
      return samples;
    case EGL_SAMPLE_BUFFERS:
      return samples > 0 ? 1 : 0;
    case EGL_LEVEL:
    case EGL_LUMINANCE_SIZE:
    case EGL_ALPHA_MASK_SIZE:
    case EGL_NATIVE_VISUAL_TYPE:
    case EGL_MIN_SWAP_INTERVAL:
    case EGL_TRANSPARENT_RED_VALUE:
    case EGL_TRANSPARENT_GREEN_VALUE:
    case EGL_TRANSPARENT_BLUE_VALUE:
      return 0;
    case EGL_MAX_SWAP_INTERVAL:
      return 1;
    case EGL_NATIVE_VISUAL_ID:
      return visualId;
    case EGL_TRANSPARENT_TYPE:
      return EGL_NONE;
    case EGL_NATIVE_RENDERABLE:
    case EGL_BIND_TO_TEXTURE_RGB:
    case EGL_BIND_TO_TEXTURE_RGBA:
      return EGL_FALSE;
    case EGL_MAX_PBUFFER_WIDTH:
    case EGL_MAX_PBUFFER_HEIGHT:
      return 8192;
    case EGL_MAX_PBUFFER_PIXELS:
      return 8192 * 8192;
    default:
      return -1;
  }
}

namespace {

thread_local EGLint tError = EGL_SUCCESS;
thread_local Display* tDisplay = nullptr;
thread_local Context* tContext = nullptr;
std::mutex gLock;  // displays and their object sets

}  // namespace

std::mutex& displayLock() {
  return gLock;
}
void setError(EGLint error) {
  tError = error;
}
Context* currentContext() {
  return tContext;
}
Display* currentDisplay() {
  return tDisplay;
}

// The one display per native display Tessera has (all native displays share the GPU model).
Display& theDisplay() {
  static Display d;
  return d;
}

Display* display(EGLDisplay dpy, bool mustBeInitialized) {
  Display* d = static_cast<Display*>(dpy);
  if (d != &theDisplay()) return fail<Display*>(EGL_BAD_DISPLAY, nullptr);
  if (mustBeInitialized && !d->initialized) return fail<Display*>(EGL_NOT_INITIALIZED, nullptr);
  return d;
}

namespace {

std::vector<Config> makeConfigs(void* x11) {
  std::vector<Config> out;
  EGLint id = 1;
  struct Color {
    EGLint r, g, b, a;
  };
  for (Color c : {Color{8, 8, 8, 8}, Color{8, 8, 8, 0}, Color{5, 6, 5, 0}}) {
    for (EGLint depth : {24, 16, 0}) {
      for (EGLint stencil : {8, 0}) {
        if (stencil && depth != 24) continue;  // stencil comes with D24S8
        // 4x multisampling (docs/msaa.md) for every format, as Mesa offers it.
        for (EGLint samples : {0, 4}) {
          Config k;
          k.id = id++;
          k.red = c.r, k.green = c.g, k.blue = c.b, k.alpha = c.a;
          k.depth = depth, k.stencil = stencil;
          k.samples = samples;
          // Every colour format presents into the X server's default (24-bit TrueColor)
          // visual; RGB565 is widened to 8 bits per channel on the way.
          if (x11) {
            k.surfaceTypes |= EGL_WINDOW_BIT;
            k.visualId = static_cast<EGLint>(x11DefaultVisual(x11));
          }
          out.push_back(k);
        }
      }
    }
  }
  return out;
}

const Config* config(Display* d, EGLConfig c) {
  for (const Config& k : d->configs) {
    if (&k == c) return &k;
  }
  return fail<const Config*>(EGL_BAD_CONFIG, nullptr);
}

Surface* surface(Display* d, EGLSurface s) {
  auto* p = static_cast<Surface*>(s);
  return d->surfaces.count(p) ? p : fail<Surface*>(EGL_BAD_SURFACE, nullptr);
}

Context* context(Display* d, EGLContext c) {
  auto* p = static_cast<Context*>(c);
  return d->contexts.count(p) ? p : fail<Context*>(EGL_BAD_CONTEXT, nullptr);
}

// The surface's colour and depth buffers live in the context that first renders to it.
void attach(Context* c, Surface* s) {
  if (s->owner == c) return;
  s->presenter.reset();  // it may still read the previous owner's buffers
  auto& pipe = c->gl->pipe();
  s->fb.width = static_cast<uint32_t>(s->width);
  s->fb.height = static_cast<uint32_t>(s->height);
  const Config& k = *s->config;
  const uint32_t samples = k.samples > 0 ? static_cast<uint32_t>(k.samples) : 1;
  s->fb.color = pipe.createColorSurface(s->colorFormat(), s->fb.width, s->fb.height, samples);
  if (s->window.window) {
    s->presenter = WindowPresenter::open(s->window, pipe.device().memory());
    s->spareColor =
        s->presenter ? pipe.createColorSurface(s->colorFormat(), s->fb.width, s->fb.height, samples)
                     : pipe::kNoResource;
  }
  s->fb.depth = k.depth == 0 ? pipe::kNoResource
                             : pipe.createDepthSurface(k.depth == 16 ? pipe::DepthFormat::D16
                                                                     : pipe::DepthFormat::D24S8,
                                                       s->fb.width, s->fb.height, samples);
  s->fb.samples = k.samples;
  s->fb.redBits = k.red, s->fb.greenBits = k.green, s->fb.blueBits = k.blue,
  s->fb.alphaBits = k.alpha;
  s->fb.depthBits = k.depth, s->fb.stencilBits = k.stencil;
  s->owner = c;
}

void release(Display* d, Surface* s) {
  if (!s->destroyPending || s->current) return;
  s->presenter.reset();  // the last frame swapped is in the window
  d->surfaces.erase(s);
  delete s;
}

void release(Display* d, Context* c) {
  if (!c->destroyPending || c->current) return;
  Surface* owned = nullptr;
  for (Surface* s : d->surfaces) {
    if (s->owner == c) owned = s;
  }
  rememberContext(*d, *c);  // before the kernel context goes with the driver context
  // Batches submitted since the context's last swap make a last, partial frame.
  if (d->reporter) {
    const auto swap = owned ? owned->swapSurface() : tessera::report::SwapSurface{};
    d->reporter->endFrame(c->gl->pipe(), owned ? &swap : nullptr, true);
  }
  for (Surface* s : d->surfaces) {
    if (s->owner != c) continue;
    s->presenter.reset();  // before its buffers die with the driver context
    s->owner = nullptr;
  }
  d->contexts.erase(c);
  delete c;
}

// A program that exits without eglTerminate still gets its summary. Registered after the
// display exists, so it runs before the display is destroyed.
void writeSummaryAtExit() {
  std::unique_lock<std::mutex> lock(gLock, std::try_to_lock);
  if (!lock.owns_lock()) return;
  // The last frames swapped reach their windows before the GPU goes with the display.
  for (Surface* s : theDisplay().surfaces)
    if (s->presenter) s->presenter->waitIdle();
  if (tessera::report::FrameReporter* r = theDisplay().reporter.get()) {
    for (Context* c : theDisplay().contexts) r->collectLate(c->gl->pipe());
    r->writeSummary();
  }
  printContextSummary(theDisplay(), "exit");
}

bool matches(const Config& k, const EGLint* attribs) {
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    const EGLint name = a[0], want = a[1];
    if (want == EGL_DONT_CARE) continue;
    switch (name) {
      case EGL_SURFACE_TYPE:
      case EGL_RENDERABLE_TYPE:
      case EGL_CONFORMANT:
        if ((k.attribute(name) & want) != want) return false;
        break;
      case EGL_CONFIG_ID:
      case EGL_CONFIG_CAVEAT:
      case EGL_COLOR_BUFFER_TYPE:
      case EGL_LEVEL:
      case EGL_NATIVE_RENDERABLE:
      case EGL_TRANSPARENT_TYPE:
        if (k.attribute(name) != want) return false;
        break;
      case EGL_MIN_SWAP_INTERVAL:
      case EGL_MAX_SWAP_INTERVAL:
      case EGL_NATIVE_VISUAL_TYPE:
      case EGL_MAX_PBUFFER_WIDTH:
      case EGL_MAX_PBUFFER_HEIGHT:
      case EGL_MAX_PBUFFER_PIXELS:
        break;  // ignored for matching (EGL 1.4 Table 3.4)
      default:
        if (k.attribute(name) < 0) return false;
        if (k.attribute(name) < want) return false;  // sizes: at least
    }
  }
  return true;
}

}  // namespace

bool validAttribList(const EGLint* attribs) {
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    if (Config{}.attribute(a[0]) < 0 && a[0] != EGL_MATCH_NATIVE_PIXMAP) return false;
  }
  return true;
}

}  // namespace tessera::egl

using namespace tessera::egl;

extern "C" {

EGLAPI EGLint EGLAPIENTRY eglGetError(void) {
  const EGLint e = tError;
  tError = EGL_SUCCESS;
  return e;
}

EGLAPI EGLDisplay EGLAPIENTRY eglGetDisplay(EGLNativeDisplayType native) {
  std::lock_guard<std::mutex> lock(gLock);
  // A native display is an X11 Display* (EGL_DEFAULT_DISPLAY: none, pbuffers only).
  if (native != EGL_DEFAULT_DISPLAY) theDisplay().x11 = reinterpret_cast<void*>(native);
  tError = EGL_SUCCESS;
  return &theDisplay();
}

EGLAPI EGLDisplay EGLAPIENTRY eglGetPlatformDisplayEXT(EGLenum platform, void* native,
                                                       const EGLint*) {
  if (platform == EGL_PLATFORM_X11_KHR)
    return eglGetDisplay(static_cast<EGLNativeDisplayType>(native));
  if (platform != EGL_PLATFORM_SURFACELESS_MESA)
    return fail<EGLDisplay>(EGL_BAD_PARAMETER, EGL_NO_DISPLAY);
  tError = EGL_SUCCESS;
  return &theDisplay();
}

EGLAPI EGLDisplay EGLAPIENTRY eglGetPlatformDisplay(EGLenum platform, void* native,
                                                    const EGLAttrib*) {
  return eglGetPlatformDisplayEXT(platform, native, nullptr);
}

EGLAPI EGLBoolean EGLAPIENTRY eglInitialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy, false);
  if (!d) return EGL_FALSE;
  if (!d->initialized) {
    try {
      const char* preset = std::getenv("TESSERA_PRESET");
      const char* mode = std::getenv("TESSERA_MODE");
      tessera::gpu::Preset p = tessera::gpu::findPreset(preset && *preset ? preset : "adreno-a630");
      // TESSERA_PRESET_OVERRIDES=key=value,key=value: `tessera replay --set` and trace sweeps.
      if (const char* overrides = std::getenv("TESSERA_PRESET_OVERRIDES")) {
        std::string_view rest = overrides;
        while (!rest.empty()) {
          const size_t comma = rest.find(',');
          const std::string_view one = rest.substr(0, comma);
          if (!one.empty()) tessera::gpu::applyPresetOverride(p, one);
          rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        }
        tessera::gpu::validatePreset(p);
      }
      // A display initialized again gets a new GPU: the previous kernel (and the fences on it)
      // go before the GPU it runs on.
      d->syncs.clear();
      d->kernel.reset();
      d->device = std::make_unique<tessera::gpu::Device>(p);
      d->kernel = std::make_unique<tessera::kmd::Device>(*d->device,
                                                         tessera::kmd::optionsFromEnvironment());
      // As freedreno: the driver chooses per batch (docs/architecture.md, "Flush") unless
      // TESSERA_MODE forces a mode; the immediate-mode baseline preset renders in sysmem.
      d->options.mode = mode && *mode  ? tessera::driver::parseRenderMode(mode)
                        : p.sysmemOnly ? tessera::driver::RenderMode::Sysmem
                                       : tessera::driver::RenderMode::Auto;
      if (!d->reporter) {
        d->reporter = std::make_unique<tessera::report::FrameReporter>(
            std::string(p.name), std::string(tessera::driver::renderModeName(d->options.mode)));
        std::atexit(writeSummaryAtExit);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tessera: EGL: %s\n", e.what());
      return fail(EGL_NOT_INITIALIZED, EGL_FALSE);
    }
    d->configs = makeConfigs(d->x11);
    d->top = topRequested();
    d->initialized = true;
  }
  if (major) *major = 1;
  if (minor) *minor = 4;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglTerminate(EGLDisplay dpy) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy, false);
  if (!d) return EGL_FALSE;
  // Objects current to a thread stay alive until released (EGL 1.4 §3.2).
  for (Context* c : std::set<Context*>(d->contexts)) {
    c->destroyPending = true;
    release(d, c);
  }
  for (Surface* s : std::set<Surface*>(d->surfaces)) {
    s->destroyPending = true;
    release(d, s);
  }
  // Sync objects are display resources: they go with it (EGL_KHR_fence_sync).
  d->syncs.clear();
  if (d->reporter) d->reporter->writeSummary();
  printContextSummary(*d, "eglTerminate");
  d->initialized = false;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI const char* EGLAPIENTRY eglQueryString(EGLDisplay dpy, EGLint name) {
  if (dpy == EGL_NO_DISPLAY && name == EGL_EXTENSIONS) {
    tError = EGL_SUCCESS;
    return "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_MESA_platform_surfaceless";
  }
  Display* d = display(dpy);
  if (!d) return nullptr;
  tError = EGL_SUCCESS;
  switch (name) {
    case EGL_VENDOR:
      return "Tessera";
    case EGL_VERSION:
      return "1.4 Tessera";
    case EGL_CLIENT_APIS:
      return "OpenGL_ES";
    case EGL_EXTENSIONS:
      return "EGL_KHR_surfaceless_context EGL_KHR_create_context "
             "EGL_EXT_create_context_robustness EGL_KHR_fence_sync EGL_KHR_wait_sync";
    default:
      return fail<const char*>(EGL_BAD_PARAMETER, nullptr);
  }
}

EGLAPI EGLBoolean EGLAPIENTRY eglGetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint size,
                                            EGLint* count) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  if (!d) return EGL_FALSE;
  if (!count) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  EGLint n = 0;
  for (Config& k : d->configs) {
    if (configs && n < size) configs[n] = &k;
    if (configs && n >= size) break;
    ++n;
  }
  *count = n;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglChooseConfig(EGLDisplay dpy, const EGLint* attribs,
                                              EGLConfig* configs, EGLint size, EGLint* count) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  if (!d) return EGL_FALSE;
  if (!count) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  if (!validAttribList(attribs)) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  std::vector<Config*> found;
  for (Config& k : d->configs) {
    if (matches(k, attribs)) found.push_back(&k);
  }
  // EGL 1.4 §3.4.1.2 order, as far as these configs differ: more colour bits first, then
  // fewer sample buffers and samples, then less depth and stencil, then the id.
  std::stable_sort(found.begin(), found.end(), [](const Config* a, const Config* b) {
    const EGLint ca = a->red + a->green + a->blue + a->alpha,
                 cb = b->red + b->green + b->blue + b->alpha;
    if (ca != cb) return ca > cb;
    if (a->samples != b->samples) return a->samples < b->samples;
    if (a->depth != b->depth) return a->depth < b->depth;
    if (a->stencil != b->stencil) return a->stencil < b->stencil;
    return a->id < b->id;
  });
  EGLint n = 0;
  for (Config* k : found) {
    if (configs && n >= size) break;
    if (configs) configs[n] = k;
    ++n;
  }
  *count = n;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglGetConfigAttrib(EGLDisplay dpy, EGLConfig cfg, EGLint attribute,
                                                 EGLint* value) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  const Config* k = d ? config(d, cfg) : nullptr;
  if (!k) return EGL_FALSE;
  const EGLint v = k->attribute(attribute);
  if (v < 0 && attribute != EGL_TRANSPARENT_TYPE) return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  if (value) *value = v;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLSurface EGLAPIENTRY eglCreatePbufferSurface(EGLDisplay dpy, EGLConfig cfg,
                                                      const EGLint* attribs) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  const Config* k = d ? config(d, cfg) : nullptr;
  if (!k) return EGL_NO_SURFACE;
  EGLint w = 0, h = 0;
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_WIDTH:
        w = a[1];
        break;
      case EGL_HEIGHT:
        h = a[1];
        break;
      case EGL_LARGEST_PBUFFER:
      case EGL_TEXTURE_FORMAT:
      case EGL_TEXTURE_TARGET:
      case EGL_MIPMAP_TEXTURE:
      case EGL_VG_COLORSPACE:
      case EGL_VG_ALPHA_FORMAT:
        break;
      default:
        return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
    }
  }
  if (w < 0 || h < 0 || w > 8192 || h > 8192) return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
  auto* s = new Surface;
  s->config = k;
  s->width = std::max<EGLint>(w, 1);  // a 0x0 pbuffer still has a pixel to render into
  s->height = std::max<EGLint>(h, 1);
  d->surfaces.insert(s);
  tError = EGL_SUCCESS;
  return s;
}

EGLAPI EGLSurface EGLAPIENTRY eglCreateWindowSurface(EGLDisplay dpy, EGLConfig cfg,
                                                     EGLNativeWindowType win,
                                                     const EGLint* attribs) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  const Config* k = d ? config(d, cfg) : nullptr;
  if (!k) return EGL_NO_SURFACE;
  if (!(k->surfaceTypes & EGL_WINDOW_BIT)) return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    if (a[0] != EGL_RENDER_BUFFER && a[0] != EGL_VG_COLORSPACE && a[0] != EGL_VG_ALPHA_FORMAT)
      return fail(EGL_BAD_ATTRIBUTE, EGL_NO_SURFACE);
  }
  const X11Window w{d->x11, static_cast<unsigned long>(win)};
  uint32_t width = 0, height = 0;
  if (!x11WindowSize(w, width, height)) return fail(EGL_BAD_NATIVE_WINDOW, EGL_NO_SURFACE);
  auto* s = new Surface;
  s->config = k;
  s->window = w;
  s->width = static_cast<EGLint>(std::max<uint32_t>(width, 1));
  s->height = static_cast<EGLint>(std::max<uint32_t>(height, 1));
  d->surfaces.insert(s);
  tError = EGL_SUCCESS;
  return s;
}

EGLAPI EGLSurface EGLAPIENTRY eglCreatePixmapSurface(EGLDisplay dpy, EGLConfig, EGLNativePixmapType,
                                                     const EGLint*) {
  Display* d = display(dpy);
  if (!d) return EGL_NO_SURFACE;
  return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);  // no config supports pixmaps
}

EGLAPI EGLBoolean EGLAPIENTRY eglDestroySurface(EGLDisplay dpy, EGLSurface surf) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  Surface* s = d ? surface(d, surf) : nullptr;
  if (!s) return EGL_FALSE;
  s->destroyPending = true;
  release(d, s);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglQuerySurface(EGLDisplay dpy, EGLSurface surf, EGLint attribute,
                                              EGLint* value) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  Surface* s = d ? surface(d, surf) : nullptr;
  if (!s) return EGL_FALSE;
  EGLint v = 0;
  switch (attribute) {
    case EGL_WIDTH:
      v = s->width;
      break;
    case EGL_HEIGHT:
      v = s->height;
      break;
    case EGL_CONFIG_ID:
      v = s->config->id;
      break;
    case EGL_LARGEST_PBUFFER:
    case EGL_MIPMAP_TEXTURE:
    case EGL_MIPMAP_LEVEL:
      v = 0;
      break;
    case EGL_TEXTURE_FORMAT:
    case EGL_TEXTURE_TARGET:
      v = EGL_NO_TEXTURE;
      break;
    case EGL_RENDER_BUFFER:
      v = EGL_BACK_BUFFER;
      break;
    case EGL_SWAP_BEHAVIOR:
      v = EGL_BUFFER_DESTROYED;
      break;
    case EGL_HORIZONTAL_RESOLUTION:
    case EGL_VERTICAL_RESOLUTION:
    case EGL_PIXEL_ASPECT_RATIO:
      v = EGL_UNKNOWN;
      break;
    case EGL_MULTISAMPLE_RESOLVE:
      v = EGL_MULTISAMPLE_RESOLVE_DEFAULT;
      break;
    default:
      return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  if (value) *value = v;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglSurfaceAttrib(EGLDisplay dpy, EGLSurface surf, EGLint, EGLint) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  if (!d || !surface(d, surf)) return EGL_FALSE;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglBindAPI(EGLenum api) {
  if (api != EGL_OPENGL_ES_API) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLenum EGLAPIENTRY eglQueryAPI(void) {
  return EGL_OPENGL_ES_API;
}

EGLAPI EGLContext EGLAPIENTRY eglCreateContext(EGLDisplay dpy, EGLConfig cfg, EGLContext share,
                                               const EGLint* attribs) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  if (!d) return EGL_NO_CONTEXT;
  const Config* k = cfg == EGL_NO_CONFIG_KHR ? &d->configs.front() : config(d, cfg);
  if (!k) return EGL_NO_CONTEXT;
  if (share != EGL_NO_CONTEXT && !context(d, share)) return EGL_NO_CONTEXT;
  EGLint version = 1;
  tessera::gles2::Robustness robustness;
  for (const EGLint* a = attribs; a && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_CONTEXT_CLIENT_VERSION:
        version = a[1];
        break;
      case EGL_CONTEXT_MINOR_VERSION_KHR:
      case EGL_CONTEXT_FLAGS_KHR:
        break;
      // EGL_EXT_create_context_robustness: the GL context's reset notification strategy (whether
      // glGetGraphicsResetStatusEXT reports resets) and robust buffer access.
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT:
        if (a[1] != EGL_LOSE_CONTEXT_ON_RESET_EXT && a[1] != EGL_NO_RESET_NOTIFICATION_EXT)
          return fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
        robustness.loseContextOnReset = a[1] == EGL_LOSE_CONTEXT_ON_RESET_EXT;
        break;
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT:
        if (a[1] != EGL_TRUE && a[1] != EGL_FALSE) return fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
        robustness.robustAccess = a[1] == EGL_TRUE;
        break;
      default:
        return fail(EGL_BAD_ATTRIBUTE, EGL_NO_CONTEXT);
    }
  }
  if (version != 2) return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);  // OpenGL ES 2.0 only
  // Contexts sharing objects share one reset notification (EGL_EXT_create_context_robustness).
  if (share != EGL_NO_CONTEXT &&
      static_cast<Context*>(share)->gl->robustness().loseContextOnReset !=
          robustness.loseContextOnReset)
    return fail(EGL_BAD_MATCH, EGL_NO_CONTEXT);
  auto* c = new Context;
  c->config = k;
  try {
    c->gl = std::make_unique<tessera::gles2::Context>(*d->kernel, d->options);
    c->gl->setRobustness(robustness);
    // The kernel context behind it: the one its fences are on.
    c->kernelId = c->gl->pipe().kernelContext();
  } catch (const std::exception& e) {
    delete c;
    std::fprintf(stderr, "tessera: EGL: %s\n", e.what());
    return fail(EGL_BAD_ALLOC, EGL_NO_CONTEXT);
  }
  c->name = "egl context " + std::to_string(++d->contextsCreated);
  d->topPending = true;
  d->contexts.insert(c);
  tError = EGL_SUCCESS;
  return c;
}

EGLAPI EGLBoolean EGLAPIENTRY eglDestroyContext(EGLDisplay dpy, EGLContext ctx) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  Context* c = d ? context(d, ctx) : nullptr;
  if (!c) return EGL_FALSE;
  c->destroyPending = true;
  release(d, c);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read,
                                             EGLContext ctx) {
  std::lock_guard<std::mutex> lock(gLock);
  if (dpy == EGL_NO_DISPLAY && ctx == EGL_NO_CONTEXT && draw == EGL_NO_SURFACE &&
      read == EGL_NO_SURFACE) {
    dpy = &theDisplay();
  }
  Display* d = display(dpy);
  if (!d) return EGL_FALSE;
  Context* c = nullptr;
  Surface* s = nullptr;
  if (ctx != EGL_NO_CONTEXT) {
    c = context(d, ctx);
    if (!c) return EGL_FALSE;
    if (c->current && tContext != c) return fail(EGL_BAD_ACCESS, EGL_FALSE);  // another thread's
    if (draw != read) return fail(EGL_BAD_MATCH, EGL_FALSE);
    if (draw != EGL_NO_SURFACE) {
      s = surface(d, draw);
      if (!s) return EGL_FALSE;
      // A surface bound to a context current in another thread cannot be bound here; one
      // whose context is gone or idle gets new buffers in this context (EGL_BUFFER_DESTROYED:
      // its contents were undefined after the last swap anyway).
      if (s->owner && s->owner != c && s->owner->current && s->owner != tContext)
        return fail(EGL_BAD_ACCESS, EGL_FALSE);
    }
  } else if (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE) {
    return fail(EGL_BAD_MATCH, EGL_FALSE);
  }
  // Release what the thread had.
  if (tContext) {
    try {
      tContext->gl->flush();  // an implicit flush on context switch (EGL 1.4 §3.7.3)
    } catch (const std::exception&) {
    }
    tContext->current = false;
    if (tContext->draw) {
      tContext->draw->current = false;
      release(d, tContext->draw);
    }
    tContext->draw = nullptr;
    release(d, tContext);
  }
  tContext = c;
  tDisplay = c ? d : nullptr;
  if (c) {
    c->current = true;
    c->draw = s;
    if (s) {
      s->current = true;
      try {
        attach(c, s);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "tessera: EGL: %s\n", e.what());
        return fail(EGL_BAD_ALLOC, EGL_FALSE);
      }
      c->gl->setDefaultFramebuffer(s->fb);
    } else {
      c->gl->setDefaultFramebuffer({});
    }
  }
  tessera::gles2::makeCurrent(c ? c->gl.get() : nullptr);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLContext EGLAPIENTRY eglGetCurrentContext(void) {
  return tContext ? tContext : EGL_NO_CONTEXT;
}

EGLAPI EGLSurface EGLAPIENTRY eglGetCurrentSurface(EGLint which) {
  if (which != EGL_DRAW && which != EGL_READ) return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
  return tContext && tContext->draw ? tContext->draw : EGL_NO_SURFACE;
}

EGLAPI EGLDisplay EGLAPIENTRY eglGetCurrentDisplay(void) {
  return tDisplay ? tDisplay : EGL_NO_DISPLAY;
}

EGLAPI EGLBoolean EGLAPIENTRY eglQueryContext(EGLDisplay dpy, EGLContext ctx, EGLint attribute,
                                              EGLint* value) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  Context* c = d ? context(d, ctx) : nullptr;
  if (!c) return EGL_FALSE;
  EGLint v = 0;
  switch (attribute) {
    case EGL_CONFIG_ID:
      v = c->config->id;
      break;
    case EGL_CONTEXT_CLIENT_TYPE:
      v = EGL_OPENGL_ES_API;
      break;
    case EGL_CONTEXT_CLIENT_VERSION:
      v = 2;
      break;
    case EGL_RENDER_BUFFER:
      v = c->draw ? EGL_BACK_BUFFER : EGL_NONE;
      break;
    default:
      return fail(EGL_BAD_ATTRIBUTE, EGL_FALSE);
  }
  if (value) *value = v;
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglSwapBuffers(EGLDisplay dpy, EGLSurface surf) {
  std::lock_guard<std::mutex> lock(gLock);
  Display* d = display(dpy);
  Surface* s = d ? surface(d, surf) : nullptr;
  if (!s) return EGL_FALSE;
  if (!tContext || tContext->draw != s) return fail(EGL_BAD_SURFACE, EGL_FALSE);
  try {
    // The frame is submitted (its last batch ends the frame for the kernel's fault recovery);
    // a pbuffer has nothing more to do. A window's depth and stencil are undefined after the
    // swap (EGL 1.4 §3.9.1): the frame does not resolve them. A lost context has nothing to
    // submit (EXT_robustness: its commands are dropped quietly).
    if (!tContext->gl->lost()) {
      if (s->presenter || s->window.window) tContext->gl->discardWindowAncillaryBuffers();
      tContext->gl->pipe().flushFrame();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
  }
  d->topPending = true;
  // Every swap takes the frame's batch reports, reported or not (a faulted batch's says why).
  const tessera::report::SwapSurface swap = s->swapSurface();
  d->reporter->endFrame(tContext->gl->pipe(), &swap, false);
  try {
    if (s->presenter) {
      // The frame goes to the presenter thread, which waits for the GPU; the other buffer of
      // the swap chain, presented at the last swap, becomes the back buffer.
      tessera::driver::Context& pipe = tContext->gl->pipe();
      s->presenter->present({pipe.fence(), pipe.surfaceImage(s->fb.color), s->colorFormat(),
                             s->fb.width, s->fb.height});
      std::swap(s->fb.color, s->spareColor);
      tContext->gl->setDefaultFramebuffer(s->fb);
    } else if (s->window.window) {
      const std::vector<uint8_t> stored = tContext->gl->pipe().readSurface(s->fb.color);
      std::vector<uint8_t> rgba(size_t{s->fb.width} * s->fb.height * 4);
      tessera::gpu::rb::toRgba8(s->colorFormat(), stored.data(), rgba.size() / 4, rgba.data());
      if (!x11Present(s->window, rgba, s->fb.width, s->fb.height))
        return fail(EGL_BAD_NATIVE_WINDOW, EGL_FALSE);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
  }
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglSwapInterval(EGLDisplay dpy, EGLint) {
  if (!display(dpy)) return EGL_FALSE;
  if (!tContext) return fail(EGL_BAD_CONTEXT, EGL_FALSE);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglWaitGL(void) {
  if (tContext) tContext->gl->flush();
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglWaitClient(void) {
  return eglWaitGL();
}

EGLAPI EGLBoolean EGLAPIENTRY eglWaitNative(EGLint) {
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglReleaseThread(void) {
  eglMakeCurrent(EGL_NO_DISPLAY, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  tError = EGL_SUCCESS;
  return EGL_TRUE;
}

EGLAPI EGLBoolean EGLAPIENTRY eglCopyBuffers(EGLDisplay dpy, EGLSurface, EGLNativePixmapType) {
  if (!display(dpy)) return EGL_FALSE;
  return fail(EGL_BAD_NATIVE_PIXMAP, EGL_FALSE);
}

EGLAPI EGLBoolean EGLAPIENTRY eglBindTexImage(EGLDisplay dpy, EGLSurface, EGLint) {
  if (!display(dpy)) return EGL_FALSE;
  return fail(EGL_BAD_MATCH, EGL_FALSE);  // no config binds to textures
}

EGLAPI EGLBoolean EGLAPIENTRY eglReleaseTexImage(EGLDisplay dpy, EGLSurface, EGLint) {
  if (!display(dpy)) return EGL_FALSE;
  return fail(EGL_BAD_MATCH, EGL_FALSE);
}

EGLAPI EGLSurface EGLAPIENTRY eglCreatePbufferFromClientBuffer(EGLDisplay dpy, EGLenum,
                                                               EGLClientBuffer, EGLConfig,
                                                               const EGLint*) {
  if (!display(dpy)) return EGL_NO_SURFACE;
  return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);  // no client buffer types (OpenVG) exist
}

EGLAPI __eglMustCastToProperFunctionPointerType EGLAPIENTRY eglGetProcAddress(const char* name) {
  if (!name) return nullptr;
  static const std::map<std::string, void*> kEgl = {
      {"eglGetPlatformDisplayEXT", reinterpret_cast<void*>(&eglGetPlatformDisplayEXT)},
      {"eglGetPlatformDisplay", reinterpret_cast<void*>(&eglGetPlatformDisplay)},
      {"eglSwapInterval", reinterpret_cast<void*>(&eglSwapInterval)},
      {"eglWaitClient", reinterpret_cast<void*>(&eglWaitClient)},
  };
  if (const auto it = kEgl.find(name); it != kEgl.end()) {
    return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(it->second);
  }
  if (void* sync = syncProcAddress(name))
    return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(sync);
  return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(
      tessera::gles2::procAddress(name));
}

}  // extern "C"
