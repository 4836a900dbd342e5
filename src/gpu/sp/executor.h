// Shader processor (sp/) internals: the interpreter of one warp. Registers are
// structure-of-arrays (register r = 32 contiguous lanes); every instruction runs over all 32
// lanes and its result is blended into the destination under the exec mask, so the lane loops
// stay branch-free and vectorize. Divergence uses a reconvergence stack of structured entries.
#pragma once
#include <array>
#include <cstdint>
#include <exception>
#include <string>

#include "gpu/sp/shader_core.h"

namespace tessera::gpu::sp {

// A program the executor cannot run (an operand out of range, a missing binding): a BadState
// fault of the shader's context.
[[noreturn]] void badState(const std::string& what);

// Where a warp's shader-visible state lives; the executor reads and writes it in place.
struct WarpIo {
  const float* inputs = nullptr;           // VS: in[attr][comp][lane]
  float* outputs = nullptr;                // VS: out[k][comp][lane]; FS: color[comp][lane]
  const float* fragCoord = nullptr;        // FS: fragCoord[comp][lane]
  const float* pointCoord = nullptr;       // FS: pointCoord[comp][lane]
  const float* bary = nullptr;             // FS: bary[2][lane]
  const float* const* varyings = nullptr;  // FS: per quad
  uint32_t* coverage = nullptr;            // FS: cleared by kill
  uint32_t frontFacing = 0;
};

class WarpExecutor final {
 public:
  void run(const isa::Program&, const WarpIo&, uint32_t laneMask, const ShaderResources&, SpStats&);

 private:
  enum class Kind : uint8_t { If, Else, Loop };
  struct Entry {
    Kind kind;
    uint32_t jump;      // where to continue when the exec mask becomes empty
    uint32_t mask;      // lanes active when the construct was entered
    uint32_t other;     // If: lanes waiting for the else-part; Loop: lanes that continued
    uint32_t broken;    // Loop: lanes that left with break
    int32_t outerLoop;  // Loop: index of the enclosing loop entry (-1 none)
  };

  const float* fetch(const isa::Operand&, isa::Type, float* tmp);
  // The bodies of fetch, blend and store, inlined into arithmeticLanes (and its AVX2 clone).
  [[gnu::always_inline]] inline const float* fetchLanes(const isa::Operand&, isa::Type, float*);
  [[gnu::always_inline]] inline void blendLanes(float* dst, const float* result);
  [[gnu::always_inline]] inline void storeLanes(const isa::Instr&, float* result);
  float* destination(const isa::Operand&);
  GpuAddress privateLine(int dword) const;  // checked against the program's private size
  void blend(float* dst, const float* result);
  // Where an instruction computes its 32 results: straight into its destination when every lane
  // executes, nothing clamps and the destination is a register or an output (store() then has
  // nothing left to do), else a scratch row that store() writes under the exec mask.
  float* resultRow(const isa::Instr&);
  void store(const isa::Instr&, float* result);
  uint32_t laneTrue(const float* cond) const;  // exec lanes whose 32-bit value is nonzero

  void arithmetic(const isa::Instr&);  // exec_alu.cpp: ALU, FPU and SFU opcodes
  [[gnu::always_inline]] inline void arithmeticLanes(const isa::Instr&);
  void derivative(const isa::Instr&);
  void interpolate(const isa::Instr&);
  void sample(const isa::Instr&);
  void sampleVec(const isa::Instr&);  // samv, samvl, samvb
  const tex::TextureDescriptor& boundTexture(const isa::Instr&) const;
  void fetchTexels(const isa::Instr&);  // txf, txfv
  void querySize(const isa::Instr&);    // txs
  void texture(const isa::Instr&);      // any texture opcode: one of the four above
  // HostRows::texture: instruction `pc` of the running program, a texture opcode inside a compiled
  // run. A fault is kept (fault_, faultPc_) and returned as nonzero rather than thrown, since it
  // cannot unwind through generated code; run() throws it when the run returns.
  static uint32_t hostTexture(void* executor, uint32_t pc) noexcept;
  // Control flow: returns false when the warp has finished.
  bool control(const isa::Instr&, uint32_t& pc);
  bool maskEmptied(uint32_t& pc);
  uint32_t gone() const;  // lanes that must stay off when a construct restores its mask
  void updateSelect();

  const isa::Program* prog_ = nullptr;
  WarpIo io_;
  const ShaderResources* res_ = nullptr;
  SpStats* stats_ = nullptr;
  uint32_t exec_ = 0;     // lanes executing the current instruction
  uint16_t flat_ = 0;     // the program's flat varyings
  uint32_t retired_ = 0;  // lanes that executed ret or kill
  uint32_t selFor_ = 0;   // exec mask sel_ was built for
  int32_t loop_ = -1;     // innermost loop entry
  int depth_ = 0;
  std::exception_ptr fault_;  // of a texture instruction in a compiled run (hostTexture)
  uint32_t faultPc_ = 0;
  std::array<Entry, isa::kMaxCfDepth> stack_{};

  alignas(32) float regs_[isa::kMaxRegs][kLanes];
  alignas(32) int32_t a0_[kLanes];
  alignas(32) float ff_[kLanes];
  alignas(32) uint32_t sel_[kLanes];  // ~0 for exec lanes, 0 otherwise
  alignas(32) float tmp_[3][kLanes];  // sources that needed a broadcast or modifiers
  alignas(32) float out_[4][kLanes];  // results before the masked write
};

}  // namespace tessera::gpu::sp
