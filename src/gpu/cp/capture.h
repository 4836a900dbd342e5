// A captured submission: the ring and every buffer object the CP may fetch (IBs), so that
// `tessera dump` can decode a stream long after the GPU ran it, following IBs as the CP would.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::cp {

struct Capture {
  struct Buffer {
    std::string name;
    GpuAddress address = 0;
    std::vector<uint32_t> words;
  };
  std::vector<Buffer> buffers;
  GpuAddress ring = 0;
  uint32_t ringDwords = 0;

  // The words at [addr, addr + dwords*4) if one captured buffer holds them all.
  const uint32_t* find(GpuAddress addr, uint32_t dwords) const;
};

void writeCapture(const Capture& capture, const std::string& path);  // throws tessera::Error
Capture readCapture(const std::string& path);                        // throws tessera::Error

}  // namespace tessera::gpu::cp
