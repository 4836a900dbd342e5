// Presents frames in an X11 window: the window's size for its EGL surface, and the colour buffer
// put into the window with the X server's image calls. Where the server shares memory with the
// process (MIT-SHM: a server on this host, Xvfb included), the frame goes through a shared
// segment the server reads in place; elsewhere XPutImage sends it down the connection.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace tessera::egl {

struct X11Window {
  void* display = nullptr;  // Display*
  unsigned long window = 0;
};

// The default visual of the display's default screen (EGL_NATIVE_VISUAL_ID), or 0.
unsigned long x11DefaultVisual(void* display);

// The window's current size; false if it is not a window.
bool x11WindowSize(const X11Window& w, uint32_t& width, uint32_t& height);

// X errors on a connection Tessera opened for itself are counted here, not reported: the
// application may destroy a window while its last frame is on the way. Errors on every other
// connection go to the handler installed before. Only on a watched connection does X11Image try
// shared memory, whose refusal by the server arrives as an error.
void x11WatchErrors(void* display);
void x11ForgetErrors(void* display);

// The image a window's frames are converted into and put from, kept from frame to frame (a
// fresh one costs its page faults, its zeroing and, shared, its attach every frame). It must go
// before its connection closes.
class X11Image final {
 public:
  X11Image();
  ~X11Image();
  X11Image(const X11Image&) = delete;
  X11Image& operator=(const X11Image&) = delete;

  // Puts an RGBA8 frame (bottom row first, as GL reads it) into the window, and returns once
  // the server has it. False on failure.
  bool put(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width, uint32_t height);
  // The last frame went through a shared segment.
  bool shared() const { return shared_ != nullptr; }

 private:
  struct Shared;
  // A segment of the frame's size attached on the server, or null where that fails.
  static std::unique_ptr<Shared> attach(void* display, void* visual, unsigned depth, uint32_t width,
                                        uint32_t height);
  void release();

  void* display_ = nullptr;  // the connection the segment is attached on
  std::unique_ptr<Shared> shared_;
  bool sharedRefused_ = false;    // the server cannot attach this process's memory
  std::vector<uint32_t> pixels_;  // the image when it is not shared
};

// Puts one frame with an image of its own (X11Image::put); for a caller without a presenter.
bool x11Present(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width, uint32_t height);

}  // namespace tessera::egl
