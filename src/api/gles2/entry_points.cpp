// The GLES 2.0 C API: each entry point forwards to the calling thread's current context
// (api/gles2/entry_forward.h). The query and performance-monitor entry points are in
// entry_points_queries.cpp.
#include <GLES2/gl2.h>

#include <cstring>

#include "api/gles2/entry_forward.h"
#include "api/gles2/gl_context.h"

using tessera::gles2::Context;
using tessera::gles2::forward;
using tessera::gles2::run;

extern "C" {

GL_APICALL void GL_APIENTRY glActiveTexture(GLenum texture) {
  run([&](Context* c) { c->activeTexture(texture); });
}

GL_APICALL void GL_APIENTRY glAttachShader(GLuint program, GLuint shader) {
  run([&](Context* c) { c->attachShader(program, shader); });
}

GL_APICALL void GL_APIENTRY glBindAttribLocation(GLuint program, GLuint index, const GLchar* name) {
  run([&](Context* c) { c->bindAttribLocation(program, index, name); });
}

GL_APICALL void GL_APIENTRY glBindBuffer(GLenum target, GLuint buffer) {
  run([&](Context* c) { c->bindBuffer(target, buffer); });
}

GL_APICALL void GL_APIENTRY glBindTexture(GLenum target, GLuint texture) {
  run([&](Context* c) { c->bindTexture(target, texture); });
}

GL_APICALL void GL_APIENTRY glBlendColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  run([&](Context* c) { c->blendColor(r, g, b, a); });
}

GL_APICALL void GL_APIENTRY glBlendEquation(GLenum mode) {
  run([&](Context* c) { c->blendEquation(mode, mode); });
}

GL_APICALL void GL_APIENTRY glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
  run([&](Context* c) { c->blendEquation(rgb, alpha); });
}

GL_APICALL void GL_APIENTRY glBlendFunc(GLenum src, GLenum dst) {
  run([&](Context* c) { c->blendFunc(src, dst, src, dst); });
}

GL_APICALL void GL_APIENTRY glBlendFuncSeparate(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha,
                                                GLenum dstAlpha) {
  run([&](Context* c) { c->blendFunc(srcRgb, dstRgb, srcAlpha, dstAlpha); });
}

GL_APICALL void GL_APIENTRY glBufferData(GLenum target, GLsizeiptr size, const void* data,
                                         GLenum usage) {
  run([&](Context* c) { c->bufferData(target, size, data, usage); });
}

GL_APICALL void GL_APIENTRY glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size,
                                            const void* data) {
  run([&](Context* c) { c->bufferSubData(target, offset, size, data); });
}

GL_APICALL void GL_APIENTRY glClear(GLbitfield mask) {
  run([&](Context* c) { c->clear(mask); });
}

GL_APICALL void GL_APIENTRY glClearColor(GLfloat r, GLfloat g, GLfloat b, GLfloat a) {
  run([&](Context* c) { c->clearColor(r, g, b, a); });
}

GL_APICALL void GL_APIENTRY glClearDepthf(GLfloat d) {
  run([&](Context* c) { c->clearDepth(d); });
}

GL_APICALL void GL_APIENTRY glClearStencil(GLint s) {
  run([&](Context* c) { c->clearStencil(s); });
}

GL_APICALL void GL_APIENTRY glColorMask(GLboolean r, GLboolean g, GLboolean b, GLboolean a) {
  run([&](Context* c) { c->colorMask(r, g, b, a); });
}

GL_APICALL void GL_APIENTRY glCompileShader(GLuint shader) {
  run([&](Context* c) { c->compileShader(shader); });
}

GL_APICALL GLuint GL_APIENTRY glCreateProgram() {
  return forward<GLuint>(0, [&](Context* c) -> GLuint { return c->createProgram(); });
}

GL_APICALL GLuint GL_APIENTRY glCreateShader(GLenum type) {
  return forward<GLuint>(0, [&](Context* c) -> GLuint { return c->createShader(type); });
}

