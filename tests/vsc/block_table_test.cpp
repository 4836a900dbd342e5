// The binning side of the interleaved resolve: which entries a triangle or a clear updates, when
// a triangle counts as covering a block, the table's memory layout and VSC_BLOCK_CNTL.
#include "gpu/vsc/block_table.h"

#include <gtest/gtest.h>

namespace tessera::gpu::vsc {
namespace {

ras::Triangle triangle(float x0, float y0, float x1, float y1, float x2, float y2) {
  ras::Triangle t{};
  t.v[0].x = x0, t.v[0].y = y0;
  t.v[1].x = x1, t.v[1].y = y1;
  t.v[2].x = x2, t.v[2].y = y2;
  return t;
}

// Two bins of 32×16 side by side from (8, 0), 8×8 blocks, a 72×16 surface.
struct Fixture {
  GpuMemory memory;
  GpuAddress table = 0;
  BlockTableWriter writer;
  Fixture() {
    BinGrid grid{8, 0, 32, 16, 2, 1};
    table = memory.allocate(2 * BlockGeometry{8, 32, 16}.entriesPerBin() * kBlockEntryBytes, "t");
    writer.begin(grid, 8, table, {0, 0, 72, 16});
  }
  std::vector<BlockEntry> bin(uint32_t b) {
    writer.store(memory);
    return readBinBlocks(memory, table, writer.geometry(), b);
  }
};

TEST(BlockGeometry, BinsHoldTheBlocksTheirRectangleOverlaps) {
  const BlockGeometry g{8, 32, 16};
  // A 32-pixel span overlaps 5 blocks when it does not start on a block edge.
  EXPECT_EQ(g.spanX(), 5u);
  EXPECT_EQ(g.spanY(), 3u);
  EXPECT_EQ(g.entry(8, 0, 8, 0), 0u);
  EXPECT_EQ(g.entry(8, 0, 39, 15), 1u * 5 + 3);
  const ras::Scissor bin{8, 0, 40, 16};
  const ras::Scissor r = g.blockRect(bin, 3);  // the block of x 32..40
  EXPECT_EQ(r.x0, 32);
  EXPECT_EQ(r.x1, 40);
  // This bin starts on a block edge: its fifth column and third row are empty.
  const ras::Scissor column = g.blockRect(bin, 4), row = g.blockRect(bin, 2 * 5);
  EXPECT_GE(column.x0, column.x1);
  EXPECT_GE(row.y0, row.y1);
}

TEST(BlockTable, TriangleSetsLastInEveryTouchedBlockOfEveryBin) {
  Fixture f;
  const ras::Triangle t = triangle(10, 1, 60, 1, 10, 14);
  f.writer.triangle(6, t, {10, 0, 61, 15}, {0, 0, 72, 16}, false);
  const auto left = f.bin(0), right = f.bin(1);
  // Bin 0 holds pixels 8..40: blocks of x 8..16 (entry 0) through 32..40 (entry 3), two rows.
  for (uint32_t e : {0u, 1u, 2u, 3u, 5u, 8u}) EXPECT_EQ(left[e].last, 7u) << e;
  EXPECT_EQ(left[4].last, 0u);  // no such block in this bin
  EXPECT_EQ(right[1].last, 7u);
  EXPECT_EQ(right[3].last, 0u);                                 // x 64..72: beyond the rectangle
  for (const BlockEntry& e : left) EXPECT_EQ(e.fullCover, 0u);  // not opaque
  EXPECT_EQ(f.writer.stats().fullCovers, 0u);
}

TEST(BlockTable, FullCoverNeedsAnOpaqueTriangleOverEveryPixelOfTheBlock) {
  Fixture f;
  // A large triangle over the whole surface's left part: covers blocks [8,16)×[0,8) etc.
  const ras::Triangle big = triangle(-100, -100, 300, -100, -100, 300);
  f.writer.triangle(2, big, {0, 0, 72, 16}, {0, 0, 72, 16}, true);
  // A later opaque triangle cut by a scissor through the block x 16..24.
  f.writer.triangle(3, big, {0, 0, 20, 16}, {0, 0, 20, 16}, true);
  const auto left = f.bin(0);
  EXPECT_EQ(left[0].fullCover, 4u);  // x 8..16: the scissored triangle covers it whole
  EXPECT_EQ(left[1].last, 4u);       // x 16..24: touched by it ...
  EXPECT_EQ(left[1].fullCover, 3u);  // ... but covered whole only by the first
  // A sliver leaves the block partly uncovered.
  Fixture g;
  g.writer.triangle(0, triangle(8, 0, 16, 0, 8, 8), {8, 0, 16, 8}, {0, 0, 72, 16}, true);
  EXPECT_EQ(g.bin(0)[0].fullCover, 0u);
  EXPECT_EQ(g.bin(0)[0].last, 1u);
}

TEST(BlockTable, ClearKeepsItsBlocksOpenPastTheNextTriangle) {
  Fixture f;
  f.writer.triangle(9, triangle(10, 1, 20, 1, 10, 6), {10, 0, 21, 7}, {0, 0, 72, 16}, false);
  f.writer.clear({8, 0, 32, 8}, 5);
  const auto left = f.bin(0);
  EXPECT_EQ(left[0].last, 10u);  // the triangle came later
  EXPECT_EQ(left[1].last, 10u);
  EXPECT_EQ(left[2].last, 6u);  // the clear alone: open until triangle 5 is done
  f.writer.clear({8, 8, 16, 16}, 12);
  EXPECT_EQ(f.bin(0)[5].last, 13u);
}

TEST(BlockTable, ControlRegisterRoundTrips) {
  for (uint32_t size : {4u, 8u, 16u})
    for (bool color : {false, true}) {
      const BlockControl c{true, size, color, !color};
      const BlockControl d = decodeBlockControl(encodeBlockControl(c));
      EXPECT_TRUE(d.enable);
      EXPECT_EQ(d.size, size);
      EXPECT_EQ(d.earlyColor, color);
      EXPECT_EQ(d.earlyDepth, !color);
    }
  EXPECT_FALSE(decodeBlockControl(1u | 3u << 1).enable);  // SIZE 3 is reserved
  EXPECT_FALSE(decodeBlockControl(0).enable);
}

TEST(BlockTable, ATableOutsideItsBufferFaults) {
  GpuMemory memory;
  const GpuAddress small = memory.allocate(16, "small");
  BlockTableWriter w;
  w.begin({0, 0, 32, 32, 2, 2}, 8, small, {0, 0, 64, 64});
  EXPECT_THROW(w.store(memory), GpuFault);
  EXPECT_THROW(readBinBlocks(memory, small, w.geometry(), 3), GpuFault);
}

}  // namespace
}  // namespace tessera::gpu::vsc
