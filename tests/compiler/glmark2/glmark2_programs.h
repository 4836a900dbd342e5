// The glmark2 shader corpus: every program glmark2-es2 (2023.01) builds from the templates in
// Debian's glmark2-data, composed the way its scenes compose them at run time, so the GLSL ES
// compiler tests can show that each one compiles and links.
#pragma once
#include <string>
#include <vector>

namespace tessera::test {

struct Glmark2Program {
  std::string name;                // unique, e.g. "shading:shading=phong", "terrain/bloom-h"
  std::string vertex;              // complete GLSL ES 1.00 vertex shader text
  std::string fragment;            // complete fragment shader text
  std::vector<std::string> files;  // the template files (base names) it was composed from
};

// Every program glmark2-es2 builds for its default benchmarks and for the other option values
// that change shader text, composed from the template files in shaderDir. Names are
// "<scene>[:<option>=<value>...][/<pass>]": options as on glmark2's command line, pass for
// scenes that build more than one program. Throws tessera::Error naming the directory if it is
// missing, naming the file if a template is missing, or naming the marker and file if a
// placeholder cannot be filled.
std::vector<Glmark2Program> glmark2Programs(
    const std::string& shaderDir = "/usr/share/glmark2/shaders");

}  // namespace tessera::test
