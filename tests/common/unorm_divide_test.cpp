// divideUnorm4 against the division it replaces: for every value a unorm expansion meets (each
// stored integer and each bilinear sum N / 2^16 of them) and every field width of Tessera's
// texture and colour formats, the same float to the bit, in every lane.
#include "common/unorm_divide.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/simd.h"

namespace tessera {
namespace {

#if defined(__SSE2__)
TEST(UnormDivide, EveryFilteredSumGivesTheQuotientOfTheDivision) {
  for (const uint32_t bits : {1u, 2u, 4u, 5u, 6u, 8u}) {
    const uint32_t d = (1u << bits) - 1u;
    const uint32_t last = d << 16;
    uint32_t wrong = 0;
    for (uint32_t n = 0; n <= last; n += 4) {
      alignas(16) float x[4], got[4];
      for (uint32_t k = 0; k < 4; ++k) x[k] = static_cast<float>(std::min(n + k, last)) / 65536.0f;
      _mm_store_ps(got, divideUnorm4(_mm_load_ps(x), 1.0 / static_cast<double>(d)));
      for (uint32_t k = 0; k < 4; ++k) {
        const float want = x[k] / static_cast<float>(d);
        if (std::memcmp(&got[k], &want, sizeof want) != 0 && ++wrong <= 3)
          ADD_FAILURE() << x[k] << " / " << d << ": " << got[k] << " instead of " << want;
      }
    }
    EXPECT_EQ(wrong, 0u) << "field of " << bits << " bits";
  }
}

#if TESSERA_AVX2_CLONES
// The AVX2 path's FMA form against divideUnorm4, over the same values: given them, and given
// the integers N with their scale 2^-16 folded into the division (as the bilinear kernel does).
[[gnu::target("avx2,fma")]] void compareFmaForm(uint32_t bits, uint32_t& wrong) {
  const uint32_t d = (1u << bits) - 1u;
  const uint32_t last = d << 16;
  for (uint32_t n = 0; n <= last; n += 8) {
    alignas(32) float whole[8], x[8], got[8], scaled[8], want[8];
    for (uint32_t k = 0; k < 8; ++k) {
      whole[k] = static_cast<float>(std::min(n + k, last));
      x[k] = whole[k] / 65536.0f;
    }
    _mm256_store_ps(got, divideUnorm8(_mm256_load_ps(x), static_cast<float>(d)));
    _mm256_store_ps(scaled,
                    divideUnorm8(_mm256_load_ps(whole), static_cast<float>(d), 1.0f / 65536.0f));
    for (int half = 0; half < 2; ++half)
      _mm_store_ps(want + 4 * half,
                   divideUnorm4(_mm_load_ps(x + 4 * half), 1.0 / static_cast<double>(d)));
    for (uint32_t k = 0; k < 8; ++k) {
      if (std::memcmp(&got[k], &want[k], sizeof want[k]) != 0 && ++wrong <= 3)
        ADD_FAILURE() << x[k] << " / " << d << ": " << got[k] << " instead of " << want[k];
      if (std::memcmp(&scaled[k], &want[k], sizeof want[k]) != 0 && ++wrong <= 3)
        ADD_FAILURE() << whole[k] << " x 2^-16 / " << d << ": " << scaled[k] << " instead of "
                      << want[k];
    }
  }
}

TEST(UnormDivide, FmaFormGivesTheSameQuotients) {
  if (hostSimdPath() != SimdPath::Avx2) GTEST_SKIP() << "the processor has no AVX2 and FMA";
  for (const uint32_t bits : {1u, 2u, 4u, 5u, 6u, 8u}) {
    uint32_t wrong = 0;
    compareFmaForm(bits, wrong);
    EXPECT_EQ(wrong, 0u) << "field of " << bits << " bits";
  }
}
#endif

// A depth texture's texels are expanded one by one (only its stored integers are divided): every
// 16-bit and 24-bit depth, on the SSE path and on the AVX2 path's FMA form.
void depthQuotients(const float* x, uint32_t d, float* got) {
  for (int half = 0; half < 2; ++half)
    _mm_store_ps(got + 4 * half,
                 divideUnorm4(_mm_load_ps(x + 4 * half), 1.0 / static_cast<double>(d)));
}
#if TESSERA_AVX2_CLONES
[[gnu::target("avx2,fma")]] void depthQuotientsAvx2(const float* x, uint32_t d, float* got) {
  _mm256_store_ps(got, divideUnorm8(_mm256_load_ps(x), static_cast<float>(d)));
}
#endif

TEST(UnormDivide, EveryStoredDepthGivesTheQuotientOfTheDivision) {
  std::vector<void (*)(const float*, uint32_t, float*)> paths = {&depthQuotients};
#if TESSERA_AVX2_CLONES
  if (hostSimdPath() == SimdPath::Avx2) paths.push_back(&depthQuotientsAvx2);
#endif
  for (size_t path = 0; path < paths.size(); ++path) {
    for (const uint32_t bits : {16u, 24u}) {
      const uint32_t d = (1u << bits) - 1u;
      uint32_t wrong = 0;
      for (uint32_t n = 0; n <= d; n += 8) {
        alignas(32) float x[8], got[8];
        for (uint32_t k = 0; k < 8; ++k) x[k] = static_cast<float>(std::min(n + k, d));
        paths[path](x, d, got);
        for (uint32_t k = 0; k < 8; ++k) {
          const float want = x[k] / static_cast<float>(d);
          if (std::memcmp(&got[k], &want, sizeof want) != 0 && ++wrong <= 3)
            ADD_FAILURE() << x[k] << " / " << d << ": " << got[k] << " instead of " << want;
        }
      }
      EXPECT_EQ(wrong, 0u) << "depth of " << bits << " bits on path " << path;
    }
  }
}

// Each lane has its own divisor (a pixel's channels of different widths, as RGB565's 5, 6, 5).
TEST(UnormDivide, EachLaneDividesByItsOwnDivisor) {
  const float d[4] = {31.0f, 63.0f, 31.0f, 1.0f};
  const double reciprocals[4] = {1.0 / d[0], 1.0 / d[1], 1.0 / d[2], 1.0 / d[3]};
  for (uint32_t v = 0; v < 64; ++v) {
    alignas(16) float x[4], got[4], gotAvx2[4];
    for (int k = 0; k < 4; ++k)
      x[k] = static_cast<float>(std::min<uint32_t>(v, static_cast<uint32_t>(d[k])));
    _mm_store_ps(got, divideUnorm4(_mm_load_ps(x), reciprocals));
    // The AVX2 clones compile the same source into one 256-bit register of doubles.
    std::memcpy(gotAvx2, got, sizeof got);
#if TESSERA_AVX2_CLONES
    if (hostSimdPath() == SimdPath::Avx2)
      detail::runAvx2([&] { _mm_store_ps(gotAvx2, divideUnorm4(_mm_load_ps(x), reciprocals)); });
#endif
    for (int k = 0; k < 4; ++k) {
      const float want = x[k] / d[k];
      EXPECT_EQ(std::memcmp(&got[k], &want, sizeof want), 0) << x[k] << " / " << d[k];
      EXPECT_EQ(std::memcmp(&gotAvx2[k], &want, sizeof want), 0) << x[k] << " / " << d[k];
    }
  }
  // A plain float reciprocal would not do: 3 x (1/15) is not 3 / 15 in float.
  const float third = 3.0f * (1.0f / 15.0f), exact = 3.0f / 15.0f;
  EXPECT_NE(std::memcmp(&third, &exact, sizeof third), 0);
}
#endif

}  // namespace
}  // namespace tessera
