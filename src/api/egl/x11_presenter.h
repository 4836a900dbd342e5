// Presents frames in an X11 window: the window's size for its EGL surface, and the colour buffer
// put into the window with the X server's image calls (XPutImage), which any server, Xvfb
// included, serves.
#pragma once
#include <cstdint>
#include <span>

namespace tessera::egl {

struct X11Window {
  void* display = nullptr;  // Display*
  unsigned long window = 0;
};

// The default visual of the display's default screen (EGL_NATIVE_VISUAL_ID), or 0.
unsigned long x11DefaultVisual(void* display);

// The window's current size; false if it is not a window.
bool x11WindowSize(const X11Window& w, uint32_t& width, uint32_t& height);

// Puts an RGBA8 frame (bottom row first, as GL reads it) into the window. False on failure.
bool x11Present(const X11Window& w, std::span<const uint8_t> rgba, uint32_t width, uint32_t height);

}  // namespace tessera::egl
