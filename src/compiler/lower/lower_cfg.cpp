// Structured control flow: SPIR-V selection and loop constructs onto the ISA's if/else/endif,
// loop/endloop, break(if) and continue(if), with phis turned into copies on the edges.
#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

ir::Operand Lowering::condition(uint32_t id) {
  return value(id).at(0);
}

// Emits blocks from `start` until control reaches `stop` (not emitted) or leaves.
void Lowering::region(uint32_t start, uint32_t stop) {
  for (uint32_t cur = start; cur != 0 && cur != stop;) cur = block(cur, stop);
}

void Lowering::phiCopies(uint32_t from, uint32_t to) {
  const spirv::Block& target = m_.block(to);
  std::vector<std::pair<Vals, Vals>> copies;  // (destination registers, source values)
  for (const spirv::Instruction* in : target.body) {
    if (in->op != SpvOpPhi) break;
    for (size_t k = 0; k + 1 < in->operands.size(); k += 2) {
      if (in->operands[k + 1] == from) {
        copies.emplace_back(value(in->result), value(in->operands[k]));
        break;
      }
    }
  }
  // Parallel-copy semantics: a source that is also a destination is read before any write.
  bool overlap = false;
  for (const auto& [dst, src] : copies) {
    for (const Operand& s : src) {
      for (const auto& [d2, s2] : copies) {
        for (const Operand& d : d2) overlap |= ir::isVreg(s) && s == d;
      }
    }
  }
  if (overlap) {
    for (auto& [dst, src] : copies) {
      for (Operand& s : src) s = b_.op(Opcode::Mov, s);
    }
  }
  for (const auto& [dst, src] : copies) {
    for (size_t k = 0; k < dst.size(); ++k) b_.mov(dst[k], src[k]);
  }
}

// Does an edge to `to` leave the current region sideways (break, continue, back edge) rather
// than fall through to a block of the region or its end?
bool Lowering::isExit(uint32_t to, uint32_t stop) const {
  if (to == stop || loops_.empty()) return false;
  const Loop& l = loops_.back();
  if (to == l.merge || (l.cont && (to == l.cont || to == l.header))) return true;
  // GLSL `continue` (or a loop `break`) from inside a switch: an exit of an enclosing loop.
  for (const Loop& outer : loops_) {
    if (to == outer.merge || (outer.cont && to == outer.cont)) return true;
  }
  return false;
}

void Lowering::exitLoop(bool toMerge) {
  Loop& l = loops_.back();
  if (l.header == 0) {
    // A switch between the exit and its loop: flag the lanes and leave the switch; the code
    // after the switch sends them on (leaveSwitch).
    uint32_t& flag = toMerge ? l.breakOuter : l.continueOuter;
    if (!flag) flag = b_.newVreg();
    b_.mov(ir::vreg(flag), ir::immBits(~0u));
    b_.flow(Opcode::Break);
    return;
  }
  if (toMerge) {
    b_.flow(Opcode::Break);
  } else {
    // GLSL `continue`: run the continue construct (i++ and the back edge) for these lanes, then
    // wait at endloop for the next iteration.
    const Loop copy = l;
    region(copy.cont, copy.header);
    b_.flow(Opcode::Continue);
  }
}

void Lowering::leaveSwitch(const Loop& sw) {
  if (sw.breakOuter) {
    b_.cond(Opcode::If, ir::vreg(sw.breakOuter));
    exitLoop(true);
    b_.flow(Opcode::Endif);
  }
  if (sw.continueOuter) {
    b_.cond(Opcode::If, ir::vreg(sw.continueOuter));
    exitLoop(false);
    b_.flow(Opcode::Endif);
  }
}

