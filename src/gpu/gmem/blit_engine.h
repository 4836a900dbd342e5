// The GMEM blit engine: restore (system memory → GMEM, "mem2gmem") and resolve (GMEM → system
// memory, "gmem2mem") of one buffer over the current bin (seed 000; REFERENCES.md §1 per-batch
// flow). Both move whole rows of the bin clipped to the surface, and charge the bus.
#pragma once
#include <cstdint>

#include "gpu/gmem/tile_memory.h"
#include "gpu/mem/gpu_memory.h"
#include "gpu/rb/rb_state.h"

namespace tessera::gpu::gmem {

struct SysmemSurface {
  GpuAddress base = 0;
  uint32_t pitch = 0;  // bytes per row
  uint32_t width = 0, height = 0;
  uint32_t bytesPerPixel = 0;
};

struct BinRect {
  int x0, y0, x1, y1;  // half-open window rectangle of the bin
  bool operator==(const BinRect&) const = default;
};

// How a RESOLVED blit turns a buffer's samples into one value per pixel (docs/msaa.md): colour
// averages each channel, rounded to the format's unorm; depth/stencil keeps sample 0.
struct SampleFormat {
  bool color = true;
  rb::ColorFormat colorFormat = rb::ColorFormat::RGBA8;
  uint32_t bytesPerPixel = 4;  // of one sample
  uint32_t samples = 1;
};

struct GmemStats {
  uint64_t restores = 0, resolves = 0, clears = 0;
  // RESOLVED blits (also counted in restores/resolves): samples averaged into the single-sample
  // image, or that image copied into every sample.
  uint64_t sampleResolves = 0, sampleRestores = 0;
  // Block transfers of the interleaved resolve (block_resolve.h); their bytes are in
  // restoreBytes and resolveBytes.
  uint64_t blockRestores = 0, blockResolves = 0;
  uint64_t restoreBytes = 0, resolveBytes = 0;  // system-memory side of each blit
  uint64_t clearBytes = 0;                      // GMEM bytes fast-cleared (on chip)
};

class BlitEngine final {
 public:
  // gmemBase: offset of the buffer's slice; binW: the slice's row length in pixels.
  // toGmem: restore (system memory → GMEM), else resolve (GMEM → system memory).
  void transfer(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& surface,
                uint32_t gmemBase, uint32_t binW, const BinRect& bin, bool toGmem) {
    transferRegion(memory, gmem, surface, gmemBase, binW, bin, bin, toGmem);
  }
  // Only `region` (inside `bin`) of the bin: one block of the interleaved resolve.
  void transferBlock(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& surface,
                     uint32_t gmemBase, uint32_t binW, const BinRect& bin, const BinRect& region,
                     bool toGmem) {
    transferRegion(memory, gmem, surface, gmemBase, binW, bin, region, toGmem);
  }
  // RESOLVED blit of the bin between GMEM's samples and the single-sample image `target`:
  // toGmem copies each pixel into every sample, else the samples are combined into the pixel.
  void transferResolved(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& target,
                        uint32_t gmemBase, uint32_t binW, const BinRect& bin,
                        const SampleFormat& format, bool toGmem);
  // The same in sysmem mode, between the samples in system memory (`samples`, bytesPerPixel of
  // all of a pixel's samples) and `target`, over `window`: both sides cross the bus.
  void transferResolvedSysmem(GpuMemory& memory, const SysmemSurface& samples,
                              const SysmemSurface& target, const BinRect& window,
                              const SampleFormat& format, bool toSamples);
  GmemStats& stats() { return stats_; }

 private:
  void transferRegion(GpuMemory& memory, TileMemory& gmem, const SysmemSurface& surface,
                      uint32_t gmemBase, uint32_t binW, const BinRect& bin, const BinRect& region,
                      bool toGmem);
  GmemStats stats_;
};

}  // namespace tessera::gpu::gmem
