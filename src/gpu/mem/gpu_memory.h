// GPU virtual memory: a sparse address space of buffer objects (BOs) behind one bus that counts
// bytes read and written per client. An access that is not wholly inside one BO raises a
// GpuFault (a page fault on real hardware) instead of touching host memory.
//
// The application's threads allocate, free, upload and read back while the dispatcher's GPU run
// (and its bin workers) reads and writes: the BO table is copied on change, and a GPU run pins
// the table of when it started (ViewScope), so a BO freed meanwhile lives on until the run ends
// and lookups take no lock. Which bytes of a BO each side may touch is the drivers' business
// (the user-mode driver renames or waits for busy buffers, docs/kernel.md).
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/mem/bus_client.h"

namespace tessera::gpu {

using GpuAddress = uint64_t;

enum class FaultKind : uint8_t { PageFault, BadPacket, IbLoop, Runaway, BadState };

constexpr std::string_view faultKindName(FaultKind k) {
  constexpr std::string_view kNames[] = {"page fault", "bad packet", "IB loop", "runaway",
                                         "bad state"};
  return kNames[static_cast<size_t>(k)];
}

// Raised by any block when the GPU would fault. The command processor catches it and records
// it with the address of the packet that was executing.
class GpuFault : public std::runtime_error {
 public:
  GpuFault(FaultKind kind, GpuAddress address, BusClient client, const std::string& what)
      : std::runtime_error(what), kind_(kind), address_(address), client_(client) {}
  FaultKind kind() const { return kind_; }
  GpuAddress address() const { return address_; }
  BusClient client() const { return client_; }
  // The packet that started the faulting work, when it is not the one the command processor is
  // executing: a bin of a render pass runs after the CP has moved past its packets.
  GpuAddress packet() const { return packet_; }
  void setPacket(GpuAddress packet) { packet_ = packet; }

 private:
  FaultKind kind_;
  GpuAddress address_;
  BusClient client_;
  GpuAddress packet_ = 0;
};

struct BusTraffic {
  uint64_t readBytes = 0;
  uint64_t writeBytes = 0;
};

struct BusStats {
  BusTraffic client[static_cast<size_t>(BusClient::Count)];
  BusTraffic& operator[](BusClient c) { return client[static_cast<size_t>(c)]; }
  const BusTraffic& operator[](BusClient c) const { return client[static_cast<size_t>(c)]; }
  uint64_t totalGpuBytes() const;          // everything but BusClient::Host
  void subtract(const BusStats& earlier);  // leaves the traffic since `earlier`
};

class GpuMemory final {
 public:
  // Buffer objects start at this address so that 0 is never a valid GPU address.
  static constexpr GpuAddress kBase = 0x100000;
  static constexpr GpuAddress kAlign = 4096;

  GpuMemory();
  GpuAddress allocate(size_t size, std::string name);
  void release(GpuAddress base);
  size_t sizeOf(GpuAddress base) const;

  // Host-side view of [addr, addr+size) without counting traffic (the caller charges the bus
  // with count*()). Throws GpuFault if the range is not inside one BO.
  std::span<uint8_t> span(BusClient who, GpuAddress addr, size_t size);

  void read(BusClient who, GpuAddress addr, void* dst, size_t size);
  void write(BusClient who, GpuAddress addr, const void* src, size_t size);
  uint32_t read32(BusClient who, GpuAddress addr) {
    uint32_t v;
    read(who, addr, &v, 4);
    return v;
  }
  void write32(BusClient who, GpuAddress addr, uint32_t v) { write(who, addr, &v, 4); }
  uint64_t read64(BusClient who, GpuAddress addr) {
    uint64_t v;
    read(who, addr, &v, 8);
    return v;
  }
  void write64(BusClient who, GpuAddress addr, uint64_t v) { write(who, addr, &v, 8); }

  void countRead(BusClient who, uint64_t bytes) { count(who, bytes, false); }
  void countWrite(BusClient who, uint64_t bytes) { count(who, bytes, true); }
  // The calling thread's view: a GPU run's or a bin worker's own traffic while it counts into a
  // BusCountingScope, else the bus's totals.
  BusStats stats() const;
  // Adds traffic counted elsewhere (a bin worker's, a GPU run's) to the calling thread's
  // scope, or to the bus's totals outside one.
  void addStats(const BusStats& traffic);

  // The buffer objects at one moment: allocation and release publish a new table, so a table
  // never changes once taken.
  struct Bo {
    std::string name;
    std::vector<uint8_t> data;
  };
  using BoTable = std::map<GpuAddress, std::shared_ptr<Bo>>;
  using View = std::shared_ptr<const BoTable>;
  View view() const;
  // While alive, this thread's accesses to `memory` look BOs up in `view` without a lock: a GPU
  // run and its bin workers pin the table of when the run started.
  class ViewScope final {
   public:
    ViewScope(const GpuMemory& memory, View view);
    ~ViewScope();
    ViewScope(const ViewScope&) = delete;
    ViewScope& operator=(const ViewScope&) = delete;

   private:
    View view_;
    const GpuMemory* previousMemory_;
    const View* previous_;
  };
  // The table this thread pinned on this memory, or null.
  View pinnedView() const;
  // Whether this thread pinned a table on this memory (pinnedView without copying the pointer,
  // whose count all threads share).
  bool pinned() const;

  // While alive, this thread's traffic on `memory` is counted into `into` instead of the bus's
  // totals, so bin workers on several host threads count apart and merge in a fixed order.
  class BusCountingScope final {
   public:
    BusCountingScope(const GpuMemory& memory, BusStats& into);
    ~BusCountingScope();
    BusCountingScope(const BusCountingScope&) = delete;
    BusCountingScope& operator=(const BusCountingScope&) = delete;

   private:
    const GpuMemory* previousMemory_;
    BusStats* previous_;
  };

 private:
  // This thread's BusCountingScope and ViewScope on this memory, if any (the thread-local state
  // stays in gpu_memory.cpp).
  BusStats* threadSink() const;
  const View* threadView() const;
  void count(BusClient who, uint64_t bytes, bool write);
  static std::span<uint8_t> find(const BoTable& table, BusClient who, GpuAddress addr, size_t size);

  mutable std::mutex mutex_;  // the current table, the next address and the bus's totals
  View table_;
  GpuAddress next_ = kBase;
  BusStats stats_;
};

}  // namespace tessera::gpu
