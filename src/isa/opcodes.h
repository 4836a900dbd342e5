// The Tessera shader ISA opcode table: the single source of truth from which the encoder, the
// decoder/validator, the assembler, the disassembler and the shader core's dispatch are derived.
// docs/isa.md documents every row (a test checks that every mnemonic appears there).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tessera::isa {

// Which execution unit issues the instruction (the timing model charges it there).
enum class Unit : uint8_t { Alu, Fpu, Sfu, Tex, Cf };

// Operand shape: which operands the instruction takes, in assembly order.
enum class Shape : uint8_t {
  None,           // no operands                           (else, endif, loop, ret, end, ...)
  Cond,           // src0 (a per-lane boolean)             (if, breakif, continueif, killif)
  Unary,          // dst, src0
  Binary,         // dst, src0, src1
  Ternary,        // dst, src0, src1, src2
  Addr,           // a0.x, src0                            (mova)
  Interp,         // dst, vN.c                             (ipl)
  Sample,         // dst(r..r+3), s, t, sN                 (sam)
  SampleArg,      // dst(r..r+3), s, t, bias-or-lod, sN    (samb, saml)
  SampleCube,     // dst(r..r+3), rD (direction rD..rD+2), sN              (samc)
  SampleCubeArg,  // dst(r..r+3), rD (direction rD..rD+2), bias-or-lod, sN (samcb, samcl)
  Query,          // dst(r..r+3), lod, sN                  (txs)
  SampleVec,      // dst(r..r+3), rC (coordinates rC..rC+3: s, t, r, ref), sN  (samv)
  SampleVecArg,   // dst(r..r+3), rC (rC..rC+3), bias-or-lod, sN   (samvb, samvl, txfv)
};

// How the sources are read (and how neg/abs apply to them).
enum class Type : uint8_t {
  F,  // IEEE fp32: neg flips the sign, abs clears it
  I,  // int32: neg is two's-complement negation, abs is integer absolute value
  U,  // uint32: neg/abs not allowed
  B,  // raw 32-bit pattern: neg/abs not allowed
};

// Latency class for the timing model: cycles until a dependent instruction may issue.
enum class Latency : uint8_t { Short = 1, Medium = 4, Long = 12, Texture = 40 };

enum OpFlag : uint8_t {
  kSatOk = 1 << 0,     // the .sat destination modifier is allowed (fp32 result)
  kFragOnly = 1 << 1,  // only in fragment shaders
  kDerivative = 1 << 2,
  kKill = 1 << 3,
  kTexture = 1 << 4,
  kTexelOffsetOk = 1 << 5,  // may carry a constant texel offset (GLSL ES 3.00 textureOffset)
};

// clang-format off
enum class Opcode : uint8_t {
  Nop, Mov, Add, Sub, Mul, Mad, Min, Max, Floor, Ceil, Fract, Trunc, Rnd, Sign,
  Feq, Fne, Flt, Fle, Fgt, Fge, Ieq, Ine, Ilt, Ile, Igt, Ige, Ult, Ule, Ugt, Uge,
  Sel, And, Or, Xor, Not, Shl, Shr, Ashr, Iadd, Isub, Imul, Imin, Imax, Umin, Umax,
  Idiv, Irem, Udiv, Urem,
  F2i, I2f, U2f, F2u, Rcp, Rsq, Sqrt, Exp2, Log2, Sin, Cos,
  Dsx, Dsy, Ipl, Sam, Saml, Samb, Samc, Samcl, Samcb, Txf, Txs, Samv, Samvl, Samvb, Txfv, Mova,
  If, Else, Endif, Loop, Endloop, Break, Breakif, Continue, Continueif, Kill, Killif, Ret, End,
  Count
};
// clang-format on

struct OpInfo {
  Opcode op;
  std::string_view name;
  Shape shape;
  Unit unit;
  Type type;
  Latency latency;
  uint8_t flags;
};

inline constexpr int kNumOpcodes = static_cast<int>(Opcode::Count);

