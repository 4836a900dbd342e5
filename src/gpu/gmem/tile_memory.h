// GMEM: the on-chip tile memory the render backend draws into during the render pass (seed 000).
// Buffers of the current bin live at driver-chosen offsets (RB_GMEM_*_BASE) with a pitch of
// bin width × bytes per pixel. Traffic inside GMEM never reaches the bus.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::gmem {

class TileMemory final {
 public:
  explicit TileMemory(uint32_t bytes) : bytes_(bytes, 0) {}
  uint32_t size() const { return static_cast<uint32_t>(bytes_.size()); }
  // GMEM holds nothing defined when a bin starts; the model gives it zeros, so a bin that reads
  // what it neither cleared nor restored sees the same bytes whichever bin ran before it. The
  // zeros are written when the bin first takes a slice of the bytes an earlier bin left, unless
  // it takes the slice to overwrite (a clear over the bin's whole window): a bin that starts with
  // such a clear costs no zeroing.
  void zero() {
    uint64_t end = touched_;
    for (const Span& s : stale_) end = std::max(end, s.end);
    stale_.clear();
    if (end != 0) stale_.push_back({0, end});
    touched_ = 0;
  }
  // A slice of GMEM to read and write; faults (BadState) if it does not fit: the driver's layout
  // is wrong.
  uint8_t* slice(uint64_t offset, uint64_t bytes) {
    check(offset, bytes);
    release(offset, offset + bytes, true);
    return bytes_.data() + offset;
  }
  // The bytes still hold what an earlier bin left (they read as zeros once taken).
  bool stale(uint64_t offset, uint64_t bytes) const {
    for (const Span& s : stale_)
      if (s.begin <= offset && offset + bytes <= s.end) return true;
    return false;
  }
  // A slice of `rows` rows `pitch` bytes apart whose first `rowBytes` bytes the caller writes
  // before anything reads them (a clear of the bin's whole window): those bytes are not zeroed.
  // The rest of the slice, the part of a bin past the surface's edge, is zeroed if stale.
  uint8_t* overwrite(uint64_t offset, uint64_t bytes, uint64_t pitch, uint64_t rowBytes,
                     uint64_t rows) {
    check(offset, bytes);
    const bool stale = release(offset, offset + bytes, false);
    uint8_t* at = bytes_.data() + offset;
    if (stale) {
      for (uint64_t r = 0; r < rows && rowBytes < pitch; ++r)
        std::fill(at + r * pitch + rowBytes, at + (r + 1) * pitch, uint8_t{0});
      std::fill(at + std::min(rows * pitch, bytes), at + bytes, uint8_t{0});
    }
    return at;
  }

 private:
  struct Span {
    uint64_t begin, end;
  };
  void check(uint64_t offset, uint64_t bytes) {
    if (offset > bytes_.size() || bytes > bytes_.size() - offset)
      throw GpuFault(FaultKind::BadState, offset, BusClient::RenderBackend,
                     "GMEM access of " + std::to_string(bytes) + " bytes at offset " +
                         std::to_string(offset) + " exceeds the " + std::to_string(bytes_.size()) +
                         "-byte tile memory");
    touched_ = std::max(touched_, offset + bytes);
  }

  // Takes [offset, end) out of the stale spans: a span it meets is zeroed whole (so that the
  // spans stay few), or, when the caller overwrites the range, cut around it. Whether it met any.
  bool release(uint64_t offset, uint64_t end, bool zero) {
    bool met = false;
    for (size_t i = 0; i < stale_.size();) {
      const Span s = stale_[i];
      if (s.begin >= end || offset >= s.end) {
        ++i;
        continue;
      }
      met = true;
      stale_[i] = stale_.back();
      stale_.pop_back();
      if (zero) {
        std::fill(bytes_.begin() + static_cast<std::ptrdiff_t>(s.begin),
                  bytes_.begin() + static_cast<std::ptrdiff_t>(s.end), uint8_t{0});
      } else {
        if (s.begin < offset) stale_.push_back({s.begin, offset});
        if (end < s.end) stale_.push_back({end, s.end});
      }
    }
    return met;
  }

  std::vector<uint8_t> bytes_;
  uint64_t touched_ = 0;     // end of the furthest slice handed out since the last zero()
  std::vector<Span> stale_;  // bytes an earlier bin left, which read as zeros once handed out
};

}  // namespace tessera::gpu::gmem
