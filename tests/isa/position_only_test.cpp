// positionOnly keeps exactly what reaches o0, through branches and loops.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/position_only.h"
#include "shaders/shaders.h"

namespace tessera::isa {
namespace {

bool writesOutputBeyondPosition(const Program& p) {
  for (const Instr& in : p.code)
    if (in.dst.file == File::Output && in.dst.index >= 4) return true;
  return false;
}

TEST(PositionOnly, LitVsKeepsOnlyTheMvpTransform) {
  Program full = assemble(shaders::source("lit.vs"), "lit.vs");
  Program pos = positionOnly(full);
  EXPECT_EQ(pos.numOutputs, 1);
  EXPECT_EQ(pos.numInputs, full.numInputs);
  EXPECT_FALSE(writesOutputBeyondPosition(pos));
  // 4 components x 3 mads, plus end; no instruction reads the normal or the texcoord.
  EXPECT_EQ(pos.code.size(), 13u) << disassemble(pos);
  for (const Instr& in : pos.code)
    for (const Operand& s : in.src) EXPECT_FALSE(s.file == File::Input && s.index >= 4);
  EXPECT_EQ(pos.regCount, 1);
  EXPECT_LT(pos.code.size(), full.code.size());
}

TEST(PositionOnly, ControlFlowKeepsWhatReachesPosition) {
  Program full = assemble(R"(.stage vertex
.regs 6
mov r0, i0.x
mov r1, 0
mov r5, 7          ; dead: overwritten on every path before use
mov r5, 1
loop
  add r1, r1, r5   ; loop-carried: live around the back edge
  fge r2, r1, 4
  breakif r2
  mul r3, r1, 9    ; dead: only feeds o1
  mov o1.x, r3
endloop
if r0
  mov r4, 2        ; dead branch: nothing reaches o0
  mov o1.y, r4
else
  mov o2.z, r0
endif
if r0
  add r0, r0, 1
endif
mov o0.x, r0
mov o0.y, r1
end
)",
                          "cf.s");
  Program pos = positionOnly(full);
  std::string dis = disassemble(pos);
  EXPECT_FALSE(writesOutputBeyondPosition(pos)) << dis;
  EXPECT_EQ(dis.find("mov r5, 7"), std::string::npos) << dis;
  EXPECT_NE(dis.find("mov r5, 1"), std::string::npos) << dis;
  EXPECT_EQ(dis.find("mul r3"), std::string::npos) << dis;
  EXPECT_EQ(dis.find("mov r4"), std::string::npos) << dis;
  EXPECT_NE(dis.find("add r1, r1, r5"), std::string::npos) << dis;
  EXPECT_NE(dis.find("breakif r2"), std::string::npos) << dis;
  EXPECT_NE(dis.find("add r0, r0, 1"), std::string::npos) << dis;
  // The if/else that only fed varyings disappears; the one that feeds o0 stays.
  int ifs = 0;
  for (const Instr& in : pos.code) ifs += in.op == Opcode::If;
  EXPECT_EQ(ifs, 1) << dis;
  EXPECT_EQ(assemble(dis, "pos.s"), pos);
}

TEST(PositionOnly, KeepsThePointSize) {
  // The binning pass sizes a point's footprint from gl_PointSize, so that output stays live.
  Program full = assemble(R"(.stage vertex
.pointsize o2.y
mov o0.x, i0.x
mov o0.y, i0.y
mov o0.z, 0
mov o0.w, 1
mul o1.x, i0.z, 2  ; a varying: dropped
mul o2.y, i0.w, 3  ; the point size: kept
end
)",
                          "p.s");
  EXPECT_EQ(full.pointSize, 2 * 4 + 1 + 1);
  const Program pos = positionOnly(full);
  const std::string dis = disassemble(pos);
  EXPECT_EQ(pos.pointSize, full.pointSize);
  EXPECT_EQ(pos.numOutputs, 3);
  EXPECT_EQ(dis.find("o1.x"), std::string::npos) << dis;
  EXPECT_NE(dis.find("mul o2.y, i0.w, 3"), std::string::npos) << dis;
  EXPECT_NE(dis.find(".pointsize o2.y"), std::string::npos) << dis;
  EXPECT_EQ(assemble(dis, "pos.s"), pos);
  EXPECT_EQ(decode(encode(pos)), pos);
}

TEST(PositionOnly, PrivateDwordsAreTrackedLikeRegisters) {
  // p0 carries the position through private memory and stays; p1 only feeds a varying.
  Program full = assemble(R"(.stage vertex
.private 2
mov p0, i0.x
mov p1, i0.y
mov r0, p0
mov o0.x, r0
mov r1, p1
mov o1.x, r1
end
)",
                          "spill.vs");
  Program pos = positionOnly(full);
  EXPECT_EQ(pos.code.size(), 4u) << disassemble(pos);
  EXPECT_EQ(pos.code[0].dst.file, File::Private);
  EXPECT_EQ(pos.code[0].dst.index, 0);
  EXPECT_EQ(decode(encode(pos)), pos);
}

TEST(PositionOnly, RejectsFragmentShaders) {
  EXPECT_THROW(positionOnly(assemble(shaders::source("constant.fs"), "c.fs")), DecodeError);
}

}  // namespace
}  // namespace tessera::isa