GL_APICALL void GL_APIENTRY glCullFace(GLenum mode) {
  run([&](Context* c) { c->cullFace(mode); });
}

GL_APICALL void GL_APIENTRY glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  run([&](Context* c) { c->deleteBuffers(n, buffers); });
}

GL_APICALL void GL_APIENTRY glDeleteProgram(GLuint program) {
  run([&](Context* c) { c->deleteProgram(program); });
}

GL_APICALL void GL_APIENTRY glDeleteShader(GLuint shader) {
  run([&](Context* c) { c->deleteShader(shader); });
}

GL_APICALL void GL_APIENTRY glDeleteTextures(GLsizei n, const GLuint* textures) {
  run([&](Context* c) { c->deleteTextures(n, textures); });
}

GL_APICALL void GL_APIENTRY glDepthFunc(GLenum func) {
  run([&](Context* c) { c->depthFunc(func); });
}

GL_APICALL void GL_APIENTRY glDepthMask(GLboolean flag) {
  run([&](Context* c) { c->depthMask(flag); });
}

GL_APICALL void GL_APIENTRY glDepthRangef(GLfloat n, GLfloat f) {
  run([&](Context* c) { c->depthRange(n, f); });
}

GL_APICALL void GL_APIENTRY glDetachShader(GLuint program, GLuint shader) {
  run([&](Context* c) { c->detachShader(program, shader); });
}

GL_APICALL void GL_APIENTRY glDisable(GLenum cap) {
  run([&](Context* c) { c->enable(cap, false); });
}

GL_APICALL void GL_APIENTRY glDisableVertexAttribArray(GLuint index) {
  run([&](Context* c) { c->enableVertexAttribArray(index, false); });
}

GL_APICALL void GL_APIENTRY glDrawArrays(GLenum mode, GLint first, GLsizei count) {
  run([&](Context* c) { c->drawArrays(mode, first, count); });
}

GL_APICALL void GL_APIENTRY glDrawElements(GLenum mode, GLsizei count, GLenum type,
                                           const void* indices) {
  run([&](Context* c) { c->drawElements(mode, count, type, indices); });
}

GL_APICALL void GL_APIENTRY glEnable(GLenum cap) {
  run([&](Context* c) { c->enable(cap, true); });
}

GL_APICALL void GL_APIENTRY glEnableVertexAttribArray(GLuint index) {
  run([&](Context* c) { c->enableVertexAttribArray(index, true); });
}

GL_APICALL void GL_APIENTRY glFinish() {
  run([&](Context* c) { c->finish(); });
}

GL_APICALL void GL_APIENTRY glFlush() {
  run([&](Context* c) { c->flush(); });
}

GL_APICALL void GL_APIENTRY glFrontFace(GLenum mode) {
  run([&](Context* c) { c->frontFace(mode); });
}

GL_APICALL void GL_APIENTRY glGenBuffers(GLsizei n, GLuint* buffers) {
  run([&](Context* c) { c->genBuffers(n, buffers); });
}

GL_APICALL void GL_APIENTRY glGenerateMipmap(GLenum target) {
  run([&](Context* c) { c->generateMipmap(target); });
}

GL_APICALL void GL_APIENTRY glGenTextures(GLsizei n, GLuint* textures) {
  run([&](Context* c) { c->genTextures(n, textures); });
}

GL_APICALL void GL_APIENTRY glGetActiveAttrib(GLuint program, GLuint index, GLsizei bufSize,
                                              GLsizei* length, GLint* size, GLenum* type,
                                              GLchar* name) {
  run([&](Context* c) { c->getActiveAttrib(program, index, bufSize, length, size, type, name); });
}

GL_APICALL void GL_APIENTRY glGetActiveUniform(GLuint program, GLuint index, GLsizei bufSize,
                                               GLsizei* length, GLint* size, GLenum* type,
                                               GLchar* name) {
  run([&](Context* c) { c->getActiveUniform(program, index, bufSize, length, size, type, name); });
}

