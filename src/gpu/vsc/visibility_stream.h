// Visibility streams (VSC): written by the binning pass, one per VSC pipe, read back by each bin
// of the render pass (seed 000, "Optimized Approach"; REFERENCES.md §1 "Visibility streams").
//
// Stream format, per draw of the binning pass in draw order, in every pipe:
//   dword  E                      number of entries for this draw in this pipe
//   E × { dword primitive index; ceil(binsInPipe / 32) dwords of bin mask (bit s = slot s) }
// After the pass, VSC_FLUSH writes each pipe's byte size to VSC_SIZE + 4 × pipe; bit 31 set means
// the stream outgrew its buffer, and the render pass then draws every primitive of the pipe's
// bins (correct, only slower) while the driver grows the buffer for the next frame.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::vsc {

inline constexpr uint32_t kOverflowBit = 0x80000000u;
inline constexpr uint32_t kMaxPipes = 32;

struct PipeConfig {
  uint32_t x = 0, y = 0, w = 0, h = 0;  // in bins
  GpuAddress data = 0;
  uint32_t length = 0;  // bytes
};

struct BinGrid {
  uint32_t originX = 0, originY = 0, binW = 0, binH = 0, nx = 0, ny = 0;
};

struct VscStats {
  uint64_t primitivesBinned = 0;          // primitives visible in at least one bin
  uint64_t binHits = 0;                   // (primitive, bin) pairs
  uint64_t bytesWritten = 0;              // stream bytes the binning pass wrote (or wanted to)
  uint64_t bytesRead = 0;                 // stream bytes read by render-pass bins
  uint32_t overflowedPipes = 0;           // pipes whose stream did not fit, this frame
  std::vector<uint32_t> trianglesPerBin;  // by bin index iy × nx + ix, for reports/heat maps
};

// The binning side: marks which bins each primitive touches.
class VisibilityWriter final {
 public:
  void begin(const BinGrid& grid, std::span<const PipeConfig> pipes);
  void beginDraw();
  // Bins overlapped by the pixel rectangle [x0,x1) × [y0,y1) (already clipped to the tiled area).
  void addPrimitive(uint32_t prim, int x0, int y0, int x1, int y1);
  void endDraw(GpuMemory& memory);
  void flush(GpuMemory& memory, GpuAddress sizeArray);
  VscStats& stats() { return stats_; }

 private:
  struct Pipe {
    PipeConfig config;
    uint32_t maskWords = 1;
    uint32_t written = 0;  // bytes
    bool overflow = false;
    std::vector<uint32_t> record;  // current draw's entries
    uint32_t entries = 0;
    uint32_t lastPrim = ~0u;
  };
  BinGrid grid_;
  std::vector<Pipe> pipes_;
  std::vector<uint32_t> binPipe_, binSlot_;  // per bin of the grid
  VscStats stats_;
};

// The render side: the visible primitives of one bin, draw by draw.
class VisibilityReader final {
 public:
  // CP_SET_BIN_DATA + PC_VSTREAM_CONTROL: stream and size of the pipe, this bin's slot.
  void setBinData(GpuMemory& memory, GpuAddress stream, GpuAddress size, uint32_t binsInPipe,
                  uint32_t slot);
  bool active() const { return active_; }
  bool overflowed() const { return overflow_; }
  // The visible primitives of the next draw, ascending. Returns false when the stream cannot
  // be used (overflow): the caller then draws every primitive.
  bool nextDraw(GpuMemory& memory, std::vector<uint32_t>& prims, VscStats& stats);
  void reset() { active_ = false; }

 private:
  bool active_ = false, overflow_ = false;
  GpuAddress stream_ = 0;
  uint32_t size_ = 0, cursor_ = 0, maskWords_ = 1, slot_ = 0;
};

}  // namespace tessera::gpu::vsc
