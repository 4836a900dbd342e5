// Register allocation under pressure: a program with more values live than a thread's 64
// registers spills to private memory instead of failing to link (its results are checked
// against Mesa by the register_spilling shader test); programs that fit use none.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "compiler/compiler.h"
#include "isa/encoding.h"

namespace tessera::compiler {
namespace {

constexpr const char* kPressureFs = R"(precision highp float;
varying vec2 v;
void main() {
  vec4 a[24];
  for (int i = 0; i < 24; ++i)
    a[i] = vec4(sin(v.x * float(i + 1)), cos(v.y * float(i + 2)), v.x * float(i), v.y);
  vec4 s = vec4(0.0);
  for (int i = 23; i >= 0; --i) s = s * 0.9 + a[i] * a[23 - i];
  gl_FragColor = s;
}
)";
constexpr const char* kVs = R"(attribute vec4 p; varying vec2 v;
void main() { gl_Position = p; v = p.xy; }
)";

int privateAccesses(const isa::Program& p) {
  int n = 0;
  for (const isa::Instr& in : p.code) {
    const bool touches = in.dst.file == isa::File::Private ||
                         std::any_of(in.src.begin(), in.src.end(), [](const isa::Operand& o) {
                           return o.file == isa::File::Private;
                         });
    if (!touches) continue;
    ++n;
    EXPECT_EQ(in.op, isa::Opcode::Mov);
  }
  return n;
}

TEST(RegisterAllocation, PressureSpillsToPrivateMemory) {
  const CompiledProgram c = compileProgram(kVs, kPressureFs);
  ASSERT_TRUE(c.ok) << c.log;
  EXPECT_LE(c.fragment.regCount, isa::kMaxRegs);
  EXPECT_GT(c.fragment.privateDwords, 0);
  EXPECT_GT(privateAccesses(c.fragment), 2 * c.fragment.privateDwords - 1);  // a store and a fill
  // The binary carries the private size for the driver.
  const std::vector<uint32_t> words = isa::encode(c.fragment);
  EXPECT_EQ(isa::privateDwordsOf(words), c.fragment.privateDwords);
  EXPECT_EQ(isa::decode(words), c.fragment);
  // The vertex shader fits in registers.
  EXPECT_EQ(c.vertex.privateDwords, 0);
  EXPECT_EQ(privateAccesses(c.vertex), 0);
}

TEST(RegisterAllocation, FarOverTheLimitStillLinks) {
  // 60 live vec4s (the w component is shared): over a hundred values spill, chosen in one pass
  // before colouring.
  std::string fs = kPressureFs;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"24", "60"}, {"23", "59"}}) {
    for (size_t at = fs.find(from); at != std::string::npos; at = fs.find(from, at + to.size()))
      fs.replace(at, from.size(), to);
  }
  const CompiledProgram c = compileProgram(kVs, fs);
  ASSERT_TRUE(c.ok) << c.log;
  EXPECT_LE(c.fragment.regCount, isa::kMaxRegs);
  EXPECT_GT(c.fragment.privateDwords, 100);
  EXPECT_GT(privateAccesses(c.fragment), 2 * c.fragment.privateDwords - 1);
}

TEST(RegisterAllocation, BinningVariantSpillsOnlyWhatThePositionNeeds) {
  // The varying needs 80 live values, the position none: only the full vertex shader spills.
  const CompiledProgram c = compileProgram(R"(attribute vec4 p; varying vec4 w;
void main() {
  gl_Position = p;
  vec4 b[20];
  for (int i = 0; i < 20; ++i) b[i] = p * float(i + 1) + vec4(float(i));
  vec4 s = vec4(0.0);
  for (int i = 19; i >= 0; --i) s = s * 0.5 + b[i] * b[19 - i];
  w = s;
}
)",
                                           "precision mediump float; varying vec4 w;\n"
                                           "void main() { gl_FragColor = w; }\n");
  ASSERT_TRUE(c.ok) << c.log;
  EXPECT_GT(c.vertex.privateDwords, 0);
  EXPECT_EQ(c.binningVertex.privateDwords, 0);
  EXPECT_EQ(privateAccesses(c.binningVertex), 0);
}

}  // namespace
}  // namespace tessera::compiler
