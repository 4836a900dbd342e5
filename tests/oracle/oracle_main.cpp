// tessera-oracle: renders a scene with Mesa's llvmpipe in its own process and writes the PNG
// Tessera's images are compared with. Prints `frame_ms=<median>` (draw + glFinish).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image.h"
#include "oracle/egl_context.h"
#include "oracle/gl_scene_renderer.h"
#include "oracle/gl_shader_test.h"
#include "scene/scene.h"

#if defined(__SANITIZE_ADDRESS__)
// Mesa's driver is dlopen'ed and unloaded at exit, leaving a few process-lifetime allocations that
// LeakSanitizer cannot attribute; they are not the oracle's. Address errors are still reported.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}
#endif

namespace {

constexpr const char* kUsage =
    "usage: tessera-oracle (--scene NAME_OR_MODEL --size WxH | --shader-test FILE) --out FILE.png\n"
    "       [--threads N] "
    "[--repeat N] [--samples N] [--exact-sampling] [--driver llvmpipe|softpipe]\n"
    "  --scene    default | blend | stencil | path of a model file (OBJ, 3DS, glTF, PLY, ...)\n"
    "  --size     frame size, e.g. 640x480\n"
    "  --shader-test  a GLSL program and its inputs drawn over a grid (tests/shadertest)\n"
    "  --out      PNG to write\n"
    "  --threads  llvmpipe rasterizer threads (LP_NUM_THREADS); default: Mesa's choice\n"
    "  --repeat   render N times and report the median frame time (default 1)\n"
    "  --samples  multisample the framebuffer (2 or 4; resolved before it is written)\n"
    "  --driver   Mesa's software renderer to use (default llvmpipe)\n"
    "  --exact-sampling  filter textures in float (llvmpipe's SoA path) instead of its 8-bit\n"
    "             AoS fast path; the image comparisons use it, speed comparisons do not\n";

struct Options {
  std::string scene, shaderTest, out, driver = "llvmpipe";
  uint32_t width = 0, height = 0;
  int threads = -1;
  int repeat = 1;
  uint32_t samples = 1;
  bool exactSampling = false;
};

struct UsageError : tessera::Error {
  using tessera::Error::Error;
};

long parseNumber(const std::string& text, const std::string& what, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi) {
    throw UsageError(what + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + ", got '" + text + "'");
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  bool haveSize = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg == "--exact-sampling") {
      o.exactSampling = true;
      continue;
    }
    if (i + 1 >= argc) throw UsageError("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--scene") {
      o.scene = value;
    } else if (arg == "--driver") {
      if (value != "llvmpipe" && value != "softpipe")
        throw UsageError("--driver must be llvmpipe or softpipe");
      o.driver = value;
    } else if (arg == "--shader-test") {
      o.shaderTest = value;
    } else if (arg == "--out") {
      o.out = value;
    } else if (arg == "--size") {
      const size_t x = value.find('x');
      if (x == std::string::npos)
        throw UsageError("--size must look like 640x480, got '" + value + "'");
      o.width = uint32_t(parseNumber(value.substr(0, x), "--size width", 1, 16384));
      o.height = uint32_t(parseNumber(value.substr(x + 1), "--size height", 1, 16384));
      haveSize = true;
    } else if (arg == "--threads") {
      o.threads = int(parseNumber(value, "--threads", 0, 64));
    } else if (arg == "--samples") {
      o.samples = uint32_t(parseNumber(value, "--samples", 1, 4));
      if (o.samples == 3) throw UsageError("--samples must be 1, 2 or 4");
    } else if (arg == "--repeat") {
      o.repeat = int(parseNumber(value, "--repeat", 1, 10000));
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  if (o.out.empty()) throw UsageError("--out is required");
  if (!o.shaderTest.empty()) {
    if (!o.scene.empty() || haveSize) throw UsageError("--shader-test takes no --scene or --size");
    return o;
  }
  if (o.scene.empty()) throw UsageError("--scene (or --shader-test) is required");
  if (!haveSize) throw UsageError("--size is required");
  return o;
}

// Median of the frame times (draw + glFinish).
double median(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
}

template <typename Draw>
double timeFrames(int repeat, Draw draw) {
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    draw();
    glFinish();
    const auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return median(ms);
}

int runShaderTest(const Options& o) {
  const tessera::shadertest::ShaderTest test = tessera::shadertest::load(o.shaderTest);
  tessera::oracle::EglContext context(test.width, test.height);
  tessera::oracle::GlShaderTest scene(test);
  const double ms = timeFrames(o.repeat, [&] { scene.draw(); });
  tessera::writePng(context.readback(), o.out);
  std::printf("renderer=%s\nframe_ms=%.3f\n", context.renderer().c_str(), ms);
  return 0;
}

int run(const Options& o) {
  // Before any EGL call: Mesa picks its driver when the display is first initialised.
  tessera::oracle::forceDriver(o.driver, o.threads, o.exactSampling);
  if (!o.shaderTest.empty()) return runShaderTest(o);
  const tessera::scene::Scene scene = tessera::scene::sceneByName(o.scene, o.width, o.height);
  tessera::oracle::EglContext context(o.width, o.height, o.samples);
  tessera::oracle::GlSceneRenderer renderer(scene);
  const double ms = timeFrames(o.repeat, [&] { renderer.render(); });
  tessera::writePng(context.readback(), o.out);
  std::printf("renderer=%s\ntriangles=%zu\nframe_ms=%.3f\n", context.renderer().c_str(),
              scene.triangleCount(), ms);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "tessera-oracle: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera-oracle: %s\n", e.what());
    return 1;
  }
}
