// Shader processor (sp/): a program's straight-line runs of arithmetic compiled to host code.
// The interpreter (executor.cpp, exec_alu.cpp) pays, for every instruction of every warp, a
// dispatch, an operand fetch through the register-file switch and a masked write-back; a run of
// instructions with no control flow or private memory between them is instead compiled once per
// program into x86-64 AVX2 code that does exactly the same IEEE operations on the same rows, 8
// lanes at a time (generated with Xbyak). A texture instruction inside a run is a call from the
// generated code to the interpreter's own texture step (HostRows::texture), so that a shader
// whose samples lie between short runs of arithmetic (a blur's taps) is one call, not a run, a
// dispatch and a run again per sample. The interpreter stays the reference: every compiled
// operation is the interpreter's, bit for bit (tests/sp/host_code_test.cpp runs random programs
// both ways), and the issue counts of a compiled run are those of its instructions. docs/isa.md
// lists which opcodes compile.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "isa/program.h"

namespace Xbyak {
class CodeGenerator;
}

namespace tessera::gpu::sp {

// Where one warp's rows are, as compiled code reads and writes them (the executor fills one per
// warp). Each row is 32 lanes of 32 bits.
struct HostRows {
  float* regs;                   // rN: regs + 32 N
  const float* inputs;           // iA.c: inputs + 32 (4A + c)
  float* outputs;                // oK.c: outputs + 32 (4K + c)
  const float* fragCoord;        // fc.x..w
  const float* frontFacing;      // ff
  const float* pointCoord;       // gl_PointCoord s, t
  const float* constants;        // c0..: read as broadcasts, within the program's constSpan
  const uint32_t* select;        // ~0 for lanes that execute (read by the masked entry only)
  const float* bary;             // FS: b1 then b2, a row each (ipl)
  const float* const* varyings;  // FS: per quad, its triangle's vertices' varyings (ipl); every
                                 // quad's is read, so a quad without lanes has a valid block
  void* executor;                // the warp's interpreter, for `texture`
  // Runs texture instruction `pc` of the program (any of its opcodes) for the warp; nonzero when
  // it faulted, which the interpreter keeps: the run then returns at once with that value.
  uint32_t (*texture)(void* executor, uint32_t pc);
};

// A compiled run: 0, or nonzero when a texture instruction in it faulted.
using HostFn = uint32_t (*)(const HostRows*);

// Calls compiled code. Clang's -fsanitize=function would look for a type signature in front of
// the callee, which generated code does not carry.
#if defined(__clang__)
[[clang::no_sanitize("function")]]
#endif
inline uint32_t
callHost(HostFn f, const HostRows* rows) {
  return f(rows);
}

// The issue counts of instructions, as the interpreter counts them (SpStats).
struct HostCounts {
  uint32_t instructions = 0, fpu = 0, sfu = 0, tex = 0;
};
// Those of instructions [begin, end) of `p`, all of which compile (or are texture instructions).
HostCounts hostCounts(const isa::Program& p, uint32_t begin, uint32_t end);

// One compiled run: instructions [begin, end) of the program, with their issue counts.
struct HostBlock {
  uint32_t end = 0;
  HostCounts counts;
  HostFn full = nullptr;    // every lane executes: results are written whole
  HostFn masked = nullptr;  // results are written to the lanes of HostRows::select only
};

class HostProgram final {
 public:
  ~HostProgram();
  // The program's compiled runs, or null when the processor lacks AVX2, no instruction
  // compiles, or the code cannot be placed in executable memory.
  static std::unique_ptr<HostProgram> compile(const isa::Program&);

  // The program it was compiled from: other programs ignore it.
  const isa::Program* source() const { return source_; }
  // The run that starts at instruction `pc`, or null.
  const HostBlock* at(uint32_t pc) const {
    return pc < start_.size() && start_[pc] >= 0 ? &blocks_[static_cast<size_t>(start_[pc])]
                                                 : nullptr;
  }
  size_t blockCount() const { return blocks_.size(); }
  // Some run interpolates (reads HostRows::bary and varyings).
  bool interpolates() const { return interpolates_; }

 private:
  HostProgram() = default;
  const isa::Program* source_ = nullptr;
  std::unique_ptr<Xbyak::CodeGenerator> code_;
  std::vector<HostBlock> blocks_;
  std::vector<int32_t> start_;  // per instruction: its block, or -1
  bool interpolates_ = false;
};

// Whether `in` compiles to host code: an ALU, FPU or SFU opcode of the compiled set, written to
// a register or an output, reading registers, inputs, outputs, system values, immediates or
// statically addressed constants, with modifiers only where its type defines them.
bool compilesToHost(const isa::Instr& in);

// Whether warps run compiled code where a program has it (and the AVX2 path is active, see
// common/simd.h). On unless TESSERA_SHADER_JIT=off at start-up (on or off; anything else is
// reported on stderr and ignored); the results are the same.
bool hostCodeEnabled();
// What TESSERA_SHADER_JIT=`asked` sets: on when empty or "on", off for "off"; otherwise on, with
// `problem` saying why.
bool hostCodeFor(std::string_view asked, std::string& problem);
void setHostCode(bool enabled);

}  // namespace tessera::gpu::sp
