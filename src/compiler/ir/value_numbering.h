// Local value numbering: inside each straight-line stretch (no control flow between, so every
// instruction runs under the same lanes) a value computed twice is computed once, and copies are
// read through. Scalarized GLSL repeats itself: `v.xyz / v.w` takes three `rcp` of one w, `-v`
// is a negated copy per component, and a vec4 constant times a float is the same product per
// component. The rewrites are exact: every lane gets the bits it got before.
#pragma once
#include "compiler/ir/ir.h"

namespace tessera::compiler::ir {

// - An instruction of the ALU, FPU or SFU (or `ipl`, `dsx`, `dsy`) whose operation and sources
//   match an earlier one of the stretch, whose result register still holds it, becomes a copy
//   of that register. The sources of commutative operations are put in one order first (not
//   those of min and max, whose NaN handling depends on the order).
// - A source that is a copy of another register, a constant, an input, a system value or an
//   immediate reads that instead, as long as neither side has been written since; a negated or
//   absolute copy only where the reading instruction applies float source modifiers (its type
//   is float), so the bits it reads are the ones the copy held. Sources of `dsx`, `dsy`,
//   samples and `ipl` stay as they are: they read other lanes of the quad, or must be registers.
// - `mul x, 1.0` is a copy of x.
// The copies left behind are removed with the rest of the dead code, or coalesced.
void numberValues(Program& p);

}  // namespace tessera::compiler::ir
