#include <bit>

#include "compiler/ir/ir.h"

namespace tessera::compiler::ir {

Operand immFloat(float f) {
  return immBits(std::bit_cast<uint32_t>(f));
}

uint32_t Builder::newQuadGroup() {
  const uint32_t first = p_.vregCount;
  p_.vregCount += 4;
  p_.quadGroups.push_back(first);
  return first;
}

Operand Builder::op(Opcode op, Operand a, Operand b, Operand c, bool sat) {
  const Operand d = vreg(newVreg());
  opTo(d, op, a, b, c, sat);
  return d;
}

void Builder::opTo(Operand dst, Opcode op, Operand a, Operand b, Operand c, bool sat) {
  isa::Instr in;
  in.op = op;
  in.sat = sat;
  in.dst = dst;
  in.src = {a, b, c};
  p_.code.push_back(in);
}

void Builder::flow(Opcode op) {
  isa::Instr in;
  in.op = op;
  p_.code.push_back(in);
}

void Builder::cond(Opcode op, Operand c) {
  isa::Instr in;
  in.op = op;
  in.src[0] = c;
  p_.code.push_back(in);
}

void Builder::mova(Operand index) {
  isa::Instr in;
  in.op = Opcode::Mova;
  in.dst = Operand{File::Addr, false, false, false, 0, 0};
  in.src[0] = index;
  p_.code.push_back(in);
}

void Builder::insertMov(size_t at, Operand dst, Operand src) {
  isa::Instr in;
  in.op = Opcode::Mov;
  in.dst = dst;
  in.src = {src, Operand{}, Operand{}};
  p_.code.insert(p_.code.begin() + static_cast<std::ptrdiff_t>(at), in);
}

uint32_t Builder::sample(Opcode op, uint8_t sampler, Operand s, Operand t, Operand arg,
                         std::array<int8_t, 3> texelOffset) {
  const uint32_t first = newQuadGroup();
  isa::Instr in;
  in.op = op;
  in.sampler = sampler;
  in.texelOffset = texelOffset;
  in.dst = vreg(first);
  in.src = {s, t, arg};
  p_.code.push_back(in);
  return first;
}

uint32_t Builder::sampleCube(Opcode op, uint8_t sampler, Operand x, Operand y, Operand z,
                             Operand arg) {
  const uint32_t dir = newQuadGroup();
  mov(vreg(dir), x);
  mov(vreg(dir + 1), y);
  mov(vreg(dir + 2), z);
  const uint32_t first = newQuadGroup();
  isa::Instr in;
  in.op = op;
  in.sampler = sampler;
  in.dst = vreg(first);
  in.src = {vreg(dir), arg, {}};
  p_.code.push_back(in);
  return first;
}

uint32_t Builder::sampleVec(Opcode op, uint8_t sampler, const std::array<Operand, 4>& coord,
                            Operand arg, std::array<int8_t, 3> texelOffset) {
  const uint32_t tuple = newQuadGroup();
  for (uint32_t k = 0; k < 4; ++k) mov(vreg(tuple + k), coord[k]);
  const uint32_t first = newQuadGroup();
  isa::Instr in;
  in.op = op;
  in.sampler = sampler;
  in.texelOffset = texelOffset;
  in.dst = vreg(first);
  in.src = {vreg(tuple), arg, {}};
  p_.code.push_back(in);
  return first;
}

Operand Builder::ipl(int varying, int component) {
  const Operand d = vreg(newVreg());
  isa::Instr in;
  in.op = Opcode::Ipl;
  in.dst = d;
  in.src[0] = Operand{File::Varying, false, false, false, varying * 4 + component, 0};
  p_.code.push_back(in);
  return d;
}

}  // namespace tessera::compiler::ir