GL_APICALL void GL_APIENTRY glGetAttachedShaders(GLuint program, GLsizei maxCount, GLsizei* count,
                                                 GLuint* shaders) {
  run([&](Context* c) { c->getAttachedShaders(program, maxCount, count, shaders); });
}

GL_APICALL GLint GL_APIENTRY glGetAttribLocation(GLuint program, const GLchar* name) {
  return forward<GLint>(-1,
                        [&](Context* c) -> GLint { return c->getAttribLocation(program, name); });
}

GL_APICALL void GL_APIENTRY glGetBooleanv(GLenum pname, GLboolean* data) {
  run([&](Context* c) { c->getBooleanv(pname, data); });
}

GL_APICALL void GL_APIENTRY glGetBufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getBufferParameter(target, pname, params); });
}

GL_APICALL GLenum GL_APIENTRY glGetError() {
  return forward<GLenum>(GL_NO_ERROR, [&](Context* c) -> GLenum { return c->takeError(); });
}

GL_APICALL void GL_APIENTRY glGetFloatv(GLenum pname, GLfloat* data) {
  run([&](Context* c) { c->getFloatv(pname, data); });
}

GL_APICALL void GL_APIENTRY glGetIntegerv(GLenum pname, GLint* data) {
  run([&](Context* c) { c->getIntegerv(pname, data); });
}

