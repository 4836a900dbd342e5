// Image comparison for oracle and golden tests: how many pixels agree within a per-channel
// tolerance, and where the worst disagreements are, so a failing test can say why.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"

namespace tessera {

struct PixelDiff {
  uint32_t x = 0, y = 0;
  uint8_t a[4] = {}, b[4] = {};
  int maxDiff = 0;  // largest |a - b| over the four channels
};

struct CompareResult {
  uint64_t pixels = 0;
  uint64_t within = 0;  // pixels whose every channel differs by at most `tolerance`
  double fractionWithin = 1.0;
  int maxDiff = 0;
  int tolerance = 0;
  // Up to `worstCount` differing pixels (maxDiff > 0), largest maxDiff first; ties in row-major
  // order (top row first, then left to right).
  std::vector<PixelDiff> worst;

  // One line of totals followed by one line per worst pixel.
  std::string summary() const;
};

// Per-channel |a - b| <= tolerance (alpha included). Throws tessera::Error if sizes differ.
CompareResult compareImages(const Image& a, const Image& b, int tolerance, size_t worstCount = 10);

// A picture of the differences: equal pixels show as a dim grey copy of `a`; differing pixels
// are red, brighter for larger differences (even a difference of 1 is clearly visible).
// Throws tessera::Error if sizes differ.
Image diffImage(const Image& a, const Image& b);

}  // namespace tessera