// clang-format off
inline constexpr std::array<OpInfo, kNumOpcodes> kOpTable = {{
  {Opcode::Nop,        "nop",        Shape::None,      Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Mov,        "mov",        Shape::Unary,     Unit::Alu, Type::F, Latency::Short,   kSatOk},
  {Opcode::Add,        "add",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Sub,        "sub",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Mul,        "mul",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Mad,        "mad",        Shape::Ternary,   Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Min,        "min",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Max,        "max",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Floor,      "floor",      Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Ceil,       "ceil",       Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Fract,      "fract",      Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Trunc,      "trunc",      Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Rnd,        "rnd",        Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Sign,       "sign",       Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk},
  {Opcode::Feq,        "feq",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Fne,        "fne",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Flt,        "flt",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Fle,        "fle",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Fgt,        "fgt",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Fge,        "fge",        Shape::Binary,    Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Ieq,        "ieq",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Ine,        "ine",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Ilt,        "ilt",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Ile,        "ile",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Igt,        "igt",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Ige,        "ige",        Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Ult,        "ult",        Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Ule,        "ule",        Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Ugt,        "ugt",        Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Uge,        "uge",        Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Sel,        "sel",        Shape::Ternary,   Unit::Alu, Type::F, Latency::Short,   kSatOk},
  {Opcode::And,        "and",        Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Or,         "or",         Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Xor,        "xor",        Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Not,        "not",        Shape::Unary,     Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Shl,        "shl",        Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Shr,        "shr",        Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Ashr,       "ashr",       Shape::Binary,    Unit::Alu, Type::B, Latency::Short,   0},
  {Opcode::Iadd,       "iadd",       Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Isub,       "isub",       Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Imul,       "imul",       Shape::Binary,    Unit::Alu, Type::I, Latency::Medium,  0},
  {Opcode::Imin,       "imin",       Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Imax,       "imax",       Shape::Binary,    Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::Umin,       "umin",       Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Umax,       "umax",       Shape::Binary,    Unit::Alu, Type::U, Latency::Short,   0},
  {Opcode::Idiv,       "idiv",       Shape::Binary,    Unit::Sfu, Type::I, Latency::Long,    0},
  {Opcode::Irem,       "irem",       Shape::Binary,    Unit::Sfu, Type::I, Latency::Long,    0},
  {Opcode::Udiv,       "udiv",       Shape::Binary,    Unit::Sfu, Type::U, Latency::Long,    0},
  {Opcode::Urem,       "urem",       Shape::Binary,    Unit::Sfu, Type::U, Latency::Long,    0},
  {Opcode::F2i,        "f2i",        Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::I2f,        "i2f",        Shape::Unary,     Unit::Fpu, Type::I, Latency::Medium,  kSatOk},
  {Opcode::U2f,        "u2f",        Shape::Unary,     Unit::Fpu, Type::U, Latency::Medium,  kSatOk},
  {Opcode::F2u,        "f2u",        Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  0},
  {Opcode::Rcp,        "rcp",        Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Rsq,        "rsq",        Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Sqrt,       "sqrt",       Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Exp2,       "exp2",       Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Log2,       "log2",       Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Sin,        "sin",        Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Cos,        "cos",        Shape::Unary,     Unit::Sfu, Type::F, Latency::Long,    kSatOk},
  {Opcode::Dsx,        "dsx",        Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk | kFragOnly | kDerivative},
  {Opcode::Dsy,        "dsy",        Shape::Unary,     Unit::Fpu, Type::F, Latency::Medium,  kSatOk | kFragOnly | kDerivative},
  {Opcode::Ipl,        "ipl",        Shape::Interp,    Unit::Fpu, Type::F, Latency::Medium,  kSatOk | kFragOnly},
  {Opcode::Sam,        "sam",        Shape::Sample,    Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Saml,       "saml",       Shape::SampleArg, Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Samb,       "samb",       Shape::SampleArg, Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Samc,       "samc",       Shape::SampleCube,    Unit::Tex, Type::F, Latency::Texture, kTexture},
  {Opcode::Samcl,      "samcl",      Shape::SampleCubeArg, Unit::Tex, Type::F, Latency::Texture, kTexture},
  {Opcode::Samcb,      "samcb",      Shape::SampleCubeArg, Unit::Tex, Type::F, Latency::Texture, kTexture},
  {Opcode::Txf,        "txf",        Shape::SampleArg, Unit::Tex, Type::I, Latency::Texture, kTexture},
  {Opcode::Txs,        "txs",        Shape::Query,     Unit::Tex, Type::I, Latency::Short,   kTexture},
  {Opcode::Samv,       "samv",       Shape::SampleVec,     Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Samvl,      "samvl",      Shape::SampleVecArg,  Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Samvb,      "samvb",      Shape::SampleVecArg,  Unit::Tex, Type::F, Latency::Texture, kTexture | kTexelOffsetOk},
  {Opcode::Txfv,       "txfv",       Shape::SampleVecArg,  Unit::Tex, Type::I, Latency::Texture, kTexture},
  {Opcode::Mova,       "mova",       Shape::Addr,      Unit::Alu, Type::I, Latency::Short,   0},
  {Opcode::If,         "if",         Shape::Cond,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Else,       "else",       Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Endif,      "endif",      Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Loop,       "loop",       Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Endloop,    "endloop",    Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Break,      "break",      Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Breakif,    "breakif",    Shape::Cond,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Continue,   "continue",   Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Continueif, "continueif", Shape::Cond,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::Kill,       "kill",       Shape::None,      Unit::Cf,  Type::B, Latency::Short,   kFragOnly | kKill},
  {Opcode::Killif,     "killif",     Shape::Cond,      Unit::Cf,  Type::B, Latency::Short,   kFragOnly | kKill},
  {Opcode::Ret,        "ret",        Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
  {Opcode::End,        "end",        Shape::None,      Unit::Cf,  Type::B, Latency::Short,   0},
}};
// clang-format on

constexpr bool tableIsInOpcodeOrder() {
  for (int i = 0; i < kNumOpcodes; ++i)
    if (static_cast<int>(kOpTable[i].op) != i) return false;
  return true;
}
static_assert(tableIsInOpcodeOrder(), "kOpTable rows must follow enum Opcode order");

constexpr const OpInfo& opInfo(Opcode op) {
  return kOpTable[static_cast<size_t>(op)];
}

constexpr std::optional<Opcode> findOpcode(std::string_view name) {
  for (const OpInfo& info : kOpTable)
    if (info.name == name) return info.op;
  return std::nullopt;
}

// Number of source operands (excluding the sampler) each shape reads.
constexpr int sourceCount(Shape s) {
  switch (s) {
    case Shape::None:
      return 0;
    case Shape::Cond:
      return 1;
    case Shape::Unary:
      return 1;
    case Shape::Binary:
      return 2;
    case Shape::Ternary:
      return 3;
    case Shape::Addr:
      return 1;
    case Shape::Interp:
      return 1;
    case Shape::Sample:
      return 2;
    case Shape::SampleArg:
      return 3;
    case Shape::SampleCube:
      return 1;
    case Shape::SampleCubeArg:
      return 2;
    case Shape::Query:
      return 1;
    case Shape::SampleVec:
      return 1;
    case Shape::SampleVecArg:
      return 2;
  }
  return 0;
}

constexpr bool hasDestination(Shape s) {
  return s != Shape::None && s != Shape::Cond;
}
constexpr bool samplesCube(Shape s) {
  return s == Shape::SampleCube || s == Shape::SampleCubeArg;
}
constexpr bool samplesVec(Shape s) {
  return s == Shape::SampleVec || s == Shape::SampleVecArg;
}
constexpr bool usesSampler(Shape s) {
  return s == Shape::Sample || s == Shape::SampleArg || samplesCube(s) || samplesVec(s) ||
         s == Shape::Query;
}
// Consecutive general registers source `index` reads: the direction of a cube sample is three
// (rD, rD+1, rD+2) and the coordinates of a vector sample four (s, t, r, ref), as texture
// coordinates come in register tuples on real shader cores.
constexpr int sourceWidth(Shape s, int index) {
  if (index != 0) return 1;
  return samplesCube(s) ? 3 : samplesVec(s) ? 4 : 1;
}

}  // namespace tessera::isa