GL_APICALL void GL_APIENTRY glGetProgramiv(GLuint program, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getProgramiv(program, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetProgramInfoLog(GLuint program, GLsizei bufSize, GLsizei* length,
                                                GLchar* infoLog) {
  run([&](Context* c) { c->getProgramInfoLog(program, bufSize, length, infoLog); });
}

GL_APICALL void GL_APIENTRY glGetShaderiv(GLuint shader, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getShaderiv(shader, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetShaderInfoLog(GLuint shader, GLsizei bufSize, GLsizei* length,
                                               GLchar* infoLog) {
  run([&](Context* c) { c->getShaderInfoLog(shader, bufSize, length, infoLog); });
}

GL_APICALL void GL_APIENTRY glGetShaderPrecisionFormat(GLenum shadertype, GLenum precisiontype,
                                                       GLint* range, GLint* precision) {
  run([&](Context* c) {
    c->getShaderPrecisionFormat(shadertype, precisiontype, range, precision);
  });
}

GL_APICALL void GL_APIENTRY glGetShaderSource(GLuint shader, GLsizei bufSize, GLsizei* length,
                                              GLchar* source) {
  run([&](Context* c) { c->getShaderSource(shader, bufSize, length, source); });
}

GL_APICALL const GLubyte* GL_APIENTRY glGetString(GLenum name) {
  return forward<const GLubyte*>(nullptr,
                                 [&](Context* c) -> const GLubyte* { return c->getString(name); });
}

GL_APICALL void GL_APIENTRY glGetTexParameteriv(GLenum target, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getTexParameter(target, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetTexParameterfv(GLenum target, GLenum pname, GLfloat* params) {
  run([&](Context* c) { c->getTexParameterf(target, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetUniformfv(GLuint program, GLint location, GLfloat* params) {
  run([&](Context* c) { c->getUniform(program, location, params, nullptr); });
}

GL_APICALL void GL_APIENTRY glGetUniformiv(GLuint program, GLint location, GLint* params) {
  run([&](Context* c) { c->getUniform(program, location, nullptr, params); });
}

GL_APICALL GLint GL_APIENTRY glGetUniformLocation(GLuint program, const GLchar* name) {
  return forward<GLint>(-1,
                        [&](Context* c) -> GLint { return c->getUniformLocation(program, name); });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribfv(GLuint index, GLenum pname, GLfloat* params) {
  run([&](Context* c) { c->getVertexAttrib(index, pname, params, nullptr, nullptr); });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribiv(GLuint index, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getVertexAttrib(index, pname, nullptr, params, nullptr); });
}

GL_APICALL void GL_APIENTRY glGetVertexAttribPointerv(GLuint index, GLenum pname, void** pointer) {
  run([&](Context* c) { c->getVertexAttrib(index, pname, nullptr, nullptr, pointer); });
}

GL_APICALL void GL_APIENTRY glHint(GLenum target, GLenum mode) {
  run([&](Context* c) { c->hint(target, mode); });
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
  run([&](Context* c) { c->lineWidth(width); });
}

GL_APICALL void GL_APIENTRY glLinkProgram(GLuint program) {
  run([&](Context* c) { c->linkProgram(program); });
}

GL_APICALL void GL_APIENTRY glPixelStorei(GLenum pname, GLint param) {
  run([&](Context* c) { c->pixelStore(pname, param); });
}

GL_APICALL void GL_APIENTRY glPolygonOffset(GLfloat factor, GLfloat units) {
  run([&](Context* c) { c->polygonOffset(factor, units); });
}

GL_APICALL void GL_APIENTRY glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height,
                                         GLenum format, GLenum type, void* pixels) {
  run([&](Context* c) { c->readPixels(x, y, width, height, format, type, pixels); });
}

GL_APICALL void GL_APIENTRY glReleaseShaderCompiler() {
  run([&](Context* c) { (void)c; });
}

GL_APICALL void GL_APIENTRY glSampleCoverage(GLfloat value, GLboolean invert) {
  run([&](Context* c) { c->sampleCoverage(value, invert); });
}

GL_APICALL void GL_APIENTRY glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
  run([&](Context* c) { c->scissor(x, y, width, height); });
}

GL_APICALL void GL_APIENTRY glShaderBinary(GLsizei count, const GLuint* shaders,
                                           GLenum binaryformat, const void* binary,
                                           GLsizei length) {
  run([&](Context* c) {
    (void)count, (void)shaders, (void)binaryformat, (void)binary, (void)length;
    c->error(GL_INVALID_ENUM);
  });
}

GL_APICALL void GL_APIENTRY glShaderSource(GLuint shader, GLsizei count,
                                           const GLchar* const* string, const GLint* length) {
  run([&](Context* c) { c->shaderSource(shader, count, string, length); });
}

GL_APICALL void GL_APIENTRY glStencilFunc(GLenum func, GLint ref, GLuint mask) {
  run([&](Context* c) { c->stencilFunc(GL_FRONT_AND_BACK, func, ref, mask); });
}

GL_APICALL void GL_APIENTRY glStencilFuncSeparate(GLenum face, GLenum func, GLint ref,
                                                  GLuint mask) {
  run([&](Context* c) { c->stencilFunc(face, func, ref, mask); });
}

GL_APICALL void GL_APIENTRY glStencilMask(GLuint mask) {
  run([&](Context* c) { c->stencilMask(GL_FRONT_AND_BACK, mask); });
}

GL_APICALL void GL_APIENTRY glStencilMaskSeparate(GLenum face, GLuint mask) {
  run([&](Context* c) { c->stencilMask(face, mask); });
}

GL_APICALL void GL_APIENTRY glStencilOp(GLenum fail, GLenum zfail, GLenum zpass) {
  run([&](Context* c) { c->stencilOp(GL_FRONT_AND_BACK, fail, zfail, zpass); });
}

GL_APICALL void GL_APIENTRY glStencilOpSeparate(GLenum face, GLenum fail, GLenum zfail,
                                                GLenum zpass) {
  run([&](Context* c) { c->stencilOp(face, fail, zfail, zpass); });
}

GL_APICALL void GL_APIENTRY glTexImage2D(GLenum target, GLint level, GLint internalformat,
                                         GLsizei width, GLsizei height, GLint border, GLenum format,
                                         GLenum type, const void* pixels) {
  run([&](Context* c) {
    c->texImage2D(target, level, internalformat, width, height, border, format, type, pixels);
  });
}

GL_APICALL void GL_APIENTRY glTexParameteri(GLenum target, GLenum pname, GLint param) {
  run([&](Context* c) { c->texParameter(target, pname, param); });
}

GL_APICALL void GL_APIENTRY glTexParameterf(GLenum target, GLenum pname, GLfloat param) {
  run([&](Context* c) { c->texParameterf(target, pname, param); });
}

GL_APICALL void GL_APIENTRY glTexParameteriv(GLenum target, GLenum pname, const GLint* params) {
  run([&](Context* c) { c->texParameter(target, pname, params[0]); });
}

GL_APICALL void GL_APIENTRY glTexParameterfv(GLenum target, GLenum pname, const GLfloat* params) {
  run([&](Context* c) { c->texParameterf(target, pname, params[0]); });
}

GL_APICALL void GL_APIENTRY glCompressedTexImage2D(GLenum target, GLint level,
                                                   GLenum internalformat, GLsizei width,
                                                   GLsizei height, GLint border, GLsizei imageSize,
                                                   const void* data) {
  run([&](Context* c) {
    c->compressedTexImage2D(target, level, internalformat, width, height, border, imageSize, data);
  });
}

GL_APICALL void GL_APIENTRY glCompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                                      GLint yoffset, GLsizei width, GLsizei height,
                                                      GLenum format, GLsizei imageSize,
                                                      const void* data) {
  run([&](Context* c) {
    c->compressedTexSubImage2D(target, level, xoffset, yoffset, width, height, format, imageSize,
                               data);
  });
}

GL_APICALL void GL_APIENTRY glTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                            GLint yoffset, GLsizei width, GLsizei height,
                                            GLenum format, GLenum type, const void* pixels) {
  run([&](Context* c) {
    c->texSubImage2D(target, level, xoffset, yoffset, width, height, format, type, pixels);
  });
}

GL_APICALL void GL_APIENTRY glUniform1f(GLint location, GLfloat v0) {
  run([&](Context* c) {
    const GLfloat v[] = {v0};
    c->uniform(location, 1, 1, v, nullptr);
  });
}

GL_APICALL void GL_APIENTRY glUniform1i(GLint location, GLint v0) {
  run([&](Context* c) {
    const GLint v[] = {v0};
    c->uniform(location, 1, 1, nullptr, v);
  });
}

GL_APICALL void GL_APIENTRY glUniform1fv(GLint location, GLsizei count, const GLfloat* value) {
  run([&](Context* c) { c->uniform(location, count, 1, value, nullptr); });
}

GL_APICALL void GL_APIENTRY glUniform1iv(GLint location, GLsizei count, const GLint* value) {
  run([&](Context* c) { c->uniform(location, count, 1, nullptr, value); });
}

GL_APICALL void GL_APIENTRY glVertexAttrib1f(GLuint index, GLfloat v0) {
  run([&](Context* c) {
    const GLfloat v[] = {v0};
    c->vertexAttrib(index, v, 1);
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib1fv(GLuint index, const GLfloat* v) {
  run([&](Context* c) { c->vertexAttrib(index, v, 1); });
}

GL_APICALL void GL_APIENTRY glUniform2f(GLint location, GLfloat v0, GLfloat v1) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1};
    c->uniform(location, 1, 2, v, nullptr);
  });
}

GL_APICALL void GL_APIENTRY glUniform2i(GLint location, GLint v0, GLint v1) {
  run([&](Context* c) {
    const GLint v[] = {v0, v1};
    c->uniform(location, 1, 2, nullptr, v);
  });
}

GL_APICALL void GL_APIENTRY glUniform2fv(GLint location, GLsizei count, const GLfloat* value) {
  run([&](Context* c) { c->uniform(location, count, 2, value, nullptr); });
}

GL_APICALL void GL_APIENTRY glUniform2iv(GLint location, GLsizei count, const GLint* value) {
  run([&](Context* c) { c->uniform(location, count, 2, nullptr, value); });
}

GL_APICALL void GL_APIENTRY glUniformMatrix2fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  run([&](Context* c) { c->uniformMatrix(location, count, 2, transpose, value); });
}

GL_APICALL void GL_APIENTRY glVertexAttrib2f(GLuint index, GLfloat v0, GLfloat v1) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1};
    c->vertexAttrib(index, v, 2);
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib2fv(GLuint index, const GLfloat* v) {
  run([&](Context* c) { c->vertexAttrib(index, v, 2); });
}

GL_APICALL void GL_APIENTRY glUniform3f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1, v2};
    c->uniform(location, 1, 3, v, nullptr);
  });
}

