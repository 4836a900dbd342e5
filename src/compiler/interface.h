// The interface of a compiled program, as the GL layer needs it: every active uniform (with its
// place in the constant file or its sampler slot), attribute and varying, by GLSL name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::compiler {

// The sampler types follow the basic ones; kSamplerTypes describes each.
enum class BaseType : uint8_t {
  Float,
  Int,
  Uint,
  Bool,
  Sampler2D,
  SamplerCube,
  Sampler3D,
  Sampler2DArray,
  Sampler2DShadow,
  SamplerCubeShadow,
  Sampler2DArrayShadow,
  ISampler2D,
  ISampler3D,
  ISamplerCube,
  ISampler2DArray,
  USampler2D,
  USampler3D,
  USamplerCube,
  USampler2DArray,
};

// What a sampler type reads: its texture target, whether lookups compare a depth reference
// (shadow samplers), and the type of its results.
enum class SamplerTarget : uint8_t { Tex2D, Cube, Tex3D, Array2D };
struct SamplerTypeInfo {
  BaseType base;
  const char* glslName;
  uint32_t glEnum;  // the GL type glGetActiveUniform reports (GLES 3.0 Table 2.10 values)
  SamplerTarget target;
  bool shadow;
  BaseType result;  // Float, Int or Uint
};
// clang-format off
inline constexpr SamplerTypeInfo kSamplerTypes[] = {
  {BaseType::Sampler2D,            "sampler2D",            0x8B5E, SamplerTarget::Tex2D,   false, BaseType::Float},
  {BaseType::SamplerCube,          "samplerCube",          0x8B60, SamplerTarget::Cube,    false, BaseType::Float},
  {BaseType::Sampler3D,            "sampler3D",            0x8B5F, SamplerTarget::Tex3D,   false, BaseType::Float},
  {BaseType::Sampler2DArray,       "sampler2DArray",       0x8DC1, SamplerTarget::Array2D, false, BaseType::Float},
  {BaseType::Sampler2DShadow,      "sampler2DShadow",      0x8B62, SamplerTarget::Tex2D,   true,  BaseType::Float},
  {BaseType::SamplerCubeShadow,    "samplerCubeShadow",    0x8DC5, SamplerTarget::Cube,    true,  BaseType::Float},
  {BaseType::Sampler2DArrayShadow, "sampler2DArrayShadow", 0x8DC4, SamplerTarget::Array2D, true,  BaseType::Float},
  {BaseType::ISampler2D,           "isampler2D",           0x8DCA, SamplerTarget::Tex2D,   false, BaseType::Int},
  {BaseType::ISampler3D,           "isampler3D",           0x8DCB, SamplerTarget::Tex3D,   false, BaseType::Int},
  {BaseType::ISamplerCube,         "isamplerCube",         0x8DCC, SamplerTarget::Cube,    false, BaseType::Int},
  {BaseType::ISampler2DArray,      "isampler2DArray",      0x8DCF, SamplerTarget::Array2D, false, BaseType::Int},
  {BaseType::USampler2D,           "usampler2D",           0x8DD2, SamplerTarget::Tex2D,   false, BaseType::Uint},
  {BaseType::USampler3D,           "usampler3D",           0x8DD3, SamplerTarget::Tex3D,   false, BaseType::Uint},
  {BaseType::USamplerCube,         "usamplerCube",         0x8DD4, SamplerTarget::Cube,    false, BaseType::Uint},
  {BaseType::USampler2DArray,      "usampler2DArray",      0x8DD7, SamplerTarget::Array2D, false, BaseType::Uint},
};
// clang-format on

constexpr bool isSamplerType(BaseType b) {
  return b >= BaseType::Sampler2D;
}
constexpr bool samplerTableInOrder() {
  size_t i = 0;
  for (const SamplerTypeInfo& row : kSamplerTypes)
    if (static_cast<size_t>(row.base) != static_cast<size_t>(BaseType::Sampler2D) + i++)
      return false;
  return static_cast<size_t>(BaseType::USampler2DArray) + 1 ==
         static_cast<size_t>(BaseType::Sampler2D) + i;
}
static_assert(samplerTableInOrder(), "kSamplerTypes rows must follow BaseType order");
// The row of a sampler type (b must be one).
constexpr const SamplerTypeInfo& samplerType(BaseType b) {
  return kSamplerTypes[static_cast<size_t>(b) - static_cast<size_t>(BaseType::Sampler2D)];
}

// A GLSL type as glGetActiveUniform/glGetActiveAttrib report it: vecN is rows = N, columns = 1;
// matCxR has `columns` columns of `rows` components. arraySize 0 means not an array.
struct ShaderType {
  BaseType base = BaseType::Float;
  uint8_t rows = 1;
  uint8_t columns = 1;
  uint32_t arraySize = 0;

  bool isSampler() const { return isSamplerType(base); }
  uint32_t elements() const { return arraySize ? arraySize : 1; }
  std::string glslName() const;  // "vec3", "mat4", "ivec2", "sampler2D", with "[N]" for arrays
  bool operator==(const ShaderType&) const = default;
};

// Constants hold uniforms in vec4 slots (4 scalar constants `c`): a scalar or vector takes one
// slot per array element, a matrix one slot per column. Floats are fp32, ints and uints their
// 32-bit pattern, bools 0 or 0xffffffff (the ISA's boolean).
struct UniformInfo {
  std::string name;  // GL name of a leaf: "light.pos", "lights[1].color"; arrays of basic types
                     // keep their base name ("weights") and have type.arraySize > 0
  ShaderType type;
  int32_t constant = -1;  // scalar constant index of element 0 (component 0 of its first slot)
  uint32_t stride = 0;    // scalar constants from one array element to the next
  int32_t sampler = -1;   // samplers: the sampler slot of element 0 (elements are consecutive)
};

struct AttributeInfo {
  std::string name;
  ShaderType type;
  int32_t slot = 0;  // first vec4 input slot (iN); a matrix takes one slot per column
};

struct VaryingInfo {
  std::string name;
  ShaderType type;
  int32_t slot = 0;    // first vec4 varying slot (vertex output o(1+slot), fragment vN)
  uint32_t slots = 1;  // vec4 slots it takes
  bool flat = false;   // GLSL ES 3.00 `flat`: the provoking vertex's value, not interpolated
};

struct ProgramInterface {
  std::vector<UniformInfo> uniforms;
  std::vector<AttributeInfo> attributes;
  std::vector<VaryingInfo> varyings;
  uint32_t constantCount = 0;  // scalar constants the program reads (multiple of 4)
  uint32_t samplerCount = 0;

  const UniformInfo* findUniform(const std::string& name) const;
  const AttributeInfo* findAttribute(const std::string& name) const;
};

// What the application fixes before linking.
struct LinkOptions {
  std::map<std::string, int> attributeBindings;  // glBindAttribLocation: name -> slot
};

}  // namespace tessera::compiler
