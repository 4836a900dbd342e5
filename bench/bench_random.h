// Deterministic inputs for the micro-benchmarks: a fixed-seed Mersenne Twister (its output
// sequence is fixed by the C++ standard) scaled by hand, so every run and every library draws
// the same triangles, vertices and rectangles.
#pragma once
#include <cstdint>
#include <random>

namespace tessera::bench {

class BenchRandom final {
 public:
  explicit BenchRandom(uint32_t seed) : rng_(seed) {}
  // Uniform in [lo, hi): 24 random bits, exact in a float.
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(rng_() >> 8) * 0x1p-24f;
  }
  // Uniform integer in [lo, hi).
  int range(int lo, int hi) {
    return lo + static_cast<int>(rng_() % static_cast<uint32_t>(hi - lo));
  }

 private:
  std::mt19937 rng_;
};

}  // namespace tessera::bench
