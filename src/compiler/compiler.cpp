#include "compiler/compiler.h"

#include <algorithm>

#include "common/error.h"
#include "compiler/frontend/glslang_frontend.h"
#include "compiler/ir/regalloc.h"
#include "compiler/lower/layout.h"
#include "compiler/lower/lowering.h"
#include "compiler/spirv/module.h"

namespace tessera::compiler {
namespace {

struct Compiled {
  std::vector<isa::Program> programs;
  isa::Program binningVertex;
  ProgramInterface interface;
};

// The binning pass needs only gl_Position (and gl_PointSize, which sizes a point's footprint):
// drop the other output writes before allocation, so dead-code removal and the register
// allocator see the smaller program (seed on Adreno tiling: the binning pass runs a
// position-only vertex shader).
ir::Program positionOnly(ir::Program p) {
  const int pointSize = p.pointSize - 1;
  std::erase_if(p.code, [&](const isa::Instr& in) {
    return in.dst.file == isa::File::Output && in.dst.index >= 4 && in.dst.index != pointSize;
  });
  p.numOutputs = static_cast<uint8_t>(p.pointSize ? pointSize / 4 + 1 : 1);
  return p;
}

// Front end, layout, lowering and allocation for the given shaders; errors go to `log`.
bool compile(const std::vector<ShaderSource>& shaders, const LinkOptions& options, Compiled& out,
             std::string& log) {
  FrontendResult fe = compileToSpirv(shaders);
  log = fe.log;
  if (!fe.ok) return false;
  try {
    std::vector<spirv::Module> modules;
    modules.reserve(fe.stages.size());
    for (const StageSpirv& s : fe.stages) modules.emplace_back(s.words);
    std::vector<const spirv::Module*> ptrs;
    for (const spirv::Module& m : modules) ptrs.push_back(&m);
    const lower::ProgramLayout layout(ptrs, options);
    if (fe.stages.size() == 2) {  // GLSL ES 1.00 §4.3.5: a varying read must be declared
      const auto& declared = fe.stages[0].declaredOutputs;
      for (const VaryingInfo& v : layout.interface().varyings) {
        if (std::find(declared.begin(), declared.end(), v.name) == declared.end()) {
          throw Error("link: varying '" + v.name +
                      "' is read by the fragment shader but not declared in the vertex shader");
        }
      }
    }
    for (const spirv::Module& m : modules) {
      ir::Program lowered = lower::lowerModule(m, layout);
      if (lowered.stage == isa::Stage::Vertex) {
        out.binningVertex = ir::allocateRegisters(positionOnly(lowered));
      }
      out.programs.push_back(ir::allocateRegisters(std::move(lowered)));
    }
    out.interface = layout.interface();
    return true;
  } catch (const Error& e) {
    log += std::string("ERROR: ") + e.what() + "\n";
    return false;
  }
}

}  // namespace

CompiledProgram compileProgram(const std::string& vertexSource, const std::string& fragmentSource,
                               const LinkOptions& options) {
  CompiledProgram result;
  Compiled c;
  result.ok = compile({{isa::Stage::Vertex, vertexSource}, {isa::Stage::Fragment, fragmentSource}},
                      options, c, result.log);
  if (!result.ok) return result;
  result.vertex = std::move(c.programs[0]);
  result.fragment = std::move(c.programs[1]);
  result.binningVertex = std::move(c.binningVertex);
  result.interface = std::move(c.interface);
  return result;
}

CompiledShader compileShader(isa::Stage stage, const std::string& source) {
  CompiledShader result;
  Compiled c;
  result.ok = compile({{stage, source}}, {}, c, result.log);
  if (!result.ok) return result;
  result.program = std::move(c.programs[0]);
  result.interface = std::move(c.interface);
  return result;
}

ShaderStats shaderStats(const isa::Program& program, uint32_t registersPerCore) {
  // Issue cycles per warp instruction: full-rate ALU, FPU and flow control; the special-function
  // and texture units accept a warp every 4 cycles (8 lanes per cycle).
  constexpr uint32_t kQuarterRate = 4;
  ShaderStats s;
  for (const isa::Instr& in : program.code) {
    if (in.op == isa::Opcode::End) continue;
    ++s.instructions;
    if (in.dst.file == isa::File::Private || in.src[0].file == isa::File::Private) {
      // A 128-byte line to or from memory: charged like the quarter-rate units.
      ++s.privateInstructions;
      s.estimatedCycles += kQuarterRate - 1;
    }
    switch (isa::opInfo(in.op).unit) {
      case isa::Unit::Alu:
      case isa::Unit::Fpu:
        ++s.aluInstructions;
        s.estimatedCycles += 1;
        break;
      case isa::Unit::Sfu:
        ++s.sfuInstructions;
        s.estimatedCycles += kQuarterRate;
        break;
      case isa::Unit::Tex:
        ++s.textureInstructions;
        s.estimatedCycles += kQuarterRate;
        break;
      case isa::Unit::Cf:
        ++s.flowInstructions;
        s.estimatedCycles += 1;
        break;
    }
  }
  s.registers = program.regCount;
  s.privateDwords = program.privateDwords;
  s.warpsPerCore = registersPerCore / std::max<uint32_t>(1, program.regCount);
  return s;
}

}  // namespace tessera::compiler
