// Bad GLSL never crashes the compiler: compile and link errors come back in the info log with
// the line, as GLSL drivers report them; constructs Tessera cannot run are named.
#include <gtest/gtest.h>

#include <iterator>
#include <random>

#include "compiler/compiler.h"

namespace tessera::compiler {
namespace {

constexpr const char* kVs = R"(attribute vec4 p;
varying vec2 uv;
void main() { gl_Position = p; uv = p.xy; }
)";
constexpr const char* kFs = R"(precision mediump float;
varying vec2 uv;
void main() { gl_FragColor = vec4(uv, 0.0, 1.0); }
)";

TEST(CompilerErrors, SyntaxErrorNamesTheLine) {
  const CompiledProgram c = compileProgram(
      kVs, "precision mediump float;\nvoid main() {\n  gl_FragColor = vec4(1.0)\n}\n");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.log.find("ERROR: 0:4"), std::string::npos) << c.log;
  EXPECT_NE(c.log.find("fragment shader"), std::string::npos) << c.log;
  EXPECT_TRUE(c.vertex.code.empty());
}

TEST(CompilerErrors, TypeErrorsAndUndeclaredNames) {
  const CompiledProgram a =
      compileProgram(kVs, "precision mediump float;\nvoid main() { gl_FragColor = 1.0; }\n");
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.log.find("ERROR: 0:2"), std::string::npos) << a.log;
  const CompiledProgram b = compileProgram("void main() { gl_Position = nope; }\n", kFs);
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.log.find("nope"), std::string::npos) << b.log;
  EXPECT_NE(b.log.find("vertex shader"), std::string::npos) << b.log;
}

TEST(CompilerErrors, LinkMismatchIsALinkError) {
  // The varying's type differs between the stages.
  const CompiledProgram c = compileProgram(
      "attribute vec4 p;\nvarying vec3 uv;\nvoid main() { gl_Position = p; uv = p.xyz; }\n", kFs);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.log.find("uv"), std::string::npos) << c.log;
  // A varying read by the fragment shader that the vertex shader does not declare.
  const CompiledProgram d =
      compileProgram("attribute vec4 p;\nvoid main() { gl_Position = p; }\n", kFs);
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.log.find("uv"), std::string::npos) << d.log;
}

TEST(CompilerErrors, MissingMainAndEmptySource) {
  EXPECT_FALSE(compileProgram("", kFs).ok);
  EXPECT_FALSE(compileProgram(kVs, "precision mediump float;\n").ok);
  EXPECT_FALSE(compileShader(isa::Stage::Fragment, std::string("\0\0\0", 3)).ok);
}

TEST(CompilerErrors, UnsupportedConstructsAreNamed) {
  // gl_VertexID has no place in Tessera's vertex inputs yet; the message names the construct.
  const CompiledProgram c =
      compileProgram("#version 300 es\nvoid main() { gl_Position = vec4(float(gl_VertexID)); }\n",
                     "#version 300 es\nprecision mediump float; out vec4 color;\n"
                     "void main() { color = vec4(1.0); }\n");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.log.find("vertex shader built-in input is not supported"), std::string::npos)
      << c.log;
}

