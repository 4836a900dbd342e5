// The SIMD path (common/simd.h): what the host has, what TESSERA_SIMD chooses, and that a path
// the processor lacks is refused.
#include <gtest/gtest.h>

#include <cstdlib>

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

int twice(int x) {
  int r = 0;
  withSimdPath([&] { r = 2 * x; });
  return r;
}

TEST(SimdPath, WithSimdPathRunsTheBodyOnceOnEitherPath) {
  const SimdPath before = simdPath();
  for (SimdPath p : {SimdPath::Portable, hostSimdPath()}) {
    ASSERT_TRUE(setSimdPath(p));
    EXPECT_EQ(twice(21), 42) << simdPathName(p);
  }
  setSimdPath(before);
}

}  // namespace
}  // namespace tessera
