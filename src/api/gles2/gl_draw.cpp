// Vertex arrays and drawing (GLES 2.0 §2.8), clears (§4.2.3), glReadPixels (§4.3.1), flushes.
// Client-memory arrays are copied into temporary pipe buffers for the draw; attributes without
// an array read their current value (a one-element buffer with stride 0).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"
#include "gpu/rb/color_format.h"

namespace tessera::gles2 {
namespace {

struct AttribFormat {
  pipe::VertexFormat format;
  int bytes;
};

std::optional<AttribFormat> attribFormat(GLenum type, bool normalized) {
  using F = pipe::VertexFormat;
  switch (type) {
    case GL_FLOAT:
      return AttribFormat{F::Float32, 4};
    case GL_BYTE:
      return AttribFormat{normalized ? F::Snorm8 : F::Sint8, 1};
    case GL_UNSIGNED_BYTE:
      return AttribFormat{normalized ? F::Unorm8 : F::Uint8, 1};
    case GL_SHORT:
      return AttribFormat{normalized ? F::Snorm16 : F::Sint16, 2};
    case GL_UNSIGNED_SHORT:
      return AttribFormat{normalized ? F::Unorm16 : F::Uint16, 2};
    case GL_FIXED:
      return AttribFormat{F::Float32, 4};  // converted to float on the way in
    case 0x8D61 /* GL_HALF_FLOAT_OES */:
      return AttribFormat{F::Float16, 2};
    default:
      return std::nullopt;
  }
}

std::optional<pipe::Primitive> primitiveOf(GLenum mode) {
  switch (mode) {
    case GL_POINTS:
      return pipe::Primitive::Points;
    case GL_LINES:
      return pipe::Primitive::Lines;
    case GL_LINE_STRIP:
      return pipe::Primitive::LineStrip;
    case GL_LINE_LOOP:
      return pipe::Primitive::LineLoop;
    case GL_TRIANGLES:
      return pipe::Primitive::Triangles;
    case GL_TRIANGLE_STRIP:
      return pipe::Primitive::TriangleStrip;
    case GL_TRIANGLE_FAN:
      return pipe::Primitive::TriangleFan;
    default:
      return std::nullopt;
  }
}

}  // namespace

void Context::vertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
                                  GLsizei stride, const void* pointer) {
  if (index >= kMaxAttribs || size < 1 || size > 4 || stride < 0) return error(GL_INVALID_VALUE);
  if (!attribFormat(type, normalized)) return error(GL_INVALID_ENUM);
  VertexAttrib& a = vao().attribs[index];
  a.size = size, a.type = type, a.normalized = normalized, a.stride = stride;
  a.pointer = pointer;
  a.buffer = arrayBuffer_;  // the binding is captured now (§2.9.1)
}

void Context::genVertexArrays(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = vertexArrays_.create();
}

void Context::deleteVertexArrays(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    if (!names[i] || !vertexArrays_.find(names[i])) continue;
    if (boundVertexArray_ == names[i]) boundVertexArray_ = 0;  // back to the default one
    vertexArrays_.erase(names[i]);
  }
}

void Context::bindVertexArray(GLuint name) {
  if (name && !vertexArrays_.find(name)) return error(GL_INVALID_OPERATION);  // not from glGen
  boundVertexArray_ = name;
}

GLboolean Context::isVertexArray(GLuint name) {
  return name && vertexArrays_.find(name);
}

void Context::enableVertexAttribArray(GLuint index, bool on) {
  if (index >= kMaxAttribs) return error(GL_INVALID_VALUE);
  vao().attribs[index].enabled = on;
}

void Context::vertexAttrib(GLuint index, const float* values, int n) {
  if (index >= kMaxAttribs) return error(GL_INVALID_VALUE);
  std::array<float, 4> v = {0, 0, 0, 1};
  for (int k = 0; k < n; ++k) v[static_cast<size_t>(k)] = values[k];
  currentValues_[index] = v;
}