// Every GLSL ES 3.00 sampler type reaches the interface with its GL name and type enum.
TEST(CompilerErrors, SamplerTypesAreReported) {
  std::string fs =
      "#version 300 es\nprecision highp float; precision highp int;\nout vec4 color;\n";
  std::string sum = "vec4(0.0)";
  for (const SamplerTypeInfo& row : kSamplerTypes) {
    const std::string name = std::string("u_") + row.glslName;
    fs += "uniform highp " + std::string(row.glslName) + " " + name + ";\n";
    const bool cube = row.target == SamplerTarget::Cube;
    const bool three = row.target == SamplerTarget::Tex3D || row.target == SamplerTarget::Array2D;
    const std::string coord = cube || three ? "vec3(0.5)" : "vec2(0.5)";
    if (row.shadow) {
      const std::string p = row.target == SamplerTarget::Tex2D ? "vec3(0.5)" : "vec4(0.5)";
      sum += " + vec4(texture(" + name + ", " + p + "))";
    } else {
      sum += " + vec4(texture(" + name + ", " + coord + "))";
    }
  }
  fs += "void main() { color = " + sum + "; }\n";
  const CompiledProgram c =
      compileProgram("#version 300 es\nin vec4 pos; void main() { gl_Position = pos; }\n", fs);
  ASSERT_TRUE(c.ok) << c.log;
  EXPECT_EQ(c.interface.samplerCount, std::size(kSamplerTypes));
  for (const SamplerTypeInfo& row : kSamplerTypes) {
    const UniformInfo* u = c.interface.findUniform(std::string("u_") + row.glslName);
    ASSERT_NE(u, nullptr) << row.glslName;
    EXPECT_EQ(u->type.base, row.base) << row.glslName;
    EXPECT_EQ(u->type.glslName(), row.glslName);
    EXPECT_TRUE(u->type.isSampler());
    EXPECT_GE(u->sampler, 0);
  }
  EXPECT_EQ(samplerType(BaseType::Sampler2DShadow).glEnum, 0x8B62u);  // GL_SAMPLER_2D_SHADOW
  EXPECT_EQ(samplerType(BaseType::USampler2DArray).glEnum, 0x8DD7u);
}

TEST(CompilerErrors, TooManyVaryingsAndUniforms) {
  std::string vs = "attribute vec4 p;\n", fs = "precision mediump float;\n", sum = "vec4(0.0)";
  std::string writes;
  for (int i = 0; i < 17; ++i) {
    vs += "varying vec4 v" + std::to_string(i) + ";\n";
    fs += "varying vec4 v" + std::to_string(i) + ";\n";
    writes += "v" + std::to_string(i) + " = p;";
    sum += " + v" + std::to_string(i);
  }
  const CompiledProgram c = compileProgram(vs + "void main() { gl_Position = p; " + writes + " }\n",
                                           fs + "void main() { gl_FragColor = " + sum + "; }\n");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.log.find("varying"), std::string::npos) << c.log;
}

TEST(CompilerErrors, GoodProgramCompiles) {
  const CompiledProgram c = compileProgram(kVs, kFs);
  ASSERT_TRUE(c.ok) << c.log;
  ASSERT_EQ(c.interface.attributes.size(), 1u);
  EXPECT_EQ(c.interface.attributes[0].name, "p");
  ASSERT_EQ(c.interface.varyings.size(), 1u);
  EXPECT_EQ(c.interface.varyings[0].name, "uv");
  EXPECT_EQ(c.vertex.numOutputs, 2);
  EXPECT_EQ(c.fragment.numVaryings, 1);
}

// Random edits of valid programs: every result is a clean success or an error log.
TEST(CompilerFuzz, MutatedSourcesNeverCrash) {
  const std::string base = std::string(kFs) +
                           "float f(float x) { for (int i = 0; i < 4; i++) { if (x > 1.0) break; x "
                           "*= 2.0; } return x; }\n";
  const std::string alphabet = "{}()[];,.+-*/=<>!&|^?:#\n 0123456789.eEabcdfxyzvecmatfloatintbool";
  std::mt19937 rng(1234);
  int compiled = 0, rejected = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    std::string s = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s.erase(at, 1 + rng() % 3);
          break;
        case 1:
          s.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          s[at] = alphabet[rng() % alphabet.size()];
          break;
      }
    }
    const CompiledProgram c = compileProgram(kVs, s);
    (c.ok ? compiled : rejected)++;
    if (!c.ok) {
      EXPECT_FALSE(c.log.empty()) << s;
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_EQ(compiled + rejected, 300);
}

}  // namespace
}  // namespace tessera::compiler
