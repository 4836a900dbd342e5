// shader-bench: fragment-shading throughput of GLSL programs on Tessera against llvmpipe (the
// oracle program, same machine, one run), and compile times. A benchmark, not a test:
//   shader-bench [--size 1920x1080] [--repeat 5] [--threads 1] PROGRAM...
//   shader-bench --compile-times
// PROGRAM is a glmark2 program name (tests/compiler/glmark2) or a .shader_test file; it is
// drawn as one full-screen quad.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "compiler/compiler.h"
#include "compiler/glmark2/glmark2_programs.h"
#include "compiler/shader_test_runner.h"

namespace {

using namespace tessera;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

shadertest::ShaderTest programNamed(const std::string& name) {
  if (name.size() > 12 && name.substr(name.size() - 12) == ".shader_test")
    return shadertest::load(name);
  for (const test::Glmark2Program& p : test::glmark2Programs()) {
    if (p.name == name) {
      shadertest::ShaderTest t;
      t.name = name;
      t.vertex = p.vertex;
      t.fragment = p.fragment;
      return t;
    }
  }
  throw Error("no glmark2 program or shader test named '" + name + "'");
}

int compileTimes() {
  std::vector<double> all;
  for (const test::Glmark2Program& p : test::glmark2Programs()) {
    const auto t0 = Clock::now();
    const compiler::CompiledProgram c = compiler::compileProgram(p.vertex, p.fragment);
    const double ms = msSince(t0);
    all.push_back(ms);
    std::printf("%-70s %7.2f ms  vs %3zu instr  fs %3zu instr  %s\n", p.name.c_str(), ms,
                c.vertex.code.size(), c.fragment.code.size(), c.ok ? "" : "FAILED");
  }
  std::printf("programs %zu  median %.2f ms  max %.2f ms\n", all.size(), median(all),
              *std::max_element(all.begin(), all.end()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    uint32_t width = 1920, height = 1080;
    int repeat = 5, threads = 1;
    std::vector<std::string> names;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--compile-times") return compileTimes();
      if ((a == "--size" || a == "--repeat" || a == "--threads") && i + 1 < argc) {
        const std::string v = argv[++i];
        if (a == "--size") {
          if (std::sscanf(v.c_str(), "%ux%u", &width, &height) != 2) throw Error("bad --size " + v);
        } else {
          (a == "--repeat" ? repeat : threads) = std::max(1, std::atoi(v.c_str()));
        }
      } else {
        names.push_back(a);
      }
    }
    const auto dir = std::filesystem::temp_directory_path() / "tessera-shader-bench";
    std::filesystem::create_directories(dir);
    std::printf("%-34s %12s %12s %10s %10s %8s\n", "program", "tessera_ms", "llvmpipe_ms",
                "tessera_Mp/s", "llvmpipe_Mp/s", "ratio");
    for (const std::string& name : names) {
      shadertest::ShaderTest t = programNamed(name);
      t.width = width, t.height = height, t.grid = 1;
      test::ShaderTestScene scene(t, gpu::findPreset("adreno-a630"), driver::RenderMode::Binning);
      if (!scene.program().ok) throw Error(name + ": " + scene.program().log);
      scene.draw();  // warm-up
      std::vector<double> ms;
      for (int r = 0; r < repeat; ++r) {
        const auto t0 = Clock::now();
        scene.draw();
        ms.push_back(msSince(t0));
      }
      const double ours = median(ms);
      // The same program in the oracle: written out as a shader test.
      const auto file = dir / "bench.shader_test";
      std::ofstream(file) << "[config]\nsize " << width << "x" << height
                          << "\ngrid 1\n[vertex shader]\n"
                          << t.vertex << "\n[fragment shader]\n"
                          << t.fragment;
      const auto out = dir / "out.txt";
      const std::string cmd = std::string(TESSERA_ORACLE_PATH) + " --threads " +
                              std::to_string(threads) + " --repeat " + std::to_string(repeat + 1) +
                              " --shader-test '" + file.string() + "' --out '" +
                              (dir / "llvmpipe.png").string() + "' > '" + out.string() + "'";
      if (std::system(cmd.c_str()) != 0) throw Error("oracle failed: " + cmd);
      std::ifstream in(out);
      std::string line;
      double theirs = 0;
      while (std::getline(in, line)) {
        if (line.rfind("frame_ms=", 0) == 0) theirs = std::stod(line.substr(9));
      }
      const double mpix = double(width) * height / 1e6;
      std::printf("%-34s %12.1f %12.1f %10.1f %10.1f %8.2f\n", name.c_str(), ours, theirs,
                  mpix / ours * 1e3, mpix / theirs * 1e3, ours / theirs);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shader-bench: %s\n", e.what());
    return 1;
  }
}
