// Built-in variables that reach fixed-function hardware: gl_PointSize goes to the output the
// program header names (kept by the binning variant), gl_PointCoord reads the point-coordinate
// system values, and neither disturbs the varyings.
#include <gtest/gtest.h>

#include "compiler/compiler.h"
#include "isa/assembler.h"

namespace tessera::compiler {
namespace {

bool writes(const isa::Program& p, int outputIndex) {
  for (const isa::Instr& in : p.code)
    if (in.dst.file == isa::File::Output && in.dst.index == outputIndex) return true;
  return false;
}

bool reads(const isa::Program& p, isa::File file, int index) {
  for (const isa::Instr& in : p.code)
    for (const isa::Operand& s : in.src)
      if (s.file == file && s.index == index) return true;
  return false;
}

TEST(BuiltIns, PointSizeGoesToTheOutputAfterTheVaryings) {
  const CompiledProgram c = compileProgram(
      "attribute vec4 pos; varying vec4 a; varying vec2 b;\n"
      "void main() { gl_Position = pos; gl_PointSize = pos.w * 3.0; a = pos * 2.0; b = pos.xy; }\n",
      "precision mediump float; varying vec4 a; varying vec2 b;\n"
      "void main() { gl_FragColor = a + b.xyxy; }\n");
  ASSERT_TRUE(c.ok) << c.log;
  const int slot = 4 * (1 + 2);  // o0 position, o1 a, o2 b, o3.x the point size
  EXPECT_EQ(c.vertex.pointSize, slot + 1) << isa::disassemble(c.vertex);
  EXPECT_EQ(c.vertex.numOutputs, 4);
  EXPECT_TRUE(writes(c.vertex, slot));
  for (int k = 4; k < 12; ++k) EXPECT_TRUE(k >= 10 || writes(c.vertex, k)) << "o" << k / 4;
  // The binning pass keeps gl_PointSize: it decides which bins a point touches.
  EXPECT_EQ(c.binningVertex.pointSize, slot + 1);
  EXPECT_TRUE(writes(c.binningVertex, slot)) << isa::disassemble(c.binningVertex);
  EXPECT_FALSE(writes(c.binningVertex, 4));
  // Without gl_PointSize there is no point-size output.
  const CompiledProgram n =
      compileProgram("attribute vec4 pos; void main() { gl_Position = pos; }\n",
                     "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n");
  ASSERT_TRUE(n.ok) << n.log;
  EXPECT_EQ(n.vertex.pointSize, 0);
  EXPECT_EQ(n.vertex.numOutputs, 1);
}

TEST(BuiltIns, PointCoordReadsTheSystemValues) {
  const CompiledProgram c = compileProgram(
      "attribute vec4 pos; void main() { gl_Position = pos; gl_PointSize = 8.0; }\n",
      "precision mediump float;\n"
      "void main() { gl_FragColor = vec4(gl_PointCoord, gl_PointCoord.y * 2.0, 1.0); }\n");
  ASSERT_TRUE(c.ok) << c.log;
  EXPECT_TRUE(reads(c.fragment, isa::File::Sys, int(isa::SysValue::PointCoordS)))
      << isa::disassemble(c.fragment);
  EXPECT_TRUE(reads(c.fragment, isa::File::Sys, int(isa::SysValue::PointCoordT)));
  EXPECT_EQ(c.fragment.numVaryings, 0);
}

TEST(BuiltIns, PointSizeNeedsAFreeOutput) {
  std::string vs =
      "attribute vec4 pos; varying vec4 v[16];\nvoid main() { gl_Position = pos;\n"
      "  gl_PointSize = 2.0;\n";
  std::string fs =
      "precision mediump float; varying vec4 v[16];\nvoid main() { vec4 s = vec4(0.0);\n";
  for (int i = 0; i < 16; ++i) {
    vs += "  v[" + std::to_string(i) + "] = pos * " + std::to_string(i + 1) + ".0;\n";
    fs += "  s += v[" + std::to_string(i) + "];\n";
  }
  const CompiledProgram c = compileProgram(vs + "}\n", fs + "  gl_FragColor = s; }\n");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.log.find("gl_PointSize needs an output"), std::string::npos) << c.log;
}

}  // namespace
}  // namespace tessera::compiler
