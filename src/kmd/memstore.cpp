#include "kmd/memstore.h"

namespace tessera::kmd {

Memstore::Memstore(gpu::GpuMemory& memory) : memory_(memory) {
  const size_t bytes = size_t{kMaxContexts + kRingbuffers} * MemstoreLayout::kSlotBytes;
  base_ = memory_.allocate(bytes, "kmd memstore");
  for (uint32_t i = 0; i < kMaxContexts + kRingbuffers; ++i) clear(base_ + slotOffset(i));
}

MemstoreSlot Memstore::read(gpu::GpuAddress slot) const {
  uint32_t words[4];
  memory_.read(gpu::BusClient::Host, slot, words, sizeof words);
  return {words[MemstoreLayout::kSop / 4], words[MemstoreLayout::kCurrentContext / 4],
          words[MemstoreLayout::kCurrentIb / 4], words[MemstoreLayout::kEop / 4]};
}

void Memstore::clear(gpu::GpuAddress slot) {
  const MemstoreSlot empty;
  const uint32_t words[4] = {empty.sop, empty.currentContext, empty.currentIb, empty.eop};
  memory_.write(gpu::BusClient::Host, slot, words, sizeof words);
}

}  // namespace tessera::kmd
