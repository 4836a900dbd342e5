#include "compiler/glmark2/glmark2_programs.h"

#include <gtest/gtest.h>

#include <cctype>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/error.h"
#include "compiler/glmark2/glmark2_shader_text.h"

namespace tessera::test {
namespace {

namespace fs = std::filesystem;

const std::string kInstalledDir = "/usr/share/glmark2/shaders";

// Templates glmark2 2023.01 never loads; the coverage test accepts these unused. glmark2 uses
// every .vert, .frag and .all file it installs, so the list is empty.
const std::set<std::string> kNeverUsedByGlmark2 = {};

std::size_t countOf(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + what.size())) {
    ++count;
  }
  return count;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Runs glmark2Programs and returns the tessera::Error message, or fails if nothing is thrown.
std::string errorFrom(const std::string& dir) {
  try {
    glmark2Programs(dir);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no tessera::Error for " << dir;
  return "";
}

// A scratch directory removed at the end of the test.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(fs::path(testing::TempDir()) / ("glmark2_" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A copy of the installed templates, to break one thing in.
class BrokenCopy : public ScratchDir {
 public:
  explicit BrokenCopy(const std::string& name) : ScratchDir(name) {
    for (const auto& entry : fs::directory_iterator(kInstalledDir)) {
      fs::copy_file(entry.path(), path() / entry.path().filename());
    }
  }
};

// ---- error paths that need no installed data ------------------------------------------------

TEST(Glmark2ProgramsErrors, MissingDirectoryIsNamed) {
  const std::string dir = "/nonexistent/glmark2-shader-templates";
  EXPECT_NE(errorFrom(dir).find(dir), std::string::npos);
}

TEST(Glmark2ProgramsErrors, MissingTemplateIsNamed) {
  ScratchDir empty("empty");
  const std::string message = errorFrom(empty.path().string());
  EXPECT_NE(message.find("light-basic.vert"), std::string::npos) << message;
}

TEST(Glmark2ProgramsErrors, UnfillableMarkerIsNamedWithItsFile) {
  ScratchDir dir("marker");
  const glmark2::TemplateDir templates{dir.path().string(), {}, {}};
  writeFile(dir.path() / "a.frag", "void main() { gl_FragColor = vec4(1.0); }\n");
  glmark2::ShaderText text(templates, "a.frag");
  try {
    text.replace("$MAIN$", "x");
    FAIL() << "replacing an absent marker must throw";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("$MAIN$"), std::string::npos) << message;
    EXPECT_NE(message.find("a.frag"), std::string::npos) << message;
  }
}

// ---- the composition rules, on small hand-written templates ----------------------------------

TEST(Glmark2ShaderText, PrecisionOptionParsesLikeGlmark2) {
  using glmark2::Precision;
  const glmark2::StagePrecision onlyFloat = glmark2::parsePrecisionOption(",high,,");
  EXPECT_EQ(onlyFloat.intPrecision, Precision::kDefault);
  EXPECT_EQ(onlyFloat.floatPrecision, Precision::kHigh);
  EXPECT_EQ(onlyFloat.sampler2DPrecision, Precision::kDefault);
  const glmark2::StagePrecision all = glmark2::parsePrecisionOption("low,medium high,default");
  EXPECT_EQ(all.intPrecision, Precision::kLow);
  EXPECT_EQ(all.floatPrecision, Precision::kMedium);
  EXPECT_EQ(all.sampler2DPrecision, Precision::kHigh);
  EXPECT_EQ(all.samplerCubePrecision, Precision::kDefault);
}

TEST(Glmark2ShaderText, StageDecidesPreambleAndConstantsGoFirst) {
  ScratchDir dir("stage");
  writeFile(dir.path() / "v.vert", "void main() { gl_Position = vec4(K); }");  // no final '\n'
  writeFile(dir.path() / "f.frag", "void main() { gl_FragColor = vec4(K); }\n");
  writeFile(dir.path() / "s.all", "    d = d;\n");
  const glmark2::TemplateDir templates{
      dir.path().string(), {}, glmark2::parsePrecisionOption("low,high")};

  glmark2::ShaderText vertex(templates, "v.vert");
  vertex.addConst("K", 0.5f);
  vertex.addConst("J", std::array<float, 3>{1.0f, -2.0f, 0.25f});
  EXPECT_EQ(vertex.stage(), glmark2::Stage::kVertex);
  const std::string v = vertex.str();
  EXPECT_EQ(v.rfind("#if defined(GL_ES)\n#define HIGHP_OR_DEFAULT highp\n", 0), 0u) << v;
  EXPECT_EQ(v.find("precision"), std::string::npos) << "vertex default precision is implicit";
  EXPECT_NE(v.find("#endif\nconst vec3 J = vec3(1.000000, -2.000000, 0.250000);\n"
                   "const float K = 0.500000;\nvoid main() { gl_Position = vec4(K); }\n"),
            std::string::npos)
      << v;

  glmark2::ShaderText fragment(templates, "f.frag");
  const std::string f = fragment.str();
  EXPECT_EQ(f.rfind("#if defined(GL_ES) && defined(GL_FRAGMENT_PRECISION_HIGH)\n", 0), 0u);
  EXPECT_NE(f.find("#ifdef GL_ES\nprecision lowp int;\n#ifdef GL_FRAGMENT_PRECISION_HIGH\n"
                   "precision highp float;\n#else\nprecision mediump float;\n#endif\n#endif\n"),
            std::string::npos)
      << f;

  // A spliced piece has no stage: macros, no precision statements.
  glmark2::ShaderText piece(templates, "s.all");
  EXPECT_EQ(piece.stage(), glmark2::Stage::kUnknown);
  EXPECT_EQ(piece.str().find("precision"), std::string::npos);

  // Constants added to a text that already holds a preamble go after the #endif that closes
  // its last precision statement (phong and effect2d compose this way).
  const glmark2::TemplateDir plain{dir.path().string(), {}, {}};
  glmark2::ShaderText outer(plain);
  outer.append(glmark2::ShaderText(plain, "f.frag"));
  outer.addConst("M", 1.0f);
  const std::string o = outer.str();
  EXPECT_NE(o.find("precision mediump float;\n#endif\nconst float M = 1.000000;\nvoid main()"),
            std::string::npos)
      << o;
  EXPECT_EQ(countOf(o, "precision mediump float;"), 2u);
  EXPECT_EQ(outer.files(), std::vector<std::string>{"f.frag"});
}

// ---- the corpus composed from the installed templates -------------------------------------

class Glmark2Corpus : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (fs::is_directory(kInstalledDir)) programs_ = glmark2Programs(kInstalledDir);
  }
  void SetUp() override {
    if (!fs::is_directory(kInstalledDir)) GTEST_SKIP() << kInstalledDir << " not installed";
  }
  static const Glmark2Program& program(const std::string& name) {
    const auto it = std::find_if(programs_.begin(), programs_.end(),
                                 [&](const Glmark2Program& p) { return p.name == name; });
    if (it == programs_.end()) throw std::runtime_error("no program " + name);
    return *it;
  }
  static std::vector<Glmark2Program> programs_;
};

