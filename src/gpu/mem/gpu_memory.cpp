#include "gpu/mem/gpu_memory.h"

#include <cstdio>

namespace tessera::gpu {

uint64_t BusStats::totalGpuBytes() const {
  uint64_t sum = 0;
  for (size_t i = 0; i < static_cast<size_t>(BusClient::Count); ++i) {
    if (static_cast<BusClient>(i) == BusClient::Host) continue;
    sum += client[i].readBytes + client[i].writeBytes;
  }
  return sum;
}

namespace {
// The bus counting scope open on this thread: which memory, and where its traffic goes.
thread_local const GpuMemory* tSinkMemory = nullptr;
thread_local BusStats* tSink = nullptr;
}  // namespace

BusStats* GpuMemory::threadSink() const {
  return tSinkMemory == this ? tSink : nullptr;
}

GpuMemory::BusCountingScope::BusCountingScope(const GpuMemory& memory, BusStats& into)
    : previousMemory_(tSinkMemory), previous_(tSink) {
  tSinkMemory = &memory;
  tSink = &into;
}

GpuMemory::BusCountingScope::~BusCountingScope() {
  tSinkMemory = previousMemory_;
  tSink = previous_;
}

void GpuMemory::addStats(const BusStats& traffic) {
  for (size_t i = 0; i < static_cast<size_t>(BusClient::Count); ++i) {
    stats_.client[i].readBytes += traffic.client[i].readBytes;
    stats_.client[i].writeBytes += traffic.client[i].writeBytes;
  }
}

GpuAddress GpuMemory::allocate(size_t size, std::string name) {
  if (size == 0) size = 1;
  GpuAddress base = next_;
  // Leave an unmapped guard page between BOs so that overruns fault.
  next_ += (size + 2 * kAlign - 1) / kAlign * kAlign;
  bos_.emplace(base, Bo{std::move(name), std::vector<uint8_t>(size, 0)});
  return base;
}

void GpuMemory::release(GpuAddress base) {
  bos_.erase(base);
}

size_t GpuMemory::sizeOf(GpuAddress base) const {
  auto it = bos_.find(base);
  return it == bos_.end() ? 0 : it->second.data.size();
}

std::span<uint8_t> GpuMemory::span(BusClient who, GpuAddress addr, size_t size) {
  auto it = bos_.upper_bound(addr);
  if (it != bos_.begin()) {
    --it;
    const GpuAddress off = addr - it->first;
    if (off <= it->second.data.size() && size <= it->second.data.size() - off)
      return {it->second.data.data() + off, size};
  }
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s access of %zu bytes at 0x%llx is outside every buffer object",
                std::string(busClientName(who)).c_str(), size,
                static_cast<unsigned long long>(addr));
  throw GpuFault(FaultKind::PageFault, addr, who, msg);
}

void GpuMemory::read(BusClient who, GpuAddress addr, void* dst, size_t size) {
  auto s = span(who, addr, size);
  std::memcpy(dst, s.data(), size);
  countRead(who, size);
}

void GpuMemory::write(BusClient who, GpuAddress addr, const void* src, size_t size) {
  auto s = span(who, addr, size);
  std::memcpy(s.data(), src, size);
  countWrite(who, size);
}

}  // namespace tessera::gpu
