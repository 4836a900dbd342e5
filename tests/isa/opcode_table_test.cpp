// The opcode table is consistent, and docs/isa.md documents every row of it.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "isa/assembler.h"
#include "isa/opcodes.h"
#include "isa/testing_all_opcodes.h"

namespace tessera::isa {
namespace {

TEST(OpcodeTable, NamesAreUniqueAndFound) {
  std::set<std::string_view> names;
  for (const OpInfo& info : kOpTable) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    ASSERT_TRUE(findOpcode(info.name).has_value());
    EXPECT_EQ(*findOpcode(info.name), info.op);
  }
  EXPECT_FALSE(findOpcode("frobnicate").has_value());
}

TEST(OpcodeTable, ShapesMatchUnits) {
  for (const OpInfo& info : kOpTable) {
    EXPECT_EQ(info.unit == Unit::Tex, usesSampler(info.shape)) << info.name;
    const bool noDestination = info.shape == Shape::None || info.shape == Shape::Cond;
    EXPECT_EQ(noDestination, info.unit == Unit::Cf || info.op == Opcode::Nop) << info.name;
    EXPECT_FALSE((info.flags & kSatOk) && (info.flags & kTexture)) << info.name;
  }
}

TEST(OpcodeTable, TestProgramsUseEveryOpcode) {
  std::set<Opcode> seen;
  for (std::string_view text : {testing::kAllVertexOps, testing::kAllFragmentOps})
    for (const Instr& in : assemble(text, "all.s").code) seen.insert(in.op);
  for (const OpInfo& info : kOpTable) EXPECT_TRUE(seen.count(info.op)) << info.name;
}

TEST(OpcodeTable, EveryOpcodeIsDocumented) {
  std::ifstream file(std::string(TESSERA_SOURCE_DIR) + "/docs/isa.md");
  ASSERT_TRUE(file.good()) << "docs/isa.md missing";
  std::stringstream ss;
  ss << file.rdbuf();
  const std::string doc = ss.str();
  constexpr std::string_view kShapes[] = {
      "None",   "Cond",      "Unary",      "Binary",        "Ternary", "Addr",      "Interp",
      "Sample", "SampleArg", "SampleCube", "SampleCubeArg", "Query",   "SampleVec", "SampleVecArg"};
  constexpr std::string_view kUnits[] = {"ALU", "FPU", "SFU", "TEX", "CF"};
  constexpr std::string_view kTypes[] = {"F", "I", "U", "B"};
  for (const OpInfo& info : kOpTable) {
    // Each opcode has a table row: mnemonic, shape, unit, source type, latency, as in kOpTable.
    const std::string row = "| `" + std::string(info.name) + "` | " +
                            std::string(kShapes[static_cast<int>(info.shape)]) + " | " +
                            std::string(kUnits[static_cast<int>(info.unit)]) + " | " +
                            std::string(kTypes[static_cast<int>(info.type)]) + " | " +
                            std::to_string(static_cast<int>(info.latency)) + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "docs/isa.md lacks the row " << row;
  }
}

}  // namespace
}  // namespace tessera::isa
