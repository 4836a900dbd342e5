// The block table of rendering interleaved with resolve (US 8,902,228): besides the visibility
// streams, the binning pass records for every bin and every block of it (a square of 4, 8 or
// 16 pixels, aligned to multiples of its size in window coordinates, cut by the bin's edges)
//   last       the sequence number of the last visible triangle that touches the block, and
//   fullCover  the sequence number of the last triangle that surely covers all of the block's
//              pixels on the surface and overwrites every attachment unconditionally.
// A triangle's sequence number is its position in the pass: the primitives of earlier draws plus
// its primitive index, counted by the binning pass and by every bin of the render pass alike.
// Both are stored plus one, so 0 means "none": a zero table is an untouched frame.
//
// Memory layout at VSC_BLOCK_TABLE: bin b (row-major over VSC_BIN_COUNT) owns entriesPerBin()
// entries from b × entriesPerBin() × 8 bytes; within a bin, block rows of spanX() entries from
// the block that holds the bin's top-left pixel. An entry is two little-endian dwords: last,
// fullCover.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/ras/ras_types.h"
#include "gpu/vsc/visibility_stream.h"

namespace tessera::gpu::vsc {

inline constexpr uint32_t kBlockEntryBytes = 8;

constexpr bool validBlockSize(uint32_t size) {
  return size == 4 || size == 8 || size == 16;
}

// VSC_BLOCK_CNTL, written by the driver for a binning batch (docs/command-stream.md).
struct BlockControl {
  bool enable = false;
  uint32_t size = 8;                            // pixels per block side
  bool earlyColor = false, earlyDepth = false;  // buffers the FIFO resolves during rendering
  bool zsStatic = false;                        // no draw of the batch writes depth or stencil
  // Shade every fragment even where a later triangle covers the block: occlusion queries are
  // counting samples in this batch.
  bool keepFragments = false;
};
constexpr uint32_t encodeBlockControl(const BlockControl& c) {
  const uint32_t code = c.size == 4 ? 0 : c.size == 8 ? 1 : 2;
  return (c.enable ? 1u : 0u) | code << 1 | (c.earlyColor ? 1u : 0u) << 4 |
         (c.earlyDepth ? 1u : 0u) << 5 | (c.zsStatic ? 1u : 0u) << 6 |
         (c.keepFragments ? 1u : 0u) << 7;
}
// SIZE 3 is reserved: decoded as disabled.
constexpr BlockControl decodeBlockControl(uint32_t v) {
  const uint32_t code = (v >> 1) & 3;
  return {(v & 1) != 0 && code < 3, 4u << code,          ((v >> 4) & 1) != 0,
          ((v >> 5) & 1) != 0,      ((v >> 6) & 1) != 0, ((v >> 7) & 1) != 0};
}

struct BlockEntry {
  uint32_t last = 0, fullCover = 0;  // sequence number + 1, 0 for none
};

// Where a bin's blocks lie and where their entries are.
struct BlockGeometry {
  uint32_t size = 0;  // pixels per block side (validBlockSize)
  uint32_t binW = 0, binH = 0;

  // Blocks a span of `length` pixels can overlap, whatever its alignment.
  uint32_t span(uint32_t length) const { return length == 0 ? 0 : (length + size - 2) / size + 1; }
  uint32_t spanX() const { return span(binW); }
  uint32_t spanY() const { return span(binH); }
  uint32_t entriesPerBin() const { return spanX() * spanY(); }
  // The entry of the block holding pixel (x, y) in the bin whose top-left pixel is (x0, y0).
  uint32_t entry(int x0, int y0, int x, int y) const {
    const int s = int(size);
    return uint32_t((y / s - y0 / s) * int(spanX()) + (x / s - x0 / s));
  }
  // The pixels of entry i of that bin: the block cut by the bin rectangle `bin`.
  ras::Scissor blockRect(const ras::Scissor& bin, uint32_t i) const;
};

struct BlockTableStats {
  uint64_t updates = 0;     // (triangle, block) entries written by the binning pass
  uint64_t fullCovers = 0;  // of which also set the full-cover index
  uint64_t bytesWritten = 0;
};

// The binning side.
class BlockTableWriter final {
 public:
  // VSC_BLOCK_CNTL on: a zero table for every bin of `grid`. `surface`: the pixels that exist
  // (RB_SURFACE_SIZE), the only ones a block needs covered.
  void begin(const BinGrid& grid, uint32_t blockSize, GpuAddress table,
             const ras::Scissor& surface);
  void disable() { active_ = false; }
  bool active() const { return active_; }
  // A visible triangle touching `touched` (its conservative bounds ∩ scissor). `opaque`: its
  // draw overwrites every attachment and cannot discard; then blocks of `scissor` ∩ surface that
  // it surely covers whole record it as their full-cover triangle.
  void triangle(uint32_t seq, const ras::Triangle& tri, const ras::Scissor& touched,
                const ras::Scissor& scissor, bool opaque);
  // A clear of `rect` at this point of the pass, with `triangles` triangles before it: its blocks
  // may change until the counter has passed the next triangle, so their last index becomes at
  // least triangles + 1 (stored + 1).
  void clear(const ras::Scissor& rect, uint32_t triangles);
  // VSC_FLUSH: the table goes to memory.
  void store(GpuMemory& memory);
  // A bin worker (gpu/pipeline/bin_jobs.h) reads the table `pass` stored: where it is and its
  // layout, not the binning pass's entries.
  void followTable(const BlockTableWriter& pass) {
    active_ = pass.active_;
    grid_ = pass.grid_;
    geometry_ = pass.geometry_;
    table_ = pass.table_;
  }
  const BlockGeometry& geometry() const { return geometry_; }
  const BinGrid& grid() const { return grid_; }
  GpuAddress table() const { return table_; }
  BlockTableStats& stats() { return stats_; }

 private:
  // Calls visit(entry, block pixels ∩ bin) for every block of every bin that `rect` touches.
  template <class Visit>
  void forBlocks(const ras::Scissor& rect, Visit&& visit);

  bool active_ = false;
  BinGrid grid_;
  BlockGeometry geometry_;
  GpuAddress table_ = 0;
  ras::Scissor surface_{};
  std::vector<BlockEntry> entries_;
  BlockTableStats stats_;
};

// The render side: the entries of bin `bin` (row-major index over the grid), read from memory.
std::vector<BlockEntry> readBinBlocks(GpuMemory& memory, GpuAddress table,
                                      const BlockGeometry& geometry, uint32_t bin);

}  // namespace tessera::gpu::vsc
