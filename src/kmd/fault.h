// What the kernel-mode layer keeps of each GPU fault: who faulted, where, how it was classified
// and recovered, and where its snapshot was written (REFERENCES.md §2 "Hang detection").
#pragma once
#include <cstdint>
#include <string>

#include "gpu/cp/command_processor.h"
#include "kmd/types.h"

namespace tessera::kmd {

// KGSL finds hangs with timers (2000 ms without retiring, long-IB detection). The model's GPU
// never spins: a stream that would run forever ends in the CP's packet budget or the shader
// core's warp instruction budget (Runaway) or in IB nesting (IbLoop). Those are the hangs.
constexpr bool isHang(gpu::FaultKind kind) {
  return kind == gpu::FaultKind::Runaway || kind == gpu::FaultKind::IbLoop;
}

struct FaultRecord {
  uint64_t sequence = 0;  // 1 for the device's first fault
  ContextId context = 0;
  std::string contextName;
  Timestamp timestamp = 0;  // the faulting draw object
  int ring = 0;
  int ibIndex = -1;  // which of its IBs was running (memstore IB marker), -1 outside any IB
  gpu::cp::CpFault fault;
  bool hang = false;
  RecoveryAction action = RecoveryAction::Replay;
  bool replayAllowed = true;  // false when the fault rate had disabled replay
  std::string snapshotPath;   // empty when snapshots are off or the file could not be written

  std::string describe() const;
};

}  // namespace tessera::kmd
