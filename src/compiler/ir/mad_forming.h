// Multiply-add forming: a product used only by an addition is computed by the addition, as one
// `mad`. GLSL's `sum += texel * weight` lowers to a `mul` and an `add` per component, two issued
// instructions where hardware issues one. `mad` rounds the product to fp32 before adding (it is
// unfused, docs/isa.md), so every lane gets the bits the pair gave it (a NaN aside, whose sign
// and payload GLSL leaves open: a negation may now flip a source's sign instead of the result's).
#pragma once
#include "compiler/ir/ir.h"

namespace tessera::compiler::ir {

// Rewrites `d: m = mul a, b` ... `k: x = add m, c` (or `add c, m`, `sub m, c`, `sub c, m`, and
// a negated m) into `k: x = mad ±a, b, ±c` and removes d, when m has that one definition and
// that one use, the mul does not saturate, the use takes m without an absolute value, d and k
// lie in one straight-line stretch (both run under the same lanes), and nothing between them
// writes what the mul reads (a register, an output or, for relative constants, a0).
void formMads(Program& p);

}  // namespace tessera::compiler::ir
