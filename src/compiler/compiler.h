// The Tessera shader compiler: GLSL ES 1.00 / 3.00 source -> Tessera ISA programs plus the
// interface the GL layer needs. Pipeline: glslang (parse, validate, link) -> SPIR-V ->
// SPIRV-Tools optimizer -> lowering to Tessera IR -> register allocation -> isa::Program.
// See docs/compiler.md.
#pragma once
#include <string>

#include "compiler/interface.h"
#include "isa/program.h"

namespace tessera::compiler {

// A linked program. `ok` false: `log` holds the compile or link errors as GLSL drivers report
// them (with line numbers); the programs are then empty. Never throws for bad source.
struct CompiledProgram {
  bool ok = false;
  std::string log;
  isa::Program vertex, fragment;
  isa::Program binningVertex;  // the vertex shader reduced to gl_Position (binning pass)
  ProgramInterface interface;
};

CompiledProgram compileProgram(const std::string& vertexSource, const std::string& fragmentSource,
                               const LinkOptions& options = {});

// One shader on its own (as `tessera compile` does): varyings take slots in declaration order.
struct CompiledShader {
  bool ok = false;
  std::string log;
  isa::Program program;
  ProgramInterface interface;
};

CompiledShader compileShader(isa::Stage stage, const std::string& source);

// Static figures of a program for `tessera compile --stats`.
struct ShaderStats {
  uint32_t instructions = 0;  // excluding the final `end`
  uint32_t registers = 0;     // general registers per thread
  uint32_t textureInstructions = 0;
  uint32_t aluInstructions = 0, sfuInstructions = 0, flowInstructions = 0;
  uint32_t privateDwords = 0;        // private memory per thread (register spills)
  uint32_t privateInstructions = 0;  // spills and fills: movs to or from private memory
  uint32_t warpsPerCore = 0;         // for a core with `registersPerCore` registers per lane slot
  uint32_t estimatedCycles = 0;      // issue cycles per warp, straight through (loops once)
};
ShaderStats shaderStats(const isa::Program& program, uint32_t registersPerCore);

}  // namespace tessera::compiler
