// Decoded shader programs keyed by where they live in GPU memory and what they hold: a program
// is decoded once and reused by every draw and bin that binds it (DESIGN.md "Shaders"). The
// shader processor's instruction cache is modelled as holding every program a submission
// binds: a program's instructions cross the bus on its first bind in the submission only
// (Tessera's programs are a few hundred bytes, an instruction cache a few KiB).
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/sp/host_code.h"
#include "isa/program.h"

namespace tessera::gpu {

class ShaderCache final {
 public:
  // Throws GpuFault(BadState) when the binary does not decode, naming the address and reason.
  const isa::Program& get(GpuMemory& memory, GpuAddress address, uint32_t dwords,
                          isa::Stage expected);
  // The compiled runs of the program get() last returned for `address` (gpu/sp/host_code.h),
  // compiled once when it was decoded; null when none compiled.
  const sp::HostProgram* hostCode(GpuAddress address) const {
    auto it = entries_.find(address);
    return it == entries_.end() ? nullptr : it->second.host.get();
  }
  // A new submission starts with a cold instruction cache.
  void invalidateInstructionCache() {
    fetched_.clear();
    fetchLog_.clear();
  }
  // A bin worker's cache (gpu/pipeline/bin_jobs.h) starts each bin cold: the programs it
  // fetched are taken into the pass's cache in bin order. Returns the bytes the worker charged
  // for programs the pass had already fetched this submission (the bin fetched them only because
  // it ran apart), which the merge takes back off the bus.
  uint64_t absorbFetches(const ShaderCache& worker);
  // The same bytes among the worker's first `count` fetches, without taking them in.
  uint64_t fetchedAgain(const ShaderCache& worker, size_t count) const;
  // Programs fetched (charged) this submission, in order.
  size_t fetchCount() const { return fetchLog_.size(); }

 private:
  struct Entry {
    uint64_t hash;
    std::vector<uint8_t> binary;  // what was decoded
    std::unique_ptr<isa::Program> program;
    std::unique_ptr<sp::HostProgram> host;
  };
  std::unordered_map<GpuAddress, Entry> entries_;
  struct Fetched {
    uint64_t hash;
    uint64_t bytes;
  };
  std::unordered_map<GpuAddress, Fetched> fetched_;  // this submission
  std::vector<std::pair<GpuAddress, Fetched>> fetchLog_;
};

}  // namespace tessera::gpu