void Context::getVertexAttrib(GLuint index, GLenum pname, float* f, GLint* i, void** pointer) {
  if (index >= kMaxAttribs) return error(GL_INVALID_VALUE);
  const VertexAttrib& a = vao().attribs[index];
  if (pointer) {
    if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER) return error(GL_INVALID_ENUM);
    *pointer = const_cast<void*>(a.pointer);
    return;
  }
  auto put = [&](float v) {
    if (f) *f = v;
    if (i) *i = static_cast<GLint>(v);
  };
  switch (pname) {
    case GL_VERTEX_ATTRIB_ARRAY_ENABLED:
      return put(a.enabled);
    case GL_VERTEX_ATTRIB_ARRAY_SIZE:
      return put(static_cast<float>(a.size));
    case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
      return put(static_cast<float>(a.stride));
    case GL_VERTEX_ATTRIB_ARRAY_TYPE:
      return put(static_cast<float>(a.type));
    case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED:
      return put(a.normalized);
    case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
      return put(static_cast<float>(a.buffer));
    case GL_CURRENT_VERTEX_ATTRIB:
      for (int k = 0; k < 4; ++k) {
        if (f) f[k] = currentValues_[index][static_cast<size_t>(k)];
        if (i) i[k] = static_cast<GLint>(currentValues_[index][static_cast<size_t>(k)]);
      }
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

// Every attribute the program reads, on its slot: from a buffer object, from client memory
// (copied: `vertexCount` vertices), or its current value.
bool Context::bindAttributes(Program& p, uint32_t vertexCount,
                             std::vector<pipe::ResourceId>& temps) {
  std::vector<pipe::VertexElement> elements(p.compiled.vertex.numInputs,
                                            {0, 0, 0, pipe::VertexFormat::Float32, 4});
  std::vector<pipe::ResourceId> buffers(elements.size(), pipe::kNoResource);
  for (size_t slot = 0; slot < elements.size(); ++slot) {
    const VertexAttrib& a = vao().attribs[slot];
    pipe::VertexElement& e = elements[slot];
    e.buffer = static_cast<uint32_t>(slot);
    if (!a.enabled) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(currentValues_[slot].data());
      buffers[slot] = pipe_.createBuffer({bytes, 16});
      temps.push_back(buffers[slot]);
      continue;  // stride 0: every vertex reads the one value
    }
    const AttribFormat f = *attribFormat(a.type, a.normalized);
    const uint32_t elementBytes = static_cast<uint32_t>(a.size) * static_cast<uint32_t>(f.bytes);
    const uint32_t stride = a.stride ? static_cast<uint32_t>(a.stride) : elementBytes;
    e.format = f.format;
    e.components = static_cast<uint32_t>(a.size);
    e.stride = stride;
    const uint64_t span = vertexCount ? uint64_t{stride} * (vertexCount - 1) + elementBytes : 0;
    if (a.buffer) {
      Buffer* b = buffers_.find(a.buffer);
      const auto offset = reinterpret_cast<uintptr_t>(a.pointer);
      if (!b || offset + span > b->data.size()) return false;  // would read past the buffer
      if (a.type == GL_FIXED) {  // 16.16 fixed point to float, the hardware fetches floats
        std::vector<float> conv(span / 4 + 1);
        std::vector<uint8_t> raw(b->data.begin() + static_cast<ptrdiff_t>(offset),
                                 b->data.begin() + static_cast<ptrdiff_t>(offset + span));
        for (size_t k = 0; k + 4 <= raw.size(); k += 4) {
          int32_t v;
          std::memcpy(&v, raw.data() + k, 4);
          conv[k / 4] = static_cast<float>(v) / 65536.0f;
        }
        buffers[slot] = pipe_.createBuffer({reinterpret_cast<const uint8_t*>(conv.data()), span});
        temps.push_back(buffers[slot]);
      } else {
        buffers[slot] = b->resource;
        e.offset = static_cast<uint32_t>(offset);
      }
    } else {
      if (!a.pointer && span) return false;
      std::vector<uint8_t> copy(static_cast<size_t>(span));
      if (span) std::memcpy(copy.data(), a.pointer, copy.size());
      if (a.type == GL_FIXED) {
        for (size_t k = 0; k + 4 <= copy.size(); k += 4) {
          int32_t v;
          std::memcpy(&v, copy.data() + k, 4);
          const float fl = static_cast<float>(v) / 65536.0f;
          std::memcpy(copy.data() + k, &fl, 4);
        }
      }
      buffers[slot] = pipe_.createBuffer(copy);
      temps.push_back(buffers[slot]);
    }
  }
  pipe_.setVertexElements(elements);
  for (size_t slot = 0; slot < buffers.size(); ++slot)
    pipe_.setVertexBuffer(static_cast<uint32_t>(slot), buffers[slot]);
  return true;
}

