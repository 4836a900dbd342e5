#include "oracle/gl_program.h"

#include "common/error.h"

namespace tessera::oracle {

GLuint compileShader(GLenum stage, const std::string& source) {
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw Error(std::string("GLES: shader compile failed: ") + log);
  }
  return shader;
}

GLuint linkProgram(const std::string& vertexSource, const std::string& fragmentSource) {
  const GLuint vs = compileShader(GL_VERTEX_SHADER, vertexSource);
  const GLuint fs = compileShader(GL_FRAGMENT_SHADER, fragmentSource);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    throw Error(std::string("GLES: program link failed: ") + log);
  }
  return program;
}

}  // namespace tessera::oracle
