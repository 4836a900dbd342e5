// Local value numbering on hand-built IR: repeated values are computed once and copies are read
// through inside a straight-line stretch, and only where the bits every lane gets stay the same.
#include <gtest/gtest.h>

#include "compiler/ir/value_numbering.h"
#include "compiler/ir_fixture.h"

namespace tessera::compiler::ir {
namespace {

using fixture::output;
using Fixture = fixture::IrFixture;

TEST(ValueNumbering, ARepeatedValueBecomesACopyAndItsReadsReadTheFirst) {
  Fixture f;
  const Operand w = f.b.ipl(0, 3);
  const Operand r1 = f.b.op(Opcode::Rcp, w);
  const Operand r2 = f.b.op(Opcode::Rcp, w);  // the same value
  const Operand m = f.b.op(Opcode::Mul, constant(0), r1);
  const Operand n = f.b.op(Opcode::Mul, r2, constant(0));  // commuted: the same value again
  f.b.opTo(output(0), Opcode::Add, m, n);
  f.b.flow(Opcode::End);
  numberValues(f.p);
  EXPECT_EQ(f.at(2).op, Opcode::Mov);
  EXPECT_EQ(f.at(2).src[0], r1);
  EXPECT_EQ(f.at(4).op, Opcode::Mov);
  EXPECT_EQ(f.at(4).src[0], m);
  EXPECT_EQ(f.at(5).src[0], m);
  EXPECT_EQ(f.at(5).src[1], m);  // read through the copy
}

TEST(ValueNumbering, NegatedCopiesAreReadThroughOnlyByFloatOperations) {
  Fixture f;
  const Operand x = f.b.ipl(0, 0);
  const Operand n = f.b.op(Opcode::Mov, neg(x));
  const Operand a = f.b.op(Opcode::Mul, n, n);
  const Operand c =
      f.b.op(Opcode::Iadd, n, immInt(1));  // integer negation differs from the sign bit
  const Operand d = f.b.op(Opcode::Mul, absOf(n), constant(1));
  const Operand e = f.b.op(Opcode::Mul, neg(n), constant(1));
  f.b.opTo(output(0), Opcode::Add, a, c);
  f.b.opTo(output(1), Opcode::Add, d, e);
  f.b.flow(Opcode::End);
  numberValues(f.p);
  EXPECT_EQ(f.at(2).src[0], neg(x));
  EXPECT_EQ(f.at(2).src[1], neg(x));
  EXPECT_EQ(f.at(3).src[0], n);
  EXPECT_EQ(f.at(4).src[0], absOf(x));  // |-x| is |x|
  EXPECT_EQ(f.at(5).src[0], x);         // -(-x) is x
}

TEST(ValueNumbering, MultiplyingByOneIsACopy) {
  Fixture f;
  const Operand x = f.b.ipl(0, 0);
  const Operand y = f.b.op(Opcode::Mul, immFloat(1.0f), x);
  const Operand z = f.b.op(Opcode::Mul, x, immFloat(1.0f), {}, /*sat=*/true);  // clamps: stays
  f.b.opTo(output(0), Opcode::Add, y, z);
  f.b.flow(Opcode::End);
  numberValues(f.p);
  EXPECT_EQ(f.at(1).op, Opcode::Mov);
  EXPECT_EQ(f.at(2).op, Opcode::Mul);
  EXPECT_EQ(f.at(3).src[0], x);
}

TEST(ValueNumbering, ControlFlowEndsAStretch) {
  Fixture f;
  const Operand x = f.b.op(Opcode::Add, constant(0), constant(1));
  const Operand n = f.b.op(Opcode::Mov, neg(x));
  f.b.cond(Opcode::If, constant(2));
  const Operand y = f.b.op(Opcode::Add, constant(0), constant(1));  // under other lanes
  f.b.opTo(output(0), Opcode::Mul, y, n);
  f.b.flow(Opcode::Endif);
  f.expectLeftAlone(numberValues);
}

TEST(ValueNumbering, AWrittenSourceOrHolderEndsAValue) {
  Fixture f;
  const Operand x = f.b.ipl(0, 0);
  const Operand y = f.b.op(Opcode::Add, x, constant(1));
  f.b.opTo(x, Opcode::Mul, x, constant(2));               // x written: a new x
  const Operand z = f.b.op(Opcode::Add, x, constant(1));  // not y's value
  f.b.opTo(y, Opcode::Mul, y, constant(3));               // y no longer holds x + c1
  const Operand w = f.b.op(Opcode::Add, x, constant(1));  // z's value: z still holds it
  f.b.opTo(output(0), Opcode::Add, y, z);
  f.b.opTo(output(1), Opcode::Add, w, w);
  f.b.flow(Opcode::End);
  numberValues(f.p);
  EXPECT_EQ(f.at(3).op, Opcode::Add);
  EXPECT_EQ(f.at(5).op, Opcode::Mov);
  EXPECT_EQ(f.at(5).src[0], z);
}

TEST(ValueNumbering, LeavesMinMaxOrderDerivativesRelativeReadsAndOutputCopies) {
  Fixture f;
  const Operand x = f.b.ipl(0, 0);
  const Operand y = f.b.ipl(0, 1);
  // min and max are not commutative for NaN.
  const Operand a = f.b.op(Opcode::Min, x, y);
  const Operand b = f.b.op(Opcode::Min, y, x);
  f.b.opTo(output(0), Opcode::Add, a, b);
  // A derivative reads other lanes of the quad, which a copy made under the mask did not write.
  const Operand n = f.b.op(Opcode::Mov, neg(x));
  f.b.opTo(output(1), Opcode::Dsx, n);
  // A relative constant read depends on a0.
  f.b.mova(x);
  Operand rel = constant(4);
  rel.rel = true;
  const Operand r = f.b.op(Opcode::Mov, rel);
  f.b.mova(y);
  const Operand s = f.b.op(Opcode::Mov, rel);
  f.b.opTo(output(2), Opcode::Add, r, s);
  f.b.opTo(output(3), Opcode::Add, n, constant(0));
  // Values whose only read is a copy into an output are computed into it by output forwarding.
  const Operand c = f.b.op(Opcode::Mul, constant(0), x);
  const Operand d = f.b.op(Opcode::Mul, constant(0), x);
  f.b.mov(output(4), c);
  f.b.mov(output(5), d);
  const std::vector<isa::Instr> before = f.p.code;
  f.b.flow(Opcode::End);
  numberValues(f.p);
  for (size_t k = 0; k < before.size(); ++k) {
    if (k == 12) continue;  // add o3, n, c0 reads -x through n
    EXPECT_EQ(f.p.code[k], before[k]) << "instruction " << k;
  }
  EXPECT_EQ(f.at(12).src[0], neg(x));
}

}  // namespace
}  // namespace tessera::compiler::ir
