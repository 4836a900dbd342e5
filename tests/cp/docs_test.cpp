// The docs stay true to the tables: every register, opcode and event appears in the
// command-stream reference, and every path docs/architecture.md names exists.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/cp/opcodes.h"
#include "gpu/cp/registers.h"
#include "gpu/pipeline/countables.h"

namespace {

std::string readDoc(const std::string& name) {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/docs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Docs, CommandStreamReferenceNamesEveryRegisterOpcodeAndEvent) {
  const std::string doc = readDoc("command-stream.md");
  ASSERT_FALSE(doc.empty());
  using namespace tessera::gpu::cp;
  for (const auto& r : kRegisters)
    EXPECT_NE(doc.find("`" + std::string(r.name) + "`"), std::string::npos) << r.name;
  for (const auto& o : kOpcodes)
    EXPECT_NE(doc.find("`" + std::string(o.name) + "`"), std::string::npos) << o.name;
  for (const auto& e : kEvents)
    EXPECT_NE(doc.find("`" + std::string(e.name) + "`"), std::string::npos) << e.name;
}

TEST(Docs, CounterReferenceNamesEveryCountable) {
  const std::string doc = readDoc("counters.md");
  ASSERT_FALSE(doc.empty());
  for (const auto& c : tessera::gpu::countables()) {
    const std::string name =
        std::string(tessera::gpu::kCounterGroupNames[static_cast<size_t>(c.group)]) + "." +
        std::string(c.name);
    EXPECT_NE(doc.find("`" + name + "`"), std::string::npos) << name;
  }
}

TEST(Docs, ArchitecturePathsExist) {
  const std::string doc = readDoc("architecture.md");
  ASSERT_FALSE(doc.empty());
  // Every token that starts with src/, tests/ or docs/ is a path (without trailing punctuation).
  auto pathChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' ||
           c == '-';
  };
  int checked = 0;
  for (size_t i = 0; i < doc.size(); ++i) {
    if (i > 0 && pathChar(doc[i - 1])) continue;
    if (doc.compare(i, 4, "src/") && doc.compare(i, 6, "tests/") && doc.compare(i, 5, "docs/"))
      continue;
    size_t j = i;
    while (j < doc.size() && pathChar(doc[j])) ++j;
    std::string p = doc.substr(i, j - i);
    while (!p.empty() && (p.back() == '.' || p.back() == '/')) p.pop_back();
    EXPECT_TRUE(std::filesystem::exists(std::string(TESSERA_SOURCE_DIR) + "/" + p)) << p;
    ++checked;
    i = j;
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
