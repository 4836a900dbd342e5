// Output forwarding: a value computed only to be copied to an output is computed into the output,
// and the copy goes. Lowering writes each output component with a `mov oK.c, v` at the end of
// the shader; on an interpreter and on hardware alike that copy is an issued instruction.
#pragma once
#include "compiler/ir/ir.h"

namespace tessera::compiler::ir {

// Rewrites `d: v = op(...)` ... `k: mov oK.c, v` into `d: oK.c = op(...)` when v has that one
// definition and that one use, d and k lie in one straight-line stretch (no control flow
// between them, so both run under the same lanes), and nothing between them touches oK.c.
void forwardOutputs(Program& p);

}  // namespace tessera::compiler::ir
