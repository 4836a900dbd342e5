// A folder of one test process's own under the test temporary directory, empty when made and
// removed with everything in it when the object goes (a function-local static: at process exit).
// CTest runs each case in a process of its own, several at once, so the folder is named by the
// process.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace tessera::test {

class ProcessTempDir {
 public:
  explicit ProcessTempDir(const std::string& prefix)
      : path_(std::filesystem::path(::testing::TempDir()) /
              (prefix + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ProcessTempDir() {
    std::error_code ignored;  // nothing to do about a folder that cannot be removed at exit
    std::filesystem::remove_all(path_, ignored);
  }
  ProcessTempDir(const ProcessTempDir&) = delete;
  ProcessTempDir& operator=(const ProcessTempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tessera::test
