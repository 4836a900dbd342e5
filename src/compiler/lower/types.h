// SPIR-V types as the lowering sees them: how many scalar components a value of a type takes
// once flattened (vectors, matrix columns, array elements and struct members one after another),
// and where each component lives in vec4-slot storage (constants, attributes, varyings).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interface.h"
#include "compiler/spirv/module.h"

namespace tessera::compiler::lower {

class Types final {
 public:
  explicit Types(const spirv::Module& m) : m_(m) {}

  const spirv::Instruction& type(uint32_t id) const;
  uint32_t flatSize(uint32_t typeId) const;  // scalar components
  uint32_t slots(uint32_t typeId) const;     // vec4 slots: one per vector, column, element
  // For each flattened component, its storage offset (slot * 4 + component) from the start.
  void slotTable(uint32_t typeId, uint32_t base, std::vector<int32_t>& out) const;
  // Child type and flattened / slot offset of member or element `index` of a composite.
  uint32_t childType(uint32_t typeId, uint32_t index) const;
  uint32_t childFlatOffset(uint32_t typeId, uint32_t index) const;
  uint32_t childSlotOffset(uint32_t typeId, uint32_t index) const;
  uint32_t elementCount(uint32_t typeId) const;  // vector size, matrix columns, array length
  uint32_t pointee(uint32_t pointerTypeId) const;
  uint32_t scalarType(uint32_t typeId) const;  // the scalar a vector/matrix is made of

  bool isFloat(uint32_t typeId) const;   // scalar or vector of floats
  bool isSigned(uint32_t typeId) const;  // int scalar or vector, signed
  bool isBool(uint32_t typeId) const;
  bool isSampler(uint32_t typeId) const;  // OpTypeSampledImage (or an array of them)
  // The GL-facing type (glGetActiveUniform); throws for types GL has no name for.
  ShaderType shaderType(uint32_t typeId) const;
  uint32_t constantValue(uint32_t id) const;  // an OpConstant's 32-bit value (throws otherwise)

 private:
  const spirv::Module& m_;
};

}  // namespace tessera::compiler::lower
