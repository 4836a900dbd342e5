#include "oracle/gl_shader_test.h"

#include <GLES3/gl3.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "oracle/gl_program.h"

namespace tessera::oracle {
namespace {

using shadertest::Kind;
using shadertest::VarType;

// The sampler types a GLES 3.0 program can have (glGetActiveUniform) and the texture target each
// reads.
struct SamplerGlType {
  GLenum type, target;
};
constexpr SamplerGlType kSamplerTypes[] = {
    {GL_SAMPLER_2D, GL_TEXTURE_2D},
    {GL_SAMPLER_CUBE, GL_TEXTURE_CUBE_MAP},
    {GL_SAMPLER_3D, GL_TEXTURE_3D},
    {GL_SAMPLER_2D_ARRAY, GL_TEXTURE_2D_ARRAY},
    {GL_SAMPLER_2D_SHADOW, GL_TEXTURE_2D},
    {GL_SAMPLER_CUBE_SHADOW, GL_TEXTURE_CUBE_MAP},
    {GL_SAMPLER_2D_ARRAY_SHADOW, GL_TEXTURE_2D_ARRAY},
    {GL_INT_SAMPLER_2D, GL_TEXTURE_2D},
    {GL_INT_SAMPLER_3D, GL_TEXTURE_3D},
    {GL_INT_SAMPLER_CUBE, GL_TEXTURE_CUBE_MAP},
    {GL_INT_SAMPLER_2D_ARRAY, GL_TEXTURE_2D_ARRAY},
    {GL_UNSIGNED_INT_SAMPLER_2D, GL_TEXTURE_2D},
    {GL_UNSIGNED_INT_SAMPLER_3D, GL_TEXTURE_3D},
    {GL_UNSIGNED_INT_SAMPLER_CUBE, GL_TEXTURE_CUBE_MAP},
    {GL_UNSIGNED_INT_SAMPLER_2D_ARRAY, GL_TEXTURE_2D_ARRAY},
};

// The texture target a sampler type reads, or 0 for other types.
GLenum samplerTarget(GLenum type) {
  for (const SamplerGlType& s : kSamplerTypes)
    if (s.type == type) return s.target;
  return 0;
}

// GL's internal format, format and type of each shadertest::TexelFormat, in its order.
struct GlFormat {
  GLenum internal, format, type;
};
constexpr GlFormat kGlFormats[] = {
    {GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT},
    {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8},
    {GL_R8I, GL_RED_INTEGER, GL_BYTE},
    {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RG8I, GL_RG_INTEGER, GL_BYTE},
    {GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE},
    {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE},
    {GL_R16I, GL_RED_INTEGER, GL_SHORT},
    {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT},
    {GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT},
    {GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT},
    {GL_R32I, GL_RED_INTEGER, GL_INT},
    {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT},
    {GL_RGBA32I, GL_RGBA_INTEGER, GL_INT},
    {GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT},
};

VarType varType(GLenum type) {
  switch (type) {
    case GL_FLOAT:
      return {Kind::Float, 1, 1};
    case GL_FLOAT_VEC2:
      return {Kind::Float, 2, 1};
    case GL_FLOAT_VEC3:
      return {Kind::Float, 3, 1};
    case GL_FLOAT_VEC4:
      return {Kind::Float, 4, 1};
    case GL_INT:
      return {Kind::Int, 1, 1};
    case GL_INT_VEC2:
      return {Kind::Int, 2, 1};
    case GL_INT_VEC3:
      return {Kind::Int, 3, 1};
    case GL_INT_VEC4:
      return {Kind::Int, 4, 1};
    case GL_BOOL:
      return {Kind::Bool, 1, 1};
    case GL_BOOL_VEC2:
      return {Kind::Bool, 2, 1};
    case GL_BOOL_VEC3:
      return {Kind::Bool, 3, 1};
    case GL_BOOL_VEC4:
      return {Kind::Bool, 4, 1};
    case GL_FLOAT_MAT2:
      return {Kind::Float, 2, 2};
    case GL_FLOAT_MAT3:
      return {Kind::Float, 3, 3};
    case GL_FLOAT_MAT4:
      return {Kind::Float, 4, 4};
    default:
      if (samplerTarget(type)) return {Kind::Sampler, 1, 1};
      throw Error("shader test: uniform type 0x" + std::to_string(type) + " not handled");
  }
}

void setUniform(GLint loc, GLenum type, const std::vector<float>& v) {
  std::vector<GLint> iv(v.begin(), v.end());
  switch (type) {
    case GL_FLOAT:
      return glUniform1fv(loc, 1, v.data());
    case GL_FLOAT_VEC2:
      return glUniform2fv(loc, 1, v.data());
    case GL_FLOAT_VEC3:
      return glUniform3fv(loc, 1, v.data());
    case GL_FLOAT_VEC4:
      return glUniform4fv(loc, 1, v.data());
    case GL_FLOAT_MAT2:
      return glUniformMatrix2fv(loc, 1, GL_FALSE, v.data());
    case GL_FLOAT_MAT3:
      return glUniformMatrix3fv(loc, 1, GL_FALSE, v.data());
    case GL_FLOAT_MAT4:
      return glUniformMatrix4fv(loc, 1, GL_FALSE, v.data());
    case GL_INT:
    case GL_BOOL:
      return glUniform1iv(loc, 1, iv.data());
    case GL_INT_VEC2:
    case GL_BOOL_VEC2:
      return glUniform2iv(loc, 1, iv.data());
    case GL_INT_VEC3:
    case GL_BOOL_VEC3:
      return glUniform3iv(loc, 1, iv.data());
    case GL_INT_VEC4:
    case GL_BOOL_VEC4:
      return glUniform4iv(loc, 1, iv.data());
    default:
      if (samplerTarget(type)) glUniform1iv(loc, 1, iv.data());
      return;
  }
}

GLuint makeTexture(const shadertest::TextureSpec& spec) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  const GLenum target = spec.cube     ? GL_TEXTURE_CUBE_MAP
                        : spec.volume ? GL_TEXTURE_3D
                        : spec.array  ? GL_TEXTURE_2D_ARRAY
                                      : GL_TEXTURE_2D;
  glBindTexture(target, tex);
  const GlFormat& f = kGlFormats[static_cast<size_t>(spec.format)];
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (spec.volume || spec.array) {
    // One glTexImage3D per level: the layers (or slices) one after another.
    std::vector<std::vector<uint8_t>> levels;
    for (uint32_t layer = 0; layer < (spec.array ? spec.depth : 1u); ++layer) {
      const auto data = shadertest::textureData(spec, layer);
      levels.resize(data.size());
      for (size_t l = 0; l < data.size(); ++l)
        levels[l].insert(levels[l].end(), data[l].begin(), data[l].end());
    }
    GLsizei w = static_cast<GLsizei>(spec.width), h = static_cast<GLsizei>(spec.height),
            d = static_cast<GLsizei>(spec.depth);
    for (size_t l = 0; l < levels.size(); ++l) {
      glTexImage3D(target, static_cast<GLint>(l), static_cast<GLint>(f.internal), w, h, d, 0,
                   f.format, f.type, levels[l].data());
      w = std::max(1, w / 2), h = std::max(1, h / 2);
      if (spec.volume) d = std::max(1, d / 2);
    }
  } else {
    for (GLenum face = 0; face < (spec.cube ? 6u : 1u); ++face) {
      const auto levels = shadertest::textureData(spec, face);
      const GLenum image = spec.cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + face : GL_TEXTURE_2D;
      GLsizei w = static_cast<GLsizei>(spec.width), h = static_cast<GLsizei>(spec.height);
      for (size_t l = 0; l < levels.size(); ++l) {
        glTexImage2D(image, static_cast<GLint>(l), static_cast<GLint>(f.internal), w, h, 0,
                     f.format, f.type, levels[l].data());
        w = std::max(1, w / 2), h = std::max(1, h / 2);
      }
    }
  }
  const GLint mag = spec.linear ? GL_LINEAR : GL_NEAREST;
  const GLint min =
      spec.mipmaps ? (spec.linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST) : mag;
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, mag);
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, min);
  const GLint wrap = spec.clamp || spec.cube ? GL_CLAMP_TO_EDGE : GL_REPEAT;
  glTexParameteri(target, GL_TEXTURE_WRAP_S, wrap);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, wrap);
  if (spec.volume) glTexParameteri(target, GL_TEXTURE_WRAP_R, wrap);
  if (spec.compare) {
    glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(target, GL_TEXTURE_COMPARE_FUNC,
                    GL_NEVER + static_cast<GLint>(spec.compareFunc));
  }
  return tex;
}

}  // namespace

