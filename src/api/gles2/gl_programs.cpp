// Shader and program objects (GLES 2.0 §2.10): sources go through Tessera's compiler; a linked
// program keeps the constant-file image its uniforms live in and the texture unit of each
// sampler, and makes the pipe shaders.
#include <algorithm>
#include <bit>
#include <cstring>

#include "api/gles2/gl_context.h"
#include "isa/encoding.h"

namespace tessera::gles2 {
namespace {

GLenum glType(const compiler::ShaderType& t) {
  using compiler::BaseType;
  static constexpr GLenum kFloat[] = {GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4};
  static constexpr GLenum kInt[] = {GL_INT, GL_INT_VEC2, GL_INT_VEC3, GL_INT_VEC4};
  static constexpr GLenum kBool[] = {GL_BOOL, GL_BOOL_VEC2, GL_BOOL_VEC3, GL_BOOL_VEC4};
  static constexpr GLenum kMat[] = {GL_FLOAT_MAT2, GL_FLOAT_MAT3, GL_FLOAT_MAT4};
  if (t.isSampler()) return compiler::samplerType(t.base).glEnum;
  if (t.columns > 1) return kMat[t.columns - 2];
  const size_t i = static_cast<size_t>(t.rows - 1);
  return t.base == BaseType::Float ? kFloat[i] : t.base == BaseType::Bool ? kBool[i] : kInt[i];
}

void copyString(const std::string& s, GLsizei size, GLsizei* length, GLchar* out) {
  GLsizei n = 0;
  if (size > 0 && out) {
    n = std::min<GLsizei>(size - 1, static_cast<GLsizei>(s.size()));
    std::memcpy(out, s.data(), static_cast<size_t>(n));
    out[n] = '\0';
  }
  if (length) *length = n;
}

// "name", "name[3]" -> base name and element (-1 when the text is malformed).
std::pair<std::string, int> splitElement(const std::string& name) {
  const auto open = name.find('[');
  if (open == std::string::npos) return {name, 0};
  if (name.back() != ']' || open + 2 > name.size() - 1) return {name, -1};
  const std::string digits = name.substr(open + 1, name.size() - open - 2);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      digits.size() > 6)
    return {name, -1};
  return {name.substr(0, open), std::stoi(digits)};
}

}  // namespace

