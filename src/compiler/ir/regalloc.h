// Register allocation: dead-code removal, liveness over the structured control flow, an
// interference graph, move coalescing and greedy colouring onto r0..r63. Texture results take 4
// consecutive registers. The register count it reaches sets how many warps fit on a core.
#pragma once
#include "compiler/ir/ir.h"
#include "isa/program.h"

namespace tessera::compiler::ir {

// Structure of a flat structured program: for each instruction, its successors.
std::vector<std::vector<uint32_t>> successors(const std::vector<isa::Instr>& code);

// Returns the finalized program. Throws tessera::Error if more than isa::kMaxRegs registers
// would be live at once (Tessera has no spill memory).
isa::Program allocateRegisters(Program ir);

}  // namespace tessera::compiler::ir
