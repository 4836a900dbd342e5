// Assembly text: syntax, inference of header counts, exact round trips through the
// disassembler, and errors that carry file:line:col.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "isa/assembler.h"
#include "isa/testing_all_opcodes.h"

namespace tessera::isa {
namespace {

std::string errorOf(std::string_view text) {
  try {
    assemble(text, "t.s");
  } catch (const AsmError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Assembler, ParsesOperandsAndModifiers) {
  Program p = assemble(R"(.stage vertex   ; comment
    // another comment
    mad.sat o0.y, -|r3|, c[a0.x + 12], -2.5
    mova a0.x, i1.z
    end)",
                       "t.s");
  EXPECT_EQ(p.stage, Stage::Vertex);
  EXPECT_EQ(p.regCount, 4);    // inferred from r3
  EXPECT_EQ(p.numInputs, 2);   // inferred from i1
  EXPECT_EQ(p.numOutputs, 1);  // inferred from o0
  ASSERT_EQ(p.code.size(), 3u);
  const Instr& mad = p.code[0];
  EXPECT_EQ(mad.op, Opcode::Mad);
  EXPECT_TRUE(mad.sat);
  EXPECT_EQ(mad.dst, (Operand{File::Output, false, false, false, 1, 0}));
  EXPECT_EQ(mad.src[0], (Operand{File::Reg, true, true, false, 3, 0}));
  EXPECT_EQ(mad.src[1], (Operand{File::Const, false, false, true, 12, 0}));
  EXPECT_EQ(mad.src[2].file, File::Imm);
  EXPECT_EQ(std::bit_cast<float>(mad.src[2].imm), -2.5f);
  EXPECT_EQ(p.code[1].src[0].index, 1 * 4 + 2);
  EXPECT_TRUE(p.uses(kUsesRelativeConstants));
  EXPECT_EQ(p.constSpan, 0u);
}

// finalize() marks the registers a warp must zero: those read before a write outside any
// construct, and before the first kill or ret, has defined them in every lane.
TEST(Assembler, ZeroRegistersAreThoseReadBeforeAWriteDefinesThem) {
  auto zeroed = [](const char* text) { return assemble(text, "z.s").zeroRegisters; };
  // Written at the top level, then read: nothing to zero.
  EXPECT_EQ(zeroed(".stage fragment\nmov r0, c0\nadd r1, r0, r0\nmov o0.x, r1\nend\n"), 0u);
  // Read before written, and a read of the register written by the same instruction.
  EXPECT_EQ(zeroed(".stage fragment\nadd r1, r0, c0\nadd r2, r2, r1\nmov o0.x, r2\nend\n"), 0b101u);
  // A write inside an if defines only the lanes that took it.
  EXPECT_EQ(zeroed(".stage fragment\nmov r0, c0\nif r0\nmov r2, c1\nendif\n"
                   "mov o0.x, r2\nend\n"),
            0b100u);
  // After a kill, a write leaves the killed lanes, which derivatives still read, as they were:
  // r3 and r4 are written after it.
  EXPECT_EQ(zeroed(".stage fragment\nmov r0, c0\nkillif r0\nmov r3, c1\ndsx r4, r3\n"
                   "mov o0.x, r4\nend\n"),
            0b11000u);
  // A vector sample reads four coordinate registers.
  EXPECT_EQ(zeroed(".stage fragment\nmov r4, c0\nsamv r0, r4, s0\nmov o0.x, r0\nend\n"),
            0b11100000u);
  // Unfinalized programs zero everything.
  EXPECT_EQ(Program{}.zeroRegisters, ~uint64_t{0});
}

TEST(Assembler, FlatVaryingsRoundTrip) {
  const Program p = assemble(R"(.stage fragment
.flat v0, v2
ipl r0, v0.x
ipl r1, v1.y
ipl r2, v2.w
add o0.x, r0, r1
add o0.y, r2, r1
end
)",
                             "f.s");
  EXPECT_EQ(p.flatVaryings, 0b101);
  EXPECT_EQ(p.numVaryings, 3);
  EXPECT_NE(disassemble(p).find(".flat v0, v2\n"), std::string::npos) << disassemble(p);
  EXPECT_EQ(assemble(disassemble(p), "g.s"), p);
  // A flat varying the program does not read is a header error.
  EXPECT_THROW(assemble(".stage fragment\n.varyings 1\n.flat v3\nipl r0, v0.x\nend\n", "h.s"),
               AsmError);
  EXPECT_THROW(assemble(".stage fragment\n.flat r1\nend\n", "h.s"), AsmError);
}

TEST(Assembler, ImmediatesAreTypedByTheOpcode) {
  Program p = assemble(R"(.stage vertex
    mov r0, 3
    iadd r0, r0, 3
    iadd r0, r0, -3
    and r0, r0, 1.0
    mov r0, 0x7f800000
    mov o0.x, r0
    end)",
                       "t.s");
  EXPECT_EQ(p.code[0].src[0].imm, std::bit_cast<uint32_t>(3.0f));
  EXPECT_EQ(p.code[1].src[1].imm, 3u);
  EXPECT_EQ(p.code[2].src[1].imm, static_cast<uint32_t>(-3));
  EXPECT_EQ(p.code[3].src[1].imm, 0x3f800000u);
  EXPECT_EQ(p.code[4].src[0].imm, 0x7f800000u);
}

