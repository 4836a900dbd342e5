// Output forwarding on hand-built IR: a value with one definition and one use, copied to an
// output in the same straight-line stretch, is computed into the output; every other shape of
// program is left as it was.
#include <gtest/gtest.h>

#include "compiler/ir/output_forwarding.h"
#include "compiler/ir_fixture.h"

namespace tessera::compiler::ir {
namespace {

using fixture::output;
using Fixture = fixture::IrFixture;

TEST(OutputForwarding, ComputesASingleUseValueIntoItsOutput) {
  Fixture f;
  const Operand x = f.b.op(Opcode::Mul, constant(0), constant(1));
  const Operand y = f.b.op(Opcode::Mov, x);  // a copy of a copy forwards too
  f.b.mov(output(0), y);
  f.b.flow(Opcode::End);
  forwardOutputs(f.p);
  ASSERT_EQ(f.p.code.size(), 2u);
  EXPECT_EQ(f.p.code[0].op, Opcode::Mul);
  EXPECT_EQ(f.p.code[0].dst, output(0));
}

TEST(OutputForwarding, LeavesValuesReadTwiceOrDefinedTwice) {
  Fixture f;
  const Operand x = f.b.op(Opcode::Add, constant(0), constant(1));
  f.b.mov(output(0), x);
  f.b.mov(output(1), x);  // two uses
  const Operand y = f.b.op(Opcode::Mov, constant(2));
  f.b.opTo(y, Opcode::Add, y, constant(3));  // two definitions
  f.b.mov(output(2), y);
  f.expectLeftAlone(forwardOutputs);
}

TEST(OutputForwarding, StopsAtControlFlowAndAtAccessesOfTheOutput) {
  Fixture f;
  const Operand x = f.b.op(Opcode::Add, constant(0), constant(1));
  f.b.cond(Opcode::If, constant(2));  // the copy runs under other lanes than the definition
  f.b.mov(output(0), x);
  f.b.flow(Opcode::Endif);
  const Operand y = f.b.op(Opcode::Mul, constant(0), constant(1));
  f.b.mov(output(1), constant(4));  // o0.y written between the definition and the copy
  f.b.mov(output(1), y);
  const Operand z = f.b.op(Opcode::Mul, constant(0), constant(3));
  f.b.op(Opcode::Add, output(2), constant(1));  // o0.z read between them
  f.b.mov(output(2), z);
  f.expectLeftAlone(forwardOutputs);
}

TEST(OutputForwarding, LeavesModifiedAndSaturatedCopies) {
  Fixture f;
  const Operand x = f.b.op(Opcode::Add, constant(0), constant(1));
  f.b.opTo(output(0), Opcode::Mov, x, {}, {}, /*sat=*/true);
  const Operand y = f.b.op(Opcode::Add, constant(0), constant(2));
  f.b.mov(output(1), neg(y));
  f.expectLeftAlone(forwardOutputs);
}

}  // namespace
}  // namespace tessera::compiler::ir
