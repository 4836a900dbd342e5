// The GLES 2.0 C API: each entry point forwards to the calling thread's current context
// (without one, calls do nothing and queries return zero). Failures below the GL layer (out of
// GPU memory, a faulting submission) become GL_OUT_OF_MEMORY and a message on stderr; nothing
// escapes into the application.
#include <GLES2/gl2.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "api/gles2/gl_context.h"

using tessera::gles2::Context;

namespace {

template <typename R, typename F>
R forward(R fallback, F&& body) {
  Context* c = tessera::gles2::current();
  if (!c) return fallback;
  try {
    return body(c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    c->error(GL_OUT_OF_MEMORY);
    return fallback;
  }
}

}  // namespace

extern "C" {

GL_APICALL void GL_APIENTRY glActiveTexture(GLenum texture) {
  forward(0, [&](Context* c) {
    c->activeTexture(texture);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glAttachShader(GLuint program, GLuint shader) {
  forward(0, [&](Context* c) {
    c->attachShader(program, shader);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindAttribLocation(GLuint program, GLuint index, const GLchar* name) {
  forward(0, [&](Context* c) {
    c->bindAttribLocation(program, index, name);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindBuffer(GLenum target, GLuint buffer) {
  forward(0, [&](Context* c) {
    c->bindBuffer(target, buffer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindTexture(GLenum target, GLuint texture) {
  forward(0, [&](Context* c) {
    c->bindTexture(target, texture);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  forward(0, [&](Context* c) {
    c->blendColor(r, g, b, a);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBlendEquation(GLenum mode) {
  forward(0, [&](Context* c) {
    c->blendEquation(mode, mode);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
  forward(0, [&](Context* c) {
    c->blendEquation(rgb, alpha);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBlendFunc(GLenum src, GLenum dst) {
  forward(0, [&](Context* c) {
    c->blendFunc(src, dst, src, dst);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBlendFuncSeparate(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha,
                                                GLenum dstAlpha) {
  forward(0, [&](Context* c) {
    c->blendFunc(srcRgb, dstRgb, srcAlpha, dstAlpha);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBufferData(GLenum target, GLsizeiptr size, const void* data,
                                         GLenum usage) {
  forward(0, [&](Context* c) {
    c->bufferData(target, size, data, usage);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size,
                                            const void* data) {
  forward(0, [&](Context* c) {
    c->bufferSubData(target, offset, size, data);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glClear(GLbitfield mask) {
  forward(0, [&](Context* c) {
    c->clear(mask);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  forward(0, [&](Context* c) {
    c->clearColor(r, g, b, a);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glClearDepthf(GLfloat d) {
  forward(0, [&](Context* c) {
    c->clearDepth(d);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glClearStencil(GLint s) {
  forward(0, [&](Context* c) {
    c->clearStencil(s);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
  forward(0, [&](Context* c) {
    c->colorMask(r, g, b, a);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glCompileShader(GLuint shader) {
  forward(0, [&](Context* c) {
    c->compileShader(shader);
    return 0;
  });
}

GL_APICALL GLuint GL_APIENTRY glCreateProgram() {
  return forward<GLuint>(0, [&](Context* c) -> GLuint { return c->createProgram(); });
}

GL_APICALL GLuint GL_APIENTRY glCreateShader(GLenum type) {
  return forward<GLuint>(0, [&](Context* c) -> GLuint { return c->createShader(type); });
}

GL_APICALL void GL_APIENTRY glCullFace(GLenum mode) {
  forward(0, [&](Context* c) {
    c->cullFace(mode);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  forward(0, [&](Context* c) {
    c->deleteBuffers(n, buffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteProgram(GLuint program) {
  forward(0, [&](Context* c) {
    c->deleteProgram(program);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteShader(GLuint shader) {
  forward(0, [&](Context* c) {
    c->deleteShader(shader);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteTextures(GLsizei n, const GLuint* textures) {
  forward(0, [&](Context* c) {
    c->deleteTextures(n, textures);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDepthFunc(GLenum func) {
  forward(0, [&](Context* c) {
    c->depthFunc(func);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDepthMask(GLboolean flag) {
  forward(0, [&](Context* c) {
    c->depthMask(flag);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDepthRangef(GLfloat n, GLfloat f) {
  forward(0, [&](Context* c) {
    c->depthRange(n, f);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDetachShader(GLuint program, GLuint shader) {
  forward(0, [&](Context* c) {
    c->detachShader(program, shader);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDisable(GLenum cap) {
  forward(0, [&](Context* c) {
    c->enable(cap, false);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDisableVertexAttribArray(GLuint index) {
  forward(0, [&](Context* c) {
    c->enableVertexAttribArray(index, false);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDrawArrays(GLenum mode, GLint first, GLsizei count) {
  forward(0, [&](Context* c) {
    c->drawArrays(mode, first, count);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDrawElements(GLenum mode, GLsizei count, GLenum type,
                                           const void* indices) {
  forward(0, [&](Context* c) {
    c->drawElements(mode, count, type, indices);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glEnable(GLenum cap) {
  forward(0, [&](Context* c) {
    c->enable(cap, true);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glEnableVertexAttribArray(GLuint index) {
  forward(0, [&](Context* c) {
    c->enableVertexAttribArray(index, true);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glFinish() {
  forward(0, [&](Context* c) {
    c->finish();
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glFlush() {
  forward(0, [&](Context* c) {
    c->flush();
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glFrontFace(GLenum mode) {
  forward(0, [&](Context* c) {
    c->frontFace(mode);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenBuffers(GLsizei n, GLuint* buffers) {
  forward(0, [&](Context* c) {
    c->genBuffers(n, buffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenerateMipmap(GLenum target) {
  forward(0, [&](Context* c) {
    c->generateMipmap(target);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenTextures(GLsizei n, GLuint* textures) {
  forward(0, [&](Context* c) {
    c->genTextures(n, textures);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize,
                                              GLsizei* length, GLint* size, GLenum* type,
                                              GLchar* name) {
  forward(0, [&](Context* c) {
    c->getActiveAttrib(program, index, bufSize, length, size, type, name);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize,
                                               GLsizei* length, GLint* size, GLenum* type,
                                               GLchar* name) {
  forward(0, [&](Context* c) {
    c->getActiveUniform(program, index, bufSize, length, size, type, name);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei* count,
                                                 GLuint* shaders) {
  forward(0, [&](Context* c) {
    c->getAttachedShaders(program, maxCount, count, shaders);
    return 0;
  });
}

GL_APICALL GLint GL_APIENTRY glGetAttribLocation(GLuint program, const GLchar* name) {
  return forward<GLint>(-1,
                        [&](Context* c) -> GLint { return c->getAttribLocation(program, name); });
}

GL_APICALL void GL_APIENTRY glGetBooleanv(GLenum pname, GLboolean* data) {
  forward(0, [&](Context* c) {
    c->getBooleanv(pname, data);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getBufferParameter(target, pname, params);
    return 0;
  });
}

GL_APICALL GLenum GL_APIENTRY glGetError() {
  return forward<GLenum>(GL_NO_ERROR, [&](Context* c) -> GLenum { return c->takeError(); });
}

GL_APICALL void GL_APIENTRY glGetFloatv(GLenum pname, GLfloat* data) {
  forward(0, [&](Context* c) {
    c->getFloatv(pname, data);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetIntegerv(GLenum pname, GLint* data) {
  forward(0, [&](Context* c) {
    c->getIntegerv(pname, data);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetProgramiv(GLuint program, GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getProgramiv(program, pname, params);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei* length,
                                                GLchar* infoLog) {
  forward(0, [&](Context* c) {
    c->getProgramInfoLog(program, bufSize, length, infoLog);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetShaderiv(GLuint shader, GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getShaderiv(shader, pname, params);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei* length,
                                               GLchar* infoLog) {
  forward(0, [&](Context* c) {
    c->getShaderInfoLog(shader, bufSize, length, infoLog);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype,
                                                       GLint* range, GLint* precision) {
  forward(0, [&](Context* c) {
    c->getShaderPrecisionFormat(shadertype, precisiontype, range, precision);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetShaderSource(GLuint shader, GLsizei bufSize, GLsizei* length,
                                              GLchar* source) {
  forward(0, [&](Context* c) {
    c->getShaderSource(shader, bufSize, length, source);
    return 0;
  });
}

GL_APICALL const GLubyte* GL_APIENTRY glGetString(GLenum name) {
  return forward<const GLubyte*>(nullptr,
                                 [&](Context* c) -> const GLubyte* { return c->getString(name); });
}

GL_APICALL void GL_APIENTRY glGetTexParameteriv(GLenum target, GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getTexParameter(target, pname, params);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetTexParameterfv(GLenum target, GLenum pname, GLfloat* params) {
  forward(0, [&](Context* c) {
    GLint v = 0;
    c->getTexParameter(target, pname, &v);
    *params = static_cast<GLfloat>(v);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  forward(0, [&](Context* c) {
    c->getUniform(program, location, params, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetUniformiv(GLuint program, GLint location, GLint* params) {
  forward(0, [&](Context* c) {
    c->getUniform(program, location, nullptr, params);
    return 0;
  });
}

GL_APICALL GLint GL_APIENTRY glGetUniformLocation(GLuint program, const GLchar* name) {
  return forward<GLint>(-1,
                        [&](Context* c) -> GLint { return c->getUniformLocation(program, name); });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribfv(GLuint index, GLenum pname, GLfloat* params) {
  forward(0, [&](Context* c) {
    c->getVertexAttrib(index, pname, params, nullptr, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribiv(GLuint index, GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getVertexAttrib(index, pname, nullptr, params, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribPointerv(GLuint index, GLenum pname, void** pointer) {
  forward(0, [&](Context* c) {
    c->getVertexAttrib(index, pname, nullptr, nullptr, pointer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glHint(GLenum target, GLenum mode) {
  forward(0, [&](Context* c) {
    c->hint(target, mode);
    return 0;
  });
}

GL_APICALL GLboolean GL_APIENTRY glIsBuffer(GLuint buffer) {
  return forward<GLboolean>(GL_FALSE, [&](Context* c) -> GLboolean { return c->isBuffer(buffer); });
}

GL_APICALL GLboolean GL_APIENTRY glIsEnabled(GLenum cap) {
  return forward<GLboolean>(GL_FALSE, [&](Context* c) -> GLboolean { return c->isEnabled(cap); });
}

GL_APICALL GLboolean GL_APIENTRY glIsProgram(GLuint program) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->isProgram(program); });
}

GL_APICALL GLboolean GL_APIENTRY glIsShader(GLuint shader) {
  return forward<GLboolean>(GL_FALSE, [&](Context* c) -> GLboolean { return c->isShader(shader); });
}

GL_APICALL GLboolean GL_APIENTRY glIsTexture(GLuint texture) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->isTexture(texture); });
}

GL_APICALL void GL_APIENTRY glLineWidth(GLfloat width) {
  forward(0, [&](Context* c) {
    c->lineWidth(width);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glLinkProgram(GLuint program) {
  forward(0, [&](Context* c) {
    c->linkProgram(program);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glPixelStorei(GLenum pname, GLint param) {
  forward(0, [&](Context* c) {
    c->pixelStore(pname, param);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glPolygonOffset(GLfloat factor, GLfloat units) {
  forward(0, [&](Context* c) {
    c->polygonOffset(factor, units);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height,
                                         GLenum format, GLenum type, void* pixels) {
  forward(0, [&](Context* c) {
    c->readPixels(x, y, width, height, format, type, pixels);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glReleaseShaderCompiler() {
  forward(0, [&](Context* c) {
    (void)c;
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glSampleCoverage(GLfloat value, GLboolean invert) {
  forward(0, [&](Context* c) {
    c->sampleCoverage(value, invert);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
  forward(0, [&](Context* c) {
    c->scissor(x, y, width, height);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glShaderBinary(GLsizei count, const GLuint* shaders,
                                           GLenum binaryformat, const void* binary,
                                           GLsizei length) {
  forward(0, [&](Context* c) {
    (void)count, (void)shaders, (void)binaryformat, (void)binary, (void)length;
    c->error(GL_INVALID_ENUM);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glShaderSource(GLuint shader, GLsizei count,
                                           const GLchar* const* string, const GLint* length) {
  forward(0, [&](Context* c) {
    c->shaderSource(shader, count, string, length);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilFunc(GLenum func, GLint ref, GLuint mask) {
  forward(0, [&](Context* c) {
    c->stencilFunc(GL_FRONT_AND_BACK, func, ref, mask);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilFuncSeparate(GLenum face, GLenum func, GLint ref,
                                                  GLuint mask) {
  forward(0, [&](Context* c) {
    c->stencilFunc(face, func, ref, mask);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilMask(GLuint mask) {
  forward(0, [&](Context* c) {
    c->stencilMask(GL_FRONT_AND_BACK, mask);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilMaskSeparate(GLenum face, GLuint mask) {
  forward(0, [&](Context* c) {
    c->stencilMask(face, mask);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilOp(GLenum fail, GLenum zfail, GLenum zpass) {
  forward(0, [&](Context* c) {
    c->stencilOp(GL_FRONT_AND_BACK, fail, zfail, zpass);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glStencilOpSeparate(GLenum face, GLenum fail, GLenum zfail,
                                                GLenum zpass) {
  forward(0, [&](Context* c) {
    c->stencilOp(face, fail, zfail, zpass);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexImage2D(GLenum target, GLint level, GLint internalformat,
                                         GLsizei width, GLsizei height, GLint border, GLenum format,
                                         GLenum type, const void* pixels) {
  forward(0, [&](Context* c) {
    c->texImage2D(target, level, internalformat, width, height, border, format, type, pixels);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexParameteri(GLenum target, GLenum pname, GLint param) {
  forward(0, [&](Context* c) {
    c->texParameter(target, pname, param);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexParameterf(GLenum target, GLenum pname, GLfloat param) {
  forward(0, [&](Context* c) {
    c->texParameter(target, pname, static_cast<GLint>(param));
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexParameteriv(GLenum target, GLenum pname, const GLint* params) {
  forward(0, [&](Context* c) {
    c->texParameter(target, pname, params[0]);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexParameterfv(GLenum target, GLenum pname, const GLfloat* params) {
  forward(0, [&](Context* c) {
    c->texParameter(target, pname, static_cast<GLint>(params[0]));
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glCompressedTexImage2D(GLenum target, GLint level,
                                                   GLenum internalformat, GLsizei width,
                                                   GLsizei height, GLint border, GLsizei imageSize,
                                                   const void*) {
  forward(0, [&](Context* c) {
    c->compressedTexImage2D(target, level, internalformat, width, height, border, imageSize);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glCompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                                      GLint yoffset, GLsizei width, GLsizei height,
                                                      GLenum format, GLsizei imageSize,
                                                      const void*) {
  forward(0, [&](Context* c) {
    c->compressedTexSubImage2D(target, level, xoffset, yoffset, width, height, format, imageSize);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                            GLint yoffset, GLsizei width, GLsizei height,
                                            GLenum format, GLenum type, const void* pixels) {
  forward(0, [&](Context* c) {
    c->texSubImage2D(target, level, xoffset, yoffset, width, height, format, type, pixels);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform1f(GLint location, GLfloat v0) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0};
    c->uniform(location, 1, 1, v, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform1i(GLint location, GLint v0) {
  forward(0, [&](Context* c) {
    const GLint v[] = {v0};
    c->uniform(location, 1, 1, nullptr, v);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform1fv(GLint location, GLsizei count, const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 1, value, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform1iv(GLint location, GLsizei count, const GLint* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 1, nullptr, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib1f(GLuint index, GLfloat v0) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0};
    c->vertexAttrib(index, v, 1);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib1fv(GLuint index, const GLfloat* v) {
  forward(0, [&](Context* c) {
    c->vertexAttrib(index, v, 1);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform2f(GLint location, GLfloat v0, GLfloat v1) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1};
    c->uniform(location, 1, 2, v, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform2i(GLint location, GLint v0, GLint v1) {
  forward(0, [&](Context* c) {
    const GLint v[] = {v0, v1};
    c->uniform(location, 1, 2, nullptr, v);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform2fv(GLint location, GLsizei count, const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 2, value, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform2iv(GLint location, GLsizei count, const GLint* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 2, nullptr, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniformMatrix2fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniformMatrix(location, count, 2, transpose, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib2f(GLuint index, GLfloat v0, GLfloat v1) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1};
    c->vertexAttrib(index, v, 2);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib2fv(GLuint index, const GLfloat* v) {
  forward(0, [&](Context* c) {
    c->vertexAttrib(index, v, 2);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform3f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1, v2};
    c->uniform(location, 1, 3, v, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform3i(GLint location, GLint v0, GLint v1, GLint v2) {
  forward(0, [&](Context* c) {
    const GLint v[] = {v0, v1, v2};
    c->uniform(location, 1, 3, nullptr, v);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform3fv(GLint location, GLsizei count, const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 3, value, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform3iv(GLint location, GLsizei count, const GLint* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 3, nullptr, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniformMatrix3fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniformMatrix(location, count, 3, transpose, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib3f(GLuint index, GLfloat v0, GLfloat v1, GLfloat v2) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1, v2};
    c->vertexAttrib(index, v, 3);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib3fv(GLuint index, const GLfloat* v) {
  forward(0, [&](Context* c) {
    c->vertexAttrib(index, v, 3);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform4f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2,
                                        GLfloat v3) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1, v2, v3};
    c->uniform(location, 1, 4, v, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform4i(GLint location, GLint v0, GLint v1, GLint v2, GLint v3) {
  forward(0, [&](Context* c) {
    const GLint v[] = {v0, v1, v2, v3};
    c->uniform(location, 1, 4, nullptr, v);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform4fv(GLint location, GLsizei count, const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 4, value, nullptr);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniform4iv(GLint location, GLsizei count, const GLint* value) {
  forward(0, [&](Context* c) {
    c->uniform(location, count, 4, nullptr, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUniformMatrix4fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  forward(0, [&](Context* c) {
    c->uniformMatrix(location, count, 4, transpose, value);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib4f(GLuint index, GLfloat v0, GLfloat v1, GLfloat v2,
                                             GLfloat v3) {
  forward(0, [&](Context* c) {
    const GLfloat v[] = {v0, v1, v2, v3};
    c->vertexAttrib(index, v, 4);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib4fv(GLuint index, const GLfloat* v) {
  forward(0, [&](Context* c) {
    c->vertexAttrib(index, v, 4);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glUseProgram(GLuint program) {
  forward(0, [&](Context* c) {
    c->useProgram(program);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glValidateProgram(GLuint program) {
  forward(0, [&](Context* c) {
    c->validateProgram(program);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glVertexAttribPointer(GLuint index, GLint size, GLenum type,
                                                  GLboolean normalized, GLsizei stride,
                                                  const void* pointer) {
  forward(0, [&](Context* c) {
    c->vertexAttribPointer(index, size, type, normalized, stride, pointer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
  forward(0, [&](Context* c) {
    c->viewport(x, y, width, height);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenFramebuffers(GLsizei n, GLuint* framebuffers) {
  forward(0, [&](Context* c) {
    c->genFramebuffers(n, framebuffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteFramebuffers(GLsizei n, const GLuint* framebuffers) {
  forward(0, [&](Context* c) {
    c->deleteFramebuffers(n, framebuffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindFramebuffer(GLenum target, GLuint framebuffer) {
  forward(0, [&](Context* c) {
    c->bindFramebuffer(target, framebuffer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glFramebufferTexture2D(GLenum target, GLenum attachment,
                                                   GLenum textarget, GLuint texture, GLint level) {
  forward(0, [&](Context* c) {
    c->framebufferTexture2D(target, attachment, textarget, texture, level);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glFramebufferRenderbuffer(GLenum target, GLenum attachment,
                                                      GLenum renderbuffertarget,
                                                      GLuint renderbuffer) {
  forward(0, [&](Context* c) {
    c->framebufferRenderbuffer(target, attachment, renderbuffertarget, renderbuffer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment,
                                                                  GLenum pname, GLint* params) {
  forward(0, [&](Context* c) {
    c->getFramebufferAttachmentParameter(target, attachment, pname, params);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenRenderbuffers(GLsizei n, GLuint* renderbuffers) {
  forward(0, [&](Context* c) {
    c->genRenderbuffers(n, renderbuffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteRenderbuffers(GLsizei n, const GLuint* renderbuffers) {
  forward(0, [&](Context* c) {
    c->deleteRenderbuffers(n, renderbuffers);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindRenderbuffer(GLenum target, GLuint renderbuffer) {
  forward(0, [&](Context* c) {
    c->bindRenderbuffer(target, renderbuffer);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glRenderbufferStorage(GLenum target, GLenum internalformat,
                                                  GLsizei width, GLsizei height) {
  forward(0, [&](Context* c) {
    c->renderbufferStorage(target, internalformat, width, height);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGetRenderbufferParameteriv(GLenum target, GLenum pname,
                                                         GLint* params) {
  forward(0, [&](Context* c) {
    c->getRenderbufferParameter(target, pname, params);
    return 0;
  });
}

GL_APICALL GLenum GL_APIENTRY glCheckFramebufferStatus(GLenum target) {
  return forward<GLenum>(0,
                         [&](Context* c) -> GLenum { return c->checkFramebufferStatus(target); });
}

GL_APICALL GLboolean GL_APIENTRY glIsFramebuffer(GLuint framebuffer) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->isFramebuffer(framebuffer); });
}

GL_APICALL GLboolean GL_APIENTRY glIsRenderbuffer(GLuint renderbuffer) {
  return forward<GLboolean>(
      GL_FALSE, [&](Context* c) -> GLboolean { return c->isRenderbuffer(renderbuffer); });
}

GL_APICALL void* GL_APIENTRY glMapBufferOES(GLenum target, GLenum access) {
  return forward<void*>(nullptr, [&](Context* c) -> void* { return c->mapBuffer(target, access); });
}

GL_APICALL GLboolean GL_APIENTRY glUnmapBufferOES(GLenum target) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->unmapBuffer(target); });
}

GL_APICALL void GL_APIENTRY glGetBufferPointervOES(GLenum target, GLenum pname, void** params) {
  forward(0, [&](Context* c) {
    c->getBufferPointer(target, pname, params);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat,
                                             GLint x, GLint y, GLsizei width, GLsizei height,
                                             GLint border) {
  forward(0, [&](Context* c) {
    c->copyTexImage2D(target, level, internalformat, x, y, width, height, border);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                                GLint yoffset, GLint x, GLint y, GLsizei width,
                                                GLsizei height) {
  forward(0, [&](Context* c) {
    c->copyTexSubImage2D(target, level, xoffset, yoffset, x, y, width, height);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDiscardFramebufferEXT(GLenum target, GLsizei numAttachments,
                                                    const GLenum* attachments) {
  forward(0, [&](Context* c) {
    c->discardFramebuffer(target, numAttachments, attachments);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glGenVertexArraysOES(GLsizei n, GLuint* arrays) {
  forward(0, [&](Context* c) {
    c->genVertexArrays(n, arrays);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glDeleteVertexArraysOES(GLsizei n, const GLuint* arrays) {
  forward(0, [&](Context* c) {
    c->deleteVertexArrays(n, arrays);
    return 0;
  });
}

GL_APICALL void GL_APIENTRY glBindVertexArrayOES(GLuint array) {
  forward(0, [&](Context* c) {
    c->bindVertexArray(array);
    return 0;
  });
}

GL_APICALL GLboolean GL_APIENTRY glIsVertexArrayOES(GLuint array) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->isVertexArray(array); });
}

}  // extern "C"

namespace tessera::gles2 {

// Every entry point by name, for eglGetProcAddress.
void* procAddress(const char* name) {
  static const struct {
    const char* name;
    void* fn;
  } kProcs[] = {
      {"glActiveTexture", reinterpret_cast<void*>(&glActiveTexture)},
      {"glAttachShader", reinterpret_cast<void*>(&glAttachShader)},
      {"glBindAttribLocation", reinterpret_cast<void*>(&glBindAttribLocation)},
      {"glBindBuffer", reinterpret_cast<void*>(&glBindBuffer)},
      {"glBindTexture", reinterpret_cast<void*>(&glBindTexture)},
      {"glBlendColor", reinterpret_cast<void*>(&glBlendColor)},
      {"glBlendEquation", reinterpret_cast<void*>(&glBlendEquation)},
      {"glBlendEquationSeparate", reinterpret_cast<void*>(&glBlendEquationSeparate)},
      {"glBlendFunc", reinterpret_cast<void*>(&glBlendFunc)},
      {"glBlendFuncSeparate", reinterpret_cast<void*>(&glBlendFuncSeparate)},
      {"glBufferData", reinterpret_cast<void*>(&glBufferData)},
      {"glBufferSubData", reinterpret_cast<void*>(&glBufferSubData)},
      {"glClear", reinterpret_cast<void*>(&glClear)},
      {"glClearColor", reinterpret_cast<void*>(&glClearColor)},
      {"glClearDepthf", reinterpret_cast<void*>(&glClearDepthf)},
      {"glClearStencil", reinterpret_cast<void*>(&glClearStencil)},
      {"glColorMask", reinterpret_cast<void*>(&glColorMask)},
      {"glCompileShader", reinterpret_cast<void*>(&glCompileShader)},
      {"glCreateProgram", reinterpret_cast<void*>(&glCreateProgram)},
      {"glCreateShader", reinterpret_cast<void*>(&glCreateShader)},
      {"glCullFace", reinterpret_cast<void*>(&glCullFace)},
      {"glDeleteBuffers", reinterpret_cast<void*>(&glDeleteBuffers)},
      {"glDeleteProgram", reinterpret_cast<void*>(&glDeleteProgram)},
      {"glDeleteShader", reinterpret_cast<void*>(&glDeleteShader)},
      {"glDeleteTextures", reinterpret_cast<void*>(&glDeleteTextures)},
      {"glDepthFunc", reinterpret_cast<void*>(&glDepthFunc)},
      {"glDepthMask", reinterpret_cast<void*>(&glDepthMask)},
      {"glDepthRangef", reinterpret_cast<void*>(&glDepthRangef)},
      {"glDetachShader", reinterpret_cast<void*>(&glDetachShader)},
      {"glDisable", reinterpret_cast<void*>(&glDisable)},
      {"glDisableVertexAttribArray", reinterpret_cast<void*>(&glDisableVertexAttribArray)},
      {"glDrawArrays", reinterpret_cast<void*>(&glDrawArrays)},
      {"glDrawElements", reinterpret_cast<void*>(&glDrawElements)},
      {"glEnable", reinterpret_cast<void*>(&glEnable)},
      {"glEnableVertexAttribArray", reinterpret_cast<void*>(&glEnableVertexAttribArray)},
      {"glFinish", reinterpret_cast<void*>(&glFinish)},
      {"glFlush", reinterpret_cast<void*>(&glFlush)},
      {"glFrontFace", reinterpret_cast<void*>(&glFrontFace)},
      {"glGenBuffers", reinterpret_cast<void*>(&glGenBuffers)},
      {"glGenerateMipmap", reinterpret_cast<void*>(&glGenerateMipmap)},
      {"glGenTextures", reinterpret_cast<void*>(&glGenTextures)},
      {"glGetActiveAttrib", reinterpret_cast<void*>(&glGetActiveAttrib)},
      {"glGetActiveUniform", reinterpret_cast<void*>(&glGetActiveUniform)},
      {"glGetAttachedShaders", reinterpret_cast<void*>(&glGetAttachedShaders)},
      {"glGetAttribLocation", reinterpret_cast<void*>(&glGetAttribLocation)},
      {"glGetBooleanv", reinterpret_cast<void*>(&glGetBooleanv)},
      {"glGetBufferParameteriv", reinterpret_cast<void*>(&glGetBufferParameteriv)},
      {"glGetError", reinterpret_cast<void*>(&glGetError)},
      {"glGetFloatv", reinterpret_cast<void*>(&glGetFloatv)},
      {"glGetIntegerv", reinterpret_cast<void*>(&glGetIntegerv)},
      {"glGetProgramiv", reinterpret_cast<void*>(&glGetProgramiv)},
      {"glGetProgramInfoLog", reinterpret_cast<void*>(&glGetProgramInfoLog)},
      {"glGetShaderiv", reinterpret_cast<void*>(&glGetShaderiv)},
      {"glGetShaderInfoLog", reinterpret_cast<void*>(&glGetShaderInfoLog)},
      {"glGetShaderPrecisionFormat", reinterpret_cast<void*>(&glGetShaderPrecisionFormat)},
      {"glGetShaderSource", reinterpret_cast<void*>(&glGetShaderSource)},
      {"glGetString", reinterpret_cast<void*>(&glGetString)},
      {"glGetTexParameteriv", reinterpret_cast<void*>(&glGetTexParameteriv)},
      {"glGetTexParameterfv", reinterpret_cast<void*>(&glGetTexParameterfv)},
      {"glGetUniformfv", reinterpret_cast<void*>(&glGetUniformfv)},
      {"glGetUniformiv", reinterpret_cast<void*>(&glGetUniformiv)},
      {"glGetUniformLocation", reinterpret_cast<void*>(&glGetUniformLocation)},
      {"glGetVertexAttribfv", reinterpret_cast<void*>(&glGetVertexAttribfv)},
      {"glGetVertexAttribiv", reinterpret_cast<void*>(&glGetVertexAttribiv)},
      {"glGetVertexAttribPointerv", reinterpret_cast<void*>(&glGetVertexAttribPointerv)},
      {"glHint", reinterpret_cast<void*>(&glHint)},
      {"glIsBuffer", reinterpret_cast<void*>(&glIsBuffer)},
      {"glIsEnabled", reinterpret_cast<void*>(&glIsEnabled)},
      {"glIsProgram", reinterpret_cast<void*>(&glIsProgram)},
      {"glIsShader", reinterpret_cast<void*>(&glIsShader)},
      {"glIsTexture", reinterpret_cast<void*>(&glIsTexture)},
      {"glLineWidth", reinterpret_cast<void*>(&glLineWidth)},
      {"glLinkProgram", reinterpret_cast<void*>(&glLinkProgram)},
      {"glPixelStorei", reinterpret_cast<void*>(&glPixelStorei)},
      {"glPolygonOffset", reinterpret_cast<void*>(&glPolygonOffset)},
      {"glReadPixels", reinterpret_cast<void*>(&glReadPixels)},
      {"glReleaseShaderCompiler", reinterpret_cast<void*>(&glReleaseShaderCompiler)},
      {"glSampleCoverage", reinterpret_cast<void*>(&glSampleCoverage)},
      {"glScissor", reinterpret_cast<void*>(&glScissor)},
      {"glShaderBinary", reinterpret_cast<void*>(&glShaderBinary)},
      {"glShaderSource", reinterpret_cast<void*>(&glShaderSource)},
      {"glStencilFunc", reinterpret_cast<void*>(&glStencilFunc)},
      {"glStencilFuncSeparate", reinterpret_cast<void*>(&glStencilFuncSeparate)},
      {"glStencilMask", reinterpret_cast<void*>(&glStencilMask)},
      {"glStencilMaskSeparate", reinterpret_cast<void*>(&glStencilMaskSeparate)},
      {"glStencilOp", reinterpret_cast<void*>(&glStencilOp)},
      {"glStencilOpSeparate", reinterpret_cast<void*>(&glStencilOpSeparate)},
      {"glTexImage2D", reinterpret_cast<void*>(&glTexImage2D)},
      {"glTexParameteri", reinterpret_cast<void*>(&glTexParameteri)},
      {"glTexParameterf", reinterpret_cast<void*>(&glTexParameterf)},
      {"glTexParameteriv", reinterpret_cast<void*>(&glTexParameteriv)},
      {"glTexParameterfv", reinterpret_cast<void*>(&glTexParameterfv)},
      {"glTexSubImage2D", reinterpret_cast<void*>(&glTexSubImage2D)},
      {"glCompressedTexImage2D", reinterpret_cast<void*>(&glCompressedTexImage2D)},
      {"glCompressedTexSubImage2D", reinterpret_cast<void*>(&glCompressedTexSubImage2D)},
      {"glUniform1f", reinterpret_cast<void*>(&glUniform1f)},
      {"glUniform1i", reinterpret_cast<void*>(&glUniform1i)},
      {"glUniform1fv", reinterpret_cast<void*>(&glUniform1fv)},
      {"glUniform1iv", reinterpret_cast<void*>(&glUniform1iv)},
      {"glVertexAttrib1f", reinterpret_cast<void*>(&glVertexAttrib1f)},
      {"glVertexAttrib1fv", reinterpret_cast<void*>(&glVertexAttrib1fv)},
      {"glUniform2f", reinterpret_cast<void*>(&glUniform2f)},
      {"glUniform2i", reinterpret_cast<void*>(&glUniform2i)},
      {"glUniform2fv", reinterpret_cast<void*>(&glUniform2fv)},
      {"glUniform2iv", reinterpret_cast<void*>(&glUniform2iv)},
      {"glUniformMatrix2fv", reinterpret_cast<void*>(&glUniformMatrix2fv)},
      {"glVertexAttrib2f", reinterpret_cast<void*>(&glVertexAttrib2f)},
      {"glVertexAttrib2fv", reinterpret_cast<void*>(&glVertexAttrib2fv)},
      {"glUniform3f", reinterpret_cast<void*>(&glUniform3f)},
      {"glUniform3i", reinterpret_cast<void*>(&glUniform3i)},
      {"glUniform3fv", reinterpret_cast<void*>(&glUniform3fv)},
      {"glUniform3iv", reinterpret_cast<void*>(&glUniform3iv)},
      {"glUniformMatrix3fv", reinterpret_cast<void*>(&glUniformMatrix3fv)},
      {"glVertexAttrib3f", reinterpret_cast<void*>(&glVertexAttrib3f)},
      {"glVertexAttrib3fv", reinterpret_cast<void*>(&glVertexAttrib3fv)},
      {"glUniform4f", reinterpret_cast<void*>(&glUniform4f)},
      {"glUniform4i", reinterpret_cast<void*>(&glUniform4i)},
      {"glUniform4fv", reinterpret_cast<void*>(&glUniform4fv)},
      {"glUniform4iv", reinterpret_cast<void*>(&glUniform4iv)},
      {"glUniformMatrix4fv", reinterpret_cast<void*>(&glUniformMatrix4fv)},
      {"glVertexAttrib4f", reinterpret_cast<void*>(&glVertexAttrib4f)},
      {"glVertexAttrib4fv", reinterpret_cast<void*>(&glVertexAttrib4fv)},
      {"glUseProgram", reinterpret_cast<void*>(&glUseProgram)},
      {"glValidateProgram", reinterpret_cast<void*>(&glValidateProgram)},
      {"glVertexAttribPointer", reinterpret_cast<void*>(&glVertexAttribPointer)},
      {"glViewport", reinterpret_cast<void*>(&glViewport)},
      {"glGenFramebuffers", reinterpret_cast<void*>(&glGenFramebuffers)},
      {"glDeleteFramebuffers", reinterpret_cast<void*>(&glDeleteFramebuffers)},
      {"glBindFramebuffer", reinterpret_cast<void*>(&glBindFramebuffer)},
      {"glFramebufferTexture2D", reinterpret_cast<void*>(&glFramebufferTexture2D)},
      {"glFramebufferRenderbuffer", reinterpret_cast<void*>(&glFramebufferRenderbuffer)},
      {"glGetFramebufferAttachmentParameteriv",
       reinterpret_cast<void*>(&glGetFramebufferAttachmentParameteriv)},
      {"glGenRenderbuffers", reinterpret_cast<void*>(&glGenRenderbuffers)},
      {"glDeleteRenderbuffers", reinterpret_cast<void*>(&glDeleteRenderbuffers)},
      {"glBindRenderbuffer", reinterpret_cast<void*>(&glBindRenderbuffer)},
      {"glRenderbufferStorage", reinterpret_cast<void*>(&glRenderbufferStorage)},
      {"glGetRenderbufferParameteriv", reinterpret_cast<void*>(&glGetRenderbufferParameteriv)},
      {"glCheckFramebufferStatus", reinterpret_cast<void*>(&glCheckFramebufferStatus)},
      {"glIsFramebuffer", reinterpret_cast<void*>(&glIsFramebuffer)},
      {"glIsRenderbuffer", reinterpret_cast<void*>(&glIsRenderbuffer)},
      {"glMapBufferOES", reinterpret_cast<void*>(&glMapBufferOES)},
      {"glUnmapBufferOES", reinterpret_cast<void*>(&glUnmapBufferOES)},
      {"glGetBufferPointervOES", reinterpret_cast<void*>(&glGetBufferPointervOES)},
      {"glCopyTexImage2D", reinterpret_cast<void*>(&glCopyTexImage2D)},
      {"glCopyTexSubImage2D", reinterpret_cast<void*>(&glCopyTexSubImage2D)},
      {"glDiscardFramebufferEXT", reinterpret_cast<void*>(&glDiscardFramebufferEXT)},
      {"glGenVertexArraysOES", reinterpret_cast<void*>(&glGenVertexArraysOES)},
      {"glDeleteVertexArraysOES", reinterpret_cast<void*>(&glDeleteVertexArraysOES)},
      {"glBindVertexArrayOES", reinterpret_cast<void*>(&glBindVertexArrayOES)},
      {"glIsVertexArrayOES", reinterpret_cast<void*>(&glIsVertexArrayOES)},
  };
  for (const auto& p : kProcs) {
    if (std::strcmp(p.name, name) == 0) return p.fn;
  }
  return nullptr;
}

}  // namespace tessera::gles2
