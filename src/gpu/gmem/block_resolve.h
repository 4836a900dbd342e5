// Rendering interleaved with resolve (US 8,902,228), the render-pass side: with the bin's block
// table (vsc/block_table.h) loaded, a rolling triangle counter follows the bin's draws; when it
// passes a block's last triangle the block is final, its identifier enters the resolve FIFO, and
// once the fragments of that triangle have left the pipeline (the resolve event follows the
// triangle) the blit engine copies the block to system memory while later triangles render.
// The restore at the bin's start copies only blocks that are touched and have no full-cover
// triangle; quads of triangles before a block's full-cover triangle are not shaded in it; blocks
// nothing touches are neither restored nor resolved. The bin's RESOLVE events resolve what the
// FIFO has not.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "gpu/gmem/blit_engine.h"
#include "gpu/ras/ras_types.h"
#include "gpu/vsc/block_table.h"

namespace tessera::gpu::gmem {

// One block resolve, in the order the resolve engine did them: for ordering checks, the
// resolve-order heat map and the timing model.
struct BlockResolveEvent {
  uint32_t bin = 0;       // the bin's position in the render pass
  ras::Scissor rect{};    // the block's pixels (cut by the bin)
  uint32_t last = 0;      // its last triangle from the table (sequence + 1)
  uint32_t counter = 0;   // the rolling counter when it entered the FIFO (triangles done)
  uint32_t order = 0;     // position among the bin's block resolves
  uint64_t progress = 0;  // the bin's rasterizer quads before the resolve ran
  uint64_t bytes = 0;     // bytes written to system memory
  bool early = false;     // resolved while the bin rendered (else by its RESOLVE event)
};

struct BlockResolveStats {
  uint64_t bins = 0;             // bins rendered with their block table
  uint64_t blocksRestored = 0;   // per buffer restore
  uint64_t restoresSkipped = 0;  // touched blocks whose full-cover triangle made restore moot
  uint64_t blocksUntouched = 0;  // blocks neither restored nor resolved
  uint64_t resolvedEarly = 0;    // block resolves from the FIFO during rendering
  uint64_t resolvedAtEnd = 0;    // block resolves by the bin's RESOLVE events
};

// The current bin's attachments: their system-memory surfaces and GMEM slices.
struct BlockTarget {
  bool color = false, depth = false;  // present in GMEM and resolved early
  bool coverWritesDepth = true;       // a full-cover triangle overwrites depth/stencil too
  bool skipCovered = true;            // drop quads before their block's full-cover triangle
  SysmemSurface colorSurface, depthSurface;
  uint32_t gmemColorBase = 0, gmemDepthBase = 0, binW = 0;
};

class BlockResolver final {
 public:
  // CP_SET_BIN with a block table: entries of this bin; `window` the bin's pixels.
  void beginBin(uint32_t binIndex, const ras::Scissor& window, const vsc::BlockGeometry& geometry,
                std::vector<vsc::BlockEntry> entries, const BlockTarget& target);
  // The bin ended (next CP_SET_BIN or the end of the pass): nothing more is resolved early.
  void endBin() { active_ = false; }
  bool active() const { return active_; }

  // The counter moves to `triangles` triangles done: blocks whose last triangle is among them
  // are final and enter the FIFO, to be resolved once `retiredWarp` fragment warps have been
  // issued (the warp that holds that triangle's quads, or the current count if none is pending).
  void advance(uint32_t triangles, uint64_t retiredWarp);
  // Resolves the FIFO's blocks whose triangles have left the pipeline: `warps` issued so far;
  // `quads` rasterized in this bin so far (the progress the timing model places the copy at).
  void drain(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, uint64_t warps, uint64_t quads);
  // Whether the quad at (x, y) of the triangle with sequence `seq` lies in a block whose
  // full-cover triangle comes later: it cannot be seen there.
  bool hiddenByFullCover(int x, int y, uint32_t seq) const {
    const uint32_t e = geometry_.entry(window_.x0, window_.y0, x, y);
    return target_.skipCovered && e < entries_.size() && entries_[e].fullCover > seq + 1;
  }
  // RESTORE of one buffer: the touched blocks, less those a full-cover triangle overwrites.
  void restore(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, bool depth);
  // RESOLVE of one buffer: the touched blocks the FIFO has not resolved.
  void resolve(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, bool depth, uint64_t quads);

  BlockResolveStats& stats() { return stats_; }
  // The block resolves of the submission so far, in order.
  std::vector<BlockResolveEvent>& events() { return events_; }

 private:
  struct Pending {
    uint32_t entry, counter;
    uint64_t warp;
  };
  uint64_t copy(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, uint32_t entry, bool depth,
                bool toGmem);

  bool active_ = false;
  uint32_t bin_ = 0;
  ras::Scissor window_{};
  vsc::BlockGeometry geometry_;
  std::vector<vsc::BlockEntry> entries_;
  BlockTarget target_;
  std::vector<uint32_t> byLast_;  // touched entries by ascending last triangle
  size_t next_ = 0;               // byLast_ entries already final
  std::deque<Pending> fifo_;
  std::vector<uint8_t> resolvedEarly_;  // per entry: left through the FIFO
  uint32_t order_ = 0;
  uint32_t counter_ = 0;  // triangles done in this bin's pass order
  BlockResolveStats stats_;
  std::vector<BlockResolveEvent> events_;
};

}  // namespace tessera::gpu::gmem