TEST(Assembler, JumpTargetsFollowStructure) {
  Program p = assemble(R"(.stage vertex
    loop          ; 0
      if r0       ; 1
        break     ; 2
      else        ; 3
        continue  ; 4
      endif       ; 5
    endloop       ; 6
    mov o0.x, r0
    end)",
                       "t.s");
  EXPECT_EQ(p.code[0].target, 6u);
  EXPECT_EQ(p.code[1].target, 3u);
  EXPECT_EQ(p.code[2].target, 6u);
  EXPECT_EQ(p.code[3].target, 5u);
  EXPECT_EQ(p.code[4].target, 6u);
  EXPECT_EQ(p.code[6].target, 0u);
}

TEST(Assembler, EveryOpcodeRoundTripsThroughText) {
  for (std::string_view text : {testing::kAllVertexOps, testing::kAllFragmentOps}) {
    Program p = assemble(text, "all.s");
    std::string dis = disassemble(p);
    Program again = assemble(dis, "dis.s");
    EXPECT_EQ(again, p) << dis;
    EXPECT_EQ(disassemble(again), dis);
  }
}

TEST(Assembler, SpecialImmediatesRoundTripBitExactly) {
  const float values[] = {0.0f,
                          -0.0f,
                          1e-5f,
                          1.0f / 3.0f,
                          -123456.789f,
                          3.4028235e38f,
                          std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          16777217.0f};
  Program p;
  p.stage = Stage::Vertex;
  p.numOutputs = 1;
  for (float v : values) {
    Instr in;
    in.op = Opcode::Mov;
    in.dst = {File::Output, false, false, false, 0, 0};
    in.src[0] = {File::Imm, false, false, false, 0, std::bit_cast<uint32_t>(v)};
    p.code.push_back(in);
  }
  Instr i;
  i.op = Opcode::Iadd;
  i.dst = {File::Output, false, false, false, 1, 0};
  i.src[0] = {File::Imm, false, false, false, 0, 0x80000000u};
  i.src[1] = {File::Imm, false, false, false, 0, 0xffffffffu};
  p.code.push_back(i);
  p.code.push_back(Instr{Opcode::End});
  finalize(p);
  EXPECT_EQ(assemble(disassemble(p), "imm.s"), p) << disassemble(p);
}

