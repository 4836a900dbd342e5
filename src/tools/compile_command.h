// `tessera compile`: GLSL ES shaders through the Tessera compiler; prints the ISA and the
// static figures of each stage.
#pragma once
#include <string>
#include <vector>

namespace tessera::tools {

struct CompileArgs {
  std::vector<std::string> files;  // FILE.vert and/or FILE.frag (two files link as a program)
  bool disasm = false;
  bool stats = false;
  std::string preset = "adreno-a630";  // for warps per core
};

// Returns the exit code: 0, or 1 when a file cannot be read or the source does not compile
// (the info log goes to stderr).
int runCompile(const CompileArgs& args);

}  // namespace tessera::tools
