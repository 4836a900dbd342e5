#include "compiler/ir/output_forwarding.h"

#include <vector>

#include "compiler/ir/def_use.h"

namespace tessera::compiler::ir {
namespace {

// Whether the instruction names `o` as its destination or as a source.
bool touches(const isa::Instr& in, const Operand& o) {
  auto same = [&](const Operand& x) { return x.file == o.file && x.index == o.index; };
  return same(in.dst) || same(in.src[0]) || same(in.src[1]) || same(in.src[2]);
}

// One sweep; returns whether it forwarded anything.
bool forwardOnce(Program& p) {
  const auto [defs, uses] = countDefsAndUses(p);
  std::vector<bool> removed(p.code.size(), false);
  for (size_t k = 0; k < p.code.size(); ++k) {
    const isa::Instr& copy = p.code[k];
    const Operand& v = copy.src[0];
    if (copy.op != Opcode::Mov || copy.sat || copy.dst.file != File::Output ||
        v.file != File::Reg || v.neg || v.abs || defs[size_t(v.index)] != 1 ||
        uses[size_t(v.index)] != 1)
      continue;
    // The definition, within the straight-line stretch that ends at the copy.
    for (size_t d = k; d-- > 0;) {
      isa::Instr& def = p.code[d];
      const isa::OpInfo& info = isa::opInfo(def.op);
      if (info.unit == isa::Unit::Cf || touches(def, copy.dst)) break;
      if (def.dst.file != File::Reg || def.dst.index != v.index) continue;
      // Only single results move: a texture tuple and a0 are not outputs.
      if (!isa::usesSampler(info.shape) && def.op != Opcode::Mova) {
        def.dst = copy.dst;
        removed[k] = true;
      }
      break;
    }
  }
  return removeMarked(p, removed);
}

}  // namespace

// A forwarded definition may itself be a copy (`v = mov w`), now `mov oK.c, w`: sweep again.
void forwardOutputs(Program& p) {
  while (forwardOnce(p)) {
  }
}

}  // namespace tessera::compiler::ir
