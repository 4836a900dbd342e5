// SPIR-V (one optimized entry point, SSA form, structured control flow) -> Tessera IR. Values
// are scalarized: every SSA id becomes one operand per flattened component. Structured
// selections and loops become if/else/endif and loop/endloop on the divergence stack; phis
// become copies on their incoming edges.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/lower/layout.h"
#include "compiler/lower/types.h"
#include "compiler/spirv/module.h"

namespace tessera::compiler::lower {

using Vals = std::vector<ir::Operand>;

// Throws tessera::Error naming the construct it cannot lower.
ir::Program lowerModule(const spirv::Module& module, const ProgramLayout& layout);

// Peephole on structured code: if/break/endif -> breakif (continue, kill alike); drops empty
// if/else constructs.
void foldConditionalFlow(std::vector<isa::Instr>& code);

class Lowering final {
 public:
  Lowering(const spirv::Module& m, const ProgramLayout& layout);
  ir::Program run();

  // Used by the per-topic lowering files.
  ir::Builder& b() { return b_; }
  const Types& types() const { return types_; }
  const spirv::Module& module() const { return m_; }
  const Vals& value(uint32_t id);
  void define(uint32_t id, Vals v);     // aliases or constants
  void defineNew(uint32_t id, Vals v);  // freshly computed registers (see canonical_)
  int samplerOf(uint32_t id) const;
  ir::Operand dot(const Vals& a, const Vals& c);
  ir::Operand determinant(const Vals& m);  // lower_glsl450.cpp
  Vals inverse(const Vals& m);
  Vals packing(int fn, const Vals& arg);  // lower_pack.cpp: GLSLstd450 Pack*/Unpack*2x16
  [[noreturn]] void unsupported(const spirv::Instruction& in, const std::string& what) const;

 private:
  enum class Home : uint8_t { Regs, Constants, Inputs, Varyings, Sink };
  struct Storage {
    Home home = Home::Regs;
    Vals elems;                    // per flattened component
    std::vector<int32_t> sampler;  // per flattened component: sampler slot or -1
  };
  struct DynamicIndex {
    ir::Operand index;  // int32 per lane
    uint32_t count = 0, flatStride = 0, slotStride = 0;
  };
  struct Pointer {
    uint32_t var = 0, type = 0, flat = 0;
    std::vector<DynamicIndex> dynamic;
  };
  struct Loop {  // a loop, or a switch (header and cont 0): the constructs `break` leaves
    uint32_t header, merge, cont;
    // A switch: per-lane flags of lanes that left it to break or continue the enclosing loop
    // (vregs; 0 until such an exit is lowered).
    uint32_t breakOuter = 0, continueOuter = 0;
  };
  // After a switch: the lanes that left it for the enclosing loop's break or continue go on.
  void leaveSwitch(const Loop& sw);
  // Break (to the merge) or continue (through the continue construct) the innermost loop; from
  // inside a switch, through the switch's exit flags.
  void exitLoop(bool toMerge);

  void setUpVariable(const spirv::Instruction& v);
  void writeOutputs();
  Storage& storage(uint32_t var);
  Vals builtInOutputs(const spirv::Instruction& v, uint32_t type);
  void imageQuery(const spirv::Instruction& in);  // texelFetch, textureSize (lower_image.cpp)
  ir::Operand gradientLod(uint8_t slot, const Vals& dPdx, const Vals& dPdy);
  ir::Operand cubeGradientLod(uint8_t slot, const Vals& p, const Vals& dPdx, const Vals& dPdy);
  ir::Operand volumeGradientLod(uint8_t slot, const Vals& dPdx, const Vals& dPdy);
  const spirv::Instruction& imageTypeOf(uint32_t id) const;  // behind a (sampled) image value
  Pointer pointer(uint32_t id) const;
  void accessChain(const spirv::Instruction& in);
  Vals load(const Pointer& p);
  Vals loadStatic(const Storage& s, uint32_t first, uint32_t n);
  void store(const Pointer& p, const Vals& v);
  void storeStatic(Storage& s, uint32_t first, const Vals& v);

  // Control flow (lower_cfg.cpp).
  void region(uint32_t start, uint32_t stop);
  uint32_t block(uint32_t label, uint32_t stop);
  uint32_t loopConstruct(const spirv::Block& header);
  uint32_t blockCode(const spirv::Block& blk, uint32_t stop);
  uint32_t switchConstruct(const spirv::Block& blk);
  uint32_t edge(uint32_t from, uint32_t to, uint32_t stop);
  void phiCopies(uint32_t from, uint32_t to);
  bool isExit(uint32_t to, uint32_t stop) const;
  ir::Operand condition(uint32_t id);

  void instruction(const spirv::Instruction& in);  // lower_ops.cpp
  void extInst(const spirv::Instruction& in);      // lower_glsl450.cpp
  void image(const spirv::Instruction& in);        // lower_image.cpp
  bool memoryOp(const spirv::Instruction& in);     // lowering.cpp
  Vals constantValue(const spirv::Instruction& in);

  const spirv::Module& m_;
  const ProgramLayout& layout_;
  Types types_;
  ir::Program p_;
  ir::Builder b_;
  std::unordered_map<uint32_t, Vals> values_;
  std::unordered_set<uint32_t> canonical_;  // ids whose registers are fixed once lowered
  std::unordered_map<uint32_t, Storage> storage_;
  std::unordered_map<uint32_t, Pointer> pointers_;
  std::unordered_map<uint32_t, int> samplers_;
  std::vector<Loop> loops_;
  std::vector<std::pair<ir::Operand, ir::Operand>> outputCopies_;  // (output, its register)
};

}  // namespace tessera::compiler::lower
