#include "compiler/ir/regalloc.h"

#include <algorithm>
#include <numeric>

#include "common/error.h"
#include "compiler/ir/mad_forming.h"
#include "compiler/ir/output_forwarding.h"
#include "compiler/ir/value_numbering.h"

namespace tessera::compiler::ir {
namespace {

using isa::Instr;

// A dense bit set over virtual registers.
class Bits {
 public:
  explicit Bits(size_t n = 0) : w_((n + 63) / 64, 0) {}
  bool test(uint32_t i) const { return (w_[i / 64] >> (i % 64)) & 1; }
  void set(uint32_t i) { w_[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(uint32_t i) { w_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  bool orWith(const Bits& o) {  // returns true if anything changed
    bool changed = false;
    for (size_t k = 0; k < w_.size(); ++k) {
      const uint64_t v = w_[k] | o.w_[k];
      changed |= v != w_[k];
      w_[k] = v;
    }
    return changed;
  }
  template <typename F>
  void forEach(F f) const {
    for (size_t k = 0; k < w_.size(); ++k) {
      for (uint64_t v = w_[k]; v; v &= v - 1)
        f(static_cast<uint32_t>(k * 64 + std::countr_zero(v)));
    }
  }

 private:
  std::vector<uint64_t> w_;
};

int destinationCount(const Instr& in) {
  return in.dst.file == File::Reg ? isa::destinationWidth(in.op) : 0;
}

template <typename F>
void forEachUse(const Instr& in, F f) {
  const isa::Shape shape = isa::opInfo(in.op).shape;
  for (int s = 0; s < 3; ++s) {
    if (in.src[s].file != File::Reg) continue;
    for (int k = 0; k < isa::sourceWidth(shape, s); ++k)
      f(static_cast<uint32_t>(in.src[s].index + k));
  }
}

bool hasSideEffects(const Instr& in) {
  const isa::OpInfo& info = isa::opInfo(in.op);
  return info.unit == isa::Unit::Cf || in.dst.file != File::Reg || in.op == Opcode::Mova;
}

std::vector<Bits> liveOut(const std::vector<Instr>& code,
                          const std::vector<std::vector<uint32_t>>& succ, uint32_t vregs) {
  const size_t n = code.size();
  std::vector<Bits> in(n, Bits(vregs)), out(n, Bits(vregs));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = n; k-- > 0;) {
      for (uint32_t s : succ[k]) changed |= out[k].orWith(in[s]);
      Bits live = out[k];
      const Instr& c = code[k];
      for (int d = 0; d < destinationCount(c); ++d)
        live.reset(static_cast<uint32_t>(c.dst.index + d));
      forEachUse(c, [&](uint32_t v) { live.set(v); });
      changed |= in[k].orWith(live);
    }
  }
  return out;
}

// Removes instructions whose results are never read; repeats until nothing changes.
void removeDeadCode(Program& p) {
  for (bool removed = true; removed;) {
    removed = false;
    const auto succ = successors(p.code);
    const auto out = liveOut(p.code, succ, p.vregCount);
    std::vector<Instr> kept;
    for (size_t k = 0; k < p.code.size(); ++k) {
      const Instr& c = p.code[k];
      bool live = hasSideEffects(c);
      for (int d = 0; !live && d < destinationCount(c); ++d) {
        live = out[k].test(static_cast<uint32_t>(c.dst.index + d));
      }
      if (live) {
        kept.push_back(c);
      } else {
        removed = true;
      }
    }
    p.code = std::move(kept);
  }
}

class Graph {
 public:
  explicit Graph(uint32_t n) : n_(n), adj_(n, Bits(n)) {}
  void add(uint32_t a, uint32_t b) {
    if (a == b) return;
    adj_[a].set(b);
    adj_[b].set(a);
  }
  bool interferes(uint32_t a, uint32_t b) const { return adj_[a].test(b); }
  // Merges b into a: a now interferes with everything b did.
  void merge(uint32_t a, uint32_t b) {
    adj_[b].forEach([&](uint32_t x) {
      adj_[x].reset(b);
      add(a, x);
    });
  }
  const Bits& neighbours(uint32_t a) const { return adj_[a]; }
  uint32_t size() const { return n_; }