GL_APICALL void GL_APIENTRY glUniform3i(GLint location, GLint v0, GLint v1, GLint v2) {
  run([&](Context* c) {
    const GLint v[] = {v0, v1, v2};
    c->uniform(location, 1, 3, nullptr, v);
  });
}

GL_APICALL void GL_APIENTRY glUniform3fv(GLint location, GLsizei count, const GLfloat* value) {
  run([&](Context* c) { c->uniform(location, count, 3, value, nullptr); });
}

GL_APICALL void GL_APIENTRY glUniform3iv(GLint location, GLsizei count, const GLint* value) {
  run([&](Context* c) { c->uniform(location, count, 3, nullptr, value); });
}

GL_APICALL void GL_APIENTRY glUniformMatrix3fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  run([&](Context* c) { c->uniformMatrix(location, count, 3, transpose, value); });
}

GL_APICALL void GL_APIENTRY glVertexAttrib3f(GLuint index, GLfloat v0, GLfloat v1, GLfloat v2) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1, v2};
    c->vertexAttrib(index, v, 3);
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib3fv(GLuint index, const GLfloat* v) {
  run([&](Context* c) { c->vertexAttrib(index, v, 3); });
}

GL_APICALL void GL_APIENTRY glUniform4f(GLint location, GLfloat v0, GLfloat v1, GLfloat v2,
                                        GLfloat v3) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1, v2, v3};
    c->uniform(location, 1, 4, v, nullptr);
  });
}

