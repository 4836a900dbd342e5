// What the IR passes that rewrite a value's single definition and single use share: the count
// of each virtual register's definitions and uses, and the removal of the instructions a pass
// has folded into others.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/ir/ir.h"

namespace tessera::compiler::ir {

struct DefUseCounts {
  std::vector<uint32_t> defs, uses;  // per virtual register; a tuple counts for each register
};
DefUseCounts countDefsAndUses(const Program& p);

// Drops the instructions marked in `removed` (one flag per instruction); returns whether any
// went.
bool removeMarked(Program& p, const std::vector<bool>& removed);

}  // namespace tessera::compiler::ir