// Follows the edge from -> to. Returns the block to continue with in this region, or 0 if
// control left it (break, continue, back edge).
uint32_t Lowering::edge(uint32_t from, uint32_t to, uint32_t stop) {
  phiCopies(from, to);
  if (to == stop || !isExit(to, stop)) return to;
  Loop& l = loops_.back();
  if (to == l.merge) {
    b_.flow(Opcode::Break);
  } else if (to == l.cont) {
    exitLoop(false);
  } else if (l.cont && to == l.header) {
    b_.flow(Opcode::Continue);  // a back edge from inside the continue construct
  } else if (l.header == 0) {
    // From inside a switch to the enclosing loop's merge (break) or continue target.
    bool toMerge = false;
    for (const Loop& outer : loops_) {
      if (outer.header != 0 && (to == outer.merge || to == outer.cont)) toMerge = to == outer.merge;
    }
    exitLoop(toMerge);
  } else {
    throw Error("SPIR-V: an exit to a construct that does not enclose the branch");
  }
  return 0;
}

uint32_t Lowering::loopConstruct(const spirv::Block& header) {
  const uint32_t merge = header.merge->operand(0), cont = header.merge->operand(1);
  for (const Loop& l : loops_) {
    if (l.merge == merge) throw Error("SPIR-V: a loop shares its merge block with an outer loop");
  }
  b_.flow(Opcode::Loop);
  loops_.push_back({header.label, merge, cont});
  // The header's own code runs every iteration; its terminator leads into the body, which ends
  // where the continue construct starts; that one ends with the back edge.
  const uint32_t bodyStop = cont == header.label ? header.label : cont;
  const uint32_t next = blockCode(header, bodyStop);
  if (next != 0 && next != bodyStop) region(next, bodyStop);
  if (cont != header.label) region(cont, header.label);
  loops_.pop_back();
  b_.flow(Opcode::Endloop);
  return merge;
}

uint32_t Lowering::block(uint32_t label, uint32_t stop) {
  const spirv::Block& blk = m_.block(label);
  if (blk.merge && blk.merge->op == SpvOpLoopMerge) return loopConstruct(blk);
  return blockCode(blk, stop);
}

// A switch runs as a loop that goes round once: reaching the merge block is `break`, so a case
// can leave from any depth. Each case's lanes run from their case label (falling through into
// the next case when the code does) until they break; the default takes the lanes left.
uint32_t Lowering::switchConstruct(const spirv::Block& blk) {
  const spirv::Instruction& t = *blk.terminator;
  const uint32_t merge = blk.merge->operand(0);
  const Operand selector = condition(t.operand(0));
  // The exit flags start false for every lane that enters (their vregs are made on first use, so
  // the initialisation is patched in when the switch turns out to need them).
  const size_t flagInit = b_.size();
  b_.flow(Opcode::Loop);
  loops_.push_back({0, merge, 0});
  for (size_t k = 2; k + 1 < t.operands.size(); k += 2) {
    const uint32_t target = t.operands[k + 1];
    Operand hit = b_.op(Opcode::Ieq, selector, ir::immBits(t.operands[k]));
    // Further literals with the same target share the case.
    for (size_t j = k + 2; j + 1 < t.operands.size() && t.operands[j + 1] == target;
         j += 2, k += 2) {
      hit = b_.op(Opcode::Or, hit, b_.op(Opcode::Ieq, selector, ir::immBits(t.operands[j])));
    }
    b_.cond(Opcode::If, hit);
    if (const uint32_t n = edge(blk.label, target, 0); n != 0) region(n, 0);
    b_.flow(Opcode::Endif);
  }
  if (const uint32_t n = edge(blk.label, t.operand(1), 0); n != 0) region(n, 0);
  const Loop sw = loops_.back();
  loops_.pop_back();
  b_.flow(Opcode::Endloop);
  for (uint32_t flag : {sw.breakOuter, sw.continueOuter}) {
    if (flag) b_.insertMov(flagInit, ir::vreg(flag), ir::immBits(0));
  }
  leaveSwitch(sw);
  return merge;
}

