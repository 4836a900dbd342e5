// Lane masks and lane rows (common/lane_mask.h): both conversions agree with a lane-by-lane
// reading on every bit pattern a warp can have.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>

#include "common/lane_mask.h"

namespace tessera {
namespace {

TEST(LaneMask, RowOfMaskSetsExactlyTheMasksLanes) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t mask = i < 32 ? 1u << i : static_cast<uint32_t>(rng());
    uint32_t row[32];
    laneRowOf(mask, row);
    for (int l = 0; l < 32; ++l)
      ASSERT_EQ(row[l], (mask >> l) & 1u ? ~0u : 0u) << "mask " << mask << " lane " << l;
  }
}

TEST(LaneMask, MaskOfRowHasTheNonzeroWords) {
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    uint32_t row[32], want = 0;
    for (int l = 0; l < 32; ++l) {
      // Zero, one set bit (as the sign of -0.0) or any word.
      const uint32_t kind = rng() % 3;
      row[l] = kind == 0 ? 0u : kind == 1 ? 1u << (rng() % 32) : static_cast<uint32_t>(rng());
      want |= uint32_t{row[l] != 0} << l;
    }
    ASSERT_EQ(laneMaskOf(row), want);
  }
  float negativeZero[32] = {};
  negativeZero[5] = -0.0f;
  EXPECT_EQ(laneMaskOf(negativeZero), 1u << 5);
}

TEST(LaneMask, RoundTrip) {
  for (uint32_t mask : {0u, ~0u, 0x80000001u, 0x0f0f00ffu, 0x12345678u}) {
    uint32_t row[32];
    laneRowOf(mask, row);
    EXPECT_EQ(laneMaskOf(row), mask);
  }
}

}  // namespace
}  // namespace tessera
