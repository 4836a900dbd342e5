// The interface of a compiled program, as the GL layer needs it: every active uniform (with its
// place in the constant file or its sampler slot), attribute and varying, by GLSL name.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::compiler {

enum class BaseType : uint8_t { Float, Int, Uint, Bool, Sampler2D, SamplerCube };

// A GLSL type as glGetActiveUniform/glGetActiveAttrib report it: vecN is rows = N, columns = 1;
// matCxR has `columns` columns of `rows` components. arraySize 0 means not an array.
struct ShaderType {
  BaseType base = BaseType::Float;
  uint8_t rows = 1;
  uint8_t columns = 1;
  uint32_t arraySize = 0;

  bool isSampler() const { return base == BaseType::Sampler2D || base == BaseType::SamplerCube; }
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