 private:
  uint32_t n_;
  std::vector<Bits> adj_;
};

}  // namespace

std::vector<std::vector<uint32_t>> successors(const std::vector<Instr>& code) {
  const auto n = static_cast<uint32_t>(code.size());
  std::vector<uint32_t> partner(n, n);  // if -> else/endif, else -> endif, loop <-> endloop
  std::vector<uint32_t> loopEnd(n, n);  // innermost enclosing endloop of each instruction
  std::vector<uint32_t> stack;
  std::vector<uint32_t> loops;
  for (uint32_t k = 0; k < n; ++k) {
    switch (code[k].op) {
      case Opcode::If:
      case Opcode::Loop:
        stack.push_back(k);
        if (code[k].op == Opcode::Loop) loops.push_back(k);
        break;
      case Opcode::Else:
        if (stack.empty()) throw Error("compiler: else without if");
        partner[stack.back()] = k;
        stack.back() = k;
        break;
      case Opcode::Endif:
      case Opcode::Endloop:
        if (stack.empty()) throw Error("compiler: unbalanced control flow");
        partner[stack.back()] = k;
        partner[k] = stack.back();
        stack.pop_back();
        if (code[k].op == Opcode::Endloop) loops.pop_back();
        break;
      default:
        break;
    }
    loopEnd[k] = loops.empty() ? n : loops.back();  // the loop instruction for now
  }
  std::vector<std::vector<uint32_t>> succ(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t endloop = loopEnd[k] < n ? partner[loopEnd[k]] : n;
    auto next = [&](uint32_t t) {
      if (t < n) succ[k].push_back(t);
    };
    switch (code[k].op) {
      case Opcode::If:
        next(k + 1);
        next(code[partner[k]].op == Opcode::Else ? partner[k] + 1 : partner[k]);
        break;
      case Opcode::Else:
        next(partner[k]);  // the then-part ends here and continues after endif
        break;
      case Opcode::Endloop:
        next(partner[k] + 1);  // back edge
        next(k + 1);
        break;
      case Opcode::Break:
        next(endloop + 1);
        break;
      case Opcode::Breakif:
        next(k + 1);
        next(endloop + 1);
        break;
      case Opcode::Continue:
        next(endloop);
        break;
      case Opcode::Continueif:
        next(k + 1);
        next(endloop);
        break;
      case Opcode::Kill:
      case Opcode::Ret:
      case Opcode::End:
        break;
      default:
        next(k + 1);
        break;
    }
  }
  return succ;
}

namespace {

// A colouring of the virtual registers onto r0..r63, or where it ran out of registers.
struct Colouring {
  std::vector<int> color;  // per vreg (after coalescing); -1: never defined
  int highest = -1;
  size_t failedAt = SIZE_MAX;  // the instruction whose result found no register
  std::vector<Bits> liveOut;
};

Colouring colour(const Program& p) {
  const uint32_t nv = p.vregCount;
  const auto succ = successors(p.code);
  Colouring result;
  result.liveOut = liveOut(p.code, succ, nv);
  const auto& out = result.liveOut;

  Graph g(nv);
  std::vector<bool> inGroup(nv, false);
  for (uint32_t first : p.quadGroups) {
    for (uint32_t d = 0; d < 4; ++d) inGroup[first + d] = true;
  }
  for (size_t k = 0; k < p.code.size(); ++k) {
    const Instr& c = p.code[k];
    const int defs = destinationCount(c);
    const bool isCopy = c.op == Opcode::Mov && !c.sat && c.src[0].file == File::Reg &&
                        !c.src[0].neg && !c.src[0].abs;
    for (int d = 0; d < defs; ++d) {
      const auto v = static_cast<uint32_t>(c.dst.index + d);
      out[k].forEach([&](uint32_t l) {
        if (isCopy && l == static_cast<uint32_t>(c.src[0].index)) return;
        g.add(v, l);
      });
      for (int e = 0; e < defs; ++e) g.add(v, static_cast<uint32_t>(c.dst.index + e));
    }
  }

  // Coalesce copies between registers that do not interfere (outside texture groups).
  std::vector<uint32_t> rep(nv);
  std::iota(rep.begin(), rep.end(), 0u);
  auto find = [&](uint32_t v) {
    while (rep[v] != v) v = rep[v] = rep[rep[v]];
    return v;
  };
  for (const Instr& c : p.code) {
    if (c.op != Opcode::Mov || c.sat || c.dst.file != File::Reg || c.src[0].file != File::Reg ||
        c.src[0].neg || c.src[0].abs) {
      continue;
    }
    const uint32_t a = find(static_cast<uint32_t>(c.dst.index));
    const uint32_t b = find(static_cast<uint32_t>(c.src[0].index));
    if (a == b || inGroup[a] || inGroup[b] || g.interferes(a, b)) continue;
    g.merge(a, b);
    rep[b] = a;
  }

  // Greedy colouring in order of first definition.
  std::vector<int> color(nv, -1);
  std::vector<bool> seen(nv, false);
  auto colorOf = [&](uint32_t v) { return color[find(v)]; };
  auto freeAt = [&](uint32_t v, int r) {
    bool ok = true;
    g.neighbours(find(v)).forEach([&](uint32_t x) {
      if (colorOf(x) == r) ok = false;
    });
    return ok;
  };
  // A register tuple (texture result or cube direction) is coloured as a block when its first
  // member is defined.
  std::vector<uint32_t> groupStart(nv, UINT32_MAX);
  for (uint32_t first : p.quadGroups) {
    for (uint32_t d = 0; d < 4; ++d) groupStart[first + d] = first;
  }
  for (size_t k = 0; k < p.code.size(); ++k) {
    const Instr& c = p.code[k];
    if (destinationCount(c) == 0) continue;
    uint32_t first = static_cast<uint32_t>(c.dst.index);
    int defs = destinationCount(c);
    if (groupStart[first] != UINT32_MAX) {
      first = groupStart[first];
      defs = 4;
    }
    if (seen[first]) continue;
    seen[first] = true;
    if (colorOf(first) >= 0) continue;  // coalesced into a coloured register
    for (int r = 0;; ++r) {
      if (r + defs > isa::kMaxRegs) {
        result.failedAt = k;
        return result;
      }
      bool ok = true;
      for (int d = 0; ok && d < defs; ++d) ok = freeAt(first + static_cast<uint32_t>(d), r + d);
      if (!ok) continue;
      for (int d = 0; d < defs; ++d) {
        color[find(first + static_cast<uint32_t>(d))] = r + d;
        result.highest = std::max(result.highest, r + d);
      }
      break;
    }
  }
  result.color.resize(nv);
  for (uint32_t v = 0; v < nv; ++v) result.color[v] = color[find(v)];
  return result;
}

// Values that may not be spilled: spill temporaries, and members of a register tuple (texture
// results and cube directions must sit in consecutive registers).
std::vector<bool> unspillable(const Program& p, const std::vector<bool>& noSpill) {
  std::vector<bool> fixed = noSpill;
  for (uint32_t first : p.quadGroups) {
    for (uint32_t d = 0; d < 4; ++d) fixed[first + d] = true;
  }
  return fixed;
}

// The number of instructions each value is live after.
std::vector<uint32_t> liveSpans(const std::vector<Bits>& live, uint32_t vregs) {
  std::vector<uint32_t> span(vregs, 0);
  for (const Bits& l : live) l.forEach([&](uint32_t v) { ++span[v]; });
  return span;
}

// Values to spill before colouring again, chosen in one go so that a program far over the limit
// does not take one colouring pass per spilled value: while some instruction has more than
// kMaxRegs - 2 values live (room for the temporaries of a fill and a store), the value live at
// the most such instructions (then the longest-lived) goes.
std::vector<uint32_t> relievePressure(const Program& p, std::vector<Bits> live,
                                      const std::vector<bool>& noSpill) {
  constexpr uint32_t kLimit = isa::kMaxRegs - 2;
  const std::vector<bool> fixed = unspillable(p, noSpill);
  const std::vector<uint32_t> span = liveSpans(live, p.vregCount);
  std::vector<uint32_t> pressure(live.size(), 0);
  for (size_t k = 0; k < live.size(); ++k) live[k].forEach([&](uint32_t) { ++pressure[k]; });
  std::vector<uint32_t> victims;
  for (;;) {
    std::vector<uint32_t> score(p.vregCount, 0);
    for (size_t k = 0; k < live.size(); ++k) {
      if (pressure[k] > kLimit) live[k].forEach([&](uint32_t v) { score[v] += !fixed[v]; });
    }
    uint32_t best = 0;
    for (uint32_t v = 1; v < p.vregCount; ++v) {
      if (score[v] > score[best] || (score[v] == score[best] && span[v] > span[best])) best = v;
    }
    if (p.vregCount == 0 || score[best] == 0) return victims;
    victims.push_back(best);
    for (size_t k = 0; k < live.size(); ++k) {
      if (live[k].test(best)) live[k].reset(best), --pressure[k];
    }
  }
}

// The register to spill where colouring failed: of the values live there that may be spilled,
// the one live over the most instructions, so that one spill frees a register for longest.
uint32_t spillCandidate(const Program& p, const Colouring& c, const std::vector<bool>& noSpill) {
  const std::vector<bool> fixed = unspillable(p, noSpill);
  const std::vector<uint32_t> span = liveSpans(c.liveOut, p.vregCount);
  uint32_t best = UINT32_MAX;
  c.liveOut[c.failedAt].forEach([&](uint32_t v) {
    if (fixed[v]) return;
    if (best == UINT32_MAX || span[v] > span[best]) best = v;
  });
  if (best == UINT32_MAX) {
    throw Error("shader needs more than " + std::to_string(isa::kMaxRegs) +
                " registers live at once, and none of them can be spilled");
  }
  return best;
}

// Moves v to private dword `slot`: every definition writes a fresh temporary that is stored
// right after, every use reads a fresh temporary filled right before.
void spill(Program& p, uint32_t v, int slot, std::vector<bool>& noSpill) {
  const Operand memory{File::Private, false, false, false, slot, 0};
  auto temporary = [&] {
    noSpill.push_back(true);
    return p.vregCount++;
  };
  auto mov = [](Operand dst, Operand src) {
    Instr m;
    m.op = Opcode::Mov;
    m.dst = dst;
    m.src[0] = src;
    return m;
  };
  std::vector<Instr> code;
  for (Instr c : p.code) {
    bool reads = false;
    for (const Operand& o : c.src) reads |= o.file == File::Reg && o.index == static_cast<int>(v);
    if (reads) {
      const uint32_t t = temporary();
      code.push_back(mov(vreg(t), memory));
      for (Operand& o : c.src) {
        if (o.file == File::Reg && o.index == static_cast<int>(v)) o.index = static_cast<int>(t);
      }
    }
    if (c.dst.file == File::Reg && c.dst.index == static_cast<int>(v)) {
      const uint32_t t = temporary();
      c.dst.index = static_cast<int>(t);
      code.push_back(c);
      code.push_back(mov(memory, vreg(t)));
    } else {
      code.push_back(c);
    }
  }
  p.code = std::move(code);
}

}  // namespace

isa::Program allocateRegisters(Program p) {
  numberValues(p);
  removeDeadCode(p);  // the copies numbering left, which would hide single uses from forwarding
  formMads(p);
  forwardOutputs(p);
  removeDeadCode(p);
  std::vector<bool> noSpill(p.vregCount, false);
  int slots = 0;
  auto spillTo = [&](uint32_t v) {
    if (slots == isa::kMaxPrivateDwords)
      throw Error("shader spills more than " + std::to_string(isa::kMaxPrivateDwords) +
                  " registers");
    spill(p, v, slots++, noSpill);
  };
  Colouring c = colour(p);
  if (c.failedAt != SIZE_MAX) {
    for (uint32_t v : relievePressure(p, c.liveOut, noSpill)) spillTo(v);
    c = colour(p);
  }
  // Greedy colouring can still fall short where pressure is close to the limit: one more value
  // at a time.
  while (c.failedAt != SIZE_MAX) {
    spillTo(spillCandidate(p, c, noSpill));
    c = colour(p);
  }
  // Registers read but never written (undefined values) get r0.
  auto physical = [&](Operand& o) {
    if (o.file != File::Reg) return;
    o.index = c.color[static_cast<size_t>(o.index)];
    if (o.index < 0) o.index = 0, c.highest = std::max(c.highest, 0);
  };

  isa::Program prog;
  prog.stage = p.stage;
  prog.numInputs = p.numInputs;
  prog.numOutputs = p.numOutputs;
  prog.numVaryings = p.numVaryings;
  prog.pointSize = p.pointSize;
  prog.flatVaryings = p.flatVaryings;
  prog.privateDwords = static_cast<uint16_t>(slots);
  for (Instr in : p.code) {
    physical(in.dst);
    for (Operand& s : in.src) physical(s);
    if (in.op == Opcode::Mov && !in.sat && in.dst == in.src[0]) continue;  // coalesced copy
    prog.code.push_back(in);
  }
  prog.regCount = static_cast<uint8_t>(c.highest + 1);
  isa::finalize(prog);
  return prog;
}

}  // namespace tessera::compiler::ir
