// The docs stay true to the tables: every register, opcode and event appears in the
// command-stream reference, and every path docs/architecture.md names exists.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "gpu/cp/opcodes.h"
#include "gpu/cp/registers.h"

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
  for (const auto& r : kRegisters) EXPECT_NE(doc.find("`" + std::string(r.name) + "`"), std::string::npos) << r.name;
  for (const auto& o : kOpcodes) EXPECT_NE(doc.find("`" + std::string(o.name) + "`"), std::string::npos) << o.name;
  for (const auto& e : kEvents) EXPECT_NE(doc.find("`" + std::string(e.name) + "`"), std::string::npos) << e.name;
}

TEST(Docs, ArchitecturePathsExist) {
  const std::string doc = readDoc("architecture.md");
  ASSERT_FALSE(doc.empty());
  const std::regex path(R"((src|tests|docs)/[A-Za-z0-9_./-]*[A-Za-z0-9_])");
  int checked = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), path); it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(std::filesystem::exists(std::string(TESSERA_SOURCE_DIR) + "/" + it->str())) << it->str();
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
