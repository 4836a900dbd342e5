// The GL_EXT_robustness entry points. gl2ext.h's prototypes check the signatures.
#define GL_GLEXT_PROTOTYPES 1
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <cstring>

#include "api/gles2/entry_forward.h"
#include "api/gles2/gl_context.h"

using tessera::gles2::Context;
using tessera::gles2::forward;
using tessera::gles2::run;

extern "C" {

GL_APICALL GLenum GL_APIENTRY glGetGraphicsResetStatusEXT() {
  return forward<GLenum>(GL_NO_ERROR,
                         [&](Context* c) -> GLenum { return c->graphicsResetStatus(); });
}

GL_APICALL void GL_APIENTRY glReadnPixelsEXT(GLint x, GLint y, GLsizei width, GLsizei height,
                                             GLenum format, GLenum type, GLsizei bufSize,
                                             void* data) {
  run([&](Context* c) { c->readnPixels(x, y, width, height, format, type, bufSize, data); });
}

GL_APICALL void GL_APIENTRY glGetnUniformfvEXT(GLuint program, GLint location, GLsizei bufSize,
                                               GLfloat* params) {
  run([&](Context* c) { c->getnUniform(program, location, bufSize, params, nullptr); });
}

GL_APICALL void GL_APIENTRY glGetnUniformivEXT(GLuint program, GLint location, GLsizei bufSize,
                                               GLint* params) {
  run([&](Context* c) { c->getnUniform(program, location, bufSize, nullptr, params); });
}

}  // extern "C"

namespace tessera::gles2 {

void* robustnessProcAddress(const char* name) {
  static const struct {
    const char* name;
    void* fn;
  } kProcs[] = {
      {"glGetGraphicsResetStatusEXT", reinterpret_cast<void*>(&glGetGraphicsResetStatusEXT)},
      {"glReadnPixelsEXT", reinterpret_cast<void*>(&glReadnPixelsEXT)},
      {"glGetnUniformfvEXT", reinterpret_cast<void*>(&glGetnUniformfvEXT)},
      {"glGetnUniformivEXT", reinterpret_cast<void*>(&glGetnUniformivEXT)},
  };
  for (const auto& p : kProcs) {
    if (std::strcmp(p.name, name) == 0) return p.fn;
  }
  return nullptr;
}

}  // namespace tessera::gles2