// Sampler slots read the textures bound to the units their uniforms name; a unit whose texture
// is incomplete, or of the other target, samples (0, 0, 0, 1).
bool Context::bindTextures(Program& p) {
  const compiler::ProgramInterface& iface = p.compiled.interface;
  for (const compiler::UniformInfo& u : iface.uniforms) {
    if (!u.type.isSampler()) continue;
    // Each target has its own binding on a unit (sampler3D: OES_texture_3D).
    const compiler::SamplerTarget target = compiler::samplerType(u.type.base).target;
    const bool cube = target == compiler::SamplerTarget::Cube;
    const bool volume = target == compiler::SamplerTarget::Tex3D;
    for (uint32_t e = 0; e < u.type.elements(); ++e) {
      const uint32_t slot = static_cast<uint32_t>(u.sampler) + e;
      const auto unit = static_cast<size_t>(p.samplerUnits.at(slot));
      const GLuint name = cube ? boundCube_[unit] : volume ? bound3D_[unit] : bound2D_[unit];
      Texture* t = name     ? textures_.find(name)
                   : cube   ? &defaultCube_
                   : volume ? &default3D_
                            : &default2D_;
      bool complete = false;
      const pipe::ResourceId res = t ? textureResource(*t, complete) : pipe::kNoResource;
      pipe::SamplerState s;
      auto wrap = [](GLenum w) {
        return w == GL_CLAMP_TO_EDGE     ? gpu::tex::Wrap::ClampToEdge
               : w == GL_MIRRORED_REPEAT ? gpu::tex::Wrap::MirroredRepeat
                                         : gpu::tex::Wrap::Repeat;
      };
      if (t) {
        s.wrapS = wrap(t->wrapS);
        s.wrapT = wrap(t->wrapT);
        s.wrapR = wrap(t->wrapR);
        s.magFilter =
            t->magFilter == GL_NEAREST ? gpu::tex::Filter::Nearest : gpu::tex::Filter::Linear;
        const GLenum m = t->minFilter;
        s.minFilter =
            m == GL_NEAREST || m == GL_NEAREST_MIPMAP_NEAREST || m == GL_NEAREST_MIPMAP_LINEAR
                ? gpu::tex::Filter::Nearest
                : gpu::tex::Filter::Linear;
        s.mipFilter = m == GL_NEAREST || m == GL_LINEAR ? gpu::tex::MipFilter::None
                      : m == GL_NEAREST_MIPMAP_NEAREST || m == GL_LINEAR_MIPMAP_NEAREST
                          ? gpu::tex::MipFilter::Nearest
                          : gpu::tex::MipFilter::Linear;
        // EXT_shadow_samplers: shadow lookups compare when the texture asks for it.
        s.compare = t->compareMode == kCompareRefToTexture;
        s.compareFunc = static_cast<gpu::tex::CompareFunc>(t->compareFunc - GL_NEVER);
        // EXT_texture_filter_anisotropic: the unit takes whole probe counts up to its maximum.
        s.maxAnisotropy = static_cast<uint8_t>(
            std::min<GLfloat>(t->maxAnisotropy, static_cast<GLfloat>(gpu::tex::kMaxAnisotropy)));
      }
      const pipe::ResourceId bound = complete ? res : pipe::kNoResource;
      pipe_.setTexture(pipe::ShaderStage::Vertex, slot, bound, s);
      pipe_.setTexture(pipe::ShaderStage::Fragment, slot, bound, s);
    }
  }
  return true;
}