GL_APICALL void GL_APIENTRY glUniform4i(GLint location, GLint v0, GLint v1, GLint v2, GLint v3) {
  run([&](Context* c) {
    const GLint v[] = {v0, v1, v2, v3};
    c->uniform(location, 1, 4, nullptr, v);
  });
}

GL_APICALL void GL_APIENTRY glUniform4fv(GLint location, GLsizei count, const GLfloat* value) {
  run([&](Context* c) { c->uniform(location, count, 4, value, nullptr); });
}

GL_APICALL void GL_APIENTRY glUniform4iv(GLint location, GLsizei count, const GLint* value) {
  run([&](Context* c) { c->uniform(location, count, 4, nullptr, value); });
}

GL_APICALL void GL_APIENTRY glUniformMatrix4fv(GLint location, GLsizei count, GLboolean transpose,
                                               const GLfloat* value) {
  run([&](Context* c) { c->uniformMatrix(location, count, 4, transpose, value); });
}

GL_APICALL void GL_APIENTRY glVertexAttrib4f(GLuint index, GLfloat v0, GLfloat v1, GLfloat v2,
                                             GLfloat v3) {
  run([&](Context* c) {
    const GLfloat v[] = {v0, v1, v2, v3};
    c->vertexAttrib(index, v, 4);
  });
}

GL_APICALL void GL_APIENTRY glVertexAttrib4fv(GLuint index, const GLfloat* v) {
  run([&](Context* c) { c->vertexAttrib(index, v, 4); });
}

GL_APICALL void GL_APIENTRY glUseProgram(GLuint program) {
  run([&](Context* c) { c->useProgram(program); });
}

GL_APICALL void GL_APIENTRY glValidateProgram(GLuint program) {
  run([&](Context* c) { c->validateProgram(program); });
}

GL_APICALL void GL_APIENTRY glVertexAttribPointer(GLuint index, GLint size, GLenum type,
                                                  GLboolean normalized, GLsizei stride,
                                                  const void* pointer) {
  run([&](Context* c) { c->vertexAttribPointer(index, size, type, normalized, stride, pointer); });
}

GL_APICALL void GL_APIENTRY glViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
  run([&](Context* c) { c->viewport(x, y, width, height); });
}

