// Adds one block's counters to another's, field by field. The bin workers of a render pass
// (gpu/pipeline/bin_jobs.h) count into their own copies of every block's statistics, which the
// pass merges in bin order; every statistics struct that takes part is a plain list of uint64_t
// counters, which the static_assert checks as far as the language allows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tessera {

template <class T>
void addCounters(T& into, const T& add) {
  static_assert(std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T> &&
                    sizeof(T) % sizeof(uint64_t) == 0 && alignof(T) == alignof(uint64_t),
                "addCounters needs a struct of uint64_t counters");
  constexpr size_t n = sizeof(T) / sizeof(uint64_t);
  uint64_t a[n], b[n];
  std::memcpy(a, &into, sizeof(T));
  std::memcpy(b, &add, sizeof(T));
  for (size_t i = 0; i < n; ++i) a[i] += b[i];
  std::memcpy(&into, a, sizeof(T));
}

}  // namespace tessera
