// Multiply-add forming on hand-built IR: a product read only by an addition or subtraction in
// the same straight-line stretch becomes that instruction's `mad`, with negations moved onto
// the sources; every other shape of program is left as it was.
#include <gtest/gtest.h>

#include "compiler/ir/mad_forming.h"
#include "compiler/ir_fixture.h"

namespace tessera::compiler::ir {
namespace {

using fixture::output;
using Fixture = fixture::IrFixture;

TEST(MadForming, FoldsASingleUseProductIntoItsSum) {
  Fixture f;
  const Operand m = f.b.op(Opcode::Mul, constant(0), constant(1));
  f.b.opTo(output(0), Opcode::Add, constant(2), m, {}, /*sat=*/true);
  f.b.flow(Opcode::End);
  formMads(f.p);
  ASSERT_EQ(f.p.code.size(), 2u);
  const isa::Instr& mad = f.at(0);
  EXPECT_EQ(mad.op, Opcode::Mad);
  EXPECT_EQ(mad.dst, output(0));
  EXPECT_EQ(mad.src[0], constant(0));
  EXPECT_EQ(mad.src[1], constant(1));
  EXPECT_EQ(mad.src[2], constant(2));
  EXPECT_TRUE(mad.sat);  // the sum's saturation stays
}

// a - m is a + (-m), m - c is m + (-c), and -(x y) is (-x) y.
TEST(MadForming, MovesNegationsOntoTheSources) {
  Fixture f;
  const Operand x = constant(0), y = constant(1), c = constant(2);
  const Operand m0 = f.b.op(Opcode::Mul, x, y);
  f.b.opTo(output(0), Opcode::Sub, c, m0);  // c - x y = (-x) y + c
  const Operand m1 = f.b.op(Opcode::Mul, x, y);
  f.b.opTo(output(1), Opcode::Sub, m1, c);  // x y - c = x y + (-c)
  const Operand m2 = f.b.op(Opcode::Mul, neg(x), y);
  f.b.opTo(output(2), Opcode::Add, neg(m2), c);  // -((-x) y) + c = x y + c
  const Operand m3 = f.b.op(Opcode::Mul, x, y);
  f.b.opTo(output(3), Opcode::Sub, c, neg(m3));  // c - (-(x y)) = x y + c
  f.b.flow(Opcode::End);
  formMads(f.p);
  ASSERT_EQ(f.p.code.size(), 5u);
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(f.at(k).op, Opcode::Mad) << k;
  EXPECT_EQ(f.at(0).src[0], neg(x));
  EXPECT_EQ(f.at(0).src[2], c);
  EXPECT_EQ(f.at(1).src[0], x);
  EXPECT_EQ(f.at(1).src[2], neg(c));
  EXPECT_EQ(f.at(2).src[0], x);
  EXPECT_EQ(f.at(2).src[2], c);
  EXPECT_EQ(f.at(3).src[0], x);
  EXPECT_EQ(f.at(3).src[2], c);
}

TEST(MadForming, LeavesProductsReadTwiceSaturatedOrTakenAbsolute) {
  Fixture f;
  const Operand m0 = f.b.op(Opcode::Mul, constant(0), constant(1));
  f.b.opTo(output(0), Opcode::Add, m0, constant(2));
  f.b.opTo(output(1), Opcode::Add, m0, constant(3));  // a second use
  const Operand m1 = f.b.op(Opcode::Mul, constant(0), constant(1), {}, /*sat=*/true);
  f.b.opTo(output(2), Opcode::Add, m1, constant(2));
  const Operand m2 = f.b.op(Opcode::Mul, constant(0), constant(1));
  f.b.opTo(output(3), Opcode::Add, absOf(m2), constant(2));
  const Operand m3 = f.b.op(Opcode::Add, constant(0), constant(1));  // not a product
  f.b.opTo(output(4), Opcode::Add, m3, constant(2));
  f.expectLeftAlone(formMads);
}

TEST(MadForming, StopsAtControlFlowAndAtWritesOfTheFactors) {
  Fixture f;
  const Operand m0 = f.b.op(Opcode::Mul, constant(0), constant(1));
  f.b.cond(Opcode::If, constant(2));  // the sum runs under other lanes than the product
  f.b.opTo(output(0), Opcode::Add, m0, constant(3));
  f.b.flow(Opcode::Endif);
  const Operand x = f.b.op(Opcode::Mov, constant(4));
  const Operand m1 = f.b.op(Opcode::Mul, x, constant(1));
  f.b.opTo(x, Opcode::Add, x, constant(5));  // a factor changes between product and sum
  f.b.opTo(output(1), Opcode::Add, m1, x);
  const Operand m2 = f.b.op(Opcode::Mul, output(2), constant(1));
  f.b.mov(output(2), constant(6));  // an output factor is written between them
  f.b.opTo(output(3), Opcode::Add, m2, constant(7));
  f.b.mova(constant(8));
  Operand relative = constant(0);
  relative.rel = true;
  const Operand m3 = f.b.op(Opcode::Mul, relative, constant(1));
  f.b.mova(constant(9));  // a0 moves under a relative factor
  f.b.opTo(output(4), Opcode::Add, m3, constant(7));
  f.expectLeftAlone(formMads);
}

}  // namespace
}  // namespace tessera::compiler::ir