TEST(AssemblerErrors, CarryFileLineAndColumn) {
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, r0\n  frob r1, r2\nend"),
            "t.s:3:3: unknown instruction 'frob'");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, q7\nend"), "t.s:2:11: unknown operand 'q7'");
  EXPECT_EQ(errorOf(".stage vertex\nadd o0.x r0, r1\nend"), "t.s:2:10: expected ','");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, r0 r1\nend"), "t.s:2:14: unexpected text 'r1'");
  EXPECT_EQ(errorOf(".stage vertex\niadd o0.x, r0, 1.5\nend"),
            "t.s:2:16: float immediate '1.5' in an integer instruction");
  EXPECT_EQ(errorOf(".stage vertex\nand o0.x, -r0, r1\nend"),
            "t.s:2:11: modifiers are not allowed on this instruction's sources");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0, r0\nend"),
            "t.s:2:5: output needs a component .x/.y/.z/.w");
  EXPECT_EQ(errorOf(".stage vertex\nfeq.sat o0.x, r0, r1\nend"), "t.s:2:1: feq cannot saturate");
  EXPECT_EQ(errorOf(".stage geometry\nend"), "t.s:1:8: stage must be vertex or fragment");
  EXPECT_EQ(errorOf(".stage vertex\n.bogus 3\nend"), "t.s:2:1: unknown directive '.bogus'");
  EXPECT_EQ(errorOf("mov o0.x, r0\nend"), "t.s:1:1: missing .stage directive");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 65\nend"), "t.s:2:1: .regs 65 exceeds 64");
}

TEST(AssemblerErrors, RuleViolationsPointAtTheInstructionLine) {
  std::string e = errorOf(".stage vertex\n.regs 2\nmov o0.x, r0\nmov r2, r1\nend");
  EXPECT_EQ(e, "t.s:4:1: general register index 2 out of range (limit 2)");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, r0\nelse\nend"), "t.s:3:1: else without if");
  EXPECT_EQ(errorOf(".stage vertex\nif r0\nmov o0.x, r0\nend"),
            "t.s:2:1: construct is never closed");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, r0\nend\nend"),
            "t.s:3:1: end must be the last instruction");
  EXPECT_EQ(errorOf(".stage vertex\nbreak\nend"), "t.s:2:1: break outside a loop");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, r0"), "t.s:2:1: program must finish with end");
  EXPECT_EQ(errorOf(".stage vertex\nkill\nmov o0.x, r0\nend"),
            "t.s:2:1: kill is only allowed in fragment shaders");
  EXPECT_EQ(errorOf(".stage fragment\nmov o0.x, i0.x\nend"),
            "t.s:2:1: inputs are readable only in vertex shaders");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 4\nsam r2, r0, r0, s0\nmov o0.x, r0\nend"),
            "t.s:3:1: sample destination r2..+3 exceeds regCount");
  EXPECT_EQ(errorOf(".stage vertex\nmov o0.x, c1024\nend"),
            "t.s:2:1: constant index 1024 out of range (limit 1024)");
  EXPECT_EQ(errorOf(".stage vertex\n.private 2\nmov p2, i0.x\nend"),
            "t.s:3:1: private dword index 2 out of range (limit 2)");
  EXPECT_EQ(errorOf(".stage vertex\nadd r0, p0, 1.0\nmov o0.x, r0\nend"),
            "t.s:2:1: private memory is read only by mov");
  EXPECT_EQ(errorOf(".stage vertex\nadd p0, i0.x, 1.0\nmov o0.x, p0\nend"),
            "t.s:2:1: private memory is written only by a plain mov");
  EXPECT_EQ(errorOf(".stage vertex\nmov p0, p1\nmov o0.x, p0\nend"),
            "t.s:2:1: a mov between private dwords");
  EXPECT_EQ(errorOf(".stage vertex\n.private 1025\nend"), "t.s:2:1: .private 1025 exceeds 1024");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 4\nsam r0, r0, r0, s0, offset(-8, 8)\nmov o0.x, r0\nend"),
            "t.s:3:1: texel offset 8 outside [-8, 7]");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 4\nsam r0, r0, r0, s0, offset(7, -99)\nend"),
            "t.s:3:21: texel offset out of range");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 4\nsam r0, r0, r0, s0, offset(1 2)\nend"),
            "t.s:3:30: expected ','");
  EXPECT_EQ(errorOf(".stage vertex\n.regs 4\ntxf r0, r0, r0, 0, s0, offset(1, 2)\nend"),
            "t.s:3:22: unexpected text ', offset(1, 2)'");
}

}  // namespace
}  // namespace tessera::isa
