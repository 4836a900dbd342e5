// Binary form of a Tessera shader: a header, an immediate pool and fixed 128-bit instructions,
// stored as 32-bit words (the layout is in docs/isa.md). The binary is what the driver uploads
// and what tools dump; the shader core runs the decoded isa::Program.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "isa/program.h"

namespace tessera::isa {

inline constexpr uint32_t kMagic = 0x41535354;  // "TSSA" little-endian
inline constexpr uint32_t kVersion = 6;  // 2: integer division; 3: point size, flat varyings;
                                         // 4: texel offsets; 5: private memory; 6: vector
                                         // samples (samv, samvl, samvb, txfv), txs depth
inline constexpr int kHeaderWords = 7;
inline constexpr int kWordsPerInstruction = 4;

// Header word 2 and 3 field positions.
inline constexpr int kStageShift = 0, kRegCountShift = 8, kInputsShift = 16, kOutputsShift = 24;
inline constexpr int kVaryingsShift = 0, kFlagsShift = 8, kPointSizeShift = 16;

// Instruction word 0.
inline constexpr int kOpShift = 0, kOpBits = 8;
inline constexpr int kDstFileShift = 8, kDstFileBits = 4;
inline constexpr int kSatShift = 12;
inline constexpr int kDstIndexShift = 13, kDstIndexBits = 11;
inline constexpr int kSamplerShift = 24, kSamplerBits = 4;  // bits 28..31 are zero
// Source words 1..3.
inline constexpr int kSrcFileShift = 0, kSrcFileBits = 4;
inline constexpr int kSrcNegShift = 4, kSrcAbsShift = 5, kSrcRelShift = 6;  // bits 7..15 zero
inline constexpr int kSrcIndexShift = 16;  // 16 bits: index, pool slot, or signed offset
// Word 3 (the third source's word) bits 8..15: the texel offset, u in 8..11 and v in 12..15, each
// 4-bit two's complement; word 2 bits 8..11: its w (3D textures). Bit 7 of every source word is
// reserved, and bits 12..15 of word 2.
inline constexpr int kTexelOffsetShift = 8, kTexelOffsetBits = 4;

// Header word 6: flat varyings in bits 0..15, private dwords per thread in bits 16..31.
inline constexpr int kPrivateDwordsShift = 16;

std::vector<uint32_t> encode(const Program& program);
// The private dwords per thread a binary's header asks for (0 when the header is cut short), for
// the driver, which sizes private memory from it as freedreno does from a shader variant.
inline uint32_t privateDwordsOf(std::span<const uint32_t> words) {
  return words.size() > 6 ? words[6] >> kPrivateDwordsShift : 0;
}
// Validates everything (header, sizes, every field, structure); throws DecodeError.
Program decode(std::span<const uint32_t> words);

}  // namespace tessera::isa
