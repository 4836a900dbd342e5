#include "api/egl/x11_presenter.h"

#include <sys/ipc.h>
#include <sys/shm.h>
// Xlib before its extensions.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>
#include <map>
#include <mutex>
#include <optional>

namespace tessera::egl {

namespace {

// X errors go to one handler per process (x11WatchErrors).
std::mutex gErrorMutex;
std::map<::Display*, uint64_t> gWatched;  // errors seen on each watched connection
XErrorHandler gPreviousHandler = nullptr;
bool gHandlerInstalled = false;

int onXError(::Display* d, XErrorEvent* e) {
  XErrorHandler previous;
  {
    std::lock_guard<std::mutex> lock(gErrorMutex);
    if (auto it = gWatched.find(d); it != gWatched.end()) {
      ++it->second;
      return 0;
    }
    previous = gPreviousHandler;
  }
  return previous ? previous(d, e) : 0;
}

// The errors seen on a watched connection so far; nothing when it is not watched.
std::optional<uint64_t> errorsOn(::Display* d) {
  std::lock_guard<std::mutex> lock(gErrorMutex);
  auto it = gWatched.find(d);
  if (it == gWatched.end()) return std::nullopt;
  return it->second;
}

// Writes the frame top row first in the visual's channel layout (32-bit pixels, `pitch` bytes
// a row).
void convert(std::span<const uint8_t> rgba, uint32_t width, uint32_t height, const Visual* v,
             uint8_t* out, size_t pitch) {
  auto shift = [](unsigned long mask) {
    int s = 0;
    while (mask && !(mask & 1)) mask >>= 1, ++s;
    return s;
  };
  const int rs = shift(v->red_mask), gs = shift(v->green_mask), bs = shift(v->blue_mask);
  // The usual TrueColor layout, 0x00RRGGBB: red and blue bytes swap places.
  [[maybe_unused]] const bool bgrx = rs == 16 && gs == 8 && bs == 0;
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* src = rgba.data() + size_t{height - 1 - y} * width * 4;
    auto* dst = reinterpret_cast<uint32_t*>(out + y * pitch);
    uint32_t x = 0;
#if defined(__SSE2__)
    if (bgrx) {
      const __m128i redBlue = _mm_set1_epi32(0x00ff00ff), green = _mm_set1_epi32(0x0000ff00);
      for (; x + 4 <= width; x += 4) {
        const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 4 * x));
        const __m128i rb = _mm_and_si128(p, redBlue);
        const __m128i swapped = _mm_or_si128(_mm_slli_epi32(rb, 16), _mm_srli_epi32(rb, 16));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + x),
                         _mm_or_si128(swapped, _mm_and_si128(p, green)));
      }
    }
#endif
    for (; x < width; ++x) {
      dst[x] = uint32_t{src[4 * x]} << rs | uint32_t{src[4 * x + 1]} << gs |
               uint32_t{src[4 * x + 2]} << bs;
    }
  }
}

}  // namespace

void x11WatchErrors(void* display) {
  std::lock_guard<std::mutex> lock(gErrorMutex);
  gWatched.emplace(static_cast<::Display*>(display), 0);
  if (!gHandlerInstalled) {
    gPreviousHandler = XSetErrorHandler(onXError);
    gHandlerInstalled = true;
  }
}

void x11ForgetErrors(void* display) {
  std::lock_guard<std::mutex> lock(gErrorMutex);
  gWatched.erase(static_cast<::Display*>(display));
}

unsigned long x11DefaultVisual(void* display) {
  auto* d = static_cast<Display*>(display);
  if (!d) return 0;
  return XVisualIDFromVisual(DefaultVisual(d, DefaultScreen(d)));
}

bool x11WindowSize(const X11Window& w, uint32_t& width, uint32_t& height) {
  auto* d = static_cast<Display*>(w.display);
  if (!d || !w.window) return false;
  XWindowAttributes a;
  if (!XGetWindowAttributes(d, static_cast<Window>(w.window), &a)) return false;
  width = static_cast<uint32_t>(a.width);
  height = static_cast<uint32_t>(a.height);
  return true;
}

// A MIT-SHM segment attached on the server and in this process, and the image over it.
struct X11Image::Shared {
  XShmSegmentInfo info{};
  XImage* image = nullptr;
  uint32_t width = 0, height = 0;
  VisualID visual = 0;
};

X11Image::X11Image() = default;

