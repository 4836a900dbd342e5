// GL objects of a GLES2 context: buffers, textures, shaders and programs, each holding what the
// application gave (GL semantics) and the pipe resources made from it (lazily, at draw time).
#pragma once
#include <GLES2/gl2.h>

#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "pipe/context.h"

namespace tessera::gles2 {

struct Buffer {
  std::vector<uint8_t> data;  // the application's copy (client reads, index ranges)
  GLenum usage = GL_STATIC_DRAW;
  pipe::ResourceId resource = pipe::kNoResource;
  bool everBound = false;
  bool mapped = false;  // OES_mapbuffer: the application writes `data` until it unmaps
};

struct TexImage {
  GLsizei width = 0, height = 0;
  GLsizei depth = 1;            // OES_texture_3D: slices, one after another in `texels`
  GLenum format = 0, type = 0;  // what glTexImage2D was given
  std::vector<uint8_t> texels;  // tightly packed, in the texture unit's format
  bool defined() const { return width > 0 && height > 0; }
};

struct Texture {
  GLenum target = 0;                           // 0 until first bound
  std::array<std::vector<TexImage>, 6> faces;  // [face][level]; 2D and 3D textures use face 0
  GLenum minFilter = GL_NEAREST_MIPMAP_LINEAR, magFilter = GL_LINEAR;
  GLenum wrapS = GL_REPEAT, wrapT = GL_REPEAT, wrapR = GL_REPEAT;  // R: OES_texture_3D
  // EXT_shadow_samplers: TEXTURE_COMPARE_MODE_EXT (GL_NONE or COMPARE_REF_TO_TEXTURE_EXT) and
  // TEXTURE_COMPARE_FUNC_EXT.
  GLenum compareMode = GL_NONE, compareFunc = GL_LEQUAL;
  // EXT_texture_filter_anisotropic: TEXTURE_MAX_ANISOTROPY_EXT, >= 1.
  GLfloat maxAnisotropy = 1.0f;
  pipe::ResourceId resource = pipe::kNoResource;
  bool dirty = true;  // images changed since `resource` was made
  // Render-to-texture: colour surfaces over levels of `resource`, by face * 16 + level; the
  // GPU may have written texels the images above do not have.
  std::map<uint32_t, pipe::ResourceId> views;
  bool gpuWritten = false;
  TexImage& image(uint32_t face, GLint level);
};

// EXT_occlusion_query_boolean and EXT_disjoint_timer_query: a name from glGenQueriesEXT becomes
// a query object (target and pipe query) at its first glBeginQueryEXT or glQueryCounterEXT.
struct QueryObject {
  GLenum target = 0;
  pipe::QueryId query = 0;
};
// What a running query measures: one of each may run (both occlusion targets count samples).
enum class QueryKind : uint8_t { Occlusion, Time };
inline constexpr size_t kQueryKinds = 2;

// AMD_performance_monitor: a group is one `group` of the pipe's counter list; group and counter
// ids are indices (into the group list, into the group's counters).
struct PerfGroup {
  std::string name;
  std::vector<uint32_t> counters;  // indices into pipe::Context::counterList()
};
using PerfCounterId = std::pair<GLuint, GLuint>;  // group, counter

struct PerfMonitor {
  std::set<PerfCounterId> selected;  // in (group, counter) order: the order of the results
  bool active = false;
  bool ended = false;       // glEndPerfMonitorAMD since the last begin: the result queries answer
  pipe::QueryId query = 0;  // made at begin from `selected`; 0 when nothing is counted
  std::vector<PerfCounterId> sampled;  // what `query` counts, in its order
};

struct Renderbuffer {
  GLenum format = GL_RGBA4;
  GLsizei width = 0, height = 0;
  pipe::ResourceId resource = pipe::kNoResource;
};

struct Attachment {
  GLenum type = GL_NONE;  // GL_TEXTURE or GL_RENDERBUFFER
  GLuint name = 0;
  GLint level = 0;
  GLenum target = GL_TEXTURE_2D;  // texture: 2D, a cube face or TEXTURE_3D_OES
  GLint zoffset = 0;              // TEXTURE_3D_OES: the slice (FramebufferTexture3DOES)
};

struct Framebuffer {
  Attachment color, depth, stencil;
};

struct Shader {
  GLenum type = 0;
  std::string source;
  bool compiled = false;
  std::string log;
  bool deletePending = false;
  uint32_t attachments = 0;
};

// A uniform location: one element of one active uniform.
struct UniformSlot {
  const compiler::UniformInfo* info = nullptr;
  uint32_t element = 0;
};

struct Program {
  GLuint vertex = 0, fragment = 0;  // attached shaders
  std::map<std::string, int> attributeBindings;
  bool linked = false;
  std::string log;
  compiler::CompiledProgram compiled;
  std::vector<UniformSlot> locations;  // location -> uniform element
  std::vector<float> constants;        // the constant file image both stages read
  std::vector<GLint> samplerUnits;     // per sampler slot: the texture unit it reads
  pipe::ResourceId vs = pipe::kNoResource, fs = pipe::kNoResource;
  bool deletePending = false;
};

inline constexpr int kMaxAttribs = 16;

struct VertexAttrib {
  bool enabled = false;
  GLint size = 4;
  GLenum type = GL_FLOAT;
  GLboolean normalized = GL_FALSE;
  GLsizei stride = 0;
  const void* pointer = nullptr;  // offset when a buffer is bound
  GLuint buffer = 0;
};

// The vertex array state a vertex array object holds (OES_vertex_array_object).
struct VertexArray {
  std::array<VertexAttrib, kMaxAttribs> attribs{};
  GLuint elementBuffer = 0;
};

// Name spaces: GL names map to objects; 0 is never a name.
template <typename T>
class NameTable final {
 public:
  GLuint create() {
    const GLuint name = next_++;
    objects_[name] = std::make_unique<T>();
    return name;
  }
  void reserve(GLuint name) {  // glBind* of a name from glGen* (or any unused name)
    if (!objects_.count(name)) objects_[name] = std::make_unique<T>();
    if (name >= next_) next_ = name + 1;
  }
  T* find(GLuint name) {
    const auto it = objects_.find(name);
    return it == objects_.end() ? nullptr : it->second.get();
  }
  bool erase(GLuint name) { return objects_.erase(name) != 0; }
  std::map<GLuint, std::unique_ptr<T>>& all() { return objects_; }

 private:
  std::map<GLuint, std::unique_ptr<T>> objects_;
  GLuint next_ = 1;
};

}  // namespace tessera::gles2