std::vector<Glmark2Program> Glmark2Corpus::programs_;

TEST_F(Glmark2Corpus, NoPlaceholderRemains) {
  // A "$NAME$" marker: '$', one or more of A-Z, 0-9 or '_', '$' (no std::regex: GCC 12 warns
  // inside it at -O2, and warnings are errors).
  auto hasMarker = [](const std::string& s) {
    for (size_t i = s.find('$'); i != std::string::npos; i = s.find('$', i + 1)) {
      size_t j = i + 1;
      while (j < s.size() && (std::isupper(static_cast<unsigned char>(s[j])) ||
                              std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '_')) {
        ++j;
      }
      if (j > i + 1 && j < s.size() && s[j] == '$') return true;
    }
    return false;
  };
  for (const Glmark2Program& p : programs_) {
    EXPECT_FALSE(hasMarker(p.vertex)) << p.name;
    EXPECT_FALSE(hasMarker(p.fragment)) << p.name;
  }
}

TEST_F(Glmark2Corpus, NamesAreUnique) {
  std::set<std::string> names;
  for (const Glmark2Program& p : programs_) EXPECT_TRUE(names.insert(p.name).second) << p.name;
  EXPECT_GE(names.size(), 60u);
}

TEST_F(Glmark2Corpus, EveryTemplateIsUsed) {
  std::set<std::string> used;
  for (const Glmark2Program& p : programs_) used.insert(p.files.begin(), p.files.end());
  for (const auto& entry : fs::directory_iterator(kInstalledDir)) {
    const std::string file = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    if (ext != ".vert" && ext != ".frag" && ext != ".all") continue;
    if (kNeverUsedByGlmark2.contains(file)) continue;
    EXPECT_TRUE(used.contains(file)) << file << " is used by no program";
  }
}

