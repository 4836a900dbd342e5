#include "compiler/ir/mad_forming.h"

#include <vector>

#include "compiler/ir/def_use.h"

namespace tessera::compiler::ir {
namespace {

// Whether `in` writes the register or output `o` reads, or a0 when `o` is relative.
bool writes(const isa::Instr& in, const Operand& o) {
  if (o.rel && in.dst.file == File::Addr) return true;
  if (in.dst.file != o.file || (o.file != File::Reg && o.file != File::Output)) return false;
  return o.index >= in.dst.index && o.index < in.dst.index + isa::destinationWidth(in.op);
}

}  // namespace

void formMads(Program& p) {
  const auto [defs, uses] = countDefsAndUses(p);
  std::vector<bool> removed(p.code.size(), false);
  for (size_t k = 0; k < p.code.size(); ++k) {
    isa::Instr& sum = p.code[k];
    if (sum.op != Opcode::Add && sum.op != Opcode::Sub) continue;
    for (int s = 0; s < 2; ++s) {
      const Operand m = sum.src[s];
      if (m.file != File::Reg || m.abs || m.rel || defs[size_t(m.index)] != 1 ||
          uses[size_t(m.index)] != 1)
        continue;
      // The product, within the straight-line stretch that ends at the sum.
      size_t d = k;
      bool found = false;
      while (d-- > 0) {
        const isa::Instr& in = p.code[d];
        if (isa::opInfo(in.op).unit == isa::Unit::Cf) break;
        if (writes(in, m)) {
          found = in.op == Opcode::Mul && !in.sat;
          break;
        }
      }
      if (!found) continue;
      const isa::Instr& product = p.code[d];
      bool clobbered = false;
      for (size_t j = d + 1; j < k && !clobbered; ++j)
        clobbered = writes(p.code[j], product.src[0]) || writes(p.code[j], product.src[1]);
      if (clobbered) continue;
      // sub a, b is a + (-b) exactly, and -(x y) is (-x) y: negations move onto the sources.
      const bool negateProduct = m.neg != (sum.op == Opcode::Sub && s == 1);
      Operand other = sum.src[1 - s];
      if (sum.op == Opcode::Sub && s == 0) other = neg(other);
      sum.op = Opcode::Mad;
      sum.src[0] = negateProduct ? neg(product.src[0]) : product.src[0];
      sum.src[1] = product.src[1];
      sum.src[2] = other;
      removed[d] = true;
      break;
    }
  }
  removeMarked(p, removed);
}

}  // namespace tessera::compiler::ir
