#include "compiler/interface.h"

namespace tessera::compiler {

std::string ShaderType::glslName() const {
  std::string s;
  if (isSampler()) {
    s = samplerType(base).glslName;
  } else if (columns > 1) {
    s = "mat" + std::to_string(columns);
    if (rows != columns) s += "x" + std::to_string(rows);
  } else {
    static constexpr const char* kScalar[] = {"float", "int", "uint", "bool"};
    static constexpr const char* kPrefix[] = {"", "i", "u", "b"};
    const auto b = static_cast<size_t>(base);
    s = rows == 1 ? kScalar[b] : std::string(kPrefix[b]) + "vec" + std::to_string(rows);
  }
  if (arraySize) s += "[" + std::to_string(arraySize) + "]";
  return s;
}

const UniformInfo* ProgramInterface::findUniform(const std::string& name) const {
  for (const UniformInfo& u : uniforms) {
    if (u.name == name) return &u;
  }
  return nullptr;
}

const AttributeInfo* ProgramInterface::findAttribute(const std::string& name) const {
  for (const AttributeInfo& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace tessera::compiler
