// Procedural textures for built-in scenes and the mip chains both renderers sample.
#pragma once
#include <cstdint>
#include <vector>

#include "common/image.h"
#include "scene/scene.h"

namespace tessera::scene {

// The full chain from `base` down to 1x1: each level is the 2x2 box filter of the one above,
// rounded to nearest ((sum + 2) / 4; a 2x1 or 1x2 footprint once one side reaches 1).
// `base` must have power-of-two sides (GLES 2.0 spec 3.7.10: mipmaps need them).
std::vector<Image> makeMipChain(const Image& base);

// A checkerboard of `squares` x `squares` cells tinted by a hue gradient, with a thin grid line
// per cell: texels change sharply so filtering and LOD selection show. Opaque.
Image checkerImage(uint32_t size, uint32_t squares);
// Horizontal stripes over a diagonal gradient, alpha falling from 255 at the top row to 96 at the
// bottom (for blending through a texture). width x height, both powers of two.
Image stripeImage(uint32_t width, uint32_t height);

// Texture with a full mip chain and the given sampling state.
Texture makeTexture(const Image& base, Filter mag, Filter min, MipFilter mip, Wrap s, Wrap t);

}  // namespace tessera::scene
