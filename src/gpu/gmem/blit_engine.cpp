#include "gpu/gmem/blit_engine.h"

#include <algorithm>
#include <cstring>

namespace tessera::gpu::gmem {
namespace {

struct Rows {
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

Rows clipToSurface(const BinRect& b, const SysmemSurface& s) {
  return {std::max(b.x0, 0), std::max(b.y0, 0), std::min<int>(b.x1, static_cast<int>(s.width)),
          std::min<int>(b.y1, static_cast<int>(s.height))};
}

// Calls copy(sysRow, gmemRow, bytes) for each row of `region` (inside the bin) clipped to the
// surface; GMEM holds the bin from its top-left pixel. `whole`: the region is the bin and the
// copies write its rows before anything reads them (a restore), so the bin's buffer is taken
// without zeroing what an earlier bin left where they write (TileMemory::overwrite).
template <class Copy>
uint64_t forRows(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& s, uint32_t gmemBase,
                 uint32_t binW, const BinRect& bin, const BinRect& region, BusClient client,
                 bool whole, Copy&& copy) {
  const Rows r = clipToSurface(region, s);
  if (r.empty()) return 0;
  const uint32_t bpp = s.bytesPerPixel;
  const uint64_t rowBytes = uint64_t(r.x1 - r.x0) * bpp;
  const uint64_t gmemPitch = uint64_t{binW} * bpp;
  const uint64_t first = uint64_t(r.y0) * s.pitch + uint64_t(r.x0) * bpp;
  const uint64_t span = uint64_t(r.y1 - r.y0 - 1) * s.pitch + rowBytes;
  uint8_t* sys = memory.span(client, s.base + first, span).data();
  const uint64_t offset =
      gmemBase + uint64_t(r.y0 - bin.y0) * gmemPitch + uint64_t(r.x0 - bin.x0) * bpp;
  const uint64_t bytes = uint64_t(r.y1 - r.y0 - 1) * gmemPitch + rowBytes;
  // The bin's whole buffer, whose rows past the surface's edge read as zeros.
  const uint64_t binBytes = uint64_t(bin.y1 - bin.y0) * gmemPitch;
  // (The region starts at the bin's top-left pixel when its offset is the buffer's.)
  uint8_t* g = whole && offset == gmemBase && gmemBase + binBytes <= gmem.size()
                   ? gmem.overwrite(gmemBase, binBytes, gmemPitch, rowBytes, uint64_t(r.y1 - r.y0))
                   : gmem.slice(offset, bytes);
  for (int y = r.y0; y < r.y1; ++y) {
    copy(sys + uint64_t(y - r.y0) * s.pitch, g + uint64_t(y - r.y0) * gmemPitch, rowBytes);
  }
  return rowBytes * uint64_t(r.y1 - r.y0);
}

}  // namespace

void BlitEngine::transferRegion(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& surface,
                                uint32_t gmemBase, uint32_t binW, const BinRect& bin,
                                const BinRect& region, bool toGmem) {
  const BusClient client = toGmem ? BusClient::GmemRestore : BusClient::GmemResolve;
  const bool block = !(bin == region);
  const uint64_t bytes = forRows(memory, gmem, surface, gmemBase, binW, bin, region, client,
                                 toGmem && !block, [toGmem](uint8_t* sys, uint8_t* g, uint64_t n) {
                                   std::memcpy(toGmem ? g : sys, toGmem ? sys : g, n);
                                 });
  if (toGmem) {
    memory.countRead(client, bytes);
    ++(block ? stats_.blockRestores : stats_.restores);
    stats_.restoreBytes += bytes;
  } else {
    memory.countWrite(client, bytes);
    ++(block ? stats_.blockResolves : stats_.resolves);
    stats_.resolveBytes += bytes;
  }
}

}  // namespace tessera::gpu::gmem