GlShaderTest::GlShaderTest(const shadertest::ShaderTest& test) : test_(test) {
  const GLuint program = program_ = linkProgram(test.vertex, test.fragment);
  glUseProgram(program);
  const shadertest::Grid grid = shadertest::makeGrid(test.grid);

  GLint count = 0;
  glGetProgramiv(program, GL_ACTIVE_ATTRIBUTES, &count);
  std::vector<GLuint>& buffers = buffers_;
  for (GLint i = 0; i < count; ++i) {
    char name[256];
    GLint size = 0;
    GLenum type = 0;
    glGetActiveAttrib(program, static_cast<GLuint>(i), sizeof name, nullptr, &size, &type, name);
    const GLint loc = glGetAttribLocation(program, name);
    if (loc < 0) continue;
    const std::vector<float> data = shadertest::attributeData(name, grid);
    GLuint vbo = 0;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)), data.data(),
                 GL_STATIC_DRAW);
    glVertexAttribPointer(static_cast<GLuint>(loc), 4, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(static_cast<GLuint>(loc));
    buffers.push_back(vbo);
  }

  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &count);
  struct Active {
    std::string base;
    GLint size;
    GLenum type;
    bool array;
  };
  std::vector<Active> active;
  std::vector<std::string> samplerNames;
  for (GLint i = 0; i < count; ++i) {
    char name[256];
    GLint size = 0;
    GLenum type = 0;
    glGetActiveUniform(program, static_cast<GLuint>(i), sizeof name, nullptr, &size, &type, name);
    std::string base = name;
    const bool array = base.size() > 3 && base.substr(base.size() - 3) == "[0]";
    if (array) base.resize(base.size() - 3);
    active.push_back({base, size, type, array});
    if (samplerTarget(type)) {
      for (GLint e = 0; e < size; ++e)
        samplerNames.push_back(array ? base + "[" + std::to_string(e) + "]" : base);
    }
  }
  std::vector<GLuint>& textures = textures_;
  for (const Active& a : active) {
    for (GLint e = 0; e < a.size; ++e) {
      const std::string element = a.array ? a.base + "[" + std::to_string(e) + "]" : a.base;
      const GLint loc = glGetUniformLocation(program, element.c_str());
      const VarType vt = varType(a.type);
      std::vector<float> v;
      if (const shadertest::UniformValue* given = shadertest::findUniform(test, element)) {
        v = given->values;
      } else if (vt.kind == Kind::Sampler) {
        v = {static_cast<float>(shadertest::autoSamplerUnit(element, samplerNames))};
      } else {
        v = shadertest::autoUniform(element, vt);
      }
      v.resize(vt.components(), 0.0f);
      setUniform(loc, a.type, v);
      if (vt.kind == Kind::Sampler) {
        const auto unit = static_cast<uint32_t>(v[0]);
        glActiveTexture(GL_TEXTURE0 + unit);
        shadertest::TextureSpec spec = shadertest::textureFor(test, unit);
        const GLenum target = samplerTarget(a.type);
        spec.cube = target == GL_TEXTURE_CUBE_MAP;
        spec.volume = target == GL_TEXTURE_3D;
        spec.array = target == GL_TEXTURE_2D_ARRAY;
        textures.push_back(makeTexture(spec));
        glActiveTexture(GL_TEXTURE0);
      }
    }
  }

  glGenBuffers(1, &indexBuffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indexBuffer_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(grid.indices.size() * 4),
               grid.indices.data(), GL_STATIC_DRAW);
  indexCount_ = static_cast<GLsizei>(grid.indices.size());
}

void GlShaderTest::draw() {
  glViewport(0, 0, static_cast<GLsizei>(test_.width), static_cast<GLsizei>(test_.height));
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  glDrawElements(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr);
  if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
    throw Error("shader test " + test_.name + ": GL error 0x" + std::to_string(err));
  }
}

GlShaderTest::~GlShaderTest() {
  glDeleteBuffers(1, &indexBuffer_);
  glDeleteBuffers(static_cast<GLsizei>(buffers_.size()), buffers_.data());
  glDeleteTextures(static_cast<GLsizei>(textures_.size()), textures_.data());
  glDeleteProgram(program_);
}

}  // namespace tessera::oracle
