#include "common/simd.h"

#include <cstdio>
#include <cstdlib>

namespace tessera {
namespace {

SimdPath detect() {
#if TESSERA_AVX2_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return SimdPath::Avx2;
#endif
  return SimdPath::Portable;
}

// TESSERA_SIMD=portable|avx2 lowers (or names) the path for the whole process; a path the
// processor lacks, or an unknown name, is reported once and the host's path is kept.
SimdPath initial() {
  const SimdPath host = hostSimdPath();
  const char* env = std::getenv("TESSERA_SIMD");
  if (env == nullptr || *env == '\0') return host;
  const std::optional<SimdPath> asked = parseSimdPath(env);
  if (!asked) {
    std::fprintf(stderr, "tessera: TESSERA_SIMD=%s is not a SIMD path (portable, avx2); using %s\n",
                 env, simdPathName(host));
    return host;
  }
  if (*asked > host) {
    std::fprintf(stderr, "tessera: TESSERA_SIMD=%s: this processor lacks it; using %s\n", env,
                 simdPathName(host));
    return host;
  }
  return *asked;
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

const char* simdPathName(SimdPath path) {
  return path == SimdPath::Avx2 ? "avx2" : "portable";
}

std::optional<SimdPath> parseSimdPath(std::string_view name) {
  if (name == "portable") return SimdPath::Portable;
  if (name == "avx2") return SimdPath::Avx2;
  return std::nullopt;
}

}  // namespace tessera
