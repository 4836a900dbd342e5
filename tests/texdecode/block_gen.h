// Test blocks for the compressed-format decoders: random bit patterns, and blocks built on the
// encoder side to hit every ETC2 mode, every EAC modifier table and valid ASTC block modes
// (random ASTC bits are mostly error blocks).
#pragma once
#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace tessera::texdecode {

using Block8 = std::array<uint8_t, 8>;
using Block16 = std::array<uint8_t, 16>;

enum class EtcBlockKind { Random, Individual, Differential, T, H, Planar };

// An ETC1/ETC2 colour block of the given mode (bit 33 set for all but Individual, so in a
// punch-through texture the same bits also test the opaque bit when `opaque` is false).
Block8 makeEtcBlock(std::mt19937& rng, EtcBlockKind kind, bool bit33 = true);
// An EAC block (alpha or 11-bit) with the given modifier table and multiplier (-1: random).
Block8 makeEacBlock(std::mt19937& rng, int table, int multiplier);

// The parameters of a valid LDR ASTC block (a subset of the encoder's choices).
struct AstcParams {
  uint32_t gridW, gridH, weightRange;  // weight range 0..11
  bool dualPlane;
  uint32_t partitions;          // 1..4
  std::array<uint32_t, 4> cem;  // LDR modes: 0 1 4 5 6 8 9 10 12 13
};
// Random valid parameters for a bw x bh footprint: the weights fit 24..96 bits and the colour
// values at least the 6-level range.
AstcParams randomAstcParams(std::mt19937& rng, uint32_t bw, uint32_t bh);
// A block with those parameters; colour and weight bits random.
Block16 makeAstcBlock(std::mt19937& rng, const AstcParams&);
// An LDR void-extent block of one UNORM16 colour.
Block16 makeAstcVoidExtent(uint16_t r, uint16_t g, uint16_t b, uint16_t a);

// Bits the ISE of `count` values of weight/colour range index `range` (0..20) occupies.
uint32_t astcIseBits(uint32_t count, uint32_t range);

}  // namespace tessera::texdecode
