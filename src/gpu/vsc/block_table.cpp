#include "gpu/vsc/block_table.h"

#include <algorithm>

#include "gpu/ras/sure_coverage.h"

namespace tessera::gpu::vsc {
namespace {

ras::Scissor cut(const ras::Scissor& a, const ras::Scissor& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}
bool empty(const ras::Scissor& r) {
  return r.x1 <= r.x0 || r.y1 <= r.y0;
}

}  // namespace

ras::Scissor BlockGeometry::blockRect(const ras::Scissor& bin, uint32_t i) const {
  const int s = int(size);
  const int bx = bin.x0 / s + int(i % spanX()), by = bin.y0 / s + int(i / spanX());
  return cut({bx * s, by * s, bx * s + s, by * s + s}, bin);
}

void BlockTableWriter::begin(const BinGrid& grid, uint32_t blockSize, GpuAddress table,
                             const ras::Scissor& surface) {
  grid_ = grid;
  geometry_ = {blockSize, grid.binW, grid.binH};
  table_ = table;
  surface_ = surface;
  stats_ = {};
  entries_.assign(size_t{grid.nx} * grid.ny * geometry_.entriesPerBin(), BlockEntry{});
  active_ = true;
}

template <class Visit>
void BlockTableWriter::forBlocks(const ras::Scissor& rect, Visit&& visit) {
  if (!active_ || empty(rect)) return;
  const int ox = int(grid_.originX), oy = int(grid_.originY);
  const int bw = int(grid_.binW), bh = int(grid_.binH);
  const int bx0 = std::max(0, (rect.x0 - ox) / bw), by0 = std::max(0, (rect.y0 - oy) / bh);
  const int bx1 = std::min(int(grid_.nx) - 1, (rect.x1 - 1 - ox) / bw);
  const int by1 = std::min(int(grid_.ny) - 1, (rect.y1 - 1 - oy) / bh);
  const int s = int(geometry_.size);
  const uint32_t perBin = geometry_.entriesPerBin();
  for (int by = by0; by <= by1; ++by)
    for (int bx = bx0; bx <= bx1; ++bx) {
      const ras::Scissor bin{ox + bx * bw, oy + by * bh, ox + (bx + 1) * bw, oy + (by + 1) * bh};
      const ras::Scissor area = cut(rect, bin);
      if (empty(area)) continue;
      BlockEntry* entries = entries_.data() + size_t(by * int(grid_.nx) + bx) * perBin;
      for (int y = area.y0 / s * s; y < area.y1; y += s)
        for (int x = area.x0 / s * s; x < area.x1; x += s)
          visit(entries[geometry_.entry(bin.x0, bin.y0, std::max(x, bin.x0), std::max(y, bin.y0))],
                cut({x, y, x + s, y + s}, bin));
    }
}

void BlockTableWriter::triangle(uint32_t seq, const ras::Triangle& tri, const ras::Scissor& touched,
                                const ras::Scissor& scissor, bool opaque) {
  if (!active_) return;  // called for every binned triangle, and the table is usually off
  const ras::SureCoverage cover(tri);
  const bool mayCover = opaque && cover.valid();
  const ras::Scissor coverable = cut(scissor, surface_);
  forBlocks(touched, [&](BlockEntry& e, const ras::Scissor& block) {
    e.last = seq + 1;
    ++stats_.updates;
    if (!mayCover) return;
    // The block's pixels that will be resolved: this triangle must draw all of them for the
    // earlier ones to be invisible.
    const ras::Scissor need = cut(block, surface_);
    const ras::Scissor got = cut(need, coverable);
    if (!empty(need) && need == got && cover.rect(need)) {
      e.fullCover = seq + 1;
      ++stats_.fullCovers;
    }
  });
}

void BlockTableWriter::clear(const ras::Scissor& rect, uint32_t triangles) {
  forBlocks(rect, [&](BlockEntry& e, const ras::Scissor&) {
    e.last = std::max(e.last, triangles + 1);
    ++stats_.updates;
  });
}

void BlockTableWriter::store(GpuMemory& memory) {
  if (!active_) return;
  const uint64_t bytes = entries_.size() * kBlockEntryBytes;
  static_assert(sizeof(BlockEntry) == kBlockEntryBytes);
  memory.write(BusClient::Visibility, table_, entries_.data(), bytes);
  stats_.bytesWritten += bytes;
}

std::vector<BlockEntry> readBinBlocks(GpuMemory& memory, GpuAddress table,
                                      const BlockGeometry& geometry, uint32_t bin) {
  std::vector<BlockEntry> entries(geometry.entriesPerBin());
  const uint64_t bytes = entries.size() * kBlockEntryBytes;
  memory.read(BusClient::Visibility, table + uint64_t{bin} * bytes, entries.data(), bytes);
  return entries;
}

}  // namespace tessera::gpu::vsc
