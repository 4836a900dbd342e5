#include "gpu/gmem/block_resolve.h"

#include <algorithm>
#include <numeric>

namespace tessera::gpu::gmem {

void BlockResolver::beginBin(uint32_t binIndex, const ras::Scissor& window,
                             const vsc::BlockGeometry& geometry,
                             std::vector<vsc::BlockEntry> entries, const BlockTarget& target) {
  active_ = true;
  bin_ = binIndex;
  window_ = window;
  geometry_ = geometry;
  entries_ = std::move(entries);
  target_ = target;
  byLast_.clear();
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    const ras::Scissor r = geometry_.blockRect(window_, i);
    const bool exists = r.x1 > r.x0 && r.y1 > r.y0;
    if (exists && entries_[i].last != 0)
      byLast_.push_back(i);
    else if (exists)
      ++stats_.blocksUntouched;
  }
  // Equal last triangles keep raster order: the FIFO order is then fixed by the table alone.
  std::stable_sort(byLast_.begin(), byLast_.end(),
                   [&](uint32_t a, uint32_t b) { return entries_[a].last < entries_[b].last; });
  next_ = 0;
  fifo_.clear();
  resolvedEarly_.assign(entries_.size(), 0);
  order_ = 0;
  counter_ = 0;
  ++stats_.bins;
}

void BlockResolver::advance(uint32_t triangles, uint64_t retiredWarp) {
  if (!active_) return;
  counter_ = triangles;
  while (next_ < byLast_.size() && entries_[byLast_[next_]].last <= triangles) {
    fifo_.push_back({byLast_[next_], triangles, retiredWarp});
    ++next_;
  }
}

uint64_t BlockResolver::copy(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, uint32_t entry,
                             bool depth, bool toGmem) {
  const ras::Scissor r = geometry_.blockRect(window_, entry);
  const BinRect bin{window_.x0, window_.y0, window_.x1, window_.y1};
  const BinRect region{r.x0, r.y0, r.x1, r.y1};
  const GmemStats before = blit.stats();
  blit.transferBlock(memory, gmem, depth ? target_.depthSurface : target_.colorSurface,
                     depth ? target_.gmemDepthBase : target_.gmemColorBase, target_.binW, bin,
                     region, toGmem);
  return toGmem ? blit.stats().restoreBytes - before.restoreBytes
                : blit.stats().resolveBytes - before.resolveBytes;
}

void BlockResolver::drain(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, uint64_t warps,
                          uint64_t quads) {
  while (!fifo_.empty() && fifo_.front().warp <= warps) {
    const Pending p = fifo_.front();
    fifo_.pop_front();
    BlockResolveEvent e{bin_,
                        geometry_.blockRect(window_, p.entry),
                        entries_[p.entry].last,
                        p.counter,
                        order_++,
                        quads,
                        0,
                        true};
    if (target_.color) e.bytes += copy(memory, gmem, blit, p.entry, false, false);
    if (target_.depth) e.bytes += copy(memory, gmem, blit, p.entry, true, false);
    resolvedEarly_[p.entry] = 1;
    ++stats_.resolvedEarly;
    events_.push_back(e);
  }
}

void BlockResolver::restore(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, bool depth) {
  const bool covered = !depth || target_.coverWritesDepth;
  for (uint32_t i : byLast_) {
    if (covered && entries_[i].fullCover != 0) {
      ++stats_.restoresSkipped;
      continue;
    }
    copy(memory, gmem, blit, i, depth, true);
    ++stats_.blocksRestored;
  }
}

void BlockResolver::resolve(GpuMemory& memory, TileMemory& gmem, BlitEngine& blit, bool depth,
                            uint64_t quads) {
  // Blocks still queued are copied here with the rest, after the bin's last fragment.
  fifo_.clear();
  const bool early = depth ? target_.depth : target_.color;
  for (uint32_t i : byLast_) {
    if (early && resolvedEarly_[i]) continue;
    BlockResolveEvent e{
        bin_, geometry_.blockRect(window_, i), entries_[i].last, counter_, order_++, quads, 0,
        false};
    e.bytes = copy(memory, gmem, blit, i, depth, false);
    ++stats_.resolvedAtEnd;
    events_.push_back(e);
  }
}

}  // namespace tessera::gpu::gmem
