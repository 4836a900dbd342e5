// Decoded shader programs keyed by where they live in GPU memory and what they hold: a program
// is decoded once and reused by every draw and bin that binds it (DESIGN.md "Shaders"). The
// instruction fetch is still charged to the bus on each bind.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "gpu/mem/gpu_memory.h"
#include "isa/program.h"

namespace tessera::gpu {

class ShaderCache final {
 public:
  // Throws GpuFault(BadState) when the binary does not decode, naming the address and reason.
  const isa::Program& get(GpuMemory& memory, GpuAddress address, uint32_t dwords,
                          isa::Stage expected);

 private:
  struct Entry {
    uint64_t hash;
    std::unique_ptr<isa::Program> program;
  };
  std::unordered_map<GpuAddress, Entry> entries_;
};

}  // namespace tessera::gpu
