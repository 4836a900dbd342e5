// GMEM blit engine (gmem/blit_engine.h): a restore brings the surface's pixels into the bin's
// buffer and leaves the bin's part past the surface's edge reading as zeros, whatever an earlier
// bin left in GMEM; a block restore changes nothing outside its block.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gpu/gmem/blit_engine.h"

namespace tessera::gpu::gmem {
namespace {

// A 6x5 RGBA8 surface whose byte i of row y is y * 40 + i + 1 (never zero), 32 bytes a row.
struct Surface {
  GpuMemory memory;
  SysmemSurface view;
  Surface() {
    view = {memory.allocate(32 * 5, "surface"), 32, 6, 5, 4};
    for (uint32_t y = 0; y < 5; ++y)
      for (uint32_t i = 0; i < 24; ++i) {
        const auto v = static_cast<uint8_t>(y * 40 + i + 1);
        memory.write(BusClient::Host, view.base + y * 32 + i, &v, 1);
      }
  }
  static uint8_t at(int x, int y, int byte) {
    return static_cast<uint8_t>(y * 40 + 4 * x + byte + 1);
  }
};

// The bin at (4, 3), 4x4 pixels, passes the surface's right and bottom edges: 2x2 of its pixels
// are the surface's.
constexpr BinRect kEdgeBin{4, 3, 8, 7};
constexpr uint32_t kBinW = 4, kBase = 64;

TEST(BlitEngine, ARestoreOfAnEdgeBinReadsZerosPastTheSurface) {
  Surface s;
  TileMemory gmem(1024);
  BlitEngine blit;
  std::memset(gmem.slice(0, 1024), 0xee, 1024);  // what an earlier bin left
  gmem.zero();
  blit.transfer(s.memory, gmem, s.view, kBase, kBinW, kEdgeBin, true);
  const uint8_t* g = gmem.slice(kBase, 4 * 4 * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      for (int b = 0; b < 4; ++b) {
        const bool inside = x < 2 && y < 2;
        EXPECT_EQ(g[y * 16 + x * 4 + b], inside ? Surface::at(4 + x, 3 + y, b) : 0)
            << x << "," << y << " byte " << b;
      }
  // GMEM the restore did not reach reads as zeros too.
  const uint8_t* rest = gmem.slice(0, 1024);
  for (int i = 0; i < 1024; ++i) {
    if (i < int{kBase} || i >= int{kBase} + 64) {
      EXPECT_EQ(rest[i], 0) << i;
    }
  }
  EXPECT_EQ(blit.stats().restoreBytes, 2u * 2 * 4);
}

// An edge bin whose buffer would pass GMEM's end, though its rows on the surface fit: the
// restore takes only those rows, as a restore always did, and does not fault.
TEST(BlitEngine, ARestoreTakesOnlyTheSurfacesRowsWhenTheBinsBufferPassesGmem) {
  Surface s;
  TileMemory gmem(kBase + 40);  // the bin's two rows on the surface end at kBase + 24
  BlitEngine blit;
  EXPECT_NO_THROW(blit.transfer(s.memory, gmem, s.view, kBase, kBinW, kEdgeBin, true));
  const uint8_t* g = gmem.slice(kBase, 24);
  EXPECT_EQ(g[0], Surface::at(4, 3, 0));
  EXPECT_EQ(g[16 + 4], Surface::at(5, 4, 0));
}

TEST(BlitEngine, ABlockRestoreKeepsTheRestOfTheBin) {
  Surface s;
  TileMemory gmem(1024);
  BlitEngine blit;
  constexpr BinRect bin{0, 0, 4, 4};
  std::memset(gmem.slice(kBase, 64), 0x55, 64);  // the bin's own pixels, drawn
  blit.transferBlock(s.memory, gmem, s.view, kBase, kBinW, bin, {2, 2, 4, 4}, true);
  const uint8_t* g = gmem.slice(kBase, 64);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      EXPECT_EQ(g[y * 16 + x * 4], x >= 2 && y >= 2 ? Surface::at(x, y, 0) : 0x55) << x << "," << y;
}

}  // namespace
}  // namespace tessera::gpu::gmem
