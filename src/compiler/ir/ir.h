// Tessera IR: the shader as a flat, structured list of ISA instructions whose general registers
// are virtual (unbounded, one 32-bit value per lane each). Lowering from SPIR-V builds it;
// register allocation maps it onto r0..r63 and yields an isa::Program.
#pragma once
#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace tessera::compiler::ir {

using isa::File;
using isa::Opcode;
using isa::Operand;

struct Program {
  isa::Stage stage = isa::Stage::Vertex;
  std::vector<isa::Instr> code;  // File::Reg operands are virtual register numbers
  uint32_t vregCount = 0;
  // Virtual registers that start a group of 4 that must land in 4 consecutive physical
  // registers (texture results).
  std::vector<uint32_t> quadGroups;
  uint8_t numInputs = 0, numOutputs = 0, numVaryings = 0;
  uint8_t pointSize = 0;      // as isa::Program::pointSize
  uint16_t flatVaryings = 0;  // as isa::Program::flatVaryings
};

inline Operand vreg(uint32_t v) {
  return Operand{File::Reg, false, false, false, static_cast<int32_t>(v), 0};
}
inline Operand immBits(uint32_t bits) {
  return Operand{File::Imm, false, false, false, 0, bits};
}
Operand immFloat(float f);
inline Operand immInt(int32_t i) {
  return immBits(static_cast<uint32_t>(i));
}
inline Operand constant(int32_t index) {
  return Operand{File::Const, false, false, false, index, 0};
}
// |o| and -o of a float operand, as source modifiers (folded into immediates).
inline Operand absOf(Operand o) {
  if (o.file == File::Imm) return immBits(o.imm & 0x7fffffffu);
  o.abs = true;
  o.neg = false;
  return o;
}
inline Operand neg(Operand o) {
  if (o.file == File::Imm) return immBits(o.imm ^ 0x80000000u);
  o.neg = !o.neg;
  return o;
}
inline bool isVreg(const Operand& o) {
  return o.file == File::Reg;
}

// Appends instructions, handing out fresh virtual registers.
class Builder final {
 public:
  explicit Builder(Program& p) : p_(p) {}

  uint32_t newVreg() { return p_.vregCount++; }
  uint32_t newQuadGroup();  // 4 consecutive virtual registers; returns the first

  // dst = op(a, b, c) into a fresh register; returns it.
  Operand op(Opcode op, Operand a, Operand b = {}, Operand c = {}, bool sat = false);
  // dst = op(a, b, c) into the given destination (register or output).
  void opTo(Operand dst, Opcode op, Operand a, Operand b = {}, Operand c = {}, bool sat = false);
  void mov(Operand dst, Operand src) { opTo(dst, Opcode::Mov, src); }
  void flow(Opcode op);             // else, endif, loop, endloop, break, continue, kill, ret
  void cond(Opcode op, Operand c);  // if, breakif, continueif, killif
  void mova(Operand index);         // a0.x = index (int32)
  // d..d+3 = sample; `arg` is the bias or LOD for samb/saml. Returns the first register.
  uint32_t sample(Opcode op, uint8_t sampler, Operand s, Operand t, Operand arg = {},
                  std::array<int8_t, 3> texelOffset = {});
  // Cube sample: the direction is copied into a register tuple; `arg` is the bias or LOD.
  uint32_t sampleCube(Opcode op, uint8_t sampler, Operand x, Operand y, Operand z,
                      Operand arg = {});
  // Vector sample (samv, samvb, samvl, txfv): the coordinates (s, t, r, ref) are copied into a
  // register tuple; `arg` is the bias, LOD or (txfv) level. Returns the first result register.
  uint32_t sampleVec(Opcode op, uint8_t sampler, const std::array<Operand, 4>& coord,
                     Operand arg = {}, std::array<int8_t, 3> texelOffset = {});
  Operand ipl(int varying, int component);

  size_t size() const { return p_.code.size(); }
  // dst = src inserted before instruction `at` (code emitted so far; later positions shift).
  void insertMov(size_t at, Operand dst, Operand src);
  Program& program() { return p_; }

 private:
  Program& p_;
};

}  // namespace tessera::compiler::ir
