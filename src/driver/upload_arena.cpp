#include "driver/upload_arena.h"

#include <algorithm>

namespace tessera::driver {

gpu::GpuAddress UploadArena::upload(std::span<const uint8_t> bytes) {
  const uint64_t size = (bytes.size() + 15) & ~uint64_t{15};
  if (bos_.empty() || used_ + size > capacity_) {  // also for an empty first upload
    capacity_ = std::max(kChunk, size);
    bos_.push_back(memory_.allocate(capacity_, "upload arena"));
    used_ = 0;
  }
  const gpu::GpuAddress at = bos_.back() + used_;
  if (!bytes.empty()) memory_.write(gpu::BusClient::Host, at, bytes.data(), bytes.size());
  used_ += size;
  return at;
}

void UploadArena::reset() {
  for (auto bo : bos_) memory_.release(bo);
  bos_.clear();
  used_ = capacity_ = kChunk;
}

}  // namespace tessera::driver
