// One shader being composed from glmark2 templates, following the rules glmark2's shader-source
// helper applies before glShaderSource: constants go to the top (after any precision statements
// already in the text), markers are replaced by generated code or other files, and str() puts
// the HIGHP_OR_DEFAULT/MEDIUMP_OR_DEFAULT macros and the default precision statements in front.
// Text composed from several pieces keeps glmark2's quirks (a nested str() repeats the macros)
// because the compiler must accept exactly what glmark2 sends.
#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test::glmark2 {

// The stage glmark2 believes a text is for; kUnknown texts (code fragments spliced into a
// template) get the macros but no precision statements.
enum class Stage { kVertex, kFragment, kUnknown };

enum class Precision { kLow, kMedium, kHigh, kDefault };

// Default precision per basic type, as glmark2's "int,float,sampler2d,samplercube" option.
struct StagePrecision {
  Precision intPrecision = Precision::kDefault;
  Precision floatPrecision = Precision::kDefault;
  Precision sampler2DPrecision = Precision::kDefault;
  Precision samplerCubePrecision = Precision::kDefault;
};

// Parses the vertex-precision/fragment-precision option format: up to four comma- or
// space-separated words "high", "medium", "low"; anything else (or a missing word) is default.
StagePrecision parsePrecisionOption(std::string_view list);

// Where templates come from, plus the scene-wide default precision of each stage.
struct TemplateDir {
  std::string path;
  StagePrecision vertexPrecision;
  StagePrecision fragmentPrecision;
};

class ShaderText final {
 public:
  explicit ShaderText(const TemplateDir& dir) : dir_(&dir) {}
  ShaderText(const TemplateDir& dir, std::string_view file) : dir_(&dir) { appendFile(file); }

  void appendFile(std::string_view file);
  void append(std::string_view text) { text_ += text; }
  void append(const ShaderText& piece);  // piece.str(), remembering its files

  // Replaces every occurrence of marker; throws tessera::Error if the text has none.
  void replace(std::string_view marker, std::string_view text);
  void replace(std::string_view marker, const ShaderText& piece);
  void replaceWithFile(std::string_view marker, std::string_view file);

  // Inserts a line of global declarations after the last precision statement (or at the top).
  void addGlobal(std::string_view declarations);
  void addConst(std::string_view name, float value);
  template <std::size_t N>
  void addConst(std::string_view name, const std::array<float, N>& value) {
    static_assert(N >= 2 && N <= 4, "GLSL ES vectors have 2 to 4 components");
    addVectorConst(name, value);
  }

  // Overrides the scene default precision for this shader (glmark2 does so for jellyfish).
  void setPrecision(const StagePrecision& precision);

  Stage stage() const;
  std::string str() const;
  const std::vector<std::string>& files() const { return files_; }

 private:
  std::string readTemplate(std::string_view file);
  void addVectorConst(std::string_view name, std::span<const float> value);
  void rememberFiles(const std::vector<std::string>& files);

  const TemplateDir* dir_;
  std::string text_;
  std::vector<std::string> files_;
  StagePrecision precision_;
  bool precisionOverridden_ = false;
};

// Formats a float the way glmark2's constants print (fixed notation, six decimals).
std::string fixedFloat(double value, int decimals = 6);

}  // namespace tessera::test::glmark2