Shader* Context::shader(GLuint name) {
  Shader* s = shaders_.find(name);
  if (!s) error(programs_.find(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE);
  return s;
}

Program* Context::program(GLuint name, bool) {
  Program* p = programs_.find(name);
  if (!p) error(shaders_.find(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE);
  return p;
}

GLuint Context::createShader(GLenum type) {
  if (type != GL_VERTEX_SHADER && type != GL_FRAGMENT_SHADER) {
    error(GL_INVALID_ENUM);
    return 0;
  }
  const GLuint name = nextShaderOrProgram_++;
  shaders_.reserve(name);
  shaders_.find(name)->type = type;
  return name;
}

void Context::shaderSource(GLuint name, GLsizei count, const GLchar* const* strings,
                           const GLint* lengths) {
  if (count < 0) return error(GL_INVALID_VALUE);
  Shader* s = shader(name);
  if (!s) return;
  s->source.clear();
  for (GLsizei i = 0; i < count; ++i) {
    if (!strings || !strings[i]) continue;
    if (lengths && lengths[i] >= 0) {
      s->source.append(strings[i], static_cast<size_t>(lengths[i]));
    } else {
      s->source.append(strings[i]);
    }
  }
}

void Context::compileShader(GLuint name) {
  Shader* s = shader(name);
  if (!s) return;
  const compiler::CompiledShader c = compiler::compileShader(
      s->type == GL_VERTEX_SHADER ? isa::Stage::Vertex : isa::Stage::Fragment, s->source);
  s->compiled = c.ok;
  s->log = c.log;
}

void Context::getShaderiv(GLuint name, GLenum pname, GLint* out) {
  Shader* s = shader(name);
  if (!s) return;
  switch (pname) {
    case GL_SHADER_TYPE:
      *out = static_cast<GLint>(s->type);
      return;
    case GL_DELETE_STATUS:
      *out = s->deletePending;
      return;
    case GL_COMPILE_STATUS:
      *out = s->compiled;
      return;
    case GL_INFO_LOG_LENGTH:
      *out = s->log.empty() ? 0 : static_cast<GLint>(s->log.size() + 1);
      return;
    case GL_SHADER_SOURCE_LENGTH:
      *out = s->source.empty() ? 0 : static_cast<GLint>(s->source.size() + 1);
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::getShaderInfoLog(GLuint name, GLsizei size, GLsizei* length, GLchar* log) {
  if (size < 0) return error(GL_INVALID_VALUE);
  if (Shader* s = shader(name)) copyString(s->log, size, length, log);
}

void Context::getShaderSource(GLuint name, GLsizei size, GLsizei* length, GLchar* source) {
  if (size < 0) return error(GL_INVALID_VALUE);
  if (Shader* s = shader(name)) copyString(s->source, size, length, source);
}

void Context::releaseShaderIfUnused(GLuint name) {
  Shader* s = shaders_.find(name);
  if (s && s->deletePending && s->attachments == 0) shaders_.erase(name);
}

void Context::deleteShader(GLuint name) {
  if (name == 0) return;
  Shader* s = shader(name);
  if (!s) return;
  s->deletePending = true;  // flagged; freed when no program has it attached (§2.10.1)
  releaseShaderIfUnused(name);
}

GLuint Context::createProgram() {
  const GLuint name = nextShaderOrProgram_++;
  programs_.reserve(name);
  return name;
}

void Context::attachShader(GLuint prog, GLuint sh) {
  Program* p = program(prog);
  Shader* s = p ? shader(sh) : nullptr;
  if (!p || !s) return;
  GLuint& slot = s->type == GL_VERTEX_SHADER ? p->vertex : p->fragment;
  if (slot) return error(GL_INVALID_OPERATION);  // attached already, or one of that type is
  slot = sh;
  ++s->attachments;
}

void Context::detachShader(GLuint prog, GLuint sh) {
  Program* p = program(prog);
  Shader* s = p ? shader(sh) : nullptr;
  if (!p || !s) return;
  GLuint& slot = s->type == GL_VERTEX_SHADER ? p->vertex : p->fragment;
  if (slot != sh) return error(GL_INVALID_OPERATION);
  slot = 0;
  --s->attachments;
  releaseShaderIfUnused(sh);
}

void Context::bindAttribLocation(GLuint prog, GLuint index, const GLchar* name) {
  if (index >= kMaxAttribs) return error(GL_INVALID_VALUE);
  Program* p = program(prog);
  if (!p || !name) return;
  if (std::strncmp(name, "gl_", 3) == 0) return error(GL_INVALID_OPERATION);
  p->attributeBindings[name] = static_cast<int>(index);  // takes effect at the next link
}

void Context::linkProgram(GLuint prog) {
  Program* p = program(prog);
  if (!p) return;
  p->linked = false;
  p->locations.clear();
  const Shader* vs = p->vertex ? shaders_.find(p->vertex) : nullptr;
  const Shader* fs = p->fragment ? shaders_.find(p->fragment) : nullptr;
  if (!vs || !fs) {
    p->log = "ERROR: a program needs a vertex and a fragment shader attached\n";
    return;
  }
  if (!vs->compiled || !fs->compiled) {
    p->log = "ERROR: an attached shader did not compile\n";
    return;
  }
  compiler::LinkOptions options;
  options.attributeBindings = p->attributeBindings;
  p->compiled = compiler::compileProgram(vs->source, fs->source, options);
  p->log = p->compiled.log;
  if (!p->compiled.ok) return;
  const compiler::ProgramInterface& iface = p->compiled.interface;
  // Locations: one per element of every active uniform, in interface order.
  for (const compiler::UniformInfo& u : iface.uniforms) {
    for (uint32_t e = 0; e < u.type.elements(); ++e) p->locations.push_back({&u, e});
  }
  p->constants.assign(iface.constantCount, 0.0f);  // uniforms start at zero (§2.10.4)
  p->samplerUnits.assign(iface.samplerCount, 0);
  if (p->vs) pipe_.destroyResource(p->vs);
  if (p->fs) pipe_.destroyResource(p->fs);
  p->vs = pipe_.createVertexShader(isa::encode(p->compiled.vertex),
                                   isa::encode(p->compiled.binningVertex));
  p->fs = pipe_.createFragmentShader(isa::encode(p->compiled.fragment));
  p->linked = true;
}

void Context::useProgram(GLuint prog) {
  if (prog != 0) {
    Program* p = program(prog);
    if (!p) return;
    if (!p->linked) return error(GL_INVALID_OPERATION);
  }
  const GLuint old = currentProgram_;
  currentProgram_ = prog;
  if (Program* o = old ? programs_.find(old) : nullptr; o && o->deletePending) deleteProgram(old);
}

void Context::deleteProgram(GLuint prog) {
  if (prog == 0) return;
  Program* p = program(prog);
  if (!p) return;
  p->deletePending = true;
  if (currentProgram_ == prog) return;  // freed when no longer in use (§2.10.3)
  for (GLuint sh : {p->vertex, p->fragment}) {
    if (Shader* s = sh ? shaders_.find(sh) : nullptr) {
      --s->attachments;
      releaseShaderIfUnused(sh);
    }
  }
  if (p->vs) pipe_.destroyResource(p->vs);
  if (p->fs) pipe_.destroyResource(p->fs);
  programs_.erase(prog);
}

void Context::validateProgram(GLuint prog) {
  if (Program* p = program(prog)) p->log = p->linked ? "" : "ERROR: the program is not linked\n";
}

void Context::getProgramiv(GLuint prog, GLenum pname, GLint* out) {
  Program* p = program(prog);
  if (!p) return;
  const compiler::ProgramInterface& iface = p->compiled.interface;
  switch (pname) {
    case GL_DELETE_STATUS:
      *out = p->deletePending;
      return;
    case GL_LINK_STATUS:
      *out = p->linked;
      return;
    case GL_VALIDATE_STATUS:
      *out = p->linked;
      return;
    case GL_INFO_LOG_LENGTH:
      *out = p->log.empty() ? 0 : static_cast<GLint>(p->log.size() + 1);
      return;
    case GL_ATTACHED_SHADERS:
      *out = (p->vertex != 0) + (p->fragment != 0);
      return;
    case GL_ACTIVE_ATTRIBUTES:
      *out = p->linked ? static_cast<GLint>(iface.attributes.size()) : 0;
      return;
    case GL_ACTIVE_UNIFORMS:
      *out = p->linked ? static_cast<GLint>(iface.uniforms.size()) : 0;
      return;
    case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH:
    case GL_ACTIVE_UNIFORM_MAX_LENGTH: {
      size_t longest = 0;
      if (p->linked && pname == GL_ACTIVE_ATTRIBUTE_MAX_LENGTH) {
        for (const auto& a : iface.attributes) longest = std::max(longest, a.name.size() + 1);
      } else if (p->linked) {
        for (const auto& u : iface.uniforms)
          longest = std::max(longest, u.name.size() + (u.type.arraySize ? 4 : 1));
      }
      *out = static_cast<GLint>(longest);
      return;
    }
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::getProgramInfoLog(GLuint prog, GLsizei size, GLsizei* length, GLchar* log) {
  if (size < 0) return error(GL_INVALID_VALUE);
  if (Program* p = program(prog)) copyString(p->log, size, length, log);
}

GLint Context::getAttribLocation(GLuint prog, const GLchar* name) {
  Program* p = program(prog);
  if (!p || !name) return -1;
  if (!p->linked) {
    error(GL_INVALID_OPERATION);
    return -1;
  }
  const compiler::AttributeInfo* a = p->compiled.interface.findAttribute(name);
  return a ? a->slot : -1;
}

GLint Context::getUniformLocation(GLuint prog, const GLchar* name) {
  Program* p = program(prog);
  if (!p || !name) return -1;
  if (!p->linked) {
    error(GL_INVALID_OPERATION);
    return -1;
  }
  const auto [base, element] = splitElement(name);
  if (element < 0) return -1;
  for (size_t loc = 0; loc < p->locations.size(); ++loc) {
    const UniformSlot& s = p->locations[loc];
    if (s.info->name != base || s.element != static_cast<uint32_t>(element)) continue;
    // "a[1]" names an element only of an array; "s.x[0]" of a non-array is no name.
    if (base.size() != std::strlen(name) && !s.info->type.arraySize) return -1;
    return static_cast<GLint>(loc);
  }
  return -1;
}

void Context::getActiveAttrib(GLuint prog, GLuint index, GLsizei size, GLsizei* length,
                              GLint* count, GLenum* type, GLchar* name) {
  Program* p = program(prog);
  if (!p) return;
  const auto& attrs = p->compiled.interface.attributes;
  if (!p->linked || index >= attrs.size() || size < 0) return error(GL_INVALID_VALUE);
  copyString(attrs[index].name, size, length, name);
  if (count) *count = 1;
  if (type) *type = glType(attrs[index].type);
}

void Context::getActiveUniform(GLuint prog, GLuint index, GLsizei size, GLsizei* length,
                               GLint* count, GLenum* type, GLchar* name) {
  Program* p = program(prog);
  if (!p) return;
  const auto& us = p->compiled.interface.uniforms;
  if (!p->linked || index >= us.size() || size < 0) return error(GL_INVALID_VALUE);
  const compiler::UniformInfo& u = us[index];
  copyString(u.type.arraySize ? u.name + "[0]" : u.name, size, length, name);
  if (count) *count = static_cast<GLint>(u.type.elements());
  if (type) *type = glType(u.type);
}

void Context::getAttachedShaders(GLuint prog, GLsizei max, GLsizei* count, GLuint* shaders) {
  if (max < 0) return error(GL_INVALID_VALUE);
  Program* p = program(prog);
  if (!p) return;
  GLsizei n = 0;
  for (GLuint s : {p->vertex, p->fragment}) {
    if (s && n < max) shaders[n++] = s;
  }
  if (count) *count = n;
}

void Context::uniform(GLint location, GLsizei count, int components, const float* f,
                      const GLint* i) {
  if (count < 0) return error(GL_INVALID_VALUE);
  Program* p = currentProgram_ ? programs_.find(currentProgram_) : nullptr;
  if (!p) return error(GL_INVALID_OPERATION);
  if (location == -1) return;  // silently ignored (§2.10.4)
  if (location < 0 || static_cast<size_t>(location) >= p->locations.size())
    return error(GL_INVALID_OPERATION);
  const UniformSlot& slot = p->locations[static_cast<size_t>(location)];
  const compiler::ShaderType& t = slot.info->type;
  using compiler::BaseType;
  // The call's type and size must match the uniform's (§2.10.4): floats for float uniforms,
  // ints for int and sampler uniforms, either for bools; matrices only via glUniformMatrix.
  if (t.columns > 1 || static_cast<int>(t.rows) != components) return error(GL_INVALID_OPERATION);
  if ((t.base == BaseType::Float && !f) || ((t.base == BaseType::Int || t.isSampler()) && !i))
    return error(GL_INVALID_OPERATION);
  if (count > 1 && !t.arraySize) return error(GL_INVALID_OPERATION);
  const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(count), t.elements() - slot.element);
  for (uint32_t e = 0; e < n; ++e) {
    const uint32_t element = slot.element + e;
    if (t.isSampler()) {
      const GLint unit = i[e];
      if (unit < 0 || unit >= kMaxTextureUnits) return error(GL_INVALID_VALUE);
      p->samplerUnits.at(static_cast<size_t>(slot.info->sampler) + element) = unit;
      continue;
    }
    for (int c = 0; c < components; ++c) {
      const size_t at = static_cast<size_t>(slot.info->constant) + element * slot.info->stride +
                        static_cast<size_t>(c);
      const size_t k =
          static_cast<size_t>(e) * static_cast<size_t>(components) + static_cast<size_t>(c);
      float v = 0;
      if (t.base == BaseType::Float) {
        v = f[k];
      } else if (t.base == BaseType::Bool) {
        const bool on = f ? f[k] != 0.0f : i[k] != 0;
        v = std::bit_cast<float>(on ? 0xffffffffu : 0u);
      } else {
        v = std::bit_cast<float>(i[k]);
      }
      p->constants.at(at) = v;
    }
  }
}

void Context::uniformMatrix(GLint location, GLsizei count, int columns, GLboolean transpose,
                            const float* values) {
  if (count < 0) return error(GL_INVALID_VALUE);
  if (transpose) return error(GL_INVALID_VALUE);  // GLES 2.0: transpose must be GL_FALSE
  Program* p = currentProgram_ ? programs_.find(currentProgram_) : nullptr;
  if (!p) return error(GL_INVALID_OPERATION);
  if (location == -1) return;
  if (location < 0 || static_cast<size_t>(location) >= p->locations.size())
    return error(GL_INVALID_OPERATION);
  const UniformSlot& slot = p->locations[static_cast<size_t>(location)];
  const compiler::ShaderType& t = slot.info->type;
  if (t.columns != columns || t.rows != columns) return error(GL_INVALID_OPERATION);
  if (count > 1 && !t.arraySize) return error(GL_INVALID_OPERATION);
  const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(count), t.elements() - slot.element);
  for (uint32_t e = 0; e < n; ++e) {
    for (int c = 0; c < columns; ++c) {
      for (int r = 0; r < columns; ++r) {
        const size_t at = static_cast<size_t>(slot.info->constant) +
                          (slot.element + e) * slot.info->stride + 4 * static_cast<size_t>(c) +
                          static_cast<size_t>(r);
        p->constants.at(at) =
            values[(e * static_cast<uint32_t>(columns) + static_cast<uint32_t>(c)) *
                       static_cast<uint32_t>(columns) +
                   static_cast<uint32_t>(r)];
      }
    }
  }
}

void Context::getUniform(GLuint prog, GLint location, float* f, GLint* i) {
  Program* p = program(prog);
  if (!p) return;
  if (!p->linked || location < 0 || static_cast<size_t>(location) >= p->locations.size())
    return error(GL_INVALID_OPERATION);
  const UniformSlot& slot = p->locations[static_cast<size_t>(location)];
  const compiler::ShaderType& t = slot.info->type;
  if (t.isSampler()) {
    const GLint unit = p->samplerUnits.at(static_cast<size_t>(slot.info->sampler) + slot.element);
    if (f) f[0] = static_cast<float>(unit);
    if (i) i[0] = unit;
    return;
  }
  int k = 0;
  for (uint32_t c = 0; c < t.columns; ++c) {
    for (uint32_t r = 0; r < t.rows; ++r, ++k) {
      const float v = p->constants.at(static_cast<size_t>(slot.info->constant) +
                                      slot.element * slot.info->stride + 4 * c + r);
      const uint32_t bits = std::bit_cast<uint32_t>(v);
      const float asFloat = t.base == compiler::BaseType::Float ? v
                            : t.base == compiler::BaseType::Bool
                                ? (bits ? 1.0f : 0.0f)
                                : static_cast<float>(static_cast<int32_t>(bits));
      if (f) f[k] = asFloat;
      if (i)
        i[k] = t.base == compiler::BaseType::Float  ? static_cast<GLint>(v)
               : t.base == compiler::BaseType::Bool ? (bits ? 1 : 0)
                                                    : static_cast<GLint>(bits);
    }
  }
}

}  // namespace tessera::gles2
