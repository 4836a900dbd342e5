// Binary encoding: exact round trips, and decoding rejects every malformed input with the
// index of the instruction at fault.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/testing_all_opcodes.h"

namespace tessera::isa {
namespace {

constexpr std::string_view kSmall = R"(.stage vertex
.regs 2
mov r0, i0.x
add r1, r0, 2.5
mov o0.x, r1
end
)";

int decodeErrorIndex(const std::vector<uint32_t>& words, std::string* what = nullptr) {
  try {
    decode(words);
  } catch (const DecodeError& e) {
    if (what) *what = e.what();
    return e.instruction();
  }
  ADD_FAILURE() << "decode accepted a malformed program";
  return -2;
}

size_t instrWord(const std::vector<uint32_t>& words, int index) {
  return kHeaderWords + words[5] + static_cast<size_t>(index) * kWordsPerInstruction;
}

TEST(Encoding, EveryOpcodeRoundTrips) {
  for (std::string_view text : {testing::kAllVertexOps, testing::kAllFragmentOps}) {
    Program p = assemble(text, "all.s");
    std::vector<uint32_t> words = encode(p);
    EXPECT_EQ(words.size(), kHeaderWords + words[5] + p.code.size() * kWordsPerInstruction);
    EXPECT_EQ(decode(words), p);
    EXPECT_EQ(encode(decode(words)), words);
  }
}

TEST(Encoding, HeaderAndPoolLayout) {
  Program p = assemble(kSmall, "s.s");
  std::vector<uint32_t> w = encode(p);
  EXPECT_EQ(w[0], kMagic);
  EXPECT_EQ(w[1], kVersion);
  EXPECT_EQ(w[2], 0u | 2u << 8 | 1u << 16 | 1u << 24);  // vertex, 2 regs, 1 input, 1 output
  EXPECT_EQ(w[4], 4u);                                  // instructions
  EXPECT_EQ(w[5], 1u);                                  // one pooled immediate
  EXPECT_EQ(w[6], 0u);                                  // no flat varyings
  EXPECT_EQ(w[7], 0x40200000u);                         // 2.5f
  // add r1, r0, 2.5: dst file 1 index 1; src0 file 1 index 0; src1 file 3 (imm) pool slot 0.
  size_t add = instrWord(w, 1);
  EXPECT_EQ(w[add], static_cast<uint32_t>(Opcode::Add) | 1u << 8 | 1u << 13);
  EXPECT_EQ(w[add + 1], 1u);
  EXPECT_EQ(w[add + 2], 3u);
  EXPECT_EQ(w[add + 3], 0u);
}

TEST(DecodeErrors, TruncatedAndTrailing) {
  std::vector<uint32_t> w = encode(assemble(kSmall, "s.s"));
  std::vector<uint32_t> cut(w.begin(), w.end() - 1);
  std::string what;
  EXPECT_EQ(decodeErrorIndex(cut, &what), 3);  // the last instruction is incomplete
  EXPECT_NE(what.find("truncated"), std::string::npos) << what;
  EXPECT_EQ(decodeErrorIndex(std::vector<uint32_t>(w.begin(), w.begin() + 3)), -1);
  std::vector<uint32_t> longer = w;
  longer.push_back(0);
  EXPECT_EQ(decodeErrorIndex(longer), -1);
  EXPECT_EQ(decodeErrorIndex({}), -1);
}

TEST(DecodeErrors, HeaderFields) {
  std::vector<uint32_t> w = encode(assemble(kSmall, "s.s"));
  auto bad = [&](size_t word, uint32_t value) {
    std::vector<uint32_t> b = w;
    b[word] = value;
    return decodeErrorIndex(b);
  };
  EXPECT_EQ(bad(0, 0xdeadbeef), -1);                    // magic
  EXPECT_EQ(bad(1, 7), -1);                             // version
  EXPECT_EQ(bad(2, w[2] | 5u), -1);                     // stage
  EXPECT_EQ(bad(2, (w[2] & ~0xff00u) | 65u << 8), -1);  // regCount > 64
  EXPECT_EQ(bad(3, w[3] | kUsesKill << 8), -1);         // flags disagree with the code
  EXPECT_EQ(bad(3, w[3] | 1u << 16), -1);               // point size in the position output o0
  EXPECT_EQ(bad(3, w[3] | 9u << 16), -1);               // point size beyond the outputs
  EXPECT_EQ(bad(3, w[3] | 1u << 24), -1);               // reserved bits
  EXPECT_EQ(bad(6, 1), -1);                             // a flat varying in a vertex shader
  EXPECT_EQ(bad(6, 1025u << 16), -1);                   // private dwords beyond 1024
  EXPECT_GE(bad(5, 2), -1);                             // pool size changes the length
}

TEST(DecodeErrors, InstructionFieldsNameTheInstruction) {
  std::vector<uint32_t> w = encode(assemble(kSmall, "s.s"));
  auto bad = [&](int index, int word, uint32_t value) {
    std::vector<uint32_t> b = w;
    b[instrWord(w, index) + word] = value;
    return decodeErrorIndex(b);
  };
  const size_t add = instrWord(w, 1);
  EXPECT_EQ(bad(1, 0, (w[add] & ~0xffu) | 0xfe), 1);             // unknown opcode
  EXPECT_EQ(bad(1, 0, (w[add] & ~0xfu << 8) | 15u << 8), 1);     // unknown register file
  EXPECT_EQ(bad(1, 0, w[add] | 2u << 13), 1);                    // r3 >= regCount 2
  EXPECT_EQ(bad(1, 0, w[add] | 1u << 31), 1);                    // reserved bit
  EXPECT_EQ(bad(1, 2, 3u | 9u << 16), 1);                        // immediate pool slot out of range
  EXPECT_EQ(bad(1, 1, 1u | 1u << 4 | 1u << 6), 1);               // relative on a register
  EXPECT_EQ(bad(2, 1, 4u | 9u << 16), 2);                        // input i2.y beyond numInputs
  EXPECT_EQ(bad(2, 3, 1u), 2);                                   // third source on a mov
  EXPECT_EQ(bad(0, 0, static_cast<uint32_t>(Opcode::Kill)), 0);  // fragment-only op in a VS
  // Replace the final end by a nop: the program no longer finishes.
  EXPECT_EQ(bad(3, 0, static_cast<uint32_t>(Opcode::Nop)), 3);
  // An endif with no if.
  EXPECT_EQ(bad(0, 0, static_cast<uint32_t>(Opcode::Endif)), 0);
  // A texel offset (word 3 bits 8-15) on an instruction that takes none; bit 7 is reserved.
  std::string what;
  std::vector<uint32_t> b = w;
  b[add + 3] |= 1u << 8;
  EXPECT_EQ(decodeErrorIndex(b, &what), 1);
  EXPECT_NE(what.find("add takes no texel offset"), std::string::npos) << what;
  EXPECT_EQ(bad(1, 3, 1u << 7), 1);
}

TEST(Encoding, PrivateMemoryRoundTrips) {
  const Program p = assemble(
      ".stage vertex\n.regs 2\n.private 40\nmov p39, i0.x\nmov r1, p39\nmov o0.x, r1\nend\n",
      "p.s");
  EXPECT_EQ(p.privateDwords, 40);
  const std::vector<uint32_t> w = encode(p);
  EXPECT_EQ(w[6], 40u << kPrivateDwordsShift);
  EXPECT_EQ(w[instrWord(w, 0)] >> kDstFileShift & 0xfu, static_cast<uint32_t>(File::Private));
  EXPECT_EQ(decode(w), p);
  EXPECT_NE(disassemble(p).find(".private 40\nmov p39, i0.x\nmov r1, p39"), std::string::npos)
      << disassemble(p);
  // Without .private the count follows from the highest dword used.
  EXPECT_EQ(assemble(".stage vertex\nmov p7, i0.x\nmov o0.x, p7\nend\n", "q.s").privateDwords, 8);
}

TEST(Encoding, TexelOffsetsAreSignedNibblesOfWordThree) {
  const Program p = assemble(
      ".stage fragment\n.regs 8\nsam r4, r0, r1, s2, offset(-8, 7)\nmov o0.x, r4\nend\n", "o.s");
  EXPECT_EQ(p.code[0].texelOffset, (std::array<int8_t, 3>{-8, 7, 0}));
  const std::vector<uint32_t> w = encode(p);
  EXPECT_EQ(w[instrWord(w, 0) + 3] >> 8 & 0xffu, 0x78u);  // u = -8 (1000b), v = 7 (0111b)
  EXPECT_EQ(decode(w), p);
  EXPECT_NE(disassemble(p).find("sam r4, r0, r1, s2, offset(-8, 7)"), std::string::npos)
      << disassemble(p);
}

// Vector samples read a 4-register coordinate tuple (rC..rC+3) in source word 1, the bias,
// LOD or level in word 2, and carry texel offsets like sam (txfv takes none).
TEST(Encoding, VectorSamplesRoundTrip) {
  const Program p = assemble(
      ".stage fragment\n.regs 12\nsamv r4, r0, s3, offset(2, -3)\nsamvb r8, r4, r1, s15\n"
      "samvl r0, r8, 0.5, s1\ntxfv r4, r0, 2, s2\nmov o0.x, r4\nend\n",
      "v.s");
  EXPECT_EQ(p.code[0].op, Opcode::Samv);
  EXPECT_EQ(p.code[0].src[0].index, 0);
  EXPECT_EQ(p.code[0].texelOffset, (std::array<int8_t, 3>{2, -3, 0}));
  EXPECT_EQ(p.code[1].sampler, 15);
  EXPECT_EQ(p.code[3].src[1].imm, 2u);  // txfv's level is an integer
  const std::vector<uint32_t> w = encode(p);
  EXPECT_EQ(w[instrWord(w, 1) + 1] >> kSrcIndexShift, 4u);  // the tuple's first register
  EXPECT_EQ(decode(w), p);
  EXPECT_EQ(assemble(disassemble(p), "d.s"), p);
  EXPECT_TRUE(p.uses(kUsesTexture));
}

// The offset's w (3D textures) is a signed nibble in word 2, bits 8..11; only the vector samples
// take it.
TEST(Encoding, TexelOffsetAlongRIsInWordTwo) {
  const Program p = assemble(
      ".stage fragment\n.regs 8\nsamvl r4, r0, r1, s2, offset(1, -2, -8)\nmov o0.x, r4\nend\n",
      "w.s");
  EXPECT_EQ(p.code[0].texelOffset, (std::array<int8_t, 3>{1, -2, -8}));
  const std::vector<uint32_t> w = encode(p);
  EXPECT_EQ(w[instrWord(w, 0) + 2] >> 8 & 0xffu, 0x08u);  // w = -8 (1000b), bits 12..15 zero
  EXPECT_EQ(w[instrWord(w, 0) + 3] >> 8 & 0xffu, 0xe1u);  // u = 1, v = -2 (1110b)
  EXPECT_EQ(decode(w), p);
  EXPECT_NE(disassemble(p).find("samvl r4, r0, r1, s2, offset(1, -2, -8)"), std::string::npos)
      << disassemble(p);
  std::vector<uint32_t> bad = w;
  bad[instrWord(w, 0) + 2] |= 1u << 12;  // reserved
  EXPECT_EQ(decodeErrorIndex(bad), 0);
  std::string what;
  try {
    assemble(".stage fragment\n.regs 8\nsam r4, r0, r1, s2, offset(1, 2, 3)\nend\n", "w.s");
  } catch (const AsmError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("sam takes no texel offset along r"), std::string::npos) << what;
}

TEST(DecodeErrors, VectorSampleTuplesArePlainRegistersInRange) {
  const std::string what = [] {
    try {
      assemble(".stage vertex\n.regs 8\nsamv r4, r5, s0\nmov o0.x, r4\nend\n", "e.s");
    } catch (const AsmError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  }();
  EXPECT_NE(what.find("coordinates r5..+3 exceed regCount"), std::string::npos) << what;
  EXPECT_THROW(assemble(".stage vertex\n.regs 8\nsamv r4, c0, s0\nmov o0.x, r4\nend\n", "e.s"),
               AsmError);
  EXPECT_THROW(
      assemble(".stage vertex\n.regs 8\nsamvl r4, -r0, 1.0, s0\nmov o0.x, r4\nend\n", "e.s"),
      AsmError);
  EXPECT_THROW(assemble(".stage vertex\n.regs 8\ntxfv r4, r0, 0, s0, offset(1, 1)\nend\n", "e.s"),
               AsmError);
  // A decoded tuple that runs past regCount names the instruction.
  std::vector<uint32_t> w =
      encode(assemble(".stage vertex\n.regs 8\nsamv r4, r4, s0\nmov o0.x, r4\nend\n", "e.s"));
  w[instrWord(w, 0) + 1] = 1u | 5u << kSrcIndexShift;  // r5..r8
  EXPECT_EQ(decodeErrorIndex(w), 0);
}

}  // namespace
}  // namespace tessera::isa
