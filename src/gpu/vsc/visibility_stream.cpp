#include "gpu/vsc/visibility_stream.h"

#include <algorithm>
#include <string>

namespace tessera::gpu::vsc {

void VisibilityWriter::begin(const BinGrid& grid, std::span<const PipeConfig> pipes) {
  grid_ = grid;
  pipes_.clear();
  binPipe_.assign(size_t{grid.nx} * grid.ny, ~0u);
  binSlot_.assign(binPipe_.size(), 0);
  stats_ = {};
  stats_.trianglesPerBin.assign(binPipe_.size(), 0);
  for (uint32_t p = 0; p < pipes.size(); ++p) {
    const PipeConfig& c = pipes[p];
    Pipe pipe;
    pipe.config = c;
    pipe.maskWords = std::max(1u, (c.w * c.h + 31) / 32);
    pipes_.push_back(std::move(pipe));
    for (uint32_t y = c.y; y < c.y + c.h && y < grid.ny; ++y)
      for (uint32_t x = c.x; x < c.x + c.w && x < grid.nx; ++x) {
        binPipe_[y * grid.nx + x] = p;
        binSlot_[y * grid.nx + x] = (y - c.y) * c.w + (x - c.x);
      }
  }
}

void VisibilityWriter::beginDraw() {
  for (auto& p : pipes_) {
    p.record.clear();
    p.entries = 0;
    p.lastPrim = ~0u;
  }
}

void VisibilityWriter::addPrimitive(uint32_t prim, int x0, int y0, int x1, int y1) {
  if (grid_.binW == 0 || x1 <= x0 || y1 <= y0) return;
  const int bx0 =
      std::max(0, (x0 - static_cast<int>(grid_.originX)) / static_cast<int>(grid_.binW));
  const int by0 =
      std::max(0, (y0 - static_cast<int>(grid_.originY)) / static_cast<int>(grid_.binH));
  const int bx1 = std::min<int>(
      grid_.nx - 1, (x1 - 1 - static_cast<int>(grid_.originX)) / static_cast<int>(grid_.binW));
  const int by1 = std::min<int>(
      grid_.ny - 1, (y1 - 1 - static_cast<int>(grid_.originY)) / static_cast<int>(grid_.binH));
  bool any = false;
  for (int by = by0; by <= by1; ++by)
    for (int bx = bx0; bx <= bx1; ++bx) {
      const uint32_t bin = static_cast<uint32_t>(by) * grid_.nx + static_cast<uint32_t>(bx);
      const uint32_t pi = binPipe_[bin];
      if (pi == ~0u) continue;  // a bin no pipe covers is never rendered
      Pipe& p = pipes_[pi];
      if (p.lastPrim != prim) {  // a clipped primitive may arrive as several triangles
        p.record.push_back(prim);
        p.record.resize(p.record.size() + p.maskWords, 0);
        ++p.entries;
        p.lastPrim = prim;
      }
      const uint32_t slot = binSlot_[bin];
      uint32_t& word = p.record[p.record.size() - p.maskWords + slot / 32];
      if (!(word & (1u << (slot % 32)))) {
        word |= 1u << (slot % 32);
        ++stats_.binHits;
        ++stats_.trianglesPerBin[bin];
      }
      any = true;
    }
  if (any) ++stats_.primitivesBinned;
}

void VisibilityWriter::endDraw(GpuMemory& memory) {
  for (auto& p : pipes_) {
    const uint32_t bytes = 4 * (1 + static_cast<uint32_t>(p.record.size()));
    if (!p.overflow && p.written + bytes <= p.config.length) {
      memory.write32(BusClient::Visibility, p.config.data + p.written, p.entries);
      if (!p.record.empty())
        memory.write(BusClient::Visibility, p.config.data + p.written + 4, p.record.data(),
                     p.record.size() * 4);
    } else {
      p.overflow = true;  // keep counting so the driver learns the size it needs
    }
    p.written += bytes;
    stats_.bytesWritten += bytes;
  }
}

void VisibilityWriter::flush(GpuMemory& memory, GpuAddress sizeArray) {
  stats_.overflowedPipes = 0;
  for (uint32_t i = 0; i < pipes_.size(); ++i) {
    const Pipe& p = pipes_[i];
    stats_.overflowedPipes += p.overflow;
    memory.write32(BusClient::Visibility, sizeArray + 4 * i,
                   (p.written & ~kOverflowBit) | (p.overflow ? kOverflowBit : 0));
  }
}

void VisibilityReader::setBinData(GpuMemory& memory, GpuAddress stream, GpuAddress size,
                                  uint32_t binsInPipe, uint32_t slot) {
  const uint32_t s = memory.read32(BusClient::Visibility, size);
  active_ = true;
  overflow_ = (s & kOverflowBit) != 0;
  size_ = s & ~kOverflowBit;
  stream_ = stream;
  cursor_ = 0;
  maskWords_ = std::max(1u, (binsInPipe + 31) / 32);
  slot_ = slot;
  if (slot >= binsInPipe)
    throw GpuFault(FaultKind::BadState, size, BusClient::Visibility,
                   "PC_VSTREAM_CONTROL selects bin " + std::to_string(slot) + " of a pipe with " +
                       std::to_string(binsInPipe) + " bins");
}

bool VisibilityReader::nextDraw(GpuMemory& memory, std::vector<uint32_t>& prims, VscStats& stats) {
  prims.clear();
  if (overflow_) return false;
  if (cursor_ + 4 > size_)
    throw GpuFault(
        FaultKind::BadState, stream_ + cursor_, BusClient::Visibility,
        "visibility stream exhausted: the render pass draws more than the binning pass did");
  const uint32_t entries = memory.read32(BusClient::Visibility, stream_ + cursor_);
  const uint64_t bytes = uint64_t{entries} * 4 * (1 + maskWords_);
  if (cursor_ + 4 + bytes > size_)
    throw GpuFault(FaultKind::BadState, stream_ + cursor_, BusClient::Visibility,
                   "visibility stream record runs past the stream's size");
  auto s = memory.span(BusClient::Visibility, stream_ + cursor_ + 4, bytes);
  memory.countRead(BusClient::Visibility, bytes);
  stats.bytesRead += 4 + bytes;
  const uint32_t* w = reinterpret_cast<const uint32_t*>(s.data());
  for (uint32_t e = 0; e < entries; ++e) {
    const uint32_t* entry = w + e * (1 + maskWords_);
    if (entry[1 + slot_ / 32] & (1u << (slot_ % 32))) prims.push_back(entry[0]);
  }
  cursor_ += 4 + static_cast<uint32_t>(bytes);
  return true;
}

}  // namespace tessera::gpu::vsc