bool Context::prepareDraw(GLenum mode) {
  const std::optional<pipe::Primitive> primitive = primitiveOf(mode);
  if (!primitive) {
    error(GL_INVALID_ENUM);
    return false;
  }
  Program* p = currentProgram_ ? programs_.find(currentProgram_) : nullptr;
  if (!targetComplete()) return false;
  if (!p || !p->linked) return false;                       // nothing is drawn (§2.10.3)
  if (!boundFramebuffer_ && !default_.color) return false;  // no surface bound
  // EXT_robustness: a lost context's draws are dropped quietly.
  if (lost()) return false;
  applyState();
  pipe_.bindShaders(p->vs, p->fs);
  pipe_.setConstants(pipe::ShaderStage::Vertex, p->constants);
  pipe_.setConstants(pipe::ShaderStage::Fragment, p->constants);
  return bindTextures(*p);
}

void Context::drawArrays(GLenum mode, GLint first, GLsizei count) {
  if (first < 0 || count < 0) return error(GL_INVALID_VALUE);
  if (!prepareDraw(mode) || count == 0) return;
  Program& p = *programs_.find(currentProgram_);
  std::vector<pipe::ResourceId> temps;
  // A non-zero `first` is applied by giving every array an offset of `first` vertices: the
  // pipe draw always starts at vertex 0.
  const std::array<VertexAttrib, kMaxAttribs> saved = vao().attribs;
  for (VertexAttrib& a : vao().attribs) {
    if (!a.enabled || (!a.buffer && !a.pointer)) continue;  // a null client array stays null
    const AttribFormat f = *attribFormat(a.type, a.normalized);
    const uintptr_t stride =
        a.stride ? static_cast<uintptr_t>(a.stride) : static_cast<uintptr_t>(a.size * f.bytes);
    a.pointer = reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(a.pointer) +
                                              stride * static_cast<uintptr_t>(first));
  }
  const bool ok = bindAttributes(p, static_cast<uint32_t>(count), temps);
  vao().attribs = saved;
  if (!ok) {
    error(GL_INVALID_OPERATION);
  } else {
    pipe_.draw({*primitiveOf(mode), static_cast<uint32_t>(count), pipe::kNoResource,
                pipe::IndexSize::None, 0});
  }
  for (pipe::ResourceId t : temps) pipe_.destroyResource(t);
}

