// Counters of the kernel-mode layer: per context (what `tessera top` would list) and per device.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "kmd/limits.h"
#include "kmd/types.h"

namespace tessera::kmd {

struct ContextStats {
  uint64_t submitted = 0;  // draw objects accepted by submit()
  uint64_t retired = 0;    // retired with every IB run
  uint64_t skipped = 0;    // retired with IBs skipped by fault recovery
  uint64_t lost = 0;       // dropped when the context was invalidated
  uint64_t faults = 0;     // GPU faults in its commands
  uint64_t replayed = 0;   // runs of its commands repeated after a fault (its own or another's)
  double gpuCycles = 0;    // timing-model cycles of every GPU run of its commands
};

struct RingStats {
  uint64_t turns = 0;     // dispatch turns that ran this ringbuffer
  uint64_t commands = 0;  // segments written (replays included)
  uint64_t bursts = 0;    // times a context's queue was drained into it (<= kContextBurst each)
  uint32_t maxInflight = 0;
};

struct DeviceStats {
  uint64_t turns = 0;
  uint64_t gpuSubmits = 0;  // gpu::Device::submit calls (one per command run)
  uint64_t faults = 0;
  uint64_t hangs = 0;             // faults classified as hangs (fault.h)
  uint64_t throttledSubmits = 0;  // submits that had to wait for the queue to drain
  std::array<RingStats, kRingbuffers> rings{};
};

// One row of the context table.
struct ContextSummary {
  ContextId id = 0;
  std::string name;
  int priority = 0;
  int ring = 0;
  Timestamp submittedTimestamp = 0, retiredTimestamp = 0;
  uint32_t queued = 0;  // in its draw queue, not yet dispatched
  ResetStatus reset = ResetStatus::None;
  bool destroyed = false;
  ContextStats stats;
};

// A fixed-width text table of the contexts, one line each, with a header line.
std::string formatContextTable(std::span<const ContextSummary> contexts);

}  // namespace tessera::kmd
