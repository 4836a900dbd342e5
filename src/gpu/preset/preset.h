// Hardware presets: the run-time parameters of one Tessera GPU configuration (tile memory, bin
// limits, VSC pipes, SIMT resources, clock, bus and unit rates). Every block and the driver read
// their sizes and rates from a Preset; the numbers live in one table in preset.cpp and are
// explained in docs/presets.md. Field-by-field access (overrides, reports) is in preset_field.h.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::gpu {

struct Preset {
  std::string_view name;         // identifier used on the command line, e.g. "adreno-a630"
  std::string_view description;  // one line for listings

  // Tile memory (GMEM) and the bin layout the driver derives from it.
  uint32_t gmemBytes;      // bytes: tile memory size
  uint32_t gmemPageAlign;  // bytes: each buffer's GMEM slice starts on this boundary
  uint32_t gmemAlignW;     // pixels: the tiled area's left edge is rounded down to this
  uint32_t gmemAlignH;     // pixels: the tiled area's top edge is rounded down to this
  uint32_t binAlignW;      // pixels: bin widths are multiples of this
  uint32_t binAlignH;      // pixels: bin heights are multiples of this
  uint32_t maxBinW;        // pixels: widest bin the window registers can express
  uint32_t maxBinH;        // pixels: tallest bin
  uint32_t vscPipes;       // count: visibility-stream pipes (groups of bins binned together)
  uint32_t vscPipeBytes;   // bytes: initial size of one pipe's visibility-stream buffer
  bool sysmemOnly;         // immediate-mode baseline: renders straight to memory, never tiles

  // SIMT shader processor.
  uint32_t shaderCores;       // count: cores, each issues one warp instruction per cycle
  uint32_t warpsPerCore;      // count: warp slots per core (upper bound on resident warps)
  uint32_t lanesPerWarp;      // count: threads per warp
  uint32_t registersPerCore;  // 32-bit registers per lane, shared by a core's resident warps
  uint32_t aluLatency;        // cycles: integer/logic result latency
  uint32_t fpuLatency;        // cycles: fp32 add/mul/mad result latency
  uint32_t sfuLatency;        // cycles: rcp/rsq/sqrt/exp2/log2/sin/cos result latency

  // Clock, memory bus and fixed-function unit rates for the timing model.
  double clockMHz;                     // MHz: core clock
  double busBytesPerCycle;             // bytes/cycle: memory bus bandwidth at the core clock
  uint32_t rasterPixelsPerCycle;       // pixels/cycle: rasterizer coverage output
  uint32_t ropSamplesPerCycle;         // samples/cycle: depth/stencil/blend in the render backend
  uint32_t texelsPerCycle;             // texels/cycle: texture unit filtered fetches
  uint32_t binnerTrianglesPerCycle;    // triangles/cycle: binner setup
  uint32_t binnerCyclesPerBinTouched;  // cycles: extra binner time for each bin a triangle hits
  uint32_t cpCyclesPerPacket;          // cycles: command-processor parse cost of one packet
  uint32_t vfdBytesPerCycle;           // bytes/cycle: vertex-fetch attribute bandwidth
  uint32_t setupCyclesPerTriangle;     // cycles: rasterizer triangle setup
  uint32_t texLatency;                 // cycles: a sample's issue to its result in a warp
  uint32_t busLatency;                 // cycles: a blit's first byte from system memory
  uint32_t gmemBytesPerCycle;          // bytes/cycle: tile-memory port (clear, restore, resolve)
  uint32_t tileBuffers;  // count: 1 = restore/render/resolve in turn; 2 = double-buffered tile
                         // memory, the next bin restores and the last resolves while one renders
  bool lrz;              // low-resolution Z in binning batches whose draws allow it (gpu/lrz)
  // Occlusion queries accumulate on the GPU (CP_MEM_TO_MEM per bin) instead of one sample
  // pair per bin summed by the CPU (driver/query.h).
  bool queryAccumulate;
  // pixels: block side of rendering interleaved with resolve (US 8,902,228; 4, 8 or 16), or 0
  // for whole-bin restore and resolve (gpu/vsc/block_table.h, gpu/gmem/block_resolve.h)
  uint32_t resolveBlock;

  // Texture cache (gpu/tex/texture_cache.h): set-associative, LRU, in front of the bus.
  uint32_t texCacheBytes;      // bytes: capacity; 0 = no cache, every texel fetch goes to memory
  uint32_t texCacheLineBytes;  // bytes: line size (a power of two >= 16); a miss fetches a line
  uint32_t texCacheWays;       // count: lines per set
};

// Every preset, in the order listings show them.
std::span<const Preset> allPresets();

// The preset called `name`; throws tessera::Error naming the known presets if there is none.
const Preset& findPreset(std::string_view name);

// Checks the relations the bin layout and the timing model rely on (non-zero sizes, maximum bin
// a multiple of the alignment, ...); throws tessera::Error naming the preset and the field.
void validatePreset(const Preset& preset);

}  // namespace tessera::gpu
