// Writes a text file (a JSON report) so that readers never see half of it: the text goes to
// `path + ".tmp"` first and is renamed into place. Throws tessera::Error naming the path.
#pragma once
#include <string>

namespace tessera {

void writeTextFile(const std::string& path, const std::string& text);

// Throws tessera::Error unless the folder `path` would be written into exists (nothing for an
// empty path). Commands check every output before their work, so a mistyped path costs no
// rendering and leaves no other output behind.
void checkOutputFolder(const std::string& path);
// The same, and the path must not be a folder and its folder must take files.
void checkOutputFile(const std::string& path);

}  // namespace tessera
