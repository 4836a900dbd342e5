// Errors a user or program can cause (bad model file, bad option, bad preset). Every layer throws
// tessera::Error with a message that names what is wrong and where; tools print it and exit 1.
#pragma once
#include <stdexcept>
#include <string>

namespace tessera {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tessera
