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
  // GMEM holds nothing defined when a bin starts; the model zeroes it, so a bin that reads what
  // it neither cleared nor restored sees the same bytes whichever bin ran before it.
  // Only the bytes handed out since the last zero() can have changed.
  void zero() {
    std::fill(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(touched_), uint8_t{0});
    touched_ = 0;
  }
  // A slice of GMEM; faults (BadState) if it does not fit: the driver's layout is wrong.
  uint8_t* slice(uint64_t offset, uint64_t bytes) {
    if (offset > bytes_.size() || bytes > bytes_.size() - offset)
      throw GpuFault(FaultKind::BadState, offset, BusClient::RenderBackend,
                     "GMEM access of " + std::to_string(bytes) + " bytes at offset " +
                         std::to_string(offset) + " exceeds the " + std::to_string(bytes_.size()) +
                         "-byte tile memory");
    touched_ = std::max(touched_, offset + bytes);
    return bytes_.data() + offset;
  }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t touched_ = 0;  // end of the furthest slice handed out since the last zero()
};

}  // namespace tessera::gpu::gmem
