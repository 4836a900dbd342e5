// Scenes the image tests share: the built-in ones and glmark2's models (Debian glmark2-data).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::test {

inline const char* kModelDir = "/usr/share/glmark2/models/";

inline std::vector<std::string> imageTestScenes() {
  std::vector<std::string> s = {"default", "blend", "stencil"};
  for (const char* m : {"horse.3ds", "bunny.obj", "cat.3ds"})
    s.push_back(std::string(kModelDir) + m);
  return s;
}

inline std::string sceneLabel(const std::string& s) {
  return std::filesystem::path(s).stem().string();
}

}  // namespace tessera::test
