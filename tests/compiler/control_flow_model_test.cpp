// Control flow the oracle cannot judge: Mesa 22.3 miscompiles a loop `continue` from inside a
// nested switch (its result runs one iteration short), so these programs are checked pixel by
// pixel against a C++ model of the same GLSL. Every pixel takes its own path (the lanes of a warp
// diverge): the path depends on gl_FragCoord.
#include <gtest/gtest.h>

#include "compiler/shader_test_runner.h"
#include "shadertest/shader_test.h"

namespace tessera::test {
namespace {

constexpr const char* kNestedSwitch = R"([config]
size 48x40
exact
[vertex shader]
#version 300 es
in vec4 a_position;
void main() { gl_Position = a_position; }
[fragment shader]
#version 300 es
precision highp float;
precision highp int;
out vec4 color;
int walk(int m, int n, out int steps) {
  int sum = 0;
  steps = 0;
  for (int i = 0; i < 12; ++i) {
    steps++;
    switch ((i + m) % 4) {
      case 2:
        switch (i % 3) {
          case 0: continue;
          case 1:
            if (i > n) return sum + 100;
            sum += 2 * i;
            break;
          default: sum += 5;
        }
        sum += 1;
        break;
      default:
        sum += 3;
    }
  }
  return sum;
}
void main() {
  int m = int(gl_FragCoord.y) % 4, n = int(gl_FragCoord.x) % 11;
  int steps;
  int sum = walk(m, n, steps);
  color = vec4(float(sum) / 255.0, float(steps) / 255.0, 0.0, 1.0);
}
)";

// The same function in C++.
int walk(int m, int n, int& steps) {
  int sum = 0;
  steps = 0;
  for (int i = 0; i < 12; ++i) {
    ++steps;
    if ((i + m) % 4 == 2) {
      if (i % 3 == 0) continue;
      if (i % 3 == 1) {
        if (i > n) return sum + 100;
        sum += 2 * i;
      } else {
        sum += 5;
      }
      sum += 1;
    } else {
      sum += 3;
    }
  }
  return sum;
}

TEST(ControlFlowModel, ContinueAndReturnFromNestedSwitch) {
  const shadertest::ShaderTest t = shadertest::parse(kNestedSwitch, "nested_switch");
  for (driver::RenderMode mode : {driver::RenderMode::Binning, driver::RenderMode::Sysmem}) {
    const ShaderTestResult r = renderShaderTest(t, gpu::findPreset("adreno-a630"), mode);
    ASSERT_TRUE(r.program.ok) << r.program.log;
    int mismatches = 0;
    for (uint32_t row = 0; row < t.height; ++row) {
      for (uint32_t x = 0; x < t.width; ++x) {
        const int y = static_cast<int>(t.height - 1 - row);  // gl_FragCoord counts from the bottom
        int steps = 0;
        const int sum = walk(y % 4, static_cast<int>(x) % 11, steps);
        ASSERT_LT(sum, 256);
        const uint8_t* p = r.image.pixel(x, row);
        if (p[0] != sum || p[1] != steps) {
          if (++mismatches <= 5) {
            ADD_FAILURE() << "pixel (" << x << ", " << y << "): sum " << int{p[0]} << ", steps "
                          << int{p[1]} << "; the model says " << sum << ", " << steps;
          }
        }
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
}

}  // namespace
}  // namespace tessera::test
