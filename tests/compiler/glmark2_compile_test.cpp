// Every program glmark2-es2 builds, composed as glmark2 composes it, compiles and links.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>

#include "compiler/compiler.h"
#include "compiler/glmark2/glmark2_programs.h"

namespace tessera::compiler {
namespace {

const std::vector<test::Glmark2Program>& programs() {
  static const std::vector<test::Glmark2Program> all = [] {
    if (!std::filesystem::exists("/usr/share/glmark2/shaders"))
      return std::vector<test::Glmark2Program>{};
    return test::glmark2Programs();
  }();
  return all;
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const auto& p : programs()) n.push_back(p.name);
  return n;
}

class Glmark2Compile : public ::testing::TestWithParam<std::string> {};

TEST_P(Glmark2Compile, CompilesAndLinks) {
  for (const auto& p : programs()) {
    if (p.name != GetParam()) continue;
    const CompiledProgram c = compileProgram(p.vertex, p.fragment);
    const std::string sources = "\n--- vertex:\n" + p.vertex + "\n--- fragment:\n" + p.fragment;
    ASSERT_TRUE(c.ok) << c.log << sources;
    EXPECT_GT(c.vertex.code.size(), 1u);
    EXPECT_GT(c.fragment.code.size(), 1u);
    EXPECT_EQ(c.binningVertex.numOutputs, 1u);  // gl_Position only
    EXPECT_LE(c.binningVertex.code.size(), c.vertex.code.size());
    if (HasFailure()) ADD_FAILURE() << sources;
  }
}

INSTANTIATE_TEST_SUITE_P(Glmark2, Glmark2Compile, ::testing::ValuesIn(names()), [](const auto& p) {
  std::string s;
  for (char ch : p.param) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return s + "_" + std::to_string(p.index);
});

}  // namespace
}  // namespace tessera::compiler
