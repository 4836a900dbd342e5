// Compiling and linking GLSL ES programs on the oracle's GL context.
#pragma once
#include <GLES2/gl2.h>

#include <string>

namespace tessera::oracle {

// Throw tessera::Error with the driver's info log on failure.
GLuint compileShader(GLenum stage, const std::string& source);
GLuint linkProgram(const std::string& vertexSource, const std::string& fragmentSource);

}  // namespace tessera::oracle
