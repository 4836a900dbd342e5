// Texture unit (tex/): ASTC LDR 2D block decoding (KHR_texture_compression_astc_ldr). A block
// is 128 bits for every footprint; the sampler parses a block once (block mode, partitioning,
// colour endpoints, weight grid) and then evaluates the texels it needs from the parsed form.
// The LDR profile's decode: endpoints are UNORM8 expanded to UNORM16 (c * 257), interpolated in
// UNORM16 and returned as float c / 65535. Blocks the profile rejects (reserved modes, HDR
// endpoints or void extents, weight or colour data that does not fit) read as the error colour,
// opaque magenta.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::gpu::tex {

// A parsed ASTC block. Weights are unquantized (0..64), per plane, on the weight grid.
struct AstcBlock {
  enum class Kind : uint8_t { Error, VoidExtent, Normal };
  Kind kind = Kind::Error;
  // An error block because it holds HDR content (HDR endpoint modes or an FP16 void extent),
  // which the LDR profile rejects; decoders with HDR support would read it.
  bool hdr = false;
  uint8_t partitions = 1;
  bool dualPlane = false;
  uint8_t plane2Component = 0;  // the channel that takes its weight from plane 2
  uint16_t partitionSeed = 0;
  uint8_t gridWidth = 0, gridHeight = 0;
  std::array<uint8_t, 4> cem{};  // colour endpoint mode per partition
  // UNORM16 endpoints [partition][0 or 1][channel]; the void extent's colour is endpoints[0][0].
  std::array<std::array<std::array<uint16_t, 4>, 2>, 4> endpoints{};
  // Two planes of up to 64 weights, plus a row of padding for the infill's neighbours.
  std::array<std::array<uint8_t, 64 + 16>, 2> weights{};
};

// Parses a block of a bw x bh footprint (4..12 each).
AstcBlock parseAstcBlock(uint32_t bw, uint32_t bh, const uint8_t* block);
// Texel (x, y) of a parsed block as UNORM16 RGBA.
std::array<uint16_t, 4> astcTexel(const AstcBlock&, uint32_t bw, uint32_t bh, uint32_t x,
                                  uint32_t y);
// The partition (0..3) texel (x, y, z) belongs to (the specification's partition hash).
uint32_t astcPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t partitions,
                       bool smallBlock);

// Texel (x, y) of the block at `block` as its UNORM16 channels, RGBA (expanded: / 65535).
void decodeAstcTexelRaw(uint32_t bw, uint32_t bh, const uint8_t* block, uint32_t x, uint32_t y,
                        float raw[4]);
// Texel (x, y) of the block at `block` as float RGBA (UNORM16 / 65535). Recently parsed blocks
// are kept in a small per-thread cache keyed by their bits, so the texels of one bilinear
// footprint or quad parse their block once.
void decodeAstcTexel(uint32_t bw, uint32_t bh, const uint8_t* block, uint32_t x, uint32_t y,
                     float out[4]);

}  // namespace tessera::gpu::tex
