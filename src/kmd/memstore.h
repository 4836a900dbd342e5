// The memstore: one GPU buffer of timestamp slots, one per context and one per ringbuffer, that
// the ring's packets write and the kernel reads to retire work (KGSL's kgsl_devmemstore, seed 004;
// REFERENCES.md §2 "Timestamps"). Consumed = soptimestamp, retired = eoptimestamp.
#pragma once
#include <cstdint>

#include "gpu/mem/gpu_memory.h"
#include "kmd/limits.h"
#include "kmd/types.h"

namespace tessera::kmd {

// Byte offsets inside a slot. SOP, context and IB are consecutive so that one CP_MEM_WRITE at
// the start of a draw object sets all three.
struct MemstoreLayout {
  static constexpr uint32_t kSop = 0;             // start of pipe: the command has started
  static constexpr uint32_t kCurrentContext = 4;  // ring slots: context of the running command
  static constexpr uint32_t kCurrentIb = 8;       // ring slots: index of the IB being called
  static constexpr uint32_t kEop = 12;            // end of pipe: the command has retired
  static constexpr uint32_t kSlotBytes = 32;
};
inline constexpr uint32_t kNoIb = 0xffffffffu;  // kCurrentIb before the first IB

struct MemstoreSlot {
  uint32_t sop = 0, currentContext = 0, currentIb = kNoIb, eop = 0;
};

class Memstore final {
 public:
  // Allocates the slots in `memory` and zeroes them. The caller holds the memory lock.
  explicit Memstore(gpu::GpuMemory& memory);
  Memstore(const Memstore&) = delete;
  Memstore& operator=(const Memstore&) = delete;

  gpu::GpuAddress base() const { return base_; }
  // Context ids start at 1 (0 is "no context"); slot i belongs to context i + 1.
  gpu::GpuAddress contextSlot(ContextId id) const { return base_ + slotOffset(id - 1); }
  gpu::GpuAddress ringSlot(int ring) const {
    return base_ + slotOffset(kMaxContexts + static_cast<uint32_t>(ring));
  }

  // Reads and resets slots as the CPU does (bus client Host). The caller holds the memory lock.
  MemstoreSlot read(gpu::GpuAddress slot) const;
  void clear(gpu::GpuAddress slot);

 private:
  static constexpr uint64_t slotOffset(uint32_t index) {
    return uint64_t{index} * MemstoreLayout::kSlotBytes;
  }

  gpu::GpuMemory& memory_;
  gpu::GpuAddress base_ = 0;
};

}  // namespace tessera::kmd
