// Shader processor (sp/): runs one warp of a decoded isa::Program over 32 lanes (SIMT with a
// per-lane exec mask and a reconvergence stack). Consumes VertexWarp / FragmentWarp filled by
// vertex fetch and the rasterizer; samples textures through tex::TextureUnit.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include "common/counter_sum.h"

#include "gpu/sp/warp.h"
#include "gpu/tex/texture_unit.h"
#include "isa/program.h"

namespace tessera::gpu::sp {

// Every texture a program can sample keeps its mip layout in the texture unit at once.
static_assert(tex::TextureUnit::kLayoutTables >= isa::kMaxSamplers);

// A warp that issues more instructions than this is stopped with FaultKind::Runaway.
inline constexpr uint64_t kMaxWarpInstructions = uint64_t{1} << 22;

// Private memory (the pN file: register spills) is lane-interleaved, as the warp accesses it:
// dword N of a warp's 32 lanes is one 128-byte line at privateBase + N * 128. Warps that spill run
// one at a time (ShaderResources::privateLock), so one warp's worth is what the driver provides.
inline constexpr uint64_t kPrivateLineBytes = 4 * kLanes;

class HostProgram;

struct ShaderResources {
  std::span<const float> constants;                  // scalar constant file c0..
  std::span<const tex::TextureDescriptor> textures;  // indexed by sampler unit
  tex::TextureUnit* textureUnit = nullptr;
  GpuMemory* memory = nullptr;  // private memory accesses go through the bus
  GpuAddress privateBase = 0;
  uint64_t privateBytes = 0;          // of the buffer at privateBase; a program needs dwords * 128
  const HostProgram* host = nullptr;  // the program's compiled runs (host_code.h), or null
  // Held while a warp of a program that spills runs, when other cores may run at once: the
  // private memory holds one warp's spills (null: nothing else runs).
  std::mutex* privateLock = nullptr;
};

struct SpStats {
  uint64_t vertexWarps = 0;         // warps: runVertex calls
  uint64_t fragmentWarps = 0;       // warps: runFragment calls
  uint64_t instructions = 0;        // warp-instructions issued
  uint64_t laneInstructions = 0;    // lane-instructions: active lanes summed over issued ones
  uint64_t textureSamples = 0;      // lane samples: active lanes of every sam/saml/samb
  uint64_t killedLanes = 0;         // lanes: covered pixels discarded by kill/killif
  uint64_t fpuInstructions = 0;     // warp-instructions issued to the fp32 add/mul/mad pipe
  uint64_t sfuInstructions = 0;     // warp-instructions issued to the special-function unit
  uint64_t texInstructions = 0;     // warp-instructions issued to the texture unit
  uint64_t branchInstructions = 0;  // warp-instructions of control flow (if ... end)
  uint64_t divergentBranches = 0;   // if/breakif/continueif/killif that split the active lanes
  uint64_t warpRegisters = 0;       // registers per thread summed over warps run (occupancy)
};

class WarpExecutor;

class ShaderCore final {
 public:
  ShaderCore();
  ~ShaderCore();
  ShaderCore(ShaderCore&&) noexcept;
  ShaderCore& operator=(ShaderCore&&) noexcept;

  // Throw GpuFault (BadState: constant or sampler out of range, missing varyings or texture
  // unit, private memory smaller than the program needs; Runaway: more than
  // kMaxWarpInstructions; a page fault from private memory outside any buffer object). Outputs of
  // lanes outside the mask are kept.
  void runVertex(const isa::Program&, VertexWarp&, const ShaderResources&);
  void runFragment(const isa::Program&, FragmentWarp&, const ShaderResources&);

  const SpStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const SpStats& s) { addCounters(stats_, s); }
  void resetStats() { stats_ = {}; }
  // The counters since the last take, which start again from 0.
  SpStats takeStats() { return std::exchange(stats_, {}); }

 private:
  SpStats stats_;
  std::unique_ptr<WarpExecutor> exec_;  // the register file, allocated once per core
};

}  // namespace tessera::gpu::sp
