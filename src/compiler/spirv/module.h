// A parsed SPIR-V module, as the lowering reads it: every instruction with its result type and
// id split out, names, decorations, and the entry function cut into basic blocks.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

namespace tessera::compiler::spirv {

struct Instruction {
  SpvOp op = SpvOpNop;
  uint32_t type = 0;               // result type id, 0 if none
  uint32_t result = 0;             // result id, 0 if none
  std::vector<uint32_t> operands;  // the words after type and result
  uint32_t offset = 0;             // word offset in the module, for error messages

  uint32_t operand(size_t i) const { return i < operands.size() ? operands[i] : 0; }
};

struct Block {
  uint32_t label = 0;
  std::vector<const Instruction*> body;  // OpPhi first, then the rest up to the terminator
  const Instruction* merge = nullptr;    // OpSelectionMerge / OpLoopMerge, if any
  const Instruction* terminator = nullptr;
};

struct Decorations {
  std::optional<SpvBuiltIn> builtIn;
  std::optional<uint32_t> location;
  bool flat = false;
  bool block = false;
};

class Module final {
 public:
  // Throws tessera::Error if the words are not a SPIR-V module this compiler can read.
  explicit Module(std::span<const uint32_t> words);

  const Instruction* def(uint32_t id) const;  // nullptr if the id has no defining instruction
  const Instruction& defOrThrow(uint32_t id) const;
  std::string name(uint32_t id) const;  // OpName, or "%<id>"
  std::string memberName(uint32_t structId, uint32_t member) const;
  const Decorations& decorations(uint32_t id) const;
  const Decorations& memberDecorations(uint32_t structId, uint32_t member) const;

  SpvExecutionModel executionModel() const { return model_; }
  uint32_t entryFunction() const { return entry_; }
  const std::vector<uint32_t>& interfaceIds() const { return interface_; }
  // Module-scope OpVariables in declaration order.
  const std::vector<const Instruction*>& globals() const { return globals_; }
  // The entry function's blocks, in module order (first = entry block), and its local variables.
  const std::vector<Block>& blocks() const { return blocks_; }
  const Block& block(uint32_t label) const;
  const std::vector<const Instruction*>& locals() const { return locals_; }
  uint32_t glslStd450() const { return glsl450_; }  // OpExtInstImport id, 0 if none
  uint32_t bound() const { return bound_; }

 private:
  std::vector<Instruction> instructions_;
  std::unordered_map<uint32_t, size_t> defs_;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint64_t, std::string> memberNames_;
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::unordered_map<uint64_t, Decorations> memberDecorations_;
  std::vector<const Instruction*> globals_, locals_;
  std::vector<Block> blocks_;
  std::unordered_map<uint32_t, size_t> blockIndex_;
  std::vector<uint32_t> interface_;
  SpvExecutionModel model_ = SpvExecutionModelMax;
  uint32_t entry_ = 0, glsl450_ = 0, bound_ = 0;
};

// A literal string operand starting at word `first` (nul-terminated, packed 4 chars per word).
std::string literalString(std::span<const uint32_t> words, size_t first);

}  // namespace tessera::compiler::spirv
