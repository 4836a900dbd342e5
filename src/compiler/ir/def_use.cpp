#include "compiler/ir/def_use.h"

namespace tessera::compiler::ir {

DefUseCounts countDefsAndUses(const Program& p) {
  DefUseCounts c{std::vector<uint32_t>(p.vregCount, 0), std::vector<uint32_t>(p.vregCount, 0)};
  for (const isa::Instr& in : p.code) {
    const isa::Shape shape = isa::opInfo(in.op).shape;
    if (in.dst.file == File::Reg)
      for (int k = 0; k < isa::destinationWidth(in.op); ++k) ++c.defs[size_t(in.dst.index + k)];
    for (int s = 0; s < isa::sourceCount(shape); ++s)
      if (in.src[s].file == File::Reg)
        for (int k = 0; k < isa::sourceWidth(shape, s); ++k) ++c.uses[size_t(in.src[s].index + k)];
  }
  return c;
}

bool removeMarked(Program& p, const std::vector<bool>& removed) {
  std::vector<isa::Instr> kept;
  kept.reserve(p.code.size());
  for (size_t k = 0; k < p.code.size(); ++k)
    if (!removed[k]) kept.push_back(p.code[k]);
  const bool changed = kept.size() != p.code.size();
  p.code = std::move(kept);
  return changed;
}

}  // namespace tessera::compiler::ir
