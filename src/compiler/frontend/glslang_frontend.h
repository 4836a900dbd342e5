// Compiler front end: GLSL ES 1.00 / 3.00 source -> validated, linked SPIR-V through glslang, then
// SPIRV-Tools' legalization and performance passes (inlining, SSA, constant folding, dead code).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/program.h"

namespace tessera::compiler {

struct StageSpirv {
  isa::Stage stage = isa::Stage::Vertex;
  std::vector<uint32_t> words;  // optimized SPIR-V 1.0 module
  // Every output the source declares, used or not (optimization drops unwritten ones; linking
  // must still see them: GLSL ES 1.00 §4.3.5).
  std::vector<std::string> declaredOutputs;
};

// What glslang said: `ok` false means compile or link errors, listed in `log` the way GLSL
// drivers report them ("ERROR: 0:12: 'foo' : undeclared identifier").
struct FrontendResult {
  bool ok = false;
  std::string log;
  std::vector<StageSpirv> stages;  // one per shader given, in the order given
};

struct ShaderSource {
  isa::Stage stage = isa::Stage::Vertex;
  std::string text;
};

// Parses every shader (a `#version` line picks 100 or 300 es; none means 100), links them as one
// program, and returns optimized SPIR-V per stage. A single shader links on its own, which
// checks it fully (as `tessera compile` needs). Never throws for bad source text.
FrontendResult compileToSpirv(const std::vector<ShaderSource>& shaders);

}  // namespace tessera::compiler
