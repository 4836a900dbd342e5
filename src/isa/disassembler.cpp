// isa::disassemble: prints a Program in the syntax assemble() reads, so text round-trips exactly
// (immediates are printed so that they parse back to the same 32 bits).
#include <bit>
#include <cmath>
#include <cstdio>

#include "isa/assembler.h"

namespace tessera::isa {
namespace {

constexpr char kComp[4] = {'x', 'y', 'z', 'w'};

std::string vec(char prefix, int index) {
  std::string s(1, prefix);
  s += std::to_string(index / 4);
  s += '.';
  s += kComp[index % 4];
  return s;
}

std::string immediate(uint32_t bits, Type type) {
  char buf[48];
  switch (type) {
    case Type::F: {
      float f = std::bit_cast<float>(bits);
      if (std::isfinite(f))
        std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
      else
        std::snprintf(buf, sizeof buf, "0x%08x", bits);
      break;
    }
    case Type::I:
      std::snprintf(buf, sizeof buf, "%d", static_cast<int32_t>(bits));
      break;
    case Type::U:
      std::snprintf(buf, sizeof buf, "%u", bits);
      break;
    case Type::B:
      std::snprintf(buf, sizeof buf, "0x%08x", bits);
      break;
  }
  return buf;
}

}  // namespace

std::string formatOperand(const Operand& o, Type type) {
  std::string body;
  switch (o.file) {
    case File::None:
      return "";
    case File::Reg:
      body = 'r';
      body += std::to_string(o.index);
      break;
    case File::Const:
      if (!o.rel) {
        body = 'c';
        body += std::to_string(o.index);
      } else {
        body = "c[a0.x";
        if (o.index != 0) body += o.index > 0 ? " + " : " - ";
        if (o.index != 0) body += std::to_string(o.index > 0 ? o.index : -o.index);
        body += ']';
      }
      break;
    case File::Imm:
      return immediate(o.imm, type);
    case File::Input:
      body = vec('i', o.index);
      break;
    case File::Output:
      body = vec('o', o.index);
      break;
    case File::Sys:
      body = o.index < 4    ? std::string("fc.") + kComp[o.index]
             : o.index == 4 ? std::string("ff")
                            : std::string("pc.") + kComp[o.index - 5];
      break;
    case File::Varying:
      body = vec('v', o.index);
      break;
    case File::Addr:
      body = "a0.x";
      break;
    case File::Private:
      body = 'p';  // appended, not "p" + ...: g++ 12 -O3 warns (-Wrestrict) on that
      body += std::to_string(o.index);
      break;
    default:
      body = "?";
      break;
  }
  // Built front to back (not with operator+ on temporaries, which trips g++ 12's -Wrestrict).
  std::string text;
  if (o.neg) text += '-';
  if (o.abs) text += '|';
  text += body;
  if (o.abs) text += '|';
  return text;
}

std::string disassemble(const Program& p) {
  std::string out;
  out += p.stage == Stage::Vertex ? ".stage vertex\n" : ".stage fragment\n";
  out += ".regs " + std::to_string(p.regCount) + "\n";
  out += ".inputs " + std::to_string(p.numInputs) + "\n";
  out += ".outputs " + std::to_string(p.numOutputs) + "\n";
  out += ".varyings " + std::to_string(p.numVaryings) + "\n";
  if (p.flatVaryings) {
    std::string list;
    for (int i = 0; i < 16; ++i)
      if (p.flatVaryings >> i & 1) list += (list.empty() ? "v" : ", v") + std::to_string(i);
    out += ".flat " + list + "\n";
  }
  if (p.privateDwords) out += ".private " + std::to_string(p.privateDwords) + "\n";
  if (p.pointSize) {
    const int o = p.pointSize - 1;
    out += ".pointsize o" + std::to_string(o / 4) + "." + kComp[o % 4] + "\n";
  }
  int depth = 0;
  for (const Instr& in : p.code) {
    const OpInfo& info = opInfo(in.op);
    if (in.op == Opcode::Else || in.op == Opcode::Endif || in.op == Opcode::Endloop) --depth;
    std::string line(2 * static_cast<size_t>(depth > 0 ? depth : 0), ' ');
    line += info.name;
    if (in.sat) line += ".sat";
    std::string ops;
    auto add = [&](const std::string& s) { ops += (ops.empty() ? " " : ", ") + s; };
    if (hasDestination(info.shape)) add(formatOperand(in.dst, info.type));
    for (int s = 0; s < sourceCount(info.shape); ++s) add(formatOperand(in.src[s], info.type));
    if (usesSampler(info.shape)) add(std::string(1, 's') += std::to_string(in.sampler));
    if (in.texelOffset != std::array<int8_t, 3>{}) {
      add("offset(" + std::to_string(in.texelOffset[0]) + ", " + std::to_string(in.texelOffset[1]) +
          (in.texelOffset[2] ? ", " + std::to_string(in.texelOffset[2]) : std::string()) + ")");
    }
    out += line + ops + "\n";
    if (in.op == Opcode::If || in.op == Opcode::Else || in.op == Opcode::Loop) ++depth;
  }
  return out;
}

}  // namespace tessera::isa
