#include "compiler/glmark2/glmark2_shader_text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"

namespace tessera::test::glmark2 {
namespace {

constexpr std::array<std::string_view, 3> kQualifier = {"lowp", "mediump", "highp"};

// Splits like glmark2's fuzzy option split: runs of ',' or ' ' separate words, but a leading
// separator still yields an empty first word (",high,," sets only the float precision).
std::vector<std::string> splitPrecisionWords(std::string_view list) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = list.find_first_of(", ", start);
    if (end == std::string_view::npos) {
      words.emplace_back(list.substr(start));
      break;
    }
    words.emplace_back(list.substr(start, end - start));
    start = list.find_first_not_of(", ", end);
    if (start == std::string_view::npos) break;
  }
  return words;
}

Precision precisionWord(std::string_view word) {
  if (word == "high") return Precision::kHigh;
  if (word == "medium") return Precision::kMedium;
  if (word == "low") return Precision::kLow;
  return Precision::kDefault;
}

// One default precision statement. GLSL ES 1.00 section 4.5.3: only the fragment language lacks
// a default float precision, so "default" there becomes mediump; highp is optional in fragment
// shaders (GL_FRAGMENT_PRECISION_HIGH), so glmark2 falls back to mediump when it is absent.
void emitPrecision(std::string& out, Stage stage, Precision precision, std::string_view type) {
  const std::string typeText(type);
  if (precision == Precision::kHigh) {
    if (stage == Stage::kFragment) out += "#ifdef GL_FRAGMENT_PRECISION_HIGH\n";
    out += "precision highp " + typeText + ";\n";
    if (stage == Stage::kFragment) out += "#else\nprecision mediump " + typeText + ";\n#endif\n";
  } else if (precision != Precision::kDefault) {
    out += "precision " + std::string(kQualifier[static_cast<std::size_t>(precision)]) + " " +
           typeText + ";\n";
  } else if (type == "float" && stage == Stage::kFragment) {
    out += "precision mediump float;\n";
  }
}

// The macros every glmark2 shader text starts with: templates write HIGHP_OR_DEFAULT where a
// value must not overflow mediump, and desktop GL (no GL_ES) gets no qualifier at all.
std::string precisionMacros(Stage stage) {
  std::string out = "#if defined(GL_ES)";
  if (stage == Stage::kFragment) out += " && defined(GL_FRAGMENT_PRECISION_HIGH)";
  out +=
      "\n#define HIGHP_OR_DEFAULT highp\n#else\n#define HIGHP_OR_DEFAULT\n#endif\n"
      "#if defined(GL_ES)\n#define MEDIUMP_OR_DEFAULT mediump\n#else\n"
      "#define MEDIUMP_OR_DEFAULT\n#endif\n";
  return out;
}

std::string joinFiles(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& file : files) out += (out.empty() ? "" : ", ") + file;
  return out.empty() ? "(generated text)" : out;
}

}  // namespace

StagePrecision parsePrecisionOption(std::string_view list) {
  StagePrecision result;
  const std::vector<std::string> words = splitPrecisionWords(list);
  std::array<Precision*, 4> slots = {&result.intPrecision, &result.floatPrecision,
                                     &result.sampler2DPrecision, &result.samplerCubePrecision};
  for (std::size_t i = 0; i < words.size() && i < slots.size(); ++i) {
    *slots[i] = precisionWord(words[i]);
  }
  return result;
}

std::string fixedFloat(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

std::string ShaderText::readTemplate(std::string_view file) {
  const std::filesystem::path path = std::filesystem::path(dir_->path) / file;
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path) || !in) {
    throw Error("glmark2 shader template '" + std::string(file) + "' is missing from '" +
                dir_->path + "'");
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  std::string text = contents.str();
  // glmark2 reads templates line by line and ends every line with '\n'.
  if (!text.empty() && text.back() != '\n') text += '\n';
  rememberFiles({std::string(file)});
  return text;
}

void ShaderText::rememberFiles(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    if (std::find(files_.begin(), files_.end(), file) == files_.end()) files_.push_back(file);
  }
}

void ShaderText::appendFile(std::string_view file) {
  text_ += readTemplate(file);
}

void ShaderText::append(const ShaderText& piece) {
  text_ += piece.str();
  rememberFiles(piece.files());
}

void ShaderText::replace(std::string_view marker, std::string_view text) {
  std::size_t pos = text_.find(marker);
  if (pos == std::string::npos) {
    throw Error("glmark2 placeholder '" + std::string(marker) + "' not found in " +
                joinFiles(files_));
  }
  for (; pos != std::string::npos; pos = text_.find(marker, pos + text.size())) {
    text_.replace(pos, marker.size(), text);
  }
}

void ShaderText::replace(std::string_view marker, const ShaderText& piece) {
  replace(marker, piece.str());
  rememberFiles(piece.files());
}

void ShaderText::replaceWithFile(std::string_view marker, std::string_view file) {
  const std::string text = readTemplate(file);
  replace(marker, text);
}

void ShaderText::addGlobal(std::string_view declarations) {
  // After the last precision statement, or after the first #endif that follows it when no #if
  // comes first (the statement closes a preamble's #ifdef GL_ES block).
  std::size_t pos = text_.rfind("precision");
  if (pos == std::string::npos) {
    pos = 0;
  } else {
    const std::size_t nextIf = text_.find("#if", pos);
    const std::size_t nextEndif = text_.find("#endif", pos);
    if (nextEndif != std::string::npos && nextEndif < nextIf) pos = nextEndif;
    pos = text_.find('\n', pos);
    pos = pos == std::string::npos ? text_.size() : pos + 1;
  }
  text_.insert(pos, declarations);
}

void ShaderText::addConst(std::string_view name, float value) {
  addGlobal("const float " + std::string(name) + " = " + fixedFloat(value) + ";\n");
}

void ShaderText::addVectorConst(std::string_view name, std::span<const float> value) {
  const std::string type = "vec" + std::to_string(value.size());
  std::string line = "const " + type + " " + std::string(name) + " = " + type + "(";
  for (std::size_t i = 0; i < value.size(); ++i) {
    line += (i == 0 ? "" : ", ") + fixedFloat(value[i]);
  }
  addGlobal(line + ");\n");
}

void ShaderText::setPrecision(const StagePrecision& precision) {
  precision_ = precision;
  precisionOverridden_ = true;
}

Stage ShaderText::stage() const {
  // glmark2 guesses the stage from the text: only fragment shaders write gl_FragColor.
  if (text_.find("gl_FragColor") != std::string::npos) return Stage::kFragment;
  if (text_.find("gl_Position") != std::string::npos) return Stage::kVertex;
  return Stage::kUnknown;
}

std::string ShaderText::str() const {
  const Stage s = stage();
  StagePrecision precision;  // kUnknown texts always use "default" everywhere
  if (precisionOverridden_) {
    precision = precision_;
  } else if (s == Stage::kVertex) {
    precision = dir_->vertexPrecision;
  } else if (s == Stage::kFragment) {
    precision = dir_->fragmentPrecision;
  }
  std::string statements;
  emitPrecision(statements, s, precision.intPrecision, "int");
  emitPrecision(statements, s, precision.floatPrecision, "float");
  emitPrecision(statements, s, precision.sampler2DPrecision, "sampler2D");
  emitPrecision(statements, s, precision.samplerCubePrecision, "samplerCube");
  if (!statements.empty()) statements = "#ifdef GL_ES\n" + statements + "#endif\n";
  return precisionMacros(s) + statements + text_;
}

}  // namespace tessera::test::glmark2
