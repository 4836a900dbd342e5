// Draws a shader test (tests/shadertest) with GLES 2.0 on the oracle's context: the program as
// written, attributes and uniforms from the test or derived from their names, the grid.
#pragma once
#include "shadertest/shader_test.h"

namespace tessera::oracle {

// Needs a current context whose framebuffer is the test's size. Throws tessera::Error on
// compile/link failure.
void drawShaderTest(const shadertest::ShaderTest& test);

}  // namespace tessera::oracle
