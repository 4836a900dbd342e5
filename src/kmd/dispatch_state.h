// The dispatcher's bookkeeping behind kmd::Device (internal to src/kmd): commands, contexts and
// ringbuffers as KGSL's adreno_context / kgsl_drawobj_cmd / adreno_ringbuffer hold them (seed 004).
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kmd/recovery_policy.h"
#include "kmd/ringbuffer.h"
#include "kmd/stats.h"
#include "kmd/types.h"

namespace tessera::kmd {

struct ContextState;

// A draw object with its timestamp and its recovery marks, from the draw queue to retirement.
struct Command {
  std::shared_ptr<ContextState> context;
  Timestamp timestamp = 0;
  DrawObject object;
  uint32_t skippedIbs = 0;  // IBs fault recovery removed
  bool skipAll = false;     // only the timestamps are written
  double gpuCycles = 0;     // over all its runs
  uint32_t faults = 0;      // runs that faulted
  // Where the current turn wrote it.
  uint32_t ringTimestamp = 0;
  RingSegment segment;
};

struct ContextState {
  ContextId id = 0;
  std::string name;
  int priority = 0;
  int ring = 0;
  std::deque<Command> queue;  // the draw queue: submitted, not dispatched
  Timestamp submitted = 0;
  Timestamp retired = 0;  // highest timestamp whose EOP the memstore holds
  uint32_t inflight = 0;  // dispatched (in a turn or awaiting replay), not yet retired or lost
  bool pending = false;   // listed in its ringbuffer's pending contexts
  bool destroyed = false;
  bool guilty = false;
  bool innocent = false;
  RecoveryState recovery;
  ContextStats stats;
};

struct RingState {
  std::unique_ptr<Ringbuffer> ring;
  // Contexts with queued commands, highest priority first, round robin among equals.
  std::deque<std::shared_ptr<ContextState>> pending;
  std::deque<Command> replay;  // in-flight commands a fault sent back, in ring order
  uint32_t timestamp = 0;      // commands written (the ring's memstore timestamp)
};

// One dispatch turn: commands of one ringbuffer, run in order.
struct Turn {
  int ring = 0;
  std::vector<Command> commands;
};

}  // namespace tessera::kmd
