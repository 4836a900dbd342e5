#include "common/text_file.h"

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

}  // namespace tessera
