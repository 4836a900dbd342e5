#include "compiler/glmark2/glmark2_programs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "common/error.h"
#include "compiler/glmark2/glmark2_scenes.h"

namespace tessera::test {
namespace {

// A "$NAME$" marker left in a composed text, or an empty view. glmark2 would send such text to
// the driver unchanged; here it means the templates and this composition have drifted apart.
std::string_view findMarker(std::string_view text) {
  for (std::size_t pos = text.find('$'); pos != std::string_view::npos;
       pos = text.find('$', pos + 1)) {
    std::size_t end = pos + 1;
    while (end < text.size() &&
           (std::isupper(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
            std::isdigit(static_cast<unsigned char>(text[end])))) {
      ++end;
    }
    if (end > pos + 1 && end < text.size() && text[end] == '$') {
      return text.substr(pos, end - pos + 1);
    }
  }
  return {};
}

void checkFilled(const Glmark2Program& program) {
  for (const std::string* text : {&program.vertex, &program.fragment}) {
    const std::string_view marker = findMarker(*text);
    if (marker.empty()) continue;
    std::string files;
    for (const std::string& file : program.files) files += (files.empty() ? "" : ", ") + file;
    throw Error("glmark2 placeholder '" + std::string(marker) + "' left unfilled in program '" +
                program.name + "' (from " + files + ")");
  }
}

}  // namespace

namespace glmark2 {

void addProgram(ProgramList& out, std::string name, const ShaderText& vertex,
                const ShaderText& fragment) {
  Glmark2Program program{std::move(name), vertex.str(), fragment.str(), vertex.files()};
  for (const std::string& file : fragment.files()) {
    if (std::find(program.files.begin(), program.files.end(), file) == program.files.end()) {
      program.files.push_back(file);
    }
  }
  out.push_back(std::move(program));
}

void addPlainProgram(ProgramList& out, const TemplateDir& dir, std::string name,
                     const std::string& vertexFile, const std::string& fragmentFile) {
  // Vertex first, as glmark2 loads them: a missing template is reported in that order.
  const ShaderText vertex(dir, vertexFile);
  const ShaderText fragment(dir, fragmentFile);
  addProgram(out, std::move(name), vertex, fragment);
}

}  // namespace glmark2

std::vector<Glmark2Program> glmark2Programs(const std::string& shaderDir) {
  if (!std::filesystem::is_directory(shaderDir)) {
    throw Error("glmark2 shader directory '" + shaderDir + "' not found");
  }
  // Scene::prepare sets both stages' default precision from the vertex-precision and
  // fragment-precision options, whose defaults are "default" for every type.
  const glmark2::TemplateDir dir{shaderDir, {}, {}};
  glmark2::ProgramList programs;
  glmark2::addModelScenes(dir, programs);
  glmark2::addFilterScenes(dir, programs);
  glmark2::addGridScenes(dir, programs);
  for (const Glmark2Program& program : programs) checkFilled(program);
  return programs;
}

}  // namespace tessera::test