std::unique_ptr<X11Image::Shared> X11Image::attach(void* display, void* visual, unsigned depth,
                                                   uint32_t width, uint32_t height) {
  auto* d = static_cast<Display*>(display);
  if (!XShmQueryExtension(d)) return nullptr;
  auto s = std::make_unique<Shared>();
  s->width = width;
  s->height = height;
  s->visual = XVisualIDFromVisual(static_cast<Visual*>(visual));
  s->image = XShmCreateImage(d, static_cast<Visual*>(visual), depth, ZPixmap, nullptr, &s->info,
                             width, height);
  if (!s->image) return nullptr;
  bool attached = false;
  if (s->image->bits_per_pixel == 32) {
    const std::optional<uint64_t> errorsBefore = errorsOn(d);
    s->info.shmid =
        shmget(IPC_PRIVATE, size_t(s->image->bytes_per_line) * height, IPC_CREAT | 0600);
    void* at = s->info.shmid < 0 ? nullptr : shmat(s->info.shmid, nullptr, 0);
    if (at && at != reinterpret_cast<void*>(-1)) {
      s->info.shmaddr = s->image->data = static_cast<char*>(at);
      s->info.readOnly = True;
      XShmAttach(d, &s->info);
      XSync(d, False);
      attached = errorsOn(d) == errorsBefore;
      if (!attached) {
        shmdt(at);
        s->image->data = nullptr;
      }
    }
    // The segment goes once both sides have detached.
    if (s->info.shmid >= 0) shmctl(s->info.shmid, IPC_RMID, nullptr);
  }
  if (attached) return s;
  XDestroyImage(s->image);
  return nullptr;
}
X11Image::~X11Image() {
  release();
}

void X11Image::release() {
  if (!shared_) return;
  auto* d = static_cast<Display*>(display_);
  XShmDetach(d, &shared_->info);
  XSync(d, False);
  shmdt(shared_->info.shmaddr);
  shared_->image->data = nullptr;  // the segment was the image's memory
  XDestroyImage(shared_->image);
  shared_.reset();
}

bool X11Image::put(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width,
                   uint32_t height) {
  auto* d = static_cast<Display*>(w.display);
  if (!d || !w.window || rgba.size() < size_t{width} * height * 4) return false;
  XWindowAttributes a;
  if (!XGetWindowAttributes(d, static_cast<Window>(w.window), &a)) return false;
  if (a.depth != 24 && a.depth != 32) return false;  // TrueColor 8-bit channels only
  const auto depth = static_cast<unsigned>(a.depth);
  const VisualID visual = XVisualIDFromVisual(a.visual);
  if (shared_ && (display_ != d || shared_->width != width || shared_->height != height ||
                  shared_->visual != visual))
    release();
  // Shared memory only where a refusal can be seen: on a connection whose errors are counted.
  // Once refused (a server on another host, say) it is not tried again.
  if (!shared_ && !sharedRefused_ && errorsOn(d)) {
    shared_ = attach(d, a.visual, depth, width, height);
    sharedRefused_ = !shared_;
    display_ = d;
  }

  XImage* img = nullptr;
  if (shared_) {
    img = shared_->image;
    convert(rgba, width, height, a.visual, reinterpret_cast<uint8_t*>(img->data),
            size_t(img->bytes_per_line));
  } else {
    pixels_.resize(size_t{width} * height);
    convert(rgba, width, height, a.visual, reinterpret_cast<uint8_t*>(pixels_.data()),
            size_t{width} * 4);
    img = XCreateImage(d, a.visual, depth, ZPixmap, 0, reinterpret_cast<char*>(pixels_.data()),
                       width, height, 32, 0);
    if (!img) return false;
  }
  GC gc = XCreateGC(d, static_cast<Window>(w.window), 0, nullptr);
  if (shared_) {
    XShmPutImage(d, static_cast<Window>(w.window), gc, img, 0, 0, 0, 0, width, height, False);
  } else {
    XPutImage(d, static_cast<Window>(w.window), gc, img, 0, 0, 0, 0, width, height);
    img->data = nullptr;  // the pixels belong to the vector
    XDestroyImage(img);
  }
  XFreeGC(d, gc);
  // The server reads a shared image after the call returns: the next frame must not be
  // written into it before the server has done so.
  if (shared_)
    XSync(d, False);
  else
    XFlush(d);
  return true;
}

bool x11Present(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width,
                uint32_t height) {
  X11Image image;
  return image.put(w, rgba, width, height);
}

}  // namespace tessera::egl
