// Driver: cuts a batch's tiled area into bins whose buffers fit GMEM, places each buffer's slice
// in GMEM and groups the bins into VSC pipes, the way freedreno lays out a render pass. Consumes
// a gpu::Preset; the BinLayout it produces is the plain type shared by the binning pass, the
// per-bin command emission and the hardware's bin executor.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/lru_cache.h"
#include "gpu/preset/preset.h"

namespace tessera::driver {

struct BinLayoutInput {
  // The tiled area in pixels: the union of the batch's scissors (a clear resets it to the whole
  // surface).
  uint32_t x = 0, y = 0, width = 0, height = 0;
  // Bytes per pixel of each buffer that lives in GMEM (one sample's format size): colour
  // buffers, then depth/stencil when the batch enables or clears it.
  std::vector<uint32_t> bufferCpp;
  // Samples per pixel (1, 2 or 4): every buffer's slice holds cpp × samples bytes per pixel, so
  // bins shrink as the sample count grows (docs/msaa.md).
  uint32_t samples = 1;
};

struct Bin {
  uint32_t x, y, w, h;  // window rectangle in pixels, clipped to the tiled area
  uint32_t pipe;        // VSC pipe whose visibility stream covers this bin
  uint32_t slot;        // index of this bin within its pipe: < pipe's w x h
};

struct VscPipe {
  uint32_t x, y, w, h;  // rectangle of bins (in bins, not pixels)
};

struct BinLayout {
  uint32_t x, y, width, height;  // tiled area after rounding its origin to gmemAlignW/H
  uint32_t binW, binH;           // pixels: size of every bin but the clipped right/bottom ones
  uint32_t nx, ny;               // bins across and down
  uint32_t binsPerPipeX, binsPerPipeY;  // size of a full pipe rectangle, in bins
  std::vector<Bin> bins;                // row-major: bins[row * nx + col]
  std::vector<VscPipe> pipes;           // pipes in use, in pipe-index order
  std::vector<uint32_t> gmemBase;  // bytes: start of each buffer's slice, parallel to bufferCpp
  uint32_t gmemUsed;               // bytes: end of the last slice

  const Bin& binAt(uint32_t col, uint32_t row) const { return bins[size_t(row) * nx + col]; }
};

// The layout for `input` on `preset`. Throws tessera::Error for an empty area, a sample count
// other than 1, 2 or 4, or when even the smallest bin (binAlignW x binAlignH) cannot hold the
// buffers. A sysmemOnly preset gets one bin
// covering the area and uses no GMEM ("sysmem counts as one tile").
BinLayout computeBinLayout(const gpu::Preset& preset, const BinLayoutInput& input);

// Indices into layout.bins in "S" order: even rows left to right, odd rows right to left, so
// consecutive bins are neighbours and share texture-cache lines.
std::vector<uint32_t> serpentineOrder(const BinLayout& layout);

// Plain key of a layout: the preset's name and every parameter the layout depends on (so an
// overridden preset never reuses a stale layout), and the input.
struct BinLayoutKey {
  static constexpr size_t kMaxBuffers = 8;
  std::string preset;
  std::array<uint32_t, 10> presetParams{};  // gmem size/alignments, bin limits, pipes, sysmem
  uint32_t x = 0, y = 0, width = 0, height = 0;
  uint32_t bufferCount = 0;
  std::array<uint32_t, kMaxBuffers> bufferCpp{};
  uint32_t samples = 1;

  static BinLayoutKey make(const gpu::Preset& preset, const BinLayoutInput& input);
  bool operator==(const BinLayoutKey&) const = default;
};

struct BinLayoutKeyHash {
  size_t operator()(const BinLayoutKey& key) const;
};

// Layouts by key, keeping the 20 most recently used as freedreno does. Layouts are shared and
// immutable, so one handed out stays valid after it leaves the cache.
class BinLayoutCache final {
 public:
  static constexpr size_t kEntries = 20;
  using Cache =
      LruCache<BinLayoutKey, std::shared_ptr<const BinLayout>, kEntries, BinLayoutKeyHash>;

  // Inputs with more than BinLayoutKey::kMaxBuffers buffers are computed without caching.
  std::shared_ptr<const BinLayout> get(const gpu::Preset& preset, const BinLayoutInput& input);
  const Cache::Stats& stats() const { return cache_.stats(); }
  size_t size() const { return cache_.size(); }

 private:
  Cache cache_;
};

}  // namespace tessera::driver
