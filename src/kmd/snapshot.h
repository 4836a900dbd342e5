// Fault snapshots: the ring segments around a fault and the IBs they call, decoded as
// `tessera dump` decodes a capture (gpu/cp/decoder.h), with the faulting packet marked, written
// to a text file for post-mortem reading (KGSL writes a snapshot on every fault).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "gpu/cp/capture.h"
#include "gpu/mem/gpu_memory.h"
#include "kmd/fault.h"
#include "kmd/memstore.h"
#include "kmd/ringbuffer.h"

namespace tessera::kmd {

// One command of the turn as the ring holds it.
struct SnapshotCommand {
  ContextId context = 0;
  Timestamp timestamp = 0;
  RingSegment segment;
  std::vector<IbRef> ibs;
};

struct SnapshotInput {
  const FaultRecord* record = nullptr;
  // The faulting command and its neighbours, in ring order (their segments are contiguous).
  std::span<const SnapshotCommand> commands;
  MemstoreSlot ringSlot, contextSlot;  // read after the fault
};

// The ring region of `commands` and every IB (and IB2) of theirs that lies in GPU memory. The
// caller holds the memory lock.
gpu::cp::Capture captureAroundFault(gpu::GpuMemory& memory,
                                    std::span<const SnapshotCommand> commands);

// `listing` with "<== fault" appended to every line of the packet at `packet`.
std::string markFaultingPacket(const std::string& listing, gpu::GpuAddress packet,
                               const std::string& what);

std::string faultSnapshotText(gpu::GpuMemory& memory, const SnapshotInput& in);

// Writes the snapshot to `folder`/fault-<sequence>-ctx<id>.txt (creating the folder) and
// returns its path, or "" if it could not be written. Never throws.
std::string writeFaultSnapshot(gpu::GpuMemory& memory, const std::string& folder,
                               const SnapshotInput& in);

}  // namespace tessera::kmd
