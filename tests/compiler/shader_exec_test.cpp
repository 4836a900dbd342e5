// GLSL programs run on Tessera's SIMT cores and on Mesa (the oracle program, its own process);
// the images must agree: at least 99.5% of pixels within 2/255 per channel. The reference is
// llvmpipe; where llvmpipe's fast approximations (exp2/log2 polynomials, rsqrt estimates) are
// amplified by the program (pow with large exponents, fract of large products, noise), softpipe,
// which evaluates with libm precision, decides. The programs are the shader tests in
// shader_tests/ and every program glmark2-es2 builds.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/image_compare.h"
#include "compiler/glmark2/glmark2_programs.h"
#include "compiler/shader_test_runner.h"

namespace tessera::test {
namespace {

namespace fs = std::filesystem;
constexpr double kRequired = 0.995;

struct Case {
  std::string label, path;  // path: the .shader_test file (written by the test for glmark2's)
  int glmark2 = -1;         // index into glmark2Programs(), or -1
};

fs::path workDir() {
  const fs::path d = fs::path(::testing::TempDir()) / "tessera-shader-tests";
  fs::create_directories(d);
  return d;
}

std::string safe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(TESSERA_SHADER_TESTS_DIR)) {
    if (e.path().extension() == ".shader_test") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) all.push_back({safe(p.stem().string()), p.string()});
  if (fs::exists("/usr/share/glmark2/shaders")) {
    int k = 0;
    for (const Glmark2Program& p : glmark2Programs()) {
      const std::string label = "glmark2_" + std::to_string(k) + "_" + safe(p.name);
      // The file is written by the test itself: test processes run in parallel and each one
      // lists every case.
      all.push_back({label, (workDir() / (label + ".shader_test")).string(), k++});
    }
  }
  return all;
}

class ShaderExec : public ::testing::TestWithParam<Case> {};

// Renders the test with Mesa's `driver` in the oracle program; returns the PNG path.
std::string oracleImage(const Case& c, const std::string& driver) {
  const std::string png = (workDir() / (c.label + "-" + driver + ".png")).string();
  const std::string cmd = std::string(TESSERA_ORACLE_PATH) + " --driver " + driver +
                          " --exact-sampling --shader-test '" + c.path + "' --out '" + png +
                          "' > /dev/null";
  if (std::system(cmd.c_str()) != 0) throw Error("oracle failed: " + cmd);
  return png;
}

TEST_P(ShaderExec, MatchesMesa) {
  const Case& c = GetParam();
  if (c.glmark2 >= 0) {
    const std::vector<Glmark2Program> all = glmark2Programs();
    const Glmark2Program& p = all.at(static_cast<size_t>(c.glmark2));
    std::ofstream(c.path) << "[config]\nsize 96x72\ngrid 6\n[vertex shader]\n"
                          << p.vertex << "\n[fragment shader]\n"
                          << p.fragment;
  }
  const shadertest::ShaderTest t = shadertest::load(c.path);
  const ShaderTestResult r =
      renderShaderTest(t, gpu::findPreset("adreno-a630"), driver::RenderMode::Binning);
  ASSERT_TRUE(r.program.ok) << r.program.log;
  std::string report;
  for (const char* driver : {"llvmpipe", "softpipe"}) {
    const std::string png = oracleImage(c, driver);
    // Integer-valued results (`exact` in the test) must match every pixel exactly.
    const CompareResult cmp = compareImages(r.image, readPng(png), t.exact ? 0 : 2, 8);
    RecordProperty(std::string("fraction_within_") + driver, std::to_string(cmp.fractionWithin));
    if (cmp.fractionWithin >= (t.exact ? 1.0 : kRequired)) return;
    report += std::string("\n") + driver + ": " + cmp.summary() + "\n  reference: " + png;
  }
  const std::string ours = (workDir() / (c.label + "-tessera.png")).string();
  writePng(r.image, ours);
  ADD_FAILURE() << c.label << report << "\n  Tessera: " << ours;
}

INSTANTIATE_TEST_SUITE_P(Programs, ShaderExec, ::testing::ValuesIn(cases()),
                         [](const auto& p) { return p.param.label; });

}  // namespace
}  // namespace tessera::test