TEST_F(Glmark2Corpus, EveryTextHasMainAndItsStagesOutput) {
  // "void main(" with any spacing, then "void" or nothing, then ")".
  auto hasMain = [](std::string s) {
    std::erase_if(s, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
    return s.find("voidmain()") != std::string::npos ||
           s.find("voidmain(void)") != std::string::npos;
  };
  for (const Glmark2Program& p : programs_) {
    EXPECT_TRUE(hasMain(p.vertex)) << p.name;
    EXPECT_TRUE(hasMain(p.fragment)) << p.name;
    EXPECT_NE(p.vertex.find("gl_Position"), std::string::npos) << p.name;
    EXPECT_NE(p.fragment.find("gl_FragColor"), std::string::npos) << p.name;
  }
}

// GLSL ES 1.00 section 4.5.3: a fragment shader must declare a default float precision.
TEST_F(Glmark2Corpus, FragmentShadersDeclareFloatPrecision) {
  for (const Glmark2Program& p : programs_) {
    EXPECT_EQ(p.fragment.rfind("#if defined(GL_ES) && defined(GL_FRAGMENT_PRECISION_HIGH)\n", 0),
              0u)
        << p.name;
    EXPECT_EQ(p.vertex.rfind("#if defined(GL_ES)\n#define HIGHP_OR_DEFAULT highp\n", 0), 0u)
        << p.name;
    EXPECT_TRUE(p.fragment.find("precision mediump float;") != std::string::npos ||
                p.fragment.find("precision lowp float;") != std::string::npos)
        << p.name;
  }
  EXPECT_NE(program("jellyfish/jellyfish").fragment.find("precision highp float;"),
            std::string::npos);
}

TEST_F(Glmark2Corpus, CoversTheDefaultBenchmarks) {
  // glmark2's default list, with option values that leave the shader text alone dropped.
  for (const char* name : {"build",
                           "texture:texture-filter=nearest",
                           "shading:shading=gouraud",
                           "shading:shading=blinn-phong-inf",
                           "shading:shading=phong",
                           "shading:shading=cel",
                           "bump:bump-render=high-poly",
                           "bump:bump-render=normals",
                           "bump:bump-render=height",
                           "effect2d:kernel=0,1,0;1,-4,1;0,1,0;",
                           "effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;",
                           "pulsar:quads=5:texture=false:light=false",
                           "desktop/window",
                           "desktop:effect=blur:blur-radius=5:separable=true/blur-h",
                           "desktop:effect=blur:blur-radius=5:separable=true/blur-v",
                           "buffer",
                           "ideas/table",
                           "ideas/lamp-lit",
                           "ideas/logo",
                           "jellyfish/jellyfish",
                           "jellyfish/gradient",
                           "terrain/terrain",
                           "terrain/noise",
                           "terrain/bloom-h",
                           "terrain/tilt-shift-v",
                           "shadow/depth",
                           "shadow/ground",
                           "shadow/model",
                           "refract/depth",
                           "refract/model",
                           "conditionals:vertex-steps=0:fragment-steps=0",
                           "conditionals:vertex-steps=0:fragment-steps=5",
                           "conditionals:vertex-steps=5:fragment-steps=0",
                           "function:fragment-steps=5:fragment-complexity=low",
                           "function:fragment-steps=5:fragment-complexity=medium",
                           "loop:vertex-steps=5:fragment-steps=5:fragment-loop=false",
                           "loop:vertex-steps=5:fragment-steps=5:fragment-uniform=false",
                           "loop:vertex-steps=5:fragment-steps=5:fragment-uniform=true",
                           "text-renderer"}) {
    EXPECT_NO_THROW(program(name)) << name;
  }
}

TEST_F(Glmark2Corpus, GeneratedCodeFollowsTheOptions) {
  const Glmark2Program& phong = program("shading:shading=phong:num-lights=4");
  EXPECT_EQ(countOf(phong.fragment, "gl_FragColor += compute_color(LightSourcePosition"), 4u);
  EXPECT_EQ(countOf(phong.fragment, "#define HIGHP_OR_DEFAULT highp"), 2u);  // nested preamble

  EXPECT_EQ(
      countOf(program("conditionals:vertex-steps=0:fragment-steps=5").fragment, "if (d >= 0.5)"),
      5u);
  EXPECT_EQ(countOf(program("conditionals:vertex-steps=0:fragment-steps=5").vertex, "if ("), 0u);

  const Glmark2Program& calls = program("function:fragment-steps=5:fragment-complexity=medium");
  EXPECT_EQ(countOf(calls.fragment, "d = process(d);"), 5u);
  EXPECT_EQ(countOf(calls.fragment, "d = fract(sqrt(d));"), 1u);  // the medium step, in process()
  const Glmark2Program& inlined = program(
      "function:vertex-steps=5:fragment-steps=5:vertex-function=false:fragment-function=false:"
      "vertex-complexity=medium");
  EXPECT_EQ(countOf(inlined.vertex, "d = fract(sqrt(d));"), 5u);
  EXPECT_EQ(countOf(inlined.fragment, "process(d)"), 0u);

  const Glmark2Program& literal =
      program("loop:vertex-steps=5:fragment-steps=5:fragment-uniform=false");
  EXPECT_NE(literal.fragment.find("i < 5;"), std::string::npos);
  EXPECT_NE(literal.vertex.find("i < VertexLoops;"), std::string::npos);
  const Glmark2Program& unrolled =
      program("loop:vertex-steps=5:fragment-steps=5:fragment-loop=false");
  EXPECT_EQ(countOf(unrolled.fragment, "for ("), 0u);
  EXPECT_EQ(countOf(unrolled.fragment, "d = fract(3.0 * d);"), 5u);

  const Glmark2Program& box = program("effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;");
  EXPECT_NE(box.fragment.find("const float Kernel14 = 0.066667;"), std::string::npos);
  EXPECT_EQ(box.fragment.find("Kernel15"), std::string::npos);
  EXPECT_NE(box.fragment.find("vec2(-2.0 * TextureStepX, 1.0 * TextureStepY)) * Kernel0"),
            std::string::npos);
  EXPECT_NE(program("effect2d:kernel=0,1,0;1,-4,1;0,1,0;")
                .fragment.find("const float Kernel4 = -1.000000;"),
            std::string::npos);

  EXPECT_EQ(countOf(program("desktop:effect=blur:blur-radius=5:separable=false/blur").fragment,
                    "texture2D(Texture0"),
            121u);
  EXPECT_EQ(countOf(program("terrain/tilt-shift-h").fragment, "texture2D(Texture0"), 9u);
  EXPECT_NE(program("terrain/bloom-v").fragment.find("float stepY = TextureStepY * abs("),
            std::string::npos);
  EXPECT_NE(program("texture:texgen=true").vertex.find("const float PI = 3.141593;"),
            std::string::npos);
}

TEST_F(Glmark2Corpus, FilesListWhatWasComposed) {
  EXPECT_EQ(program("loop:vertex-steps=5:fragment-steps=5:fragment-loop=false").files,
            (std::vector<std::string>{"loop.vert", "loop-step-loop.all", "loop.frag",
                                      "loop-step-simple.all"}));
  EXPECT_EQ(program("conditionals:vertex-steps=0:fragment-steps=0").files,
            (std::vector<std::string>{"conditionals.vert", "conditionals.frag"}));
}

TEST_F(Glmark2Corpus, MissingStepFileIsNamed) {
  BrokenCopy copy("missing_step");
  fs::remove(copy.path() / "loop-step-simple.all");
  const std::string message = errorFrom(copy.path().string());
  EXPECT_NE(message.find("loop-step-simple.all"), std::string::npos) << message;
}

TEST_F(Glmark2Corpus, TemplateWithoutItsMarkerIsNamed) {
  BrokenCopy copy("no_marker");
  std::string text = readFile(copy.path() / "light-phong.frag");
  text.replace(text.find("$DO_LIGHTS$"), 11, "");
  writeFile(copy.path() / "light-phong.frag", text);
  const std::string message = errorFrom(copy.path().string());
  EXPECT_NE(message.find("$DO_LIGHTS$"), std::string::npos) << message;
  EXPECT_NE(message.find("light-phong.frag"), std::string::npos) << message;
}

TEST_F(Glmark2Corpus, MarkerNobodyFillsIsNamed) {
  BrokenCopy copy("extra_marker");
  writeFile(copy.path() / "buffer-wireframe.frag",
            readFile(copy.path() / "buffer-wireframe.frag") + "$NEW_FEATURE$\n");
  const std::string message = errorFrom(copy.path().string());
  EXPECT_NE(message.find("$NEW_FEATURE$"), std::string::npos) << message;
  EXPECT_NE(message.find("buffer-wireframe.frag"), std::string::npos) << message;
}

}  // namespace
}  // namespace tessera::test