GL_APICALL void GL_APIENTRY glGenFramebuffers(GLsizei n, GLuint* framebuffers) {
  run([&](Context* c) { c->genFramebuffers(n, framebuffers); });
}

GL_APICALL void GL_APIENTRY glDeleteFramebuffers(GLsizei n, const GLuint* framebuffers) {
  run([&](Context* c) { c->deleteFramebuffers(n, framebuffers); });
}

GL_APICALL void GL_APIENTRY glBindFramebuffer(GLenum target, GLuint framebuffer) {
  run([&](Context* c) { c->bindFramebuffer(target, framebuffer); });
}

GL_APICALL void GL_APIENTRY glFramebufferTexture2D(GLenum target, GLenum attachment,
                                                   GLenum textarget, GLuint texture, GLint level) {
  run([&](Context* c) { c->framebufferTexture2D(target, attachment, textarget, texture, level); });
}

GL_APICALL void GL_APIENTRY glFramebufferRenderbuffer(GLenum target, GLenum attachment,
                                                      GLenum renderbuffertarget,
                                                      GLuint renderbuffer) {
  run([&](Context* c) {
    c->framebufferRenderbuffer(target, attachment, renderbuffertarget, renderbuffer);
  });
}

GL_APICALL void GL_APIENTRY glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment,
                                                                  GLenum pname, GLint* params) {
  run([&](Context* c) { c->getFramebufferAttachmentParameter(target, attachment, pname, params); });
}

GL_APICALL void GL_APIENTRY glGenRenderbuffers(GLsizei n, GLuint* renderbuffers) {
  run([&](Context* c) { c->genRenderbuffers(n, renderbuffers); });
}

GL_APICALL void GL_APIENTRY glDeleteRenderbuffers(GLsizei n, const GLuint* renderbuffers) {
  run([&](Context* c) { c->deleteRenderbuffers(n, renderbuffers); });
}

GL_APICALL void GL_APIENTRY glBindRenderbuffer(GLenum target, GLuint renderbuffer) {
  run([&](Context* c) { c->bindRenderbuffer(target, renderbuffer); });
}

GL_APICALL void GL_APIENTRY glRenderbufferStorage(GLenum target, GLenum internalformat,
                                                  GLsizei width, GLsizei height) {
  run([&](Context* c) { c->renderbufferStorage(target, internalformat, width, height); });
}

