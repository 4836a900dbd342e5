// Draws a shader test (tests/shadertest) with GLES 2.0 on the oracle's context: the program as
// written, attributes and uniforms from the test or derived from their names, the grid.
#pragma once
#include <GLES2/gl2.h>

#include <vector>

#include "shadertest/shader_test.h"

namespace tessera::oracle {

// Set up once (program, buffers, textures, uniforms), drawn as often as wanted. Needs a current
// context whose framebuffer is the test's size. Throws tessera::Error on compile/link failure.
class GlShaderTest final {
 public:
  explicit GlShaderTest(const shadertest::ShaderTest& test);
  ~GlShaderTest();
  GlShaderTest(const GlShaderTest&) = delete;
  GlShaderTest& operator=(const GlShaderTest&) = delete;
  void draw();  // clear and draw the grid (no glFinish)

 private:
  const shadertest::ShaderTest& test_;
  GLuint program_ = 0, indexBuffer_ = 0;
  GLsizei indexCount_ = 0;
  std::vector<GLuint> buffers_, textures_;
};

}  // namespace tessera::oracle
