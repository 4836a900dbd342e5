#include "compiler/lower/types.h"

#include "common/error.h"

namespace tessera::compiler::lower {

const spirv::Instruction& Types::type(uint32_t id) const {
  return m_.defOrThrow(id);
}

uint32_t Types::elementCount(uint32_t typeId) const {
  const spirv::Instruction& t = type(typeId);
  switch (t.op) {
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
      return t.operand(1);
    case SpvOpTypeArray:
      return constantValue(t.operand(1));
    case SpvOpTypeStruct:
      return static_cast<uint32_t>(t.operands.size());
    default:
      return 1;
  }
}

uint32_t Types::childType(uint32_t typeId, uint32_t index) const {
  const spirv::Instruction& t = type(typeId);
  switch (t.op) {
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
      return t.operand(0);
    case SpvOpTypeStruct:
      if (index >= t.operands.size()) throw Error("SPIR-V: struct member index out of range");
      return t.operands[index];
    default:
      throw Error("SPIR-V: indexing into a non-composite type");
  }
}

uint32_t Types::flatSize(uint32_t typeId) const {
  const spirv::Instruction& t = type(typeId);
  switch (t.op) {
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
      return 1;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
      return elementCount(typeId) * flatSize(t.operand(0));
    case SpvOpTypeStruct: {
      uint32_t n = 0;
      for (uint32_t member : t.operands) n += flatSize(member);
      return n;
    }
    case SpvOpTypeSampledImage:
    case SpvOpTypeImage:
    case SpvOpTypeSampler:
      return 1;  // the sampler slot
    default:
      throw Error("SPIR-V: type %" + std::to_string(typeId) + " has no value layout");
  }
}

uint32_t Types::slots(uint32_t typeId) const {
  const spirv::Instruction& t = type(typeId);
  switch (t.op) {
    case SpvOpTypeMatrix:
      return t.operand(1);
    case SpvOpTypeArray:
      return elementCount(typeId) * slots(t.operand(0));
    case SpvOpTypeStruct: {
      uint32_t n = 0;
      for (uint32_t member : t.operands) n += slots(member);
      return n;
    }
    default:
      return 1;
  }
}

void Types::slotTable(uint32_t typeId, uint32_t base, std::vector<int32_t>& out) const {
  const spirv::Instruction& t = type(typeId);
  switch (t.op) {
    case SpvOpTypeVector:
      for (uint32_t c = 0; c < t.operand(1); ++c) out.push_back(static_cast<int32_t>(base + c));
      return;
    case SpvOpTypeMatrix:
    case SpvOpTypeArray:
    case SpvOpTypeStruct:
      for (uint32_t i = 0; i < elementCount(typeId); ++i) {
        slotTable(childType(typeId, i), base + 4 * childSlotOffset(typeId, i), out);
      }
      return;
    default:
      out.push_back(static_cast<int32_t>(base));
      return;
  }
}

uint32_t Types::childFlatOffset(uint32_t typeId, uint32_t index) const {
  const spirv::Instruction& t = type(typeId);
  if (t.op != SpvOpTypeStruct) return index * flatSize(childType(typeId, index));
  uint32_t n = 0;
  for (uint32_t m = 0; m < index; ++m) n += flatSize(t.operands[m]);
  return n;
}

uint32_t Types::childSlotOffset(uint32_t typeId, uint32_t index) const {
  const spirv::Instruction& t = type(typeId);
  if (t.op == SpvOpTypeVector) return 0;
  if (t.op != SpvOpTypeStruct) return index * slots(childType(typeId, index));
  uint32_t n = 0;
  for (uint32_t m = 0; m < index; ++m) n += slots(t.operands[m]);
  return n;
}

uint32_t Types::pointee(uint32_t pointerTypeId) const {
  const spirv::Instruction& t = type(pointerTypeId);
  if (t.op != SpvOpTypePointer) throw Error("SPIR-V: expected a pointer type");
  return t.operand(1);
}

uint32_t Types::scalarType(uint32_t typeId) const {
  const spirv::Instruction& t = type(typeId);
  if (t.op == SpvOpTypeVector || t.op == SpvOpTypeMatrix || t.op == SpvOpTypeArray) {
    return scalarType(t.operand(0));
  }
  return typeId;
}

bool Types::isFloat(uint32_t typeId) const {
  return type(scalarType(typeId)).op == SpvOpTypeFloat;
}
bool Types::isBool(uint32_t typeId) const {
  return type(scalarType(typeId)).op == SpvOpTypeBool;
}
bool Types::isSigned(uint32_t typeId) const {
  const spirv::Instruction& s = type(scalarType(typeId));
  return s.op == SpvOpTypeInt && s.operand(1) == 1;
}
bool Types::isSampler(uint32_t typeId) const {
  const spirv::Instruction& s = type(scalarType(typeId));
  return s.op == SpvOpTypeSampledImage || s.op == SpvOpTypeImage || s.op == SpvOpTypeSampler;
}

ShaderType Types::shaderType(uint32_t typeId) const {
  ShaderType st;
  uint32_t id = typeId;
  if (type(id).op == SpvOpTypeArray) {
    st.arraySize = elementCount(id);
    id = type(id).operand(0);
  }
  const spirv::Instruction& t = type(id);
  if (t.op == SpvOpTypeSampledImage) {
    // OpTypeImage: sampled type, Dim, Depth, Arrayed, MS, Sampled, format.
    const spirv::Instruction& image = type(t.operand(0));
    const auto dim = static_cast<SpvDim>(image.operand(1));
    const bool shadow = image.operand(2) == 1, arrayed = image.operand(3) == 1;
    const spirv::Instruction& sampled = type(image.operand(0));
    const BaseType result = sampled.op == SpvOpTypeFloat ? BaseType::Float
                            : sampled.operand(1)         ? BaseType::Int
                                                         : BaseType::Uint;
    const SamplerTarget target = dim == SpvDimCube ? SamplerTarget::Cube
                                 : dim == SpvDim3D ? SamplerTarget::Tex3D
                                 : arrayed         ? SamplerTarget::Array2D
                                                   : SamplerTarget::Tex2D;
    const bool known = (dim == SpvDim2D || dim == SpvDim3D || dim == SpvDimCube) &&
                       image.operand(4) == 0 && !(arrayed && dim != SpvDim2D);
    for (const SamplerTypeInfo& row : kSamplerTypes) {
      if (known && row.target == target && row.shadow == shadow && row.result == result) {
        st.base = row.base;
        return st;
      }
    }
    throw Error("sampler type is not supported");
  }
  if (t.op == SpvOpTypeMatrix) {
    st.columns = static_cast<uint8_t>(t.operand(1));
    st.rows = static_cast<uint8_t>(type(t.operand(0)).operand(1));
    return st;
  }
  if (t.op == SpvOpTypeVector) st.rows = static_cast<uint8_t>(t.operand(1));
  const spirv::Instruction& s = type(scalarType(id));
  switch (s.op) {
    case SpvOpTypeFloat:
      st.base = BaseType::Float;
      break;
    case SpvOpTypeBool:
      st.base = BaseType::Bool;
      break;
    case SpvOpTypeInt:
      st.base = s.operand(1) ? BaseType::Int : BaseType::Uint;
      break;
    default:
      throw Error("SPIR-V: type %" + std::to_string(typeId) + " has no GLSL name");
  }
  return st;
}

uint32_t Types::constantValue(uint32_t id) const {
  const spirv::Instruction& c = m_.defOrThrow(id);
  if (c.op != SpvOpConstant || c.operands.empty()) {
    throw Error("SPIR-V: %" + std::to_string(id) + " is not a 32-bit constant");
  }
  return c.operands[0];
}

}  // namespace tessera::compiler::lower
