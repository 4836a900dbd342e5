#include "compiler/frontend/glslang_frontend.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <map>
#include <memory>
#include <mutex>
#include <spirv-tools/optimizer.hpp>

namespace tessera::compiler {
namespace {

// glslang keeps process-wide tables; InitializeProcess must run once before any parse.
void initializeGlslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

EShLanguage language(isa::Stage s) {
  return s == isa::Stage::Vertex ? EShLangVertex : EShLangFragment;
}

const char* stageName(isa::Stage s) {
  return s == isa::Stage::Vertex ? "vertex" : "fragment";
}

void reportErrors(spvtools::Optimizer& opt, std::string& log) {
  opt.SetMessageConsumer(
      [&log](spv_message_level_t level, const char*, const spv_position_t&, const char* message) {
        if (level <= SPV_MSG_ERROR)
          log += std::string("ERROR: SPIR-V optimizer: ") + message + "\n";
      });
}

// Asks for every loop to be unrolled (LoopControl Unroll, not DontUnroll); SPIRV-Tools' unroller
// only touches loops that carry the hint, and only when their trip count is a constant.
void requestUnroll(std::vector<uint32_t>& words) {
  constexpr uint32_t kOpLoopMerge = 246, kUnroll = 0x1, kDontUnroll = 0x2;  // spirv.h values
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    if (count == 0) return;
    if ((words[pos] & 0xffff) == kOpLoopMerge && count >= 4 && pos + 3 < words.size()) {
      words[pos + 3] = (words[pos + 3] & ~kDontUnroll) | kUnroll;
    }
    pos += count;
  }
}

// Legalization passes (exhaustive inlining, scalar replacement, SSA rewrite, dead code) and the
// performance passes (constant folding, CSE, copy propagation, dead branches); then loops with
// a constant trip count are unrolled and the performance passes run again, so arrays indexed by
// a loop counter become registers. An unrolled module more than 8 times larger is not used.
bool optimize(std::vector<uint32_t>& words, std::string& log) {
  spvtools::Optimizer first(SPV_ENV_UNIVERSAL_1_0);
  reportErrors(first, log);
  first.RegisterLegalizationPasses();
  first.RegisterPerformancePasses();
  // glslang's GL SPIR-V keeps `uniform bool` as a bool in UniformConstant storage, which the
  // SPIR-V validator refuses; the source was validated by glslang, so the optimizer skips it.
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> legal;
  if (!first.Run(words.data(), words.size(), &legal, options)) return false;
  requestUnroll(legal);
  std::string unrollLog;
  spvtools::Optimizer second(SPV_ENV_UNIVERSAL_1_0);
  reportErrors(second, unrollLog);
  second.RegisterPass(spvtools::CreateLoopUnrollPass(true));
  second.RegisterPerformancePasses();
  std::vector<uint32_t> unrolled;
  if (second.Run(legal.data(), legal.size(), &unrolled, options) &&
      unrolled.size() <= 8 * legal.size()) {
    words = std::move(unrolled);
  } else {
    words = std::move(legal);
  }
  return true;
}

std::vector<std::string> outputNames(const std::vector<uint32_t>& words) {
  constexpr uint32_t kOpName = 5, kOpVariable = 59, kOutput = 3;  // spirv.h values
  std::map<uint32_t, std::string> names;
  std::vector<uint32_t> outputs;
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16, op = words[pos] & 0xffff;
    if (count == 0 || pos + count > words.size()) break;
    if (op == kOpName && count >= 3) {
      std::string name;
      for (size_t w = pos + 2; w < pos + count; ++w) {
        for (int b = 0; b < 4; ++b) {
          const char c = static_cast<char>(words[w] >> (8 * b));
          if (c == '\0') break;
          name.push_back(c);
        }
      }
      names[words[pos + 1]] = name;
    } else if (op == kOpVariable && count >= 4 && words[pos + 3] == kOutput) {
      outputs.push_back(words[pos + 2]);
    }
    pos += count;
  }
  std::vector<std::string> out;
  for (uint32_t id : outputs) out.push_back(names[id]);
  return out;
}

}  // namespace

FrontendResult compileToSpirv(const std::vector<ShaderSource>& shaders) {
  initializeGlslang();
  FrontendResult result;
  if (shaders.empty()) {
    result.log = "ERROR: no shaders to link\n";
    return result;
  }
  std::vector<std::unique_ptr<glslang::TShader>> parsed;
  bool ok = true;
  for (const ShaderSource& s : shaders) {
    auto shader = std::make_unique<glslang::TShader>(language(s.stage));
    const char* text = s.text.c_str();
    const int length = static_cast<int>(s.text.size());
    shader->setStringsWithLengths(&text, &length, 1);
    // GLSL ES shaders without #version are version 100 (GLSL ES 1.00 §3.4). Default messages
    // (not SPIR-V rules): ES 100 is legal input, and the SPIR-V target is set after linking.
    if (!shader->parse(GetDefaultResources(), 100, EEsProfile, false, false, EShMsgDefault)) {
      ok = false;
    }
    const std::string info = shader->getInfoLog();
    if (!info.empty()) result.log += std::string(stageName(s.stage)) + " shader:\n" + info;
    parsed.push_back(std::move(shader));
  }
  if (!ok) return result;

  glslang::TProgram program;
  for (auto& shader : parsed) program.addShader(shader.get());
  if (!program.link(EShMsgDefault)) {
    result.log += std::string("link:\n") + program.getInfoLog();
    return result;
  }
  for (const ShaderSource& s : shaders) {
    glslang::TIntermediate* intermediate = program.getIntermediate(language(s.stage));
    if (!intermediate) {
      result.log += std::string("ERROR: no ") + stageName(s.stage) + " code after linking\n";
      return result;
    }
    // Target SPIR-V 1.0 for OpenGL: glslang then accepts ES 100 source it would refuse under
    // SPIR-V rules, and the result is valid for the opengl4.5 environment.
    glslang::SpvVersion target;
    target.spv = 0x10000;
    target.openGl = 450;
    intermediate->setSpv(target);
    StageSpirv out;
    out.stage = s.stage;
    spv::SpvBuildLogger logger;
    glslang::SpvOptions options;
    glslang::GlslangToSpv(*intermediate, out.words, &logger, &options);
    out.declaredOutputs = outputNames(out.words);
    const std::string messages = logger.getAllMessages();
    if (!messages.empty()) result.log += messages;
    if (out.words.empty() || !optimize(out.words, result.log)) {
      result.log +=
          std::string("ERROR: ") + stageName(s.stage) + " shader: SPIR-V generation failed\n";
      return result;
    }
    result.stages.push_back(std::move(out));
  }
  result.ok = true;
  return result;
}

}  // namespace tessera::compiler
