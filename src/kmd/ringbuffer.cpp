#include "kmd/ringbuffer.h"

#include <cassert>
#include <string>

#include "kmd/limits.h"

namespace tessera::kmd {

using gpu::GpuAddress;
using gpu::cp::CommandWriter;
using gpu::cp::Event;
using gpu::cp::Opcode;

namespace {

uint32_t lo(GpuAddress a) {
  return static_cast<uint32_t>(a);
}
uint32_t hi(GpuAddress a) {
  return static_cast<uint32_t>(a >> 32);
}

void endOfPipe(CommandWriter& w, GpuAddress at, uint32_t value) {
  w.packet(Opcode::CP_EVENT_WRITE,
           {static_cast<uint32_t>(Event::CACHE_FLUSH_TS), lo(at), hi(at), value});
}

}  // namespace

CommandWriter buildSegment(const Memstore& memstore, int ring, const SegmentPlan& plan) {
  const GpuAddress ctxSlot = memstore.contextSlot(plan.context);
  const GpuAddress ringSlot = memstore.ringSlot(ring);
  CommandWriter w;
  // Start of pipe: the ring's slot learns which command runs (and that no IB has started yet),
  // then the context's slot its consumed timestamp.
  const GpuAddress ringSop = ringSlot + MemstoreLayout::kSop;
  w.packet(Opcode::CP_MEM_WRITE,
           {lo(ringSop), hi(ringSop), plan.ringTimestamp, plan.context, kNoIb});
  const GpuAddress ctxSop = ctxSlot + MemstoreLayout::kSop;
  w.packet(Opcode::CP_MEM_WRITE, {lo(ctxSop), hi(ctxSop), plan.timestamp});
  if (!plan.skipAll) {
    const GpuAddress ibMarker = ringSlot + MemstoreLayout::kCurrentIb;
    for (size_t i = 0; i < plan.ibs.size(); ++i) {
      if (plan.skippedIbs >> i & 1) continue;
      // The marker tells recovery which IB faulted, as KGSL compares CP_IB1_BASE.
      w.packet(Opcode::CP_MEM_WRITE, {lo(ibMarker), hi(ibMarker), static_cast<uint32_t>(i)});
      w.indirectBuffer(plan.ibs[i].address, plan.ibs[i].dwords);
    }
  }
  // End of pipe: CACHE_FLUSH_TS writes after everything before it has landed in memory.
  endOfPipe(w, ctxSlot + MemstoreLayout::kEop, plan.timestamp);
  endOfPipe(w, ringSlot + MemstoreLayout::kEop, plan.ringTimestamp);
  return w;
}

Ringbuffer::Ringbuffer(gpu::GpuMemory& memory, int index) : memory_(memory), index_(index) {
  base_ = memory_.allocate(size_t{kRingDwords} * 4, "kmd ringbuffer " + std::to_string(index));
}

void Ringbuffer::beginTurn(uint32_t dwords) {
  assert(dwords <= kRingDwords);
  if (wptr_ + dwords > kRingDwords) {
    wptr_ = 0;
    ++wraps_;
  }
  turnEnd_ = wptr_ + dwords;
}

RingSegment Ringbuffer::write(const CommandWriter& segment) {
  assert(wptr_ + segment.size() <= turnEnd_);
  const RingSegment s{base_ + uint64_t{wptr_} * 4, segment.size()};
  memory_.write(gpu::BusClient::Host, s.address, segment.words().data(), segment.size() * 4);
  wptr_ += segment.size();
  return s;
}

}  // namespace tessera::kmd
