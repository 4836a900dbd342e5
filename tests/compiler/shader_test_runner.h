// Draws a shader test (tests/shadertest) on Tessera: the GLSL program through Tessera's compiler,
// the grid through the pipe context and the driver, in the given rendering mode.
#pragma once
#include <memory>

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

// The same, set up once and drawn as often as wanted (for timing). `program().ok` false: the
// program did not compile and draw() must not be called.
class ShaderTestScene final {
 public:
  ShaderTestScene(const shadertest::ShaderTest& t, const gpu::Preset& preset,
                  driver::RenderMode mode);
  ~ShaderTestScene();
  const compiler::CompiledProgram& program() const { return program_; }
  void draw();       // clear, draw the grid, flush
  Image readback();  // the colour buffer after the last draw

 private:
  struct State;
  compiler::CompiledProgram program_;
  std::unique_ptr<State> state_;
};

}  // namespace tessera::test
