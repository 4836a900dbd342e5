// GMEM (gmem/tile_memory.h): a bin reads zeros where it neither cleared nor restored, whatever an
// earlier bin left there, while a slice taken to be overwritten whole is not zeroed first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "gpu/gmem/tile_memory.h"

namespace tessera::gpu::gmem {
namespace {

bool allBytes(const uint8_t* p, uint64_t n, uint8_t v) {
  return std::all_of(p, p + n, [v](uint8_t b) { return b == v; });
}

TEST(TileMemory, ABinReadsZerosWhereAnEarlierBinWrote) {
  TileMemory gmem(4096);
  std::memset(gmem.slice(0, 3000), 0xab, 3000);
  gmem.zero();
  EXPECT_TRUE(allBytes(gmem.slice(1000, 100), 100, 0));
  EXPECT_TRUE(allBytes(gmem.slice(0, 4096), 4096, 0));
}

TEST(TileMemory, AnOverwrittenSliceIsNotZeroedAndTheRestStillReadsZeros) {
  TileMemory gmem(4096);
  std::memset(gmem.slice(0, 4096), 0xab, 4096);
  EXPECT_FALSE(gmem.stale(0, 16));
  gmem.zero();
  EXPECT_TRUE(gmem.stale(0, 4096));
  // The bin overwrites [1024, 2048) whole: those bytes are the caller's to write, not zeroed.
  EXPECT_TRUE(allBytes(gmem.overwrite(1024, 1024, 256, 256, 4), 1024, 0xab));
  std::memset(gmem.overwrite(1024, 1024, 256, 256, 4), 0x11, 1024);
  EXPECT_FALSE(gmem.stale(1024, 1));
  EXPECT_FALSE(gmem.stale(0, 2048));
  EXPECT_TRUE(gmem.stale(2048, 2048));
  // The bytes before and after it still read as zeros when first taken.
  EXPECT_TRUE(allBytes(gmem.slice(0, 1024), 1024, 0));
  EXPECT_TRUE(allBytes(gmem.slice(3000, 1096), 1096, 0));
  EXPECT_TRUE(allBytes(gmem.slice(1024, 1024), 1024, 0x11));
  // The next bin reads zeros in the overwritten slice too, and in bytes no slice of this bin
  // reached.
  gmem.zero();
  EXPECT_TRUE(allBytes(gmem.slice(0, 4096), 4096, 0));
}

TEST(TileMemory, StaleBytesOutlastABinThatNeverTakesThem) {
  TileMemory gmem(4096);
  std::memset(gmem.slice(0, 4096), 0xab, 4096);
  gmem.zero();
  std::memset(gmem.overwrite(0, 1024, 1024, 1024, 1), 0x22, 1024);
  gmem.zero();
  std::memset(gmem.overwrite(0, 512, 512, 512, 1), 0x33, 512);
  EXPECT_TRUE(allBytes(gmem.slice(512, 3584), 3584, 0));
}

// A bin past the surface's edge: its window is 3 of its 4 rows and 200 of each row's 256 bytes.
// The caller writes those; the rest of the slice reads as zeros.
TEST(TileMemory, TheBinPastTheWindowReadsZerosWhenTheWindowIsOverwritten) {
  TileMemory gmem(4096);
  std::memset(gmem.slice(0, 4096), 0xab, 4096);
  gmem.zero();
  uint8_t* at = gmem.overwrite(1024, 1024, 256, 200, 3);
  for (int r = 0; r < 3; ++r) {
    EXPECT_TRUE(allBytes(at + 256 * r, 200, 0xab)) << r;
    EXPECT_TRUE(allBytes(at + 256 * r + 200, 56, 0)) << r;
  }
  EXPECT_TRUE(allBytes(at + 768, 256, 0));
  // Taken again without any stale byte in it, it keeps what the caller wrote.
  std::memset(at, 0x44, 200);
  EXPECT_TRUE(allBytes(gmem.overwrite(1024, 1024, 256, 256, 4), 200, 0x44));
}

TEST(TileMemory, SlicesOutsideFault) {
  TileMemory gmem(4096);
  EXPECT_THROW(gmem.slice(4000, 200), GpuFault);
  EXPECT_THROW(gmem.overwrite(4097, 0, 0, 0, 0), GpuFault);
  EXPECT_THROW(gmem.overwrite(0, 4097, 4097, 4097, 1), GpuFault);
  EXPECT_NO_THROW(gmem.overwrite(0, 4096, 4096, 4096, 1));
}

}  // namespace
}  // namespace tessera::gpu::gmem
