// Register allocation: dead-code removal, liveness over the structured control flow, an
// interference graph, move coalescing, greedy colouring onto r0..r63 and spilling to private
// memory when they run out. Texture results take 4 consecutive registers. The register count it
// reaches sets how many warps fit on a core.
#pragma once
#include "compiler/ir/ir.h"
#include "isa/program.h"

namespace tessera::compiler::ir {

// Structure of a flat structured program: for each instruction, its successors.
std::vector<std::vector<uint32_t>> successors(const std::vector<isa::Instr>& code);

// Returns the finalized program. Values that find no register among isa::kMaxRegs are spilled
// to private memory (the program's privateDwords). Throws tessera::Error only when nothing live
// can be spilled or the private memory limit is reached.
isa::Program allocateRegisters(Program ir);

}  // namespace tessera::compiler::ir
