// RGBA8 images and PNG files: the currency between renderers, the oracle and the tools.
// Row 0 is the TOP row of the picture (what a viewer shows first); GL's glReadPixels gives the
// bottom row first, so whoever reads back a framebuffer flips it once, at that boundary.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, row-major, row 0 = top

  // A w x h image of transparent black (Image stays an aggregate: Image{w, h, bytes} works too).
  static Image blank(uint32_t w, uint32_t h) {
    return Image{w, h, std::vector<uint8_t>(size_t{w} * h * 4, 0)};
  }

  uint8_t* pixel(uint32_t x, uint32_t y) { return rgba.data() + (size_t{y} * width + x) * 4; }
  const uint8_t* pixel(uint32_t x, uint32_t y) const {
    return rgba.data() + (size_t{y} * width + x) * 4;
  }
  bool operator==(const Image&) const = default;
};

// Writes an 8-bit RGBA PNG. The data goes to `path + ".tmp"` first and is renamed into place, so
// a failed or interrupted write never leaves a truncated file under `path`.
// Throws tessera::Error naming the path and the reason.
void writePng(const Image& image, const std::string& path);

// The same PNG as bytes in memory (for data: URIs). Throws tessera::Error.
std::vector<uint8_t> encodePng(const Image& image);

// Reads any PNG (palette, grey, grey+alpha, RGB, 16-bit, interlaced, tRNS) as RGBA8. 16-bit
// samples are scaled to 8 bits with rounding; no gamma conversion is applied.
// Throws tessera::Error naming the path on a missing, unreadable or corrupt file.
Image readPng(const std::string& path);

}  // namespace tessera
