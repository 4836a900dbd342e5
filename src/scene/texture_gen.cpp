#include "scene/texture_gen.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace tessera::scene {
namespace {

bool isPowerOfTwo(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

Image downsample(const Image& src) {
  const uint32_t w = std::max(1u, src.width / 2), h = std::max(1u, src.height / 2);
  const uint32_t fx = src.width > 1 ? 2 : 1, fy = src.height > 1 ? 2 : 1;
  const uint32_t count = fx * fy;
  Image dst = Image::blank(w, h);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      for (int c = 0; c < 4; ++c) {
        uint32_t sum = 0;
        for (uint32_t dy = 0; dy < fy; ++dy) {
          for (uint32_t dx = 0; dx < fx; ++dx) sum += src.pixel(x * fx + dx, y * fy + dy)[c];
        }
        dst.pixel(x, y)[c] = static_cast<uint8_t>((sum + count / 2) / count);
      }
    }
  }
  return dst;
}

// Hue in [0,1) to a fully saturated RGB colour, 0..255 per channel (the HSV "k" formulation).
void hueToRgb(float hue, float rgb[3]) {
  constexpr float kPhase[3] = {5, 3, 1};  // r, g, b
  for (int c = 0; c < 3; ++c) {
    const float k = std::fmod(kPhase[c] + hue * 6.0f, 6.0f);
    rgb[c] = 255.0f * (1.0f - std::clamp(std::min(k, 4.0f - k), 0.0f, 1.0f));
  }
}

}  // namespace

std::vector<Image> makeMipChain(const Image& base) {
  if (!isPowerOfTwo(base.width) || !isPowerOfTwo(base.height)) {
    throw Error("mipmapped texture needs power-of-two sides, got " + std::to_string(base.width) +
                "x" + std::to_string(base.height));
  }
  std::vector<Image> chain{base};
  while (chain.back().width > 1 || chain.back().height > 1) {
    chain.push_back(downsample(chain.back()));
  }
  return chain;
}

Image checkerImage(uint32_t size, uint32_t squares) {
  Image img = Image::blank(size, size);
  const uint32_t cell = std::max(1u, size / squares);
  for (uint32_t y = 0; y < size; ++y) {
    for (uint32_t x = 0; x < size; ++x) {
      float rgb[3];
      hueToRgb(float(x + y) / float(2 * size), rgb);
      const bool dark = ((x / cell) + (y / cell)) % 2 == 1;
      const bool line = (x % cell) == 0 || (y % cell) == 0;
      const float k = line ? 0.1f : (dark ? 0.45f : 1.0f);
      uint8_t* p = img.pixel(x, y);
      for (int c = 0; c < 3; ++c) {
        p[c] = static_cast<uint8_t>(std::lround(std::min(255.0f, rgb[c] * k + (dark ? 0 : 40))));
      }
      p[3] = 255;
    }
  }
  return img;
}

Image stripeImage(uint32_t width, uint32_t height) {
  Image img = Image::blank(width, height);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = img.pixel(x, y);
      const bool stripe = (y * 8 / height) % 2 == 0;
      p[0] = static_cast<uint8_t>(stripe ? 230 : 40 + 150 * x / width);
      p[1] = static_cast<uint8_t>(stripe ? 200 * y / height : 60);
      p[2] = static_cast<uint8_t>(stripe ? 60 : 255 - 100 * (x + y) / (width + height));
      p[3] = static_cast<uint8_t>(255 - 159 * y / std::max(1u, height - 1));
    }
  }
  return img;
}

Texture makeTexture(const Image& base, Filter mag, Filter min, MipFilter mip, Wrap s, Wrap t) {
  Texture tex;
  tex.levels = mip == MipFilter::None ? std::vector<Image>{base} : makeMipChain(base);
  tex.magFilter = mag;
  tex.minFilter = min;
  tex.mipFilter = mip;
  tex.wrapS = s;
  tex.wrapT = t;
  return tex;
}

}  // namespace tessera::scene
