#include "api/egl/x11_presenter.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>
#include <vector>

namespace tessera::egl {

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

bool x11Present(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width,
                uint32_t height) {
  auto* d = static_cast<Display*>(w.display);
  if (!d || !w.window || rgba.size() < size_t{width} * height * 4) return false;
  XWindowAttributes a;
  if (!XGetWindowAttributes(d, static_cast<Window>(w.window), &a)) return false;
  if (a.depth != 24 && a.depth != 32) return false;  // TrueColor 8-bit channels only
  // A 32-bit ZPixmap in the visual's channel layout, top row first. The buffer is kept from
  // frame to frame (a fresh one costs its page faults and its zeroing every frame).
  thread_local std::vector<uint32_t> pixels;
  pixels.resize(size_t{width} * height);
  const Visual* v = a.visual;
  auto shift = [](unsigned long mask) {
    int s = 0;
    while (mask && !(mask & 1)) mask >>= 1, ++s;
    return s;
  };
  const int rs = shift(v->red_mask), gs = shift(v->green_mask), bs = shift(v->blue_mask);
  // The usual TrueColor layout, 0x00RRGGBB: red and blue bytes swap places.
  const bool bgrx = rs == 16 && gs == 8 && bs == 0;
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* src = rgba.data() + size_t{height - 1 - y} * width * 4;
    uint32_t* dst = pixels.data() + size_t{y} * width;
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
  XImage* img = XCreateImage(d, a.visual, static_cast<unsigned>(a.depth), ZPixmap, 0,
                             reinterpret_cast<char*>(pixels.data()), width, height, 32, 0);
  if (!img) return false;
  GC gc = XCreateGC(d, static_cast<Window>(w.window), 0, nullptr);
  XPutImage(d, static_cast<Window>(w.window), gc, img, 0, 0, 0, 0, width, height);
  XFreeGC(d, gc);
  img->data = nullptr;  // the pixels belong to the vector
  XDestroyImage(img);
  XFlush(d);
  return true;
}

}  // namespace tessera::egl
