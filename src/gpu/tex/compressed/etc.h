// Texture unit (tex/): ETC1, ETC2 and EAC block decoding, one texel at a time, as the sampler
// reads them from memory (OES_compressed_ETC1_RGB8_texture; OpenGL ES 3.0 Annex C). A block
// covers 4x4 texels; its 64-bit halves are big-endian, and texel (x, y) is pixel index x*4 + y.
#pragma once
#include <array>
#include <cstdint>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

struct Rgba8 {
  uint8_t r, g, b, a;
};

// The five ways an ETC2 colour block is read (Annex C.1.1); ETC1 only has the first two.
enum class EtcMode : uint8_t { Individual, Differential, T, H, Planar };

// How a colour block's bit 33 and overflowing differential colours are interpreted.
enum class EtcVariant : uint8_t {
  Etc1,         // bit 33 is the diff bit; no T, H or planar modes
  Etc2,         // bit 33 is the diff bit; overflow selects T, H, planar
  PunchThrough  // bit 33 is the opaque bit; always differential (or T, H, planar)
};

EtcMode etcModeOf(const uint8_t* block, EtcVariant);
// Texel (x, y) of an 8-byte colour block; transparent punch-through texels are (0, 0, 0, 0).
Rgba8 decodeEtcColor(const uint8_t* block, uint32_t x, uint32_t y, EtcVariant);
// Texel (x, y) of an 8-byte EAC block: 8-bit alpha (ETC2_RGBA8) ...
uint8_t decodeEacAlpha(const uint8_t* block, uint32_t x, uint32_t y);
// ... or an 11-bit channel: 0..2047 unsigned, -1023..1023 signed (Annex C.1.5, C.1.6).
int32_t decodeEac11(const uint8_t* block, uint32_t x, uint32_t y, bool isSigned);

// Texel (x, y) of a block of any ETC/EAC format as the integers it stores, RGBA (missing
// channels 0 and alpha 1), and what each channel is divided by to expand it: 255 for the colour
// formats, 2047 (signed: 1023) for the 11-bit ones, 1 for the missing channels.
void decodeEtcTexelRaw(TexFormat, const uint8_t* block, uint32_t x, uint32_t y, float raw[4]);
std::array<float, 4> etcTexelScale(TexFormat);
// The same texel expanded: unorm for the colour formats, r / 2047 (signed: r / 1023) for the
// 11-bit formats.
void decodeEtcTexel(TexFormat, const uint8_t* block, uint32_t x, uint32_t y, float out[4]);

}  // namespace tessera::gpu::tex
