// Decoded shader programs keyed by where they live in GPU memory and what they hold: a program
// is decoded once and reused by every draw and bin that binds it (DESIGN.md "Shaders"). The
// shader processor's instruction cache is modelled as holding every program a submission
// binds: a program's instructions cross the bus on its first bind in the submission only
// (Tessera's programs are a few hundred bytes, an instruction cache a few KiB).
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
  // A new submission starts with a cold instruction cache.
  void invalidateInstructionCache() { fetched_.clear(); }

 private:
  struct Entry {
    uint64_t hash;
    std::unique_ptr<isa::Program> program;
  };
  std::unordered_map<GpuAddress, Entry> entries_;
  std::unordered_map<GpuAddress, uint64_t> fetched_;  // address → hash, this submission
};

}  // namespace tessera::gpu
