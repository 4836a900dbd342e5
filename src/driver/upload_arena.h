// Per-batch GPU memory for data the draw IB points at (constants, texture descriptors): bump
// allocation from buffer objects that live until the batch has executed.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/mem/gpu_memory.h"

namespace tessera::driver {

class UploadArena final {
 public:
  explicit UploadArena(gpu::GpuMemory& memory) : memory_(memory) {}
  ~UploadArena() { reset(); }
  UploadArena(const UploadArena&) = delete;
  UploadArena& operator=(const UploadArena&) = delete;

  // Copies the bytes into GPU memory (charged to the host) and returns their address.
  gpu::GpuAddress upload(std::span<const uint8_t> bytes);
  template <class T>
  gpu::GpuAddress upload(const std::vector<T>& values) {
    return upload({reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T)});
  }
  void reset();
  const std::vector<gpu::GpuAddress>& buffers() const { return bos_; }

 private:
  static constexpr uint64_t kChunk = 256 * 1024;
  gpu::GpuMemory& memory_;
  std::vector<gpu::GpuAddress> bos_;
  uint64_t used_ = kChunk, capacity_ = kChunk;
};

}  // namespace tessera::driver