GL_APICALL void GL_APIENTRY glGetRenderbufferParameteriv(GLenum target, GLenum pname,
                                                         GLint* params) {
  run([&](Context* c) { c->getRenderbufferParameter(target, pname, params); });
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

// OES_texture_3D.
GL_APICALL void GL_APIENTRY glTexImage3DOES(GLenum target, GLint level, GLenum internalformat,
                                            GLsizei width, GLsizei height, GLsizei depth,
                                            GLint border, GLenum format, GLenum type,
                                            const void* pixels) {
  run([&](Context* c) {
    c->texImage3D(target, level, static_cast<GLint>(internalformat), width, height, depth, border,
                  format, type, pixels);
  });
}

GL_APICALL void GL_APIENTRY glTexSubImage3DOES(GLenum target, GLint level, GLint xoffset,
                                               GLint yoffset, GLint zoffset, GLsizei width,
                                               GLsizei height, GLsizei depth, GLenum format,
                                               GLenum type, const void* pixels) {
  run([&](Context* c) {
    c->texSubImage3D(target, level, xoffset, yoffset, zoffset, width, height, depth, format, type,
                     pixels);
  });
}

GL_APICALL void GL_APIENTRY glCopyTexSubImage3DOES(GLenum target, GLint level, GLint xoffset,
                                                   GLint yoffset, GLint zoffset, GLint x, GLint y,
                                                   GLsizei width, GLsizei height) {
  run([&](Context* c) {
    c->copyTexSubImage3D(target, level, xoffset, yoffset, zoffset, x, y, width, height);
  });
}

GL_APICALL void GL_APIENTRY glCompressedTexImage3DOES(GLenum target, GLint level, GLenum,
                                                      GLsizei width, GLsizei height, GLsizei depth,
                                                      GLint border, GLsizei imageSize,
                                                      const void*) {
  run([&](Context* c) {
    c->compressedTexImage3D(target, level, width, height, depth, border, imageSize);
  });
}

GL_APICALL void GL_APIENTRY glCompressedTexSubImage3DOES(GLenum target, GLint level, GLint xoffset,
                                                         GLint yoffset, GLint zoffset,
                                                         GLsizei width, GLsizei height,
                                                         GLsizei depth, GLenum, GLsizei imageSize,
                                                         const void*) {
  run([&](Context* c) {
    c->compressedTexSubImage3D(target, level, xoffset, yoffset, zoffset, width, height, depth,
                               imageSize);
  });
}

GL_APICALL void GL_APIENTRY glFramebufferTexture3DOES(GLenum target, GLenum attachment,
                                                      GLenum textarget, GLuint texture, GLint level,
                                                      GLint zoffset) {
  run([&](Context* c) {
    c->framebufferTexture3D(target, attachment, textarget, texture, level, zoffset);
  });
}

GL_APICALL void* GL_APIENTRY glMapBufferOES(GLenum target, GLenum access) {
  return forward<void*>(nullptr, [&](Context* c) -> void* { return c->mapBuffer(target, access); });
}

GL_APICALL GLboolean GL_APIENTRY glUnmapBufferOES(GLenum target) {
  return forward<GLboolean>(GL_FALSE,
                            [&](Context* c) -> GLboolean { return c->unmapBuffer(target); });
}

GL_APICALL void GL_APIENTRY glGetBufferPointervOES(GLenum target, GLenum pname, void** params) {
  run([&](Context* c) { c->getBufferPointer(target, pname, params); });
}

GL_APICALL void GL_APIENTRY glCopyTexImage2D(GLenum target, GLint level, GLenum internalformat,
                                             GLint x, GLint y, GLsizei width, GLsizei height,
                                             GLint border) {
  run([&](Context* c) {
    c->copyTexImage2D(target, level, internalformat, x, y, width, height, border);
  });
}

GL_APICALL void GL_APIENTRY glCopyTexSubImage2D(GLenum target, GLint level, GLint xoffset,
                                                GLint yoffset, GLint x, GLint y, GLsizei width,
                                                GLsizei height) {
  run([&](Context* c) {
    c->copyTexSubImage2D(target, level, xoffset, yoffset, x, y, width, height);
  });
}

GL_APICALL void GL_APIENTRY glDiscardFramebufferEXT(GLenum target, GLsizei numAttachments,
                                                    const GLenum* attachments) {
  run([&](Context* c) { c->discardFramebuffer(target, numAttachments, attachments); });
}

GL_APICALL void GL_APIENTRY glGenVertexArraysOES(GLsizei n, GLuint* arrays) {
  run([&](Context* c) { c->genVertexArrays(n, arrays); });
}

GL_APICALL void GL_APIENTRY glDeleteVertexArraysOES(GLsizei n, const GLuint* arrays) {
  run([&](Context* c) { c->deleteVertexArrays(n, arrays); });
}

GL_APICALL void GL_APIENTRY glBindVertexArrayOES(GLuint array) {
  run([&](Context* c) { c->bindVertexArray(array); });
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
      {"glTexImage3DOES", reinterpret_cast<void*>(&glTexImage3DOES)},
      {"glTexSubImage3DOES", reinterpret_cast<void*>(&glTexSubImage3DOES)},
      {"glCopyTexSubImage3DOES", reinterpret_cast<void*>(&glCopyTexSubImage3DOES)},
      {"glCompressedTexImage3DOES", reinterpret_cast<void*>(&glCompressedTexImage3DOES)},
      {"glCompressedTexSubImage3DOES", reinterpret_cast<void*>(&glCompressedTexSubImage3DOES)},
      {"glFramebufferTexture3DOES", reinterpret_cast<void*>(&glFramebufferTexture3DOES)},
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
  return queryProcAddress(name);
}

}  // namespace tessera::gles2
