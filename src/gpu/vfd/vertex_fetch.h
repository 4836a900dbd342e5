// Vertex fetch (VFD): reads indices and vertex attributes from GPU memory through the bus and
// fills the input registers of a vertex warp. Missing components read as (0, 0, 0, 1) (GLES 2.0
// §2.8). A fetch outside an attribute's buffer is a page fault of the VFD client.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>
#include "common/counter_sum.h"

#include "gpu/mem/gpu_memory.h"
#include "gpu/sp/warp.h"
#include "gpu/vfd/vertex_format.h"

namespace tessera::gpu::vfd {

inline constexpr uint32_t kMaxAttributes = 16;

struct AttributeFetch {
  GpuAddress base = 0;
  uint32_t size = 0;    // bytes readable from base
  uint32_t stride = 0;  // bytes between vertices (0: every vertex reads the same element)
  VertexFormat format = VertexFormat::Float32;
  uint32_t components = 4;  // 1..4
};

struct FetchState {
  uint32_t attributeCount = 0;
  std::array<AttributeFetch, kMaxAttributes> attributes{};
};

enum class IndexSize : uint8_t { U8 = 1, U16 = 2, U32 = 4 };

struct VfdStats {
  uint64_t indices = 0;         // indices read
  uint64_t vertices = 0;        // vertices fetched (per shading, so per bin in naive mode)
  uint64_t attributeBytes = 0;  // attribute bytes read
};

class VertexFetch final {
 public:
  explicit VertexFetch(GpuMemory& memory) : memory_(memory) {}

  // Decodes `count` indices of `size` bytes from [addr, addr + bufferBytes) without charging
  // the bus: how many the hardware fetches depends on the pass (chargeIndices). Returns the
  // largest (0 for none).
  uint32_t readIndices(GpuAddress addr, uint32_t bufferBytes, IndexSize size, uint32_t count,
                       std::vector<uint32_t>& out);
  // Charges the bus and the counters for `count` fetched indices of `size` bytes. A bin drawn
  // from a visibility stream fetches only its visible primitives' indices, as the seed on
  // Adreno tiling describes the stream steering vertex fetch.
  void chargeIndices(IndexSize size, uint64_t count);
  // Fetches the attributes of vertices ids[0..n) into lanes 0..n of the warp (n <= 32).
  void fetch(const FetchState& state, std::span<const uint32_t> ids, sp::VertexWarp& warp);

  const VfdStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const VfdStats& s) { addCounters(stats_, s); }
  void resetStats() { stats_ = {}; }

 private:
  GpuMemory& memory_;
  VfdStats stats_;
};

}  // namespace tessera::gpu::vfd
