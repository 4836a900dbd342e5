// Encoder and decoder for the binary form described in encoding.h and docs/isa.md.
#include "isa/encoding.h"

#include <unordered_map>

namespace tessera::isa {
namespace {

constexpr uint32_t mask(int bits) {
  return (1u << bits) - 1;
}

uint32_t field(uint32_t w, int shift, int bits) {
  return (w >> shift) & mask(bits);
}

uint32_t encodeSource(const Operand& o, uint32_t poolIndex) {
  uint32_t index = o.file == File::Imm ? poolIndex : static_cast<uint32_t>(o.index) & 0xffff;
  return static_cast<uint32_t>(o.file) << kSrcFileShift | uint32_t{o.neg} << kSrcNegShift |
         uint32_t{o.abs} << kSrcAbsShift | uint32_t{o.rel} << kSrcRelShift |
         index << kSrcIndexShift;
}

}  // namespace

std::vector<uint32_t> encode(const Program& p) {
  std::vector<uint32_t> pool;
  std::unordered_map<uint32_t, uint32_t> poolSlot;
  for (const Instr& in : p.code)
    for (const Operand& s : in.src)
      if (s.file == File::Imm && poolSlot.emplace(s.imm, pool.size()).second) pool.push_back(s.imm);
  if (pool.size() > static_cast<size_t>(kMaxImmediates))
    throw DecodeError(-1, "too many distinct immediates to encode");

  std::vector<uint32_t> w;
  w.reserve(kHeaderWords + pool.size() + p.code.size() * kWordsPerInstruction);
  w.push_back(kMagic);
  w.push_back(kVersion);
  w.push_back(static_cast<uint32_t>(p.stage) << kStageShift |
              uint32_t{p.regCount} << kRegCountShift | uint32_t{p.numInputs} << kInputsShift |
              uint32_t{p.numOutputs} << kOutputsShift);
  w.push_back(uint32_t{p.numVaryings} << kVaryingsShift | uint32_t{p.flags} << kFlagsShift |
              uint32_t{p.pointSize} << kPointSizeShift);
  w.push_back(static_cast<uint32_t>(p.code.size()));
  w.push_back(static_cast<uint32_t>(pool.size()));
  w.push_back(uint32_t{p.flatVaryings} | uint32_t{p.privateDwords} << kPrivateDwordsShift);
  w.insert(w.end(), pool.begin(), pool.end());
  for (const Instr& in : p.code) {
    w.push_back(static_cast<uint32_t>(in.op) << kOpShift |
                static_cast<uint32_t>(in.dst.file) << kDstFileShift |
                uint32_t{in.sat} << kSatShift |
                (static_cast<uint32_t>(in.dst.index) & mask(kDstIndexBits)) << kDstIndexShift |
                uint32_t{in.sampler} << kSamplerShift);
    for (const Operand& s : in.src)
      w.push_back(encodeSource(s, s.file == File::Imm ? poolSlot.at(s.imm) : 0));
    const uint32_t nibble = mask(kTexelOffsetBits);
    w.back() |= ((static_cast<uint32_t>(in.texelOffset[0]) & nibble) |
                 (static_cast<uint32_t>(in.texelOffset[1]) & nibble) << kTexelOffsetBits)
                << kTexelOffsetShift;
    w[w.size() - 2] |= (static_cast<uint32_t>(in.texelOffset[2]) & nibble) << kTexelOffsetShift;
  }
  return w;
}

Program decode(std::span<const uint32_t> w) {
  if (w.size() < static_cast<size_t>(kHeaderWords))
    throw DecodeError(-1, "truncated header (" + std::to_string(w.size()) + " words)");
  if (w[0] != kMagic) throw DecodeError(-1, "bad magic");
  if (w[1] != kVersion) throw DecodeError(-1, "unsupported version " + std::to_string(w[1]));
  Program p;
  uint32_t stage = field(w[2], kStageShift, 8);
  if (stage > static_cast<uint32_t>(Stage::Fragment)) throw DecodeError(-1, "unknown stage");
  p.stage = static_cast<Stage>(stage);
  p.regCount = static_cast<uint8_t>(field(w[2], kRegCountShift, 8));
  p.numInputs = static_cast<uint8_t>(field(w[2], kInputsShift, 8));
  p.numOutputs = static_cast<uint8_t>(field(w[2], kOutputsShift, 8));
  p.numVaryings = static_cast<uint8_t>(field(w[3], kVaryingsShift, 8));
  const uint32_t flags = field(w[3], kFlagsShift, 8);
  p.pointSize = static_cast<uint8_t>(field(w[3], kPointSizeShift, 8));
  if (w[3] >> 24) throw DecodeError(-1, "reserved header bits set");
  const uint64_t count = w[4], poolSize = w[5];
  p.flatVaryings = static_cast<uint16_t>(w[6]);
  p.privateDwords = static_cast<uint16_t>(w[6] >> kPrivateDwordsShift);
  if (count > static_cast<uint64_t>(kMaxInstructions))
    throw DecodeError(-1, "too many instructions");
  if (poolSize > static_cast<uint64_t>(kMaxImmediates))
    throw DecodeError(-1, "immediate pool too big");
  const uint64_t need = kHeaderWords + poolSize + count * kWordsPerInstruction;
  if (w.size() < need)
    throw DecodeError(
        w.size() < kHeaderWords + poolSize
            ? -1
            : static_cast<int>((w.size() - kHeaderWords - poolSize) / kWordsPerInstruction),
        "truncated: " + std::to_string(w.size()) + " words, need " + std::to_string(need));
  if (w.size() > need) throw DecodeError(-1, "trailing words after the last instruction");
  std::span<const uint32_t> pool = w.subspan(kHeaderWords, poolSize);

  p.code.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t* iw = &w[kHeaderWords + poolSize + i * kWordsPerInstruction];
    const int at = static_cast<int>(i);
    Instr& in = p.code[i];
    uint32_t op = field(iw[0], kOpShift, kOpBits);
    if (op >= static_cast<uint32_t>(kNumOpcodes))
      throw DecodeError(at, "unknown opcode " + std::to_string(op));
    if (iw[0] >> (kSamplerShift + kSamplerBits)) throw DecodeError(at, "reserved bits set");
    in.op = static_cast<Opcode>(op);
    uint32_t dstFile = field(iw[0], kDstFileShift, kDstFileBits);
    if (dstFile >= static_cast<uint32_t>(File::Count)) throw DecodeError(at, "bad register file");
    in.dst.file = static_cast<File>(dstFile);
    in.sat = field(iw[0], kSatShift, 1) != 0;
    in.dst.index = static_cast<int32_t>(field(iw[0], kDstIndexShift, kDstIndexBits));
    in.sampler = static_cast<uint8_t>(field(iw[0], kSamplerShift, kSamplerBits));
    for (int s = 0; s < 3; ++s) {
      uint32_t sw = iw[1 + s];
      Operand& o = in.src[s];
      uint32_t file = field(sw, kSrcFileShift, kSrcFileBits);
      if (file >= static_cast<uint32_t>(File::Count)) throw DecodeError(at, "bad register file");
      // Word 3 bits 8..15 and word 2 bits 8..11 hold the texel offset.
      const uint32_t reserved = s == 2   ? field(sw, 7, 1)
                                : s == 1 ? field(sw, 7, 1) | field(sw, 12, 4)
                                         : field(sw, 7, 9);
      if (reserved != 0) throw DecodeError(at, "reserved operand bits set");
      o.file = static_cast<File>(file);
      o.neg = field(sw, kSrcNegShift, 1) != 0;
      o.abs = field(sw, kSrcAbsShift, 1) != 0;
      o.rel = field(sw, kSrcRelShift, 1) != 0;
      uint32_t index = sw >> kSrcIndexShift;
      if (o.file == File::Imm) {
        if (index >= poolSize) throw DecodeError(at, "immediate pool index out of range");
        o.imm = pool[index];
      } else {
        o.index = o.rel ? static_cast<int16_t>(index) : static_cast<int32_t>(index);
      }
    }
    for (int k = 0; k < 3; ++k) {  // sign-extend each 4-bit field
      const uint32_t v =
          k < 2 ? field(iw[3], kTexelOffsetShift + k * kTexelOffsetBits, kTexelOffsetBits)
                : field(iw[2], kTexelOffsetShift, kTexelOffsetBits);
      in.texelOffset[static_cast<size_t>(k)] = static_cast<int8_t>(v >= 8 ? int(v) - 16 : int(v));
    }
  }
  finalize(p);
  if (p.flags != flags)
    throw DecodeError(-1, "header flags do not match the code (" + std::to_string(flags) + " vs " +
                              std::to_string(p.flags) + ")");
  return p;
}

}  // namespace tessera::isa
