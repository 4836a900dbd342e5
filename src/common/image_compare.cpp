#include "common/image_compare.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "common/error.h"

namespace tessera {
namespace {

void checkSameSize(const Image& a, const Image& b, const char* what) {
  if (a.width != b.width || a.height != b.height) {
    throw Error(std::string(what) + ": image sizes differ (" + std::to_string(a.width) + "x" +
                std::to_string(a.height) + " vs " + std::to_string(b.width) + "x" +
                std::to_string(b.height) + ")");
  }
}

int pixelMaxDiff(const uint8_t* pa, const uint8_t* pb) {
  int d = 0;
  for (int c = 0; c < 4; ++c) d = std::max(d, std::abs(int{pa[c]} - int{pb[c]}));
  return d;
}

}  // namespace

CompareResult compareImages(const Image& a, const Image& b, int tolerance, size_t worstCount) {
  checkSameSize(a, b, "compareImages");
  CompareResult r;
  r.tolerance = tolerance;
  r.pixels = uint64_t{a.width} * a.height;
  for (uint32_t y = 0; y < a.height; ++y) {
    for (uint32_t x = 0; x < a.width; ++x) {
      const uint8_t* pa = a.pixel(x, y);
      const uint8_t* pb = b.pixel(x, y);
      const int d = pixelMaxDiff(pa, pb);
      if (d <= tolerance) ++r.within;
      r.maxDiff = std::max(r.maxDiff, d);
      if (d == 0 || worstCount == 0) continue;
      // Pixels arrive in row-major order, so a later pixel only displaces an earlier one with a
      // strictly larger difference: ties keep the earlier position.
      if (r.worst.size() == worstCount && d <= r.worst.back().maxDiff) continue;
      PixelDiff diff;
      diff.x = x;
      diff.y = y;
      std::copy(pa, pa + 4, diff.a);
      std::copy(pb, pb + 4, diff.b);
      diff.maxDiff = d;
      auto at = std::upper_bound(r.worst.begin(), r.worst.end(), d,
                                 [](int v, const PixelDiff& p) { return v > p.maxDiff; });
      r.worst.insert(at, diff);
      if (r.worst.size() > worstCount) r.worst.pop_back();
    }
  }
  r.fractionWithin = r.pixels ? double(r.within) / double(r.pixels) : 1.0;
  return r;
}

std::string CompareResult::summary() const {
  char line[256];
  std::snprintf(line, sizeof line,
                "%llu of %llu pixels within tolerance %d (%.4f%%), max channel difference %d",
                static_cast<unsigned long long>(within), static_cast<unsigned long long>(pixels),
                tolerance, fractionWithin * 100.0, maxDiff);
  std::string out = line;
  for (const PixelDiff& p : worst) {
    std::snprintf(line, sizeof line, "\n  (%u,%u) a=(%d,%d,%d,%d) b=(%d,%d,%d,%d) diff=%d", p.x,
                  p.y, p.a[0], p.a[1], p.a[2], p.a[3], p.b[0], p.b[1], p.b[2], p.b[3], p.maxDiff);
    out += line;
  }
  return out;
}

Image diffImage(const Image& a, const Image& b) {
  checkSameSize(a, b, "diffImage");
  Image out = Image::blank(a.width, a.height);
  for (uint32_t y = 0; y < a.height; ++y) {
    for (uint32_t x = 0; x < a.width; ++x) {
      const uint8_t* pa = a.pixel(x, y);
      uint8_t* po = out.pixel(x, y);
      const int d = pixelMaxDiff(pa, b.pixel(x, y));
      if (d == 0) {
        // Rec. 601 luma at a third of its brightness keeps the scene recognisable behind the red.
        const int luma = (299 * pa[0] + 587 * pa[1] + 114 * pa[2]) / 1000;
        po[0] = po[1] = po[2] = static_cast<uint8_t>(luma / 3);
      } else {
        po[0] = static_cast<uint8_t>(std::min(255, 128 + 4 * d));
        po[1] = po[2] = static_cast<uint8_t>(d > 32 ? std::min(255, 2 * (d - 32)) : 0);
      }
      po[3] = 255;
    }
  }
  return out;
}

}  // namespace tessera
