// Liveness over the instruction-level control-flow graph of a structured program. Successors
// follow each lane's own path (masked SIMT execution only merges lanes, it never lets one lane
// read another's registers in a vertex shader), so per-lane liveness is exact.
#include "isa/position_only.h"

#include <bitset>

namespace tessera::isa {
namespace {

constexpr int kOutBase = kMaxRegs;
constexpr int kAddrBit = kOutBase + kMaxVsOutputs * 4;
constexpr int kPrivateBase = kAddrBit + 1;  // private dwords live like registers, per lane
using Vars = std::bitset<kPrivateBase + kMaxPrivateDwords>;

int bitOf(const Operand& o) {
  switch (o.file) {
    case File::Reg:
      return o.index;
    case File::Output:
      return kOutBase + o.index;
    case File::Addr:
      return kAddrBit;
    case File::Private:
      return kPrivateBase + o.index;
    default:
      return -1;
  }
}

Vars defsOf(const Instr& in) {
  Vars d;
  if (!hasDestination(opInfo(in.op).shape)) return d;
  int b = bitOf(in.dst);
  for (int k = 0; k < destinationWidth(in.op) && b >= 0; ++k) d.set(b + k);
  return d;
}

Vars usesOf(const Instr& in) {
  Vars u;
  const Shape shape = opInfo(in.op).shape;
  for (int s = 0; s < sourceCount(shape); ++s) {
    const Operand& o = in.src[s];
    if (o.rel) u.set(kAddrBit);
    if (int b = bitOf(o); b >= 0) {
      for (int k = 0; k < sourceWidth(shape, s); ++k) u.set(b + k);
    }
  }
  return u;
}

// Successors of instruction i in the per-lane control-flow graph; -1 means "exit".
void successors(const Program& p, int i, int out[2], int& n) {
  const Instr& in = p.code[i];
  const int t = static_cast<int>(in.target);
  n = 0;
  switch (in.op) {
    case Opcode::If:  // into the then-part, or past the else to the else-part / to the endif
      out[n++] = i + 1;
      out[n++] = p.code[t].op == Opcode::Else ? t + 1 : t;
      return;
    case Opcode::Else:
      out[n++] = t;
      return;  // the then-part ends here and goes to endif
    case Opcode::Endloop:
      out[n++] = t + 1;
      out[n++] = i + 1;
      return;
    case Opcode::Break:
      out[n++] = t + 1;
      return;
    case Opcode::Continue:
      out[n++] = t;
      return;
    case Opcode::Breakif:
      out[n++] = t + 1;
      out[n++] = i + 1;
      return;
    case Opcode::Continueif:
      out[n++] = t;
      out[n++] = i + 1;
      return;
    case Opcode::Ret:
    case Opcode::End:
    case Opcode::Kill:
      out[n++] = -1;
      return;
    default:
      out[n++] = i + 1;
      return;
  }
}

bool removable(const Instr& in) {
  const OpInfo& info = opInfo(in.op);
  return info.unit != Unit::Cf && hasDestination(info.shape);
}

// One liveness pass; returns true if it removed anything.
bool removeDead(Program& p) {
  const int n = static_cast<int>(p.code.size());
  Vars exitLive;  // the binning pass needs the position and, for points, the point size
  for (int c = 0; c < 4; ++c) exitLive.set(kOutBase + c);
  if (p.pointSize) exitLive.set(kOutBase + p.pointSize - 1);
  std::vector<Vars> liveIn(n), defs(n), uses(n);
  for (int i = 0; i < n; ++i) {
    defs[i] = defsOf(p.code[i]);
    uses[i] = usesOf(p.code[i]);
  }
  std::vector<Vars> liveOut(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = n - 1; i >= 0; --i) {
      int succ[2], ns = 0;
      successors(p, i, succ, ns);
      Vars out;
      for (int k = 0; k < ns; ++k) out |= succ[k] < 0 ? exitLive : liveIn[succ[k]];
      Vars in = uses[i] | (out & ~defs[i]);
      liveOut[i] = out;
      if (in != liveIn[i]) {
        liveIn[i] = in;
        changed = true;
      }
    }
  }
  std::vector<Instr> kept;
  kept.reserve(n);
  for (int i = 0; i < n; ++i)
    if (!removable(p.code[i]) || (defs[i] & liveOut[i]).any()) kept.push_back(p.code[i]);
  bool removed = kept.size() != p.code.size();
  p.code = std::move(kept);
  return removed;
}

// Drops `if; endif`, `if; else; endif` and `else; endif` left behind by dead-code removal.
bool removeEmptyConstructs(Program& p) {
  auto& c = p.code;
  for (size_t i = 0; i + 1 < c.size(); ++i) {
    if (c[i].op == Opcode::If && c[i + 1].op == Opcode::Endif) {
      c.erase(c.begin() + i, c.begin() + i + 2);
      return true;
    }
    if (c[i].op == Opcode::Else && c[i + 1].op == Opcode::Endif) {
      c.erase(c.begin() + i);
      return true;
    }
  }
  return false;
}

}  // namespace

Program positionOnly(const Program& vs) {
  if (vs.stage != Stage::Vertex) throw DecodeError(-1, "positionOnly needs a vertex shader");
  Program p = vs;
  for (bool again = true; again;) {
    again = removeDead(p);
    finalize(p);
    while (removeEmptyConstructs(p)) again = true;
    finalize(p);
  }
  // Writes to outputs other than o0 are gone (never live), so the output count can shrink.
  int outputs = p.pointSize ? (p.pointSize - 1) / 4 + 1 : 1;
  int regs = 0;
  for (const Instr& in : p.code) {
    for (const Operand& s : in.src)
      if (s.file == File::Output) outputs = std::max(outputs, s.index / 4 + 1);
    if (in.dst.file == File::Reg) regs = std::max(regs, in.dst.index + destinationWidth(in.op));
    for (int s = 0; s < 3; ++s) {
      if (in.src[s].file == File::Reg)
        regs = std::max(regs, in.src[s].index + sourceWidth(opInfo(in.op).shape, s));
    }
  }
  p.numOutputs = static_cast<uint8_t>(outputs);
  p.regCount = static_cast<uint8_t>(regs);
  finalize(p);
  return p;
}

}  // namespace tessera::isa
