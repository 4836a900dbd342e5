// Texture unit (tex/): encoders for the block formats the sampler decodes, so that RGBA8 content
// (scene textures) can be stored compressed. Quality is that of a small search, not of a
// production encoder: ETC2 RGB8 tries the individual and differential modes in both flips with
// every modifier table; ASTC is single-partition LDR (RGB direct or RGBA direct endpoints) on a
// fixed 4x4 weight grid for every footprint.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

// A w x h RGBA8 image (rows top first, 4 bytes per texel) as the format's blocks, rows of blocks
// top first (docs/textures.md, "Layout"); blocks that overhang the image repeat its edge texels.
// Formats: ETC2_RGB8 (alpha dropped), ETC2_RGBA8 (EAC alpha) and ASTC_4x4 .. ASTC_12x12.
// Throws std::invalid_argument for any other format or a pixel span of the wrong size.
std::vector<uint8_t> encodeImage(TexFormat, std::span<const uint8_t> rgba, uint32_t width,
                                 uint32_t height);

// One block from its texels: `texels` holds bw x bh RGBA8 texels, row-major.
std::array<uint8_t, 8> encodeEtc2RgbBlock(const uint8_t texels[16 * 4]);
std::array<uint8_t, 8> encodeEacAlphaBlock(const uint8_t texels[16 * 4]);
std::array<uint8_t, 16> encodeAstcBlock(uint32_t bw, uint32_t bh, const uint8_t* texels);

}  // namespace tessera::gpu::tex
