// A decoded Tessera shader program: the compact form the shader core walks (decoded once, never
// per warp) plus the header metadata. Produced by isa::assemble, isa::decode and
// isa::positionOnly; isa::finalize validates it and derives jump targets and flags.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "isa/opcodes.h"

namespace tessera::isa {

inline constexpr int kMaxRegs = 64;                     // r0..r63 per thread
inline constexpr int kMaxConstants = 1024;              // scalar constants c0..c1023
inline constexpr int kMaxInputs = 16;                   // vec4 vertex attributes i0..i15
inline constexpr int kMaxVaryings = 16;                 // vec4 varyings v0..v15
inline constexpr int kMaxVsOutputs = 1 + kMaxVaryings;  // o0 = clip position, o1.. = varyings
inline constexpr int kMaxFsOutputs = 1;                 // o0 = colour
inline constexpr int kMaxSamplers = 16;                 // s0..s15
inline constexpr int kMaxPrivateDwords = 1024;          // p0..p1023 per thread (spill memory)
inline constexpr int kMaxCfDepth = 32;                  // nested if/loop constructs
inline constexpr int kMaxInstructions = 1 << 16;
inline constexpr int kMinTexelOffset = -8, kMaxTexelOffset = 7;  // GL_MIN/MAX_PROGRAM_TEXEL_OFFSET
inline constexpr int kMaxImmediates = 1 << 16;

// System values readable by fragment shaders (File::Sys index).
enum class SysValue : uint8_t {
  FragCoordX,
  FragCoordY,
  FragCoordZ,
  FragCoordW,
  FrontFacing,
  PointCoordS,  // gl_PointCoord of a point sprite's fragment (undefined for other primitives)
  PointCoordT
};
inline constexpr int kNumSysValues = 7;

enum class Stage : uint8_t { Vertex, Fragment };

// Register files an operand can name. The numbering is part of the binary encoding.
enum class File : uint8_t {
  None = 0,
  Reg = 1,      // rN          general registers (read/write)
  Const = 2,    // cN, c[a0.x+N]   scalar constants (read)
  Imm = 3,      // literal     immediate (read)
  Input = 4,    // iA.c        vertex attribute A component c (VS read), index A*4+c
  Output = 5,   // oK.c        shader output K component c (write; readable), index K*4+c
  Sys = 6,      // fc.x..fc.w, ff    fragment system values (FS read)
  Varying = 7,  // vN.c        varying N component c (only as the ipl source), index N*4+c
  Addr = 8,     // a0.x        address register (mova destination)
  Private = 9,  // pN          per-thread private memory dword N (mov only: spills and fills)
  Count
};

struct Operand {
  File file = File::None;
  bool neg = false;  // source modifier (meaning per opcode Type)
  bool abs = false;  // source modifier, applied before neg
  bool rel = false;  // Const only: index is an offset added to a0.x per lane
  int32_t index = 0;
  uint32_t imm = 0;  // File::Imm: the 32-bit pattern
  bool operator==(const Operand&) const = default;
};

struct Instr {
  Opcode op = Opcode::Nop;
  bool sat = false;  // clamp the fp32 result to [0, 1] (NaN -> 0)
  uint8_t sampler = 0;
  // sam, samb, saml, samv, samvb, samvl: whole texels added to the level's texel coordinates
  // (u, v, w) before wrapping (OpenGL ES 3.0 §3.8.10), in [kMinTexelOffset, kMaxTexelOffset];
  // w (3D textures) only on the vector samples.
  std::array<int8_t, 3> texelOffset{};
  Operand dst;
  std::array<Operand, 3> src;
  // Derived by finalize() from the structure, not encoded: if -> its else (or endif);
  // else -> endif; loop -> endloop; endloop -> loop; break/continue(if) -> enclosing endloop.
  uint32_t target = 0;
  bool operator==(const Instr&) const = default;
};

enum ProgramFlag : uint8_t {
  kUsesKill = 1 << 0,
  kUsesDerivatives = 1 << 1,
  kUsesTexture = 1 << 2,
  kUsesRelativeConstants = 1 << 3,
  kUsesFragCoord = 1 << 4,   // reads gl_FragCoord (SysValue::FragCoordX..W)
  kUsesPointCoord = 1 << 5,  // reads gl_PointCoord (SysValue::PointCoordS, T)
};
inline constexpr uint8_t kAllProgramFlags = 0x3f;

struct Program {
  Stage stage = Stage::Vertex;
  uint8_t regCount = 0;        // general registers per thread; sets how many warps fit on a core
  uint8_t numInputs = 0;       // VS: vec4 attribute slots read (i0..)
  uint8_t numOutputs = 0;      // VS: o0 = position, o1.. = varyings; FS: o0 = colour
  uint8_t numVaryings = 0;     // FS: vec4 varyings read (v0..)
  uint8_t flags = 0;           // ProgramFlag bits (derived by finalize)
  uint8_t pointSize = 0;       // VS: 1 + the output component (K*4+c) holding gl_PointSize; 0: none
  uint16_t flatVaryings = 0;   // FS: bit i set = vi is flat (ipl gives the provoking vertex's bits)
  uint16_t privateDwords = 0;  // private memory per thread (p0..), lane-interleaved in memory
  uint32_t constSpan = 0;      // derived: 1 + highest statically addressed constant (0 if none)
  // Derived: bit r set when r may be read before a write has defined it in every lane (the
  // executor zeroes these at warp start, so such a read is deterministic); all set until
  // finalize() runs.
  uint64_t zeroRegisters = ~uint64_t{0};
  std::vector<Instr> code;

  bool uses(ProgramFlag f) const { return (flags & f) != 0; }
  bool operator==(const Program&) const = default;
};

// A malformed binary or program; `instruction` is the index at fault (-1: the header).
class DecodeError : public tessera::Error {
 public:
  DecodeError(int instruction, const std::string& what)
      : tessera::Error(instruction < 0
                           ? "shader header: " + what
                           : "shader instruction " + std::to_string(instruction) + ": " + what),
        instruction_(instruction) {}
  int instruction() const { return instruction_; }

 private:
  int instruction_;
};

// Checks every rule of the ISA (operand files and ranges, modifiers, stage restrictions,
// if/else/endif and loop/endloop nesting, final `end`) and fills in the derived fields
// (Instr::target, Program::flags, Program::constSpan, Program::zeroRegisters). Throws
// DecodeError.
void finalize(Program& program);

// Number of general registers an instruction writes starting at dst.index (4 for samples).
constexpr int destinationWidth(Opcode op) {
  return usesSampler(opInfo(op).shape) ? 4 : 1;
}

}  // namespace tessera::isa
