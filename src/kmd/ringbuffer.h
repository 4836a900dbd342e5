// A priority ringbuffer in GPU memory. For each draw object the dispatcher sends, it writes the
// segment KGSL's adreno_ringbuffer_addcmds writes (seed 004): start-of-pipe timestamps, one
// CP_INDIRECT_BUFFER per IB (each preceded by an IB marker), end-of-pipe timestamps.
#pragma once
#include <cstdint>
#include <span>

#include "gpu/cp/command_writer.h"
#include "gpu/mem/gpu_memory.h"
#include "kmd/memstore.h"
#include "kmd/types.h"

namespace tessera::kmd {

// Where a draw object's packets sit in the ring: what the dispatcher hands gpu::Device::submit.
struct RingSegment {
  gpu::GpuAddress address = 0;
  uint32_t dwords = 0;
  gpu::GpuAddress end() const { return address + uint64_t{dwords} * 4; }
};

// What one segment runs.
struct SegmentPlan {
  ContextId context = 0;
  Timestamp timestamp = 0;     // the context's timestamp (memstore context slot)
  uint32_t ringTimestamp = 0;  // the ringbuffer's own count of commands (memstore ring slot)
  std::span<const IbRef> ibs;  // the draw object's IBs
  uint32_t skippedIbs = 0;     // bit i: IB i is left out (fault recovery)
  bool skipAll = false;        // only the timestamps are written (fault recovery)
};

// The packets of one segment (exposed for tests and for the snapshot's sizes).
gpu::cp::CommandWriter buildSegment(const Memstore& memstore, int ring, const SegmentPlan& plan);

class Ringbuffer final {
 public:
  // Allocates kRingDwords of GPU memory. The caller holds the memory lock.
  Ringbuffer(gpu::GpuMemory& memory, int index);
  Ringbuffer(const Ringbuffer&) = delete;
  Ringbuffer& operator=(const Ringbuffer&) = delete;

  int index() const { return index_; }
  gpu::GpuAddress base() const { return base_; }

  // Starts a dispatch turn of at most `dwords`: wraps to the ring's start if they would not fit
  // before its end. The model's GPU drains the ring within each turn, so what the wrap overwrites
  // has retired; segments of one turn are contiguous.
  void beginTurn(uint32_t dwords);
  // Writes one segment at the write pointer. The caller holds the memory lock.
  RingSegment write(const gpu::cp::CommandWriter& segment);

  uint32_t writePointer() const { return wptr_; }
  uint64_t wraps() const { return wraps_; }

 private:
  gpu::GpuMemory& memory_;
  int index_;
  gpu::GpuAddress base_ = 0;
  uint32_t wptr_ = 0;  // dwords from base_
  uint32_t turnEnd_ = 0;
  uint64_t wraps_ = 0;
};

}  // namespace tessera::kmd
