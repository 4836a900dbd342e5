// Buffer objects (GLES 2.0 §2.9): data lives in a pipe buffer; the context keeps a copy for
// index-range scans and glGetBufferParameteriv.
#include <cstring>

#include "api/gles2/gl_context.h"

namespace tessera::gles2 {

Buffer* Context::boundBuffer(GLenum target) {
  GLuint name = 0;
  if (target == GL_ARRAY_BUFFER) {
    name = arrayBuffer_;
  } else if (target == GL_ELEMENT_ARRAY_BUFFER) {
    name = vao().elementBuffer;
  } else {
    error(GL_INVALID_ENUM);
    return nullptr;
  }
  if (name == 0) error(GL_INVALID_OPERATION);  // no buffer bound to the target
  return name ? buffers_.find(name) : nullptr;
}

void Context::genBuffers(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = buffers_.create();
}

void Context::deleteBuffers(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    const GLuint name = names[i];
    Buffer* b = name ? buffers_.find(name) : nullptr;
    if (!b) continue;  // unused names and 0 are silently ignored
    // Deleting a bound buffer unbinds it (§2.9).
    if (arrayBuffer_ == name) arrayBuffer_ = 0;
    if (vao().elementBuffer == name) vao().elementBuffer = 0;
    for (VertexAttrib& a : vao().attribs) {
      if (a.buffer == name) a.buffer = 0;
    }
    if (b->resource) pipe_.destroyResource(b->resource);
    buffers_.erase(name);
  }
}

void Context::bindBuffer(GLenum target, GLuint name) {
  if (target != GL_ARRAY_BUFFER && target != GL_ELEMENT_ARRAY_BUFFER) return error(GL_INVALID_ENUM);
  if (name) {
    buffers_.reserve(name);
    buffers_.find(name)->everBound = true;
  }
  (target == GL_ARRAY_BUFFER ? arrayBuffer_ : vao().elementBuffer) = name;
}

void Context::bufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
  if (usage != GL_STREAM_DRAW && usage != GL_STATIC_DRAW && usage != GL_DYNAMIC_DRAW)
    return error(GL_INVALID_ENUM);
  if (size < 0) return error(GL_INVALID_VALUE);
  Buffer* b = boundBuffer(target);
  if (!b) return;
  b->data.assign(static_cast<size_t>(size), 0);
  if (data && size) std::memcpy(b->data.data(), data, static_cast<size_t>(size));
  b->usage = usage;
  if (b->resource) pipe_.destroyResource(b->resource);
  b->resource = pipe_.createBuffer(b->data);
}

void Context::bufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
  if (offset < 0 || size < 0) return error(GL_INVALID_VALUE);
  Buffer* b = boundBuffer(target);
  if (!b) return;
  if (static_cast<size_t>(offset) + static_cast<size_t>(size) > b->data.size())
    return error(GL_INVALID_VALUE);
  if (!data || size == 0) return;
  std::memcpy(b->data.data() + offset, data, static_cast<size_t>(size));
  pipe_.updateBuffer(b->resource, static_cast<uint64_t>(offset),
                     {static_cast<const uint8_t*>(data), static_cast<size_t>(size)});
}

// OES_mapbuffer: the mapping is the context's copy of the data; unmapping hands it to the pipe
// buffer in one update (renamed if pending work still reads the old contents).
void* Context::mapBuffer(GLenum target, GLenum access) {
  if (access != 0x88B9 /* GL_WRITE_ONLY_OES */) {
    error(GL_INVALID_ENUM);
    return nullptr;
  }
  Buffer* b = boundBuffer(target);
  if (!b) return nullptr;
  if (b->mapped) {
    error(GL_INVALID_OPERATION);
    return nullptr;
  }
  b->mapped = true;
  return b->data.empty() ? nullptr : b->data.data();
}

GLboolean Context::unmapBuffer(GLenum target) {
  Buffer* b = boundBuffer(target);
  if (!b) return GL_FALSE;
  if (!b->mapped) {
    error(GL_INVALID_OPERATION);
    return GL_FALSE;
  }
  b->mapped = false;
  if (!b->data.empty()) pipe_.updateBuffer(b->resource, 0, b->data);
  return GL_TRUE;
}

void Context::getBufferPointer(GLenum target, GLenum pname, void** out) {
  if (pname != 0x88BD /* GL_BUFFER_MAP_POINTER_OES */) return error(GL_INVALID_ENUM);
  Buffer* b = boundBuffer(target);
  if (!b) return;
  *out = b->mapped && !b->data.empty() ? b->data.data() : nullptr;
}

GLboolean Context::isBuffer(GLuint name) {
  const Buffer* b = name ? buffers_.find(name) : nullptr;
  return b && b->everBound;
}

void Context::getBufferParameter(GLenum target, GLenum pname, GLint* out) {
  Buffer* b = boundBuffer(target);
  if (!b) return;
  switch (pname) {
    case GL_BUFFER_SIZE:
      *out = static_cast<GLint>(b->data.size());
      return;
    case GL_BUFFER_USAGE:
      *out = static_cast<GLint>(b->usage);
      return;
    case 0x88BB:  // GL_BUFFER_ACCESS_OES
      *out = 0x88B9;
      return;
    case 0x88BC:  // GL_BUFFER_MAPPED_OES
      *out = b->mapped;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

}  // namespace tessera::gles2