uint32_t Lowering::blockCode(const spirv::Block& blk, uint32_t stop) {
  const uint32_t label = blk.label;
  for (const spirv::Instruction* in : blk.body) {
    if (in->op != SpvOpPhi) instruction(*in);
  }
  if (blk.terminator->op == SpvOpSwitch) {
    if (!blk.merge || blk.merge->op != SpvOpSelectionMerge) {
      unsupported(*blk.terminator, "a switch without a merge block");
    }
    return switchConstruct(blk);
  }
  const spirv::Instruction& t = *blk.terminator;
  switch (t.op) {
    case SpvOpBranch:
      return edge(label, t.operand(0), stop);
    case SpvOpBranchConditional: {
      const Operand c = condition(t.operand(0));
      const uint32_t yes = t.operand(1), no = t.operand(2);
      if (blk.merge && blk.merge->op == SpvOpSelectionMerge) {
        // A selection construct: both sides meet again at the merge block.
        const uint32_t merge = blk.merge->operand(0);
        if (!loops_.empty() && (merge == loops_.back().merge || merge == loops_.back().cont) &&
            merge != stop) {
          unsupported(t, "a selection whose merge block is its loop's merge or continue target");
        }
        b_.cond(Opcode::If, c);
        if (const uint32_t n = edge(label, yes, merge); n != 0 && n != merge) region(n, merge);
        b_.flow(Opcode::Else);
        if (const uint32_t n = edge(label, no, merge); n != 0 && n != merge) region(n, merge);
        b_.flow(Opcode::Endif);
        return merge;
      }
      // No selection merge: one side (or both) is a break, continue or back edge.
      const bool yesExit = isExit(yes, stop), noExit = isExit(no, stop);
      if (!yesExit && !noExit) unsupported(t, "an unstructured conditional branch");
      if (yesExit && noExit) {
        b_.cond(Opcode::If, c);
        edge(label, yes, stop);
        b_.flow(Opcode::Else);
        edge(label, no, stop);
        b_.flow(Opcode::Endif);
        return 0;
      }
      b_.cond(Opcode::If, yesExit ? c : b_.op(Opcode::Not, c));
      edge(label, yesExit ? yes : no, stop);
      b_.flow(Opcode::Endif);
      return edge(label, yesExit ? no : yes, stop);
    }
    case SpvOpReturn:
      writeOutputs();
      b_.flow(Opcode::Ret);
      return 0;
    case SpvOpKill:
      b_.flow(Opcode::Kill);
      return 0;
    case SpvOpUnreachable:
      return 0;
    default:
      unsupported(t, "this block terminator (a function call that was not inlined?)");
  }
}

// Folds `if c / break / endif` into `breakif c` (and the same for continue and kill), and
// removes if/else/endif constructs left empty.
void foldConditionalFlow(std::vector<isa::Instr>& code) {
  std::vector<isa::Instr> out;
  for (const isa::Instr& in : code) {
    out.push_back(in);
    const size_t n = out.size();
    if (n >= 3 && in.op == Opcode::Endif && out[n - 3].op == Opcode::If) {
      const Opcode middle = out[n - 2].op;
      const Opcode folded = middle == Opcode::Break      ? Opcode::Breakif
                            : middle == Opcode::Continue ? Opcode::Continueif
                            : middle == Opcode::Kill     ? Opcode::Killif
                                                         : Opcode::Nop;
      if (folded != Opcode::Nop) {
        isa::Instr f = out[n - 3];
        f.op = folded;
        out.resize(n - 3);
        out.push_back(f);
      }
    } else if (n >= 2 && in.op == Opcode::Endif && out[n - 2].op == Opcode::Else) {
      out.erase(out.end() - 2);  // empty else-part
      const size_t m = out.size();
      if (m >= 2 && out[m - 2].op == Opcode::If) out.resize(m - 2);  // empty if
    } else if (n >= 2 && in.op == Opcode::Endif && out[n - 2].op == Opcode::If) {
      out.resize(n - 2);
    }
  }
  code = std::move(out);
}

}  // namespace tessera::compiler::lower
