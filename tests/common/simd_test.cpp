// The SIMD path (common/simd.h): what the host has, what TESSERA_SIMD chooses, and that a path
// the processor lacks is refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "common/simd.h"

namespace tessera {
namespace {

TEST(SimdPath, TheEnvironmentChoosesThePathAtStartUp) {
  // This binary runs twice under CTest: as is, and with TESSERA_SIMD=portable.
  const char* env = std::getenv("TESSERA_SIMD");
  const SimdPath want = env && *env ? parseSimdPath(env).value_or(hostSimdPath()) : hostSimdPath();
  EXPECT_EQ(simdPath(), want) << simdPathName(simdPath());
}

TEST(SimdPath, NamesRoundTripAndUnknownNamesAreRefused) {
  for (SimdPath p : {SimdPath::Portable, SimdPath::Avx2})
    EXPECT_EQ(parseSimdPath(simdPathName(p)), p);
  EXPECT_FALSE(parseSimdPath("sse9"));
  EXPECT_FALSE(parseSimdPath(""));
  EXPECT_FALSE(parseSimdPath("AVX2"));
}

TEST(SimdPath, OnlyPathsTheProcessorHasCanBeChosen) {
  const SimdPath before = simdPath();
  EXPECT_TRUE(setSimdPath(SimdPath::Portable));
  EXPECT_EQ(simdPath(), SimdPath::Portable);
  EXPECT_EQ(setSimdPath(SimdPath::Avx2), hostSimdPath() == SimdPath::Avx2);
  EXPECT_EQ(simdPath(), hostSimdPath());
  setSimdPath(before);
}

int twice(int x, int& calls) {
  int r = 0;
  withSimdPath([&] {
    r = 2 * x;
    ++calls;
  });
  return r;
}

TEST(SimdPath, WithSimdPathRunsTheBodyOnceOnEitherPath) {
  const SimdPath before = simdPath();
  for (SimdPath p : {SimdPath::Portable, hostSimdPath()}) {
    ASSERT_TRUE(setSimdPath(p));
    int calls = 0;
    EXPECT_EQ(twice(21, calls), 42) << simdPathName(p);
    EXPECT_EQ(calls, 1) << simdPathName(p);
  }
  setSimdPath(before);
}

TEST(SimdPath, TheEnvironmentNamesAPathOrSaysWhyNot) {
  std::string problem;
  EXPECT_EQ(simdPathFor("", SimdPath::Avx2, problem), SimdPath::Avx2);
  EXPECT_EQ(simdPathFor("portable", SimdPath::Avx2, problem), SimdPath::Portable);
  EXPECT_EQ(simdPathFor("avx2", SimdPath::Avx2, problem), SimdPath::Avx2);
  EXPECT_TRUE(problem.empty()) << problem;
  // An unknown name, and a path the processor lacks, keep the host's path and say why.
  EXPECT_EQ(simdPathFor("sse9", SimdPath::Avx2, problem), SimdPath::Avx2);
  EXPECT_NE(problem.find("TESSERA_SIMD=sse9 is not a SIMD path"), std::string::npos) << problem;
  problem.clear();
  EXPECT_EQ(simdPathFor("avx2", SimdPath::Portable, problem), SimdPath::Portable);
  EXPECT_NE(problem.find("this processor lacks it; using portable"), std::string::npos) << problem;
}

}  // namespace
}  // namespace tessera
