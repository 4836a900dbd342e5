// The host SIMD path the model's per-lane loops run on: the portable build (SSE2 on x86-64), or
// AVX2 (with FMA) where the processor has it, chosen at run time. Both paths compute every lane
// with the same IEEE operations (no multiply-add is fused, except where an FMA step provably gives
// the same correctly rounded result, as divideUnorm8 in common/unorm_divide.h), so images and
// counters do not depend on the path; the thread-count tests render with each and compare.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera {

// Ordered by width: a processor that runs a path runs every earlier one.
enum class SimdPath : uint8_t { Portable, Avx2 };

// The widest path this processor runs.
SimdPath hostSimdPath();

namespace detail {
extern std::atomic<SimdPath> activeSimdPath;
}

// The path the loops take now: hostSimdPath() unless lowered with setSimdPath (or TESSERA_SIMD
// in the environment, read once at start-up).
inline SimdPath simdPath() {
  return detail::activeSimdPath.load(std::memory_order_relaxed);
}
// Returns false, and changes nothing, when the processor lacks `path`.
bool setSimdPath(SimdPath path);

// The path TESSERA_SIMD=`asked` gives on a processor whose widest path is `host`: `host` when
// `asked` is empty; otherwise the named path, or `host` with `problem` saying why when the name
// is unknown or the processor lacks the path.
SimdPath simdPathFor(std::string_view asked, SimdPath host, std::string& problem);

const char* simdPathName(SimdPath);
// "portable" or "avx2"; nullopt for anything else.
std::optional<SimdPath> parseSimdPath(std::string_view);

#if defined(__x86_64__) && defined(__GNUC__)
#define TESSERA_AVX2_CLONES 1
namespace detail {
// `f` with everything it calls inlined into this body, which is compiled for AVX2: the lane
// loops inside become 256-bit loops. Only reached when hostSimdPath() is Avx2.
template <class F>
[[gnu::target("avx2"), gnu::flatten]] inline void runAvx2(const F& f) {
  f();
}
}  // namespace detail
#else
#define TESSERA_AVX2_CLONES 0
#endif

// Runs `f` on the active path. A hot function wraps its body in this, so that one source is
// compiled twice: once for the baseline and once for AVX2.
template <class F>
inline void withSimdPath(const F& f) {
#if TESSERA_AVX2_CLONES
  if (simdPath() == SimdPath::Avx2) return detail::runAvx2(f);
#endif
  f();
}

}  // namespace tessera
