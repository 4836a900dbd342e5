// The framebuffer-traffic arithmetic of the seed on tile-based rendering ("Memory bandwidth
// analysis"): an immediate-mode GPU reads and writes depth and writes colour in system memory
// for every fragment it draws, a tiler writes each pixel's colour back once per frame. Tests
// check the rendered frames' bus bytes against it; reports can quote it for a frame size.
#pragma once
#include <cstdint>

namespace tessera::gpu::perf {

struct FramebufferFormat {
  uint32_t depthBytes = 3;  // the seed's 24-bit depth
  uint32_t colorBytes = 4;  // RGBA8
};

// Immediate mode: every drawn fragment reads depth, writes depth and writes colour; `overdraw`
// is fragments drawn per pixel covered.
constexpr double immediateFramebufferBytes(uint64_t pixels, double overdraw,
                                           FramebufferFormat f = {}) {
  return double(pixels) * overdraw * (2.0 * f.depthBytes + f.colorBytes);
}

// Tiled: colour written back once per dirty pixel; depth stays in tile memory.
constexpr double tiledWritebackBytes(uint64_t dirtyPixels, FramebufferFormat f = {}) {
  return double(dirtyPixels) * f.colorBytes;
}

constexpr double bytesPerSecond(double bytesPerFrame, double framesPerSecond) {
  return bytesPerFrame * framesPerSecond;
}

}  // namespace tessera::gpu::perf