void Context::drawElements(GLenum mode, GLsizei count, GLenum type, const void* indices) {
  if (count < 0) return error(GL_INVALID_VALUE);
  if (type != GL_UNSIGNED_BYTE && type != GL_UNSIGNED_SHORT && type != GL_UNSIGNED_INT)
    return error(GL_INVALID_ENUM);
  if (!prepareDraw(mode) || count == 0) return;
  Program& p = *programs_.find(currentProgram_);
  const size_t indexBytes = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
  const size_t bytes = indexBytes * static_cast<size_t>(count);
  const uint8_t* src = nullptr;
  size_t offset = 0;
  Buffer* eb = vao().elementBuffer ? buffers_.find(vao().elementBuffer) : nullptr;
  if (eb) {
    offset = reinterpret_cast<uintptr_t>(indices);
    if (offset + bytes > eb->data.size()) return error(GL_INVALID_OPERATION);
    src = eb->data.data() + offset;
  } else {
    if (!indices) return error(GL_INVALID_OPERATION);
    src = static_cast<const uint8_t*>(indices);
  }
  // The largest index decides how many vertices client arrays must provide.
  uint32_t maxIndex = 0;
  for (GLsizei k = 0; k < count; ++k) {
    uint32_t v = 0;
    std::memcpy(&v, src + static_cast<size_t>(k) * indexBytes, indexBytes);
    maxIndex = std::max(maxIndex, v);
  }
  std::vector<pipe::ResourceId> temps;
  if (!bindAttributes(p, maxIndex + 1, temps)) {
    error(GL_INVALID_OPERATION);
  } else {
    pipe::ResourceId ib = eb ? eb->resource : pipe::kNoResource;
    if (!eb) {
      ib = pipe_.createBuffer({src, bytes});
      temps.push_back(ib);
      offset = 0;
    }
    const auto size = indexBytes == 1   ? pipe::IndexSize::U8
                      : indexBytes == 2 ? pipe::IndexSize::U16
                                        : pipe::IndexSize::U32;
    pipe_.draw({*primitiveOf(mode), static_cast<uint32_t>(count), ib, size,
                static_cast<uint32_t>(offset)});
  }
  for (pipe::ResourceId t : temps) pipe_.destroyResource(t);
}

