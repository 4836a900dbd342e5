// Hand-built fragment-shader IR for the tests of the IR passes: a builder, an output operand,
// and the check that a pass leaves a program as it was.
#pragma once
#include <gtest/gtest.h>

#include <vector>

#include "compiler/ir/ir.h"

namespace tessera::compiler::ir::fixture {

inline Operand output(int component) {
  return Operand{File::Output, false, false, false, component, 0};
}

struct IrFixture {
  Program p;
  Builder b{p};
  IrFixture() { p.stage = isa::Stage::Fragment; }
  const isa::Instr& at(size_t k) const { return p.code.at(k); }
  // Ends the program, runs the pass on it and checks that nothing changed.
  void expectLeftAlone(void (*pass)(Program&)) {
    b.flow(Opcode::End);
    const std::vector<isa::Instr> before = p.code;
    pass(p);
    EXPECT_EQ(p.code, before);
  }
};

}  // namespace tessera::compiler::ir::fixture
