// The driver's own counters (freedreno's software queries): what the user-mode driver did, as
// opposed to what the GPU's blocks counted. Counters queries sample them on the CPU at begin and
// end; AMD_performance_monitor shows them as the group "driver".
#pragma once
#include <cstdint>
#include <string_view>

namespace tessera::driver {

struct SoftwareCounters {
  uint64_t drawCalls = 0;
  uint64_t batches = 0, batchesSysmem = 0, batchesGmem = 0;
  uint64_t batchesNonDraw = 0;  // batches with clears but no draw
  uint64_t batchesRestore = 0;  // GMEM batches that restored a buffer
  uint64_t uploads = 0;         // buffer and texture uploads
  uint64_t bufferRenames = 0;   // uploads to a buffer pending work reads: a fresh BO (shadow)
  uint64_t vsRegisters = 0, fsRegisters = 0;  // registers per thread, summed over draw calls
};

struct SoftwareCounterInfo {
  std::string_view name, description;
  uint64_t SoftwareCounters::*member;
  // Averages are member / perDraw over the query (e.g. registers per draw call).
  uint64_t SoftwareCounters::*perDraw = nullptr;
};

inline constexpr SoftwareCounterInfo kSoftwareCounters[] = {
    {"draw_calls", "draw calls recorded", &SoftwareCounters::drawCalls},
    {"batches", "batches flushed to the GPU", &SoftwareCounters::batches},
    {"batches_sysmem", "batches rendered in system memory", &SoftwareCounters::batchesSysmem},
    {"batches_gmem", "batches rendered in tile memory (naive or binning)",
     &SoftwareCounters::batchesGmem},
    {"batches_nondraw", "batches with clears and no draw", &SoftwareCounters::batchesNonDraw},
    {"batches_restore", "tile-memory batches that restored a buffer",
     &SoftwareCounters::batchesRestore},
    {"uploads", "buffer and texture uploads", &SoftwareCounters::uploads},
    {"buffer_renames", "uploads that gave a busy buffer a fresh BO",
     &SoftwareCounters::bufferRenames},
    {"vs_registers", "vertex shader registers per thread, average per draw call",
     &SoftwareCounters::vsRegisters, &SoftwareCounters::drawCalls},
    {"fs_registers", "fragment shader registers per thread, average per draw call",
     &SoftwareCounters::fsRegisters, &SoftwareCounters::drawCalls},
};

}  // namespace tessera::driver
