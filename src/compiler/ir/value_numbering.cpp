#include "compiler/ir/value_numbering.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace tessera::compiler::ir {
namespace {

constexpr uint32_t kOne = 0x3f800000u;  // 1.0f

// A source as a value: the operand, and for a register the version (number of writes so far)
// it was read at.
struct Value {
  Operand o;
  uint32_t version = 0;
  auto tie() const { return std::tie(o.file, o.index, o.imm, o.neg, o.abs, version); }
  bool operator<(const Value& v) const { return tie() < v.tie(); }
};

struct Key {
  Opcode op;
  bool sat;
  std::array<Value, 3> src;
  bool operator<(const Key& k) const {
    return std::tie(op, sat, src[0], src[1], src[2]) <
           std::tie(k.op, k.sat, k.src[0], k.src[1], k.src[2]);
  }
};

bool commutative(Opcode op) {
  switch (op) {
    case Opcode::Add:
    case Opcode::Mul:
    case Opcode::Mad:  // its first two sources
    case Opcode::Feq:
    case Opcode::Fne:
    case Opcode::Ieq:
    case Opcode::Ine:
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Iadd:
    case Opcode::Imul:
    case Opcode::Imin:
    case Opcode::Imax:
    case Opcode::Umin:
    case Opcode::Umax:
      return true;
    default:
      return false;
  }
}

// Whether the instruction computes a value from its sources alone, to be numbered.
bool numbered(const isa::Instr& in) {
  const isa::OpInfo& info = isa::opInfo(in.op);
  if (in.op == Opcode::Nop || in.op == Opcode::Mova || info.unit == isa::Unit::Tex ||
      info.unit == isa::Unit::Cf)
    return false;
  if (in.dst.file != File::Reg && in.dst.file != File::Output) return false;
  for (int s = 0; s < isa::sourceCount(info.shape); ++s) {
    const Operand& o = in.src[s];
    if (o.rel || o.file == File::Output || o.file == File::Private || o.file == File::Addr)
      return false;
  }
  return true;
}

// Whether a source of `in` may read another operand in place of a register.
bool readsThrough(const isa::Instr& in) {
  const isa::OpInfo& info = isa::opInfo(in.op);
  return (info.unit == isa::Unit::Alu || info.unit == isa::Unit::Fpu ||
          info.unit == isa::Unit::Sfu) &&
         in.op != Opcode::Mova && in.op != Opcode::Ipl && (info.flags & isa::kDerivative) == 0;
}

class Numbering {
 public:
  explicit Numbering(Program& p)
      : p_(p),
        version_(p.vregCount, 0),
        outputOnly_(p.vregCount, false),
        local_(p.vregCount, false) {
    // Definitions and uses of every register (a tuple counts for each of its registers), where
    // each is written and, for a register read once, where it is read.
    std::vector<uint32_t> defs(p.vregCount, 0), uses(p.vregCount, 0);
    std::vector<size_t> defAt(p.vregCount, SIZE_MAX), user(p.vregCount, SIZE_MAX);
    std::vector<size_t> stretchAt(p.code.size());  // stretches end at control flow
    auto forEachSource = [&](const isa::Instr& in, auto&& f) {
      const isa::Shape shape = isa::opInfo(in.op).shape;
      for (int s = 0; s < isa::sourceCount(shape); ++s)
        if (in.src[s].file == File::Reg)
          for (int d = 0; d < isa::sourceWidth(shape, s); ++d) f(size_t(in.src[s].index + d));
    };
    for (size_t k = 0, stretch = 0; k < p.code.size(); ++k) {
      const isa::Instr& in = p.code[k];
      stretchAt[k] = stretch;
      if (isa::opInfo(in.op).unit == isa::Unit::Cf) ++stretch;
      if (in.dst.file == File::Reg)
        for (int d = 0; d < isa::destinationWidth(in.op); ++d) {
          ++defs[size_t(in.dst.index + d)];
          defAt[size_t(in.dst.index + d)] = k;
        }
      forEachSource(in, [&](size_t v) {
        ++uses[v];
        user[v] = k;
      });
    }
    // Registers written once and read only after that, in the same stretch.
    for (uint32_t v = 0; v < p.vregCount; ++v) local_[v] = defs[v] == 1;
    for (size_t k = 0; k < p.code.size(); ++k)
      forEachSource(p.code[k], [&](size_t v) {
        if (defAt[v] == SIZE_MAX || defAt[v] >= k || stretchAt[defAt[v]] != stretchAt[k])
          local_[v] = false;
      });
    // Registers defined once and read once, by a plain copy into an output or into another such
    // register: output forwarding computes them into the output, so a copy in their place would
    // be an instruction more.
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t v = 0; v < p.vregCount; ++v) {
        if (outputOnly_[v] || defs[v] != 1 || uses[v] != 1) continue;
        const isa::Instr& copy = p.code[user[v]];
        const Operand& to = copy.dst;
        if (copy.op != Opcode::Mov || copy.sat || copy.src[0].neg || copy.src[0].abs) continue;
        if (to.file == File::Output || (to.file == File::Reg && outputOnly_[size_t(to.index)])) {
          outputOnly_[v] = true;
          changed = true;
        }
      }
    }
  }

  void run() {
    for (isa::Instr& in : p_.code) {
      if (isa::opInfo(in.op).unit == isa::Unit::Cf) {
        // What follows runs under other lanes.
        copies_.clear();
        values_.clear();
        continue;
      }
      visit(in);
    }
  }

 private:
  Value valueOf(const Operand& o) const {
    return {o, o.file == File::Reg ? version_[size_t(o.index)] : 0};
  }
  bool current(const Value& v) const {
    return v.o.file != File::Reg || version_[size_t(v.o.index)] == v.version;
  }

  // Replaces source s by what the register it names is a copy of, where that is allowed.
  void readThrough(isa::Instr& in, int s, bool floatModifiers) {
    Operand& o = in.src[s];
    if (o.file != File::Reg) return;
    auto it = copies_.find(uint32_t(o.index));
    if (it == copies_.end()) return;
    const auto& [ownVersion, of] = it->second;
    if (ownVersion != version_[size_t(o.index)] || !current(of)) return;
    Operand r = of.o;
    const bool modified = r.neg || r.abs || o.neg || o.abs;
    if (modified && !floatModifiers) return;
    // o's modifiers apply to the copy's value: |.| first, then the sign.
    if (o.abs) {
      r = absOf(r);
      r.neg = false;
    }
    if (o.neg) r = neg(r);  // an immediate takes both into its bits
    o = r;
  }

  void visit(isa::Instr& in) {
    const isa::OpInfo& info = isa::opInfo(in.op);
    const int n = isa::sourceCount(info.shape);
    if (readsThrough(in))
      for (int s = 0; s < n; ++s)
        if (isa::sourceWidth(info.shape, s) == 1) readThrough(in, s, info.type == isa::Type::F);

    // x * 1.0 is x.
    if (in.op == Opcode::Mul && !in.sat) {
      for (int s = 0; s < 2; ++s)
        if (in.src[s].file == File::Imm && in.src[s].imm == kOne) {
          in.op = Opcode::Mov;
          in.src = {in.src[1 - s], Operand{}, Operand{}};
          break;
        }
    }

    std::optional<Value> holder;
    std::optional<Key> key;
    if (numbered(in) && !(in.op == Opcode::Mov && !in.sat)) {
      Key k{in.op, in.sat, {}};
      for (int s = 0; s < n; ++s) k.src[s] = valueOf(in.src[s]);
      if (commutative(in.op) && k.src[1] < k.src[0]) std::swap(k.src[0], k.src[1]);
      auto it = values_.find(k);
      const bool forwarded = in.dst.file == File::Reg && outputOnly_[size_t(in.dst.index)];
      if (it != values_.end() && current(it->second) && !forwarded) {
        holder = it->second;
      } else {
        key = k;
      }
    }
    if (holder) {
      in.op = Opcode::Mov;
      in.sat = false;
      in.src = {holder->o, Operand{}, Operand{}};
    }

    // The write.
    if (in.dst.file == File::Reg)
      for (int d = 0; d < isa::destinationWidth(in.op); ++d) ++version_[size_t(in.dst.index + d)];
    if (in.dst.file != File::Reg) return;
    const auto dst = uint32_t(in.dst.index);
    if (in.op == Opcode::Mov && !in.sat) {
      const Operand& src = in.src[0];
      // A register copy is read through only where it is read in its own stretch alone: one
      // read later would keep both registers live, and the coalescer could no longer merge them.
      const bool readable = src.file == File::Reg
                                ? local_[dst] && uint32_t(src.index) != dst
                                : src.file == File::Const || src.file == File::Imm ||
                                      src.file == File::Input || src.file == File::Sys;
      if (readable && !src.rel) copies_[dst] = {version_[dst], valueOf(src)};
      return;
    }
    if (key) values_[*key] = valueOf(in.dst);
  }

  Program& p_;
  std::vector<uint32_t> version_;
  std::vector<bool> outputOnly_;
  std::vector<bool> local_;
  // Register -> (its version when it became the copy, the value it copies).
  std::unordered_map<uint32_t, std::pair<uint32_t, Value>> copies_;
  std::map<Key, Value> values_;  // computed values and the register holding each
};

}  // namespace

void numberValues(Program& p) {
  Numbering(p).run();
}

}  // namespace tessera::compiler::ir
