#include "tools/compile_command.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "common/error.h"
#include "compiler/compiler.h"
#include "gpu/preset/preset.h"
#include "isa/assembler.h"

namespace tessera::tools {
namespace {

isa::Stage stageOf(const std::string& file) {
  const auto dot = file.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
  if (ext == "vert" || ext == "vs") return isa::Stage::Vertex;
  if (ext == "frag" || ext == "fs") return isa::Stage::Fragment;
  throw Error(file + ": cannot tell the shader stage; name it .vert or .frag");
}

std::string readSource(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file + ": cannot open");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void print(const std::string& title, const isa::Program& p, const CompileArgs& a,
           uint32_t registersPerCore) {
  const bool both = !a.disasm && !a.stats;
  std::cout << "; " << title << "\n";
  if (a.disasm || both) std::cout << isa::disassemble(p);
  if (a.stats || both) {
    const compiler::ShaderStats s = compiler::shaderStats(p, registersPerCore);
    std::cout << "; instructions " << s.instructions << " (alu " << s.aluInstructions << ", sfu "
              << s.sfuInstructions << ", tex " << s.textureInstructions << ", flow "
              << s.flowInstructions << ")\n"
              << "; registers " << s.registers << " (" << s.warpsPerCore << " warps per core)\n"
              << "; private memory " << s.privateDwords << " dwords per thread ("
              << s.privateInstructions << " spill and fill instructions)\n"
              << "; textures " << s.textureInstructions << "\n"
              << "; estimated cycles per warp " << s.estimatedCycles << "\n";
  }
}

}  // namespace

int runCompile(const CompileArgs& a) {
  const gpu::Preset& preset = gpu::findPreset(a.preset);
  std::vector<isa::Stage> stages;
  std::vector<std::string> sources;
  for (const std::string& f : a.files) {
    stages.push_back(stageOf(f));
    sources.push_back(readSource(f));
  }
  if (a.files.size() == 2) {
    if (stages[0] == stages[1])
      throw Error("two files link as a program: give one .vert and one .frag");
    const size_t v = stages[0] == isa::Stage::Vertex ? 0 : 1;
    const compiler::CompiledProgram c = compiler::compileProgram(sources[v], sources[1 - v]);
    if (!c.ok) {
      std::cerr << c.log;
      return 1;
    }
    print(a.files[v] + " (vertex)", c.vertex, a, preset.registersPerCore);
    print(a.files[v] + " (binning pass: position only)", c.binningVertex, a,
          preset.registersPerCore);
    print(a.files[1 - v] + " (fragment)", c.fragment, a, preset.registersPerCore);
    return 0;
  }
  if (a.files.size() != 1) throw Error("give one shader, or a .vert and a .frag to link");
  const compiler::CompiledShader c = compiler::compileShader(stages[0], sources[0]);
  if (!c.ok) {
    std::cerr << c.log;
    return 1;
  }
  print(a.files[0], c.program, a, preset.registersPerCore);
  return 0;
}

}  // namespace tessera::tools
