// The preset table. Where each number comes from is documented in docs/presets.md; figures that
// are not published hardware facts (clocks aside) are model parameters chosen to give the timing
// model plausible ratios, not measurements.
#include "gpu/preset/preset.h"

#include <array>
#include <bit>
#include <string>

#include "common/error.h"

namespace tessera::gpu {
namespace {

constexpr uint32_t kKiB = 1024;
constexpr uint32_t kMiB = 1024 * kKiB;

// Adreno a6xx (a630) resources, shared by the a630 preset and the immediate-mode baseline so
// that the two differ only in whether they tile.
constexpr Preset kA630 = {
    .name = "adreno-a630",
    .description = "Adreno 630 (a6xx, Snapdragon 845): 1 MiB GMEM, 32 VSC pipes",
    .gmemBytes = 1 * kMiB,
    .gmemPageAlign = 8 * kKiB,
    .gmemAlignW = 16,
    .gmemAlignH = 4,
    .binAlignW = 32,
    .binAlignH = 16,
    .maxBinW = 1024,
    .maxBinH = 1008,
    .vscPipes = 32,
    .vscPipeBytes = 64 * kKiB,
    .sysmemOnly = false,
    .shaderCores = 8,
    .warpsPerCore = 16,
    .lanesPerWarp = 32,
    .registersPerCore = 768,
    .aluLatency = 1,
    .fpuLatency = 4,
    .sfuLatency = 8,
    .clockMHz = 710,
    .busBytesPerCycle = 42,
    .rasterPixelsPerCycle = 16,
    .ropSamplesPerCycle = 16,
    .texelsPerCycle = 16,
    .binnerTrianglesPerCycle = 1,
    .binnerCyclesPerBinTouched = 1,
    .cpCyclesPerPacket = 4,
    .vfdBytesPerCycle = 64,
    .setupCyclesPerTriangle = 1,
    .texLatency = 64,
    .busLatency = 200,
    .gmemBytesPerCycle = 64,
    .tileBuffers = 1,
    .lrz = false,
    .queryAccumulate = true,
    .resolveBlock = 0,
    // Estimate (no published size): Adreno's texture L1 caches, one per shader processor, taken
    // together as one 32 KiB, 8-way cache of 64-byte lines.
    .texCacheBytes = 32 * kKiB,
    .texCacheLineBytes = 64,
    .texCacheWays = 8,
};

constexpr Preset kA320 = {
    .name = "adreno-a320",
    .description = "Adreno 320 (a3xx, Snapdragon S4 Pro): 512 KiB GMEM, 8 VSC pipes",
    .gmemBytes = 512 * kKiB,
    .gmemPageAlign = 16 * kKiB,
    .gmemAlignW = 32,
    .gmemAlignH = 32,
    .binAlignW = 32,
    .binAlignH = 32,
    .maxBinW = 992,
    .maxBinH = 480,
    .vscPipes = 8,
    .vscPipeBytes = 64 * kKiB,
    .sysmemOnly = false,
    .shaderCores = 2,
    .warpsPerCore = 8,
    .lanesPerWarp = 32,
    .registersPerCore = 256,
    .aluLatency = 1,
    .fpuLatency = 4,
    .sfuLatency = 8,
    .clockMHz = 450,
    .busBytesPerCycle = 18,
    .rasterPixelsPerCycle = 4,
    .ropSamplesPerCycle = 4,
    .texelsPerCycle = 4,
    .binnerTrianglesPerCycle = 1,
    .binnerCyclesPerBinTouched = 1,
    .cpCyclesPerPacket = 4,
    .vfdBytesPerCycle = 16,
    .setupCyclesPerTriangle = 2,
    .texLatency = 64,
    .busLatency = 150,
    .gmemBytesPerCycle = 32,
    .tileBuffers = 1,
    .lrz = false,
    .queryAccumulate = false,
    .resolveBlock = 0,
    // Estimate (no published size): the a3xx texture L1 caches taken together, 8 KiB, 4-way,
    // 64-byte lines.
    .texCacheBytes = 8 * kKiB,
    .texCacheLineBytes = 64,
    .texCacheWays = 4,
};

constexpr Preset withA330Changes(Preset p) {
  p.name = "adreno-a330";
  p.description = "Adreno 330 (a3xx, Snapdragon 800): 1 MiB OCMEM as GMEM, 8 VSC pipes";
  p.gmemBytes = 1 * kMiB;
  p.shaderCores = 4;
  p.clockMHz = 578;
  p.busBytesPerCycle = 22;
  p.texelsPerCycle = 8;
  p.texCacheBytes = 16 * kKiB;  // estimate: twice the a320's, as for its shader cores
  return p;
}

constexpr Preset withSysmemChanges(Preset p) {
  p.name = "sysmem";
  p.description = "immediate-mode baseline: a630 resources rendering straight to memory";
  p.sysmemOnly = true;
  return p;
}

// Milo832 on the KV260: fixed 32x32 tiles. GMEM holds exactly one tile of RGBA8 colour plus a
// 4-byte depth/stencil word per pixel (the FPGA keeps 24-bit depth; Tessera's depth/stencil
// format is packed D24S8), and the maximum bin equals the alignment, so every layout is a grid
// of 32x32 tiles. Double buffering of the tile buffer is a timing-model matter, not capacity.
constexpr Preset kMiloKv260 = {
    .name = "milo832-kv260",
    .description = "Milo832 FPGA TBDR on Kria KV260: fixed 32x32 tiles, 2 SIMT cores",
    .gmemBytes = 32 * 32 * (4 + 4),
    .gmemPageAlign = 32 * 32 * 4,
    .gmemAlignW = 32,
    .gmemAlignH = 32,
    .binAlignW = 32,
    .binAlignH = 32,
    .maxBinW = 32,
    .maxBinH = 32,
    .vscPipes = 32,
    .vscPipeBytes = 16 * kKiB,
    .sysmemOnly = false,
    .shaderCores = 2,
    .warpsPerCore = 8,
    .lanesPerWarp = 32,
    .registersPerCore = 8 * 64,
    .aluLatency = 1,
    .fpuLatency = 4,
    .sfuLatency = 8,
    .clockMHz = 100,
    .busBytesPerCycle = 100,
    .rasterPixelsPerCycle = 1,
    .ropSamplesPerCycle = 1,
    .texelsPerCycle = 2,
    .binnerTrianglesPerCycle = 1,
    .binnerCyclesPerBinTouched = 1,
    .cpCyclesPerPacket = 2,
    .vfdBytesPerCycle = 16,
    .setupCyclesPerTriangle = 4,
    .texLatency = 24,
    .busLatency = 40,
    .gmemBytesPerCycle = 8,
    .tileBuffers = 2,
    .lrz = false,
    .queryAccumulate = false,
    .resolveBlock = 0,
    // Small block-RAM cache, as an FPGA design affords: 8 KiB, 4-way, 64-byte lines (a
    // DDR4 burst on the KV260's 64-bit port).
    .texCacheBytes = 8 * kKiB,
    .texCacheLineBytes = 64,
    .texCacheWays = 4,
};

constexpr Preset kMiloDe2 = {
    .name = "milo832-de2-115",
    .description = "Milo832 FPGA TBDR on Terasic DE2-115: fixed 16x16 tiles, 1 SIMT core",
    .gmemBytes = 16 * 16 * (4 + 4),
    .gmemPageAlign = 16 * 16 * 4,
    .gmemAlignW = 16,
    .gmemAlignH = 16,
    .binAlignW = 16,
    .binAlignH = 16,
    .maxBinW = 16,
    .maxBinH = 16,
    .vscPipes = 32,
    .vscPipeBytes = 8 * kKiB,
    .sysmemOnly = false,
    .shaderCores = 1,
    .warpsPerCore = 4,
    .lanesPerWarp = 32,
    .registersPerCore = 4 * 64,
    .aluLatency = 1,
    .fpuLatency = 4,
    .sfuLatency = 8,
    .clockMHz = 50,
    .busBytesPerCycle = 8,
    .rasterPixelsPerCycle = 1,
    .ropSamplesPerCycle = 1,
    .texelsPerCycle = 1,
    .binnerTrianglesPerCycle = 1,
    .binnerCyclesPerBinTouched = 1,
    .cpCyclesPerPacket = 2,
    .vfdBytesPerCycle = 8,
    .setupCyclesPerTriangle = 4,
    .texLatency = 16,
    .busLatency = 20,
    .gmemBytesPerCycle = 8,
    .tileBuffers = 2,
    .lrz = false,
    .queryAccumulate = false,
    .resolveBlock = 0,
    // Smaller on the Cyclone IV: 4 KiB, 2-way, 32-byte lines (a burst of the 32-bit SDRAM).
    .texCacheBytes = 4 * kKiB,
    .texCacheLineBytes = 32,
    .texCacheWays = 2,
};

constexpr std::array kPresets = {
    kA320, withA330Changes(kA320), kA630, kMiloKv260, kMiloDe2, withSysmemChanges(kA630),
};

// The first broken relation in `p`, or an empty view. constexpr so the table is checked when
// it is compiled and overridden presets are checked at run time by the same rules.
constexpr std::string_view firstProblem(const Preset& p) {
  if (p.name.empty()) return "name is empty";
  if (p.gmemBytes == 0) return "gmemBytes must be > 0";
  if (p.gmemPageAlign == 0) return "gmemPageAlign must be > 0";
  if (p.gmemAlignW == 0 || p.gmemAlignH == 0) return "gmemAlignW/H must be > 0";
  if (p.binAlignW == 0 || p.binAlignH == 0) return "binAlignW/H must be > 0";
  if (p.maxBinW < p.binAlignW || p.maxBinW % p.binAlignW != 0)
    return "maxBinW must be a non-zero multiple of binAlignW";
  if (p.maxBinH < p.binAlignH || p.maxBinH % p.binAlignH != 0)
    return "maxBinH must be a non-zero multiple of binAlignH";
  if (p.vscPipes == 0) return "vscPipes must be > 0";
  if (p.vscPipeBytes == 0) return "vscPipeBytes must be > 0";
  if (p.shaderCores == 0 || p.warpsPerCore == 0) return "shaderCores/warpsPerCore must be > 0";
  if (p.lanesPerWarp == 0 || p.lanesPerWarp > 32) return "lanesPerWarp must be 1..32";
  if (p.registersPerCore == 0) return "registersPerCore must be > 0";
  if (p.aluLatency == 0 || p.fpuLatency == 0 || p.sfuLatency == 0)
    return "latencies must be >= 1 cycle";
  if (!(p.clockMHz > 0)) return "clockMHz must be > 0";
  if (!(p.busBytesPerCycle > 0)) return "busBytesPerCycle must be > 0";
  if (p.rasterPixelsPerCycle == 0 || p.ropSamplesPerCycle == 0 || p.texelsPerCycle == 0 ||
      p.binnerTrianglesPerCycle == 0 || p.vfdBytesPerCycle == 0 || p.gmemBytesPerCycle == 0)
    return "unit rates must be >= 1 per cycle";
  if (p.cpCyclesPerPacket == 0 || p.setupCyclesPerTriangle == 0)
    return "cpCyclesPerPacket and setupCyclesPerTriangle must be >= 1";
  if (p.tileBuffers < 1 || p.tileBuffers > 2) return "tileBuffers must be 1 or 2";
  if (p.resolveBlock != 0 && p.resolveBlock != 4 && p.resolveBlock != 8 && p.resolveBlock != 16)
    return "resolveBlock must be 0 (off), 4, 8 or 16";
  if (p.texCacheLineBytes < 16 || !std::has_single_bit(p.texCacheLineBytes))
    return "texCacheLineBytes must be a power of two >= 16";
  if (p.texCacheWays == 0) return "texCacheWays must be >= 1";
  if (p.texCacheBytes != 0 &&
      (p.texCacheBytes % (uint64_t{p.texCacheLineBytes} * p.texCacheWays) != 0 ||
       !std::has_single_bit(p.texCacheBytes / (uint64_t{p.texCacheLineBytes} * p.texCacheWays))))
    return "texCacheBytes must be 0 (no cache) or texCacheLineBytes x texCacheWays x a power of "
           "two";
  return {};
}

constexpr bool allWellFormed() {
  for (const Preset& p : kPresets) {
    if (!firstProblem(p).empty()) return false;
  }
  return true;
}
static_assert(allWellFormed(), "a preset in kPresets breaks a rule of firstProblem()");

constexpr bool namesUnique() {
  for (size_t i = 0; i < kPresets.size(); ++i) {
    for (size_t j = i + 1; j < kPresets.size(); ++j) {
      if (kPresets[i].name == kPresets[j].name) return false;
    }
  }
  return true;
}
static_assert(namesUnique(), "two presets share a name");

}  // namespace

std::span<const Preset> allPresets() {
  return kPresets;
}

const Preset& findPreset(std::string_view name) {
  for (const Preset& p : kPresets) {
    if (p.name == name) return p;
  }
  std::string known;
  for (const Preset& p : kPresets) {
    if (!known.empty()) known += ", ";
    known += p.name;
  }
  throw Error("unknown preset '" + std::string(name) + "'; known presets: " + known);
}

void validatePreset(const Preset& preset) {
  std::string_view problem = firstProblem(preset);
  if (!problem.empty()) {
    throw Error("preset '" + std::string(preset.name) + "': " + std::string(problem));
  }
}

}  // namespace tessera::gpu
