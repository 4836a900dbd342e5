// Program layout: where every uniform, sampler, attribute and varying of a linked program
// lives — constant-file offsets in vec4 slots, sampler slots, vec4 input and varying slots —
// shared by all stages, and the ProgramInterface the GL layer queries.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "compiler/interface.h"
#include "compiler/spirv/module.h"

namespace tessera::compiler::lower {

class ProgramLayout final {
 public:
  // `modules`: the program's stages (any order). Throws tessera::Error when the program needs
  // more constants, samplers, attributes or varyings than the hardware has.
  ProgramLayout(const std::vector<const spirv::Module*>& modules, const LinkOptions& options);

  const ProgramInterface& interface() const { return interface_; }
  // -1 when the name has no home (inactive in every stage, or not linked).
  int32_t uniformConstant(const std::string& name) const { return find(constants_, name); }
  int32_t samplerSlot(const std::string& name) const { return find(samplers_, name); }
  int32_t attributeSlot(const std::string& name) const { return find(attributes_, name); }
  int32_t varyingSlot(const std::string& name) const { return find(varyings_, name); }
  // gl_PointSize goes to component x of the first output after the varyings (throws when the
  // varyings take every output).
  int32_t pointSizeOutput() const;

 private:
  static int32_t find(const std::map<std::string, int32_t>& m, const std::string& name);

  ProgramInterface interface_;
  int32_t varyingSlots_ = 0;
  std::map<std::string, int32_t> constants_, samplers_, attributes_, varyings_;
};

// Ids referenced by the entry function's code: a global that is not among them is inactive.
std::vector<bool> referencedIds(const spirv::Module& m);
// The built-in a variable is (decorated on it or on its block's single member), if any.
std::optional<SpvBuiltIn> builtInOf(const spirv::Module& m, const spirv::Instruction& variable);

}  // namespace tessera::compiler::lower
