// The `tessera` command as the command-line tests run it: the binary the build made (TESSERA_BIN,
// defined by the test target), a scratch folder per test file, and whole output files as text.
// Each test process gives `tessera sweep` a cache folder of its own, empty when the process
// starts and removed when it ends, so that no result cached by an earlier run is reused.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/process_temp_dir.h"
#include "tools/shell_command.h"

namespace tessera::test {

inline const std::string& sweepCacheHome() {
  static const ProcessTempDir dir("tessera-cache");
  static const std::string path = dir.path().string();
  return path;
}

inline CommandResult tessera(const std::string& args) {
  return runShell("XDG_CACHE_HOME=" + sweepCacheHome() + " " + std::string(TESSERA_BIN) + " " +
                  args);
}

// `folder/name` under the test's temporary directory, removed if an earlier run left it.
inline std::filesystem::path scratch(const std::string& folder, const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / folder;
  std::filesystem::create_directories(dir);
  std::filesystem::remove_all(dir / name);
  return dir / name;
}

// The cells of a CSV file's rows (no quoting: Tessera's CSVs have none).
inline std::vector<std::vector<std::string>> readCsv(const std::filesystem::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

inline std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace tessera::test
