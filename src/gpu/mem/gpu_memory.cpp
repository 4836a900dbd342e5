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

void BusStats::subtract(const BusStats& earlier) {
  for (size_t i = 0; i < static_cast<size_t>(BusClient::Count); ++i) {
    client[i].readBytes -= earlier.client[i].readBytes;
    client[i].writeBytes -= earlier.client[i].writeBytes;
  }
}

namespace {
// The bus counting scope open on this thread: which memory, and where its traffic goes. Every
// texture lookup and vertex fetch counts through them: initial-exec reads them with one move
// instead of a call into the dynamic linker (libGLESv2 is loaded with its program, and four
// pointers fit the static TLS space glibc keeps for libraries loaded later).
[[gnu::tls_model("initial-exec")]] thread_local const GpuMemory* tSinkMemory = nullptr;
[[gnu::tls_model("initial-exec")]] thread_local BusStats* tSink = nullptr;
// The view scope open on this thread: which memory, and the table it pinned.
[[gnu::tls_model("initial-exec")]] thread_local const GpuMemory* tViewMemory = nullptr;
[[gnu::tls_model("initial-exec")]] thread_local const GpuMemory::View* tView = nullptr;

void add(BusStats& into, const BusStats& traffic) {
  for (size_t i = 0; i < static_cast<size_t>(BusClient::Count); ++i) {
    into.client[i].readBytes += traffic.client[i].readBytes;
    into.client[i].writeBytes += traffic.client[i].writeBytes;
  }
}
}  // namespace

GpuMemory::GpuMemory() : table_(std::make_shared<BoTable>()) {}

BusStats* GpuMemory::threadSink() const {
  return tSinkMemory == this ? tSink : nullptr;
}

const GpuMemory::View* GpuMemory::threadView() const {
  return tViewMemory == this ? tView : nullptr;
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

GpuMemory::ViewScope::ViewScope(const GpuMemory& memory, View view)
    : view_(std::move(view)), previousMemory_(tViewMemory), previous_(tView) {
  tViewMemory = &memory;
  tView = &view_;
}

GpuMemory::ViewScope::~ViewScope() {
  tViewMemory = previousMemory_;
  tView = previous_;
}

GpuMemory::View GpuMemory::view() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return table_;
}

GpuMemory::View GpuMemory::pinnedView() const {
  const View* v = threadView();
  return v ? *v : nullptr;
}

bool GpuMemory::pinned() const {
  const View* v = threadView();
  return v && *v;
}

void GpuMemory::count(BusClient who, uint64_t bytes, bool write) {
  if (BusStats* sink = threadSink()) {
    (write ? (*sink)[who].writeBytes : (*sink)[who].readBytes) += bytes;
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  (write ? stats_[who].writeBytes : stats_[who].readBytes) += bytes;
}

BusStats GpuMemory::stats() const {
  if (const BusStats* sink = threadSink()) return *sink;
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void GpuMemory::addStats(const BusStats& traffic) {
  if (BusStats* sink = threadSink()) return add(*sink, traffic);
  std::lock_guard<std::mutex> lock(mutex_);
  add(stats_, traffic);
}

GpuAddress GpuMemory::allocate(size_t size, std::string name) {
  if (size == 0) size = 1;
  auto bo = std::make_shared<Bo>(Bo{std::move(name), std::vector<uint8_t>(size, 0)});
  std::lock_guard<std::mutex> lock(mutex_);
  const GpuAddress base = next_;
  // Leave an unmapped guard page between BOs so that overruns fault.
  next_ += (size + 2 * kAlign - 1) / kAlign * kAlign;
  auto table = std::make_shared<BoTable>(*table_);
  table->emplace(base, std::move(bo));
  table_ = std::move(table);
  return base;
}

void GpuMemory::release(GpuAddress base) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!table_->contains(base)) return;
  auto table = std::make_shared<BoTable>(*table_);
  table->erase(base);
  table_ = std::move(table);
}

size_t GpuMemory::sizeOf(GpuAddress base) const {
  const View table = view();
  auto it = table->find(base);
  return it == table->end() ? 0 : it->second->data.size();
}

std::span<uint8_t> GpuMemory::find(const BoTable& table, BusClient who, GpuAddress addr,
                                   size_t size) {
  auto it = table.upper_bound(addr);
  if (it != table.begin()) {
    --it;
    const GpuAddress off = addr - it->first;
    std::vector<uint8_t>& data = it->second->data;
    if (off <= data.size() && size <= data.size() - off) return {data.data() + off, size};
  }
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s access of %zu bytes at 0x%llx is outside every buffer object",
                std::string(busClientName(who)).c_str(), size,
                static_cast<unsigned long long>(addr));
  throw GpuFault(FaultKind::PageFault, addr, who, msg);
}

std::span<uint8_t> GpuMemory::span(BusClient who, GpuAddress addr, size_t size) {
  if (const View* pinned = threadView()) return find(**pinned, who, addr, size);
  // Outside a GPU run: the current table. The BO outlives the span as long as nobody frees it
  // meanwhile, which is the caller's business as with any buffer it is using.
  return find(*view(), who, addr, size);
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
