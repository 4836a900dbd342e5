#include "common/simd.h"

#include <cstdio>
#include <cstdlib>

namespace tessera {
namespace {

SimdPath detect() {
#if TESSERA_AVX2_CLONES
  __builtin_cpu_init();
  // Every processor with AVX2 so far also has FMA, which the AVX2 texture kernels use.
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SimdPath::Avx2;
#endif
  return SimdPath::Portable;
}

// TESSERA_SIMD read once at start-up; a problem with it is reported and the host's path kept.
SimdPath initial() {
  const char* env = std::getenv("TESSERA_SIMD");
  std::string problem;
  const SimdPath path = simdPathFor(env ? env : "", hostSimdPath(), problem);
  if (!problem.empty()) std::fprintf(stderr, "tessera: %s\n", problem.c_str());
  return path;
}

}  // namespace

namespace detail {
std::atomic<SimdPath> activeSimdPath{initial()};
}

SimdPath hostSimdPath() {
  static const SimdPath host = detect();
  return host;
}

bool setSimdPath(SimdPath path) {
  if (path > hostSimdPath()) return false;
  detail::activeSimdPath.store(path, std::memory_order_relaxed);
  return true;
}

SimdPath simdPathFor(std::string_view asked, SimdPath host, std::string& problem) {
  if (asked.empty()) return host;
  const std::optional<SimdPath> path = parseSimdPath(asked);
  const std::string name = "TESSERA_SIMD=" + std::string(asked);
  if (!path) {
    problem = name + " is not a SIMD path (portable, avx2); using " + simdPathName(host);
    return host;
  }
  if (*path > host) {
    problem = name + ": this processor lacks it; using " + simdPathName(host);
    return host;
  }
  return *path;
}

const char* simdPathName(SimdPath path) {
  return path == SimdPath::Avx2 ? "avx2" : "portable";
}

std::optional<SimdPath> parseSimdPath(std::string_view name) {
  if (name == "portable") return SimdPath::Portable;
  if (name == "avx2") return SimdPath::Avx2;
  return std::nullopt;
}

}  // namespace tessera
