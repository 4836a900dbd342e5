// Writes a text file (a JSON report) so that readers never see half of it: the text goes to
// `path + ".tmp"` first and is renamed into place. Throws tessera::Error naming the path.
#pragma once
#include <string>

namespace tessera {

void writeTextFile(const std::string& path, const std::string& text);

}  // namespace tessera