void Context::clear(GLbitfield mask) {
  if (mask & ~(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
    return error(GL_INVALID_VALUE);
  if (!targetComplete()) return;
  const Target t = target();
  if (!t.fb.color && !t.fb.depth) return;
  if (lost()) return;  // EXT_robustness: dropped quietly, as draws
  applyState();
  uint32_t buffers = 0;
  if ((mask & GL_COLOR_BUFFER_BIT) && t.fb.color) buffers |= pipe::kClearColor;
  if ((mask & GL_DEPTH_BUFFER_BIT) && t.fb.depth) buffers |= pipe::kClearDepth;
  if ((mask & GL_STENCIL_BUFFER_BIT) && t.fb.depth && t.stencil) buffers |= pipe::kClearStencil;
  if (!buffers) return;
  std::array<float, 4> c;
  for (size_t k = 0; k < 4; ++k) c[k] = std::clamp(clearColor_[k], 0.0f, 1.0f);
  pipe_.clear(buffers, c, clearDepth_, static_cast<uint8_t>(clearStencil_));
}

// The colour buffer's pixels of a rectangle as RGBA8, row by row from the bottom, tightly packed
// (`pitch` bytes per row); pixels outside the framebuffer are left as they are in `out`.
// False (with the error set) when the framebuffer cannot be read.
bool Context::readColor(GLint x, GLint y, GLsizei w, GLsizei h, size_t pitch, uint8_t* out) {
  if (!targetComplete()) return false;
  const Target t = target();
  if (!t.fb.color) {
    error(GL_INVALID_OPERATION);
    return false;
  }
  pipe_.flush();
  const std::vector<uint8_t> surface = pipe_.readSurface(t.fb.color);
  // The surface's format follows from its channel sizes (8-bit colour is always RGBA8 memory).
  gpu::rb::ColorFormat format = gpu::rb::ColorFormat::RGBA8;
  if (t.red != 8) {
    for (size_t f = 0; f < gpu::rb::kColorLayouts.size(); ++f) {
      const auto& bits = gpu::rb::kColorLayouts[f].bits;
      if (bits[0] == t.red && bits[1] == t.green && bits[2] == t.blue && bits[3] == t.alpha)
        format = static_cast<gpu::rb::ColorFormat>(f);
    }
  }
  const uint32_t bpp = gpu::rb::layoutOf(format).bytes;
  // The part of the rectangle inside the framebuffer, in 64 bits (x + width may pass GLint);
  // pixels outside it are undefined and left untouched.
  const int64_t c0 = std::max<int64_t>(0, -int64_t{x});
  const int64_t c1 = std::min<int64_t>(w, int64_t{t.fb.width} - x);
  const int64_t r0 = std::max<int64_t>(0, -int64_t{y});
  const int64_t r1 = std::min<int64_t>(h, int64_t{t.fb.height} - y);
  for (int64_t r = r0; r < r1 && c0 < c1; ++r) {
    const size_t at = (static_cast<size_t>(y + r) * t.fb.width + static_cast<size_t>(x + c0)) * bpp;
    uint8_t* row = out + static_cast<size_t>(r) * pitch + static_cast<size_t>(c0) * 4;
    gpu::rb::toRgba8(format, surface.data() + at, static_cast<size_t>(c1 - c0), row);
    if (t.alpha == 0) {  // §4.3.1: an RGB colour buffer's alpha reads as 1
      for (int64_t c = 0; c < c1 - c0; ++c) row[c * 4 + 3] = 255;
    }
  }
  return true;
}

void Context::readPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
                         void* data) {
  if (w < 0 || h < 0) return error(GL_INVALID_VALUE);
  // RGBA/UNSIGNED_BYTE always; the implementation read format is the same (§4.3.1).
  if ((format != GL_RGBA && format != GL_RGB && format != GL_ALPHA) ||
      (type != GL_UNSIGNED_BYTE && type != GL_UNSIGNED_SHORT_5_6_5 &&
       type != GL_UNSIGNED_SHORT_4_4_4_4 && type != GL_UNSIGNED_SHORT_5_5_5_1))
    return error(GL_INVALID_ENUM);
  if (format != GL_RGBA || type != GL_UNSIGNED_BYTE) return error(GL_INVALID_OPERATION);
  if (!data || w == 0 || h == 0) {
    targetComplete();
    return;
  }
  const size_t row = static_cast<size_t>(w) * 4;
  const size_t pitch = (row + static_cast<size_t>(packAlignment_) - 1) /
                       static_cast<size_t>(packAlignment_) * static_cast<size_t>(packAlignment_);
  readColor(x, y, w, h, pitch, static_cast<uint8_t*>(data));
}

// EXT_discard_framebuffer: the application no longer needs these contents, so a tiler need not
// resolve them (the driver skips their resolve).
void Context::discardFramebuffer(GLenum target, GLsizei count, const GLenum* attachments) {
  if (target != GL_FRAMEBUFFER) return error(GL_INVALID_ENUM);
  if (count < 0) return error(GL_INVALID_VALUE);
  uint32_t buffers = 0;
  for (GLsizei k = 0; k < count; ++k) {
    const GLenum a = attachments[k];
    const bool window = boundFramebuffer_ == 0;
    if (a == (window ? 0x1800u : GL_COLOR_ATTACHMENT0)) {
      buffers |= pipe::kClearColor;
    } else if (a == (window ? 0x1801u : GL_DEPTH_ATTACHMENT)) {
      buffers |= pipe::kClearDepth;
    } else if (a == (window ? 0x1802u : GL_STENCIL_ATTACHMENT)) {
      buffers |= pipe::kClearStencil;
    } else {
      return error(GL_INVALID_ENUM);
    }
  }
  if (!buffers || this->target().status != GL_FRAMEBUFFER_COMPLETE) return;
  applyState();
  pipe_.invalidate(buffers);
}

void Context::discardWindowAncillaryBuffers() {
  // With a framebuffer object bound the frame's batch does not hold the window's buffers.
  if (boundFramebuffer_ != 0 || default_.depth == pipe::kNoResource) return;
  applyState();
  pipe_.invalidate(pipe::kClearDepth | pipe::kClearStencil);
}

// A lost context has nothing to submit (EXT_robustness).
void Context::flush() {
  if (!lost()) pipe_.flush();
}
void Context::finish() {
  if (!lost()) pipe_.finish();
}

}  // namespace tessera::gles2
