#include "common/text_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace tessera {

void writeTextFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw Error("cannot write '" + path + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error("cannot write '" + path + "': " + ec.message());
}

void checkOutputFolder(const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  if (!std::filesystem::is_directory(folder))
    throw Error("cannot write '" + path + "': no folder '" + folder.string() + "'");
}

void checkOutputFile(const std::string& path) {
  if (path.empty()) return;
  checkOutputFolder(path);
  if (std::filesystem::is_directory(path))
    throw Error("cannot write '" + path + "': it is a folder");
  const auto folder = std::filesystem::absolute(path).parent_path();
  if (::access(folder.c_str(), W_OK) != 0)
    throw Error("cannot write '" + path + "': folder '" + folder.string() + "' is not writable");
}

}  // namespace tessera
