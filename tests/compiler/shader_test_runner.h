// Draws a shader test (tests/shadertest) on Tessera: the GLSL program through Tessera's compiler,
// the grid through the pipe context and the driver, in the given rendering mode.
#pragma once
#include "common/image.h"
#include "compiler/compiler.h"
#include "driver/options.h"
#include "gpu/preset/preset.h"
#include "shadertest/shader_test.h"

namespace tessera::test {

struct ShaderTestResult {
  compiler::CompiledProgram program;  // !program.ok: image is empty, program.log says why
  Image image;                        // row 0 at the top, as PNGs are
};

ShaderTestResult renderShaderTest(const shadertest::ShaderTest& t, const gpu::Preset& preset,
                                  driver::RenderMode mode);

}  // namespace tessera::test
