// The kernel-mode layer: a KGSL-style device over the GPU model (REFERENCES.md §2, seed 004).
// Contexts submit draw objects into per-context draw queues; a dispatcher thread moves them, by
// priority, into 4 ringbuffers in GPU memory and runs the segments it wrote on gpu::Device.
// submit() returns the context's timestamp at once; the memstore's end-of-pipe timestamps retire
// commands, wake waiters and run retirement callbacks. Faults are recovered by the policy in
// recovery_policy.h and leave a snapshot. docs/kernel.md describes the model.
#pragma once
#include <array>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu/device.h"
#include "kmd/fault.h"
#include "kmd/fence.h"
#include "kmd/limits.h"
#include "kmd/memstore.h"
#include "kmd/recovery_policy.h"
#include "kmd/stats.h"
#include "kmd/types.h"

namespace tessera::kmd {

struct ContextState;
struct RingState;
struct Command;
struct Turn;

struct DeviceOptions {
  std::string snapshotFolder;  // fault snapshots are written here; empty: none
  std::chrono::nanoseconds throttleTimeout = kThrottleTimeout;
  Clock clock;               // the fault-rate clock; empty: std::chrono::steady_clock
  bool startPaused = false;  // the dispatcher starts paused (resumeDispatcher())
};

// The options a process asks for in its environment: TESSERA_FAULT_DIR is the snapshot folder
// (`tessera run --faults DIR` sets it).
DeviceOptions optionsFromEnvironment();

class Device final {
 public:
  // Allocates the memstore and the ringbuffers in `gpu`'s memory and starts the dispatcher.
  explicit Device(gpu::Device& gpu, DeviceOptions options = {});
  // Stops the dispatcher; commands not yet run are discarded (RetireStatus::Discarded).
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Contexts. Priority 0 is the highest, kPriorityLevels - 1 the lowest.
  ContextId createContext(int priority, std::string name);
  // No further submits; what was submitted still runs and retires.
  void destroyContext(ContextId id);

  // Queues draw objects and returns the timestamp of the last one. Waits while the context's
  // queue holds kThrottleQueued commands (up to the throttle timeout). Throws tessera::Error for
  // an unknown, destroyed or invalidated context, a full queue or a malformed draw object.
  Timestamp submit(ContextId id, DrawObject object);
  Timestamp submit(ContextId id, std::vector<DrawObject> objects);

  // Waits until `ts` of the context retires. Throws tessera::Error for a timestamp that was
  // never submitted (it could never retire).
  WaitResult waitTimestamp(ContextId id, Timestamp ts, std::chrono::nanoseconds timeout);
  Timestamp retiredTimestamp(ContextId id) const;
  Timestamp submittedTimestamp(ContextId id) const;
  // A fence on the context's last submitted timestamp.
  Fence createFence(ContextId id);
  ResetStatus resetStatus(ContextId id) const;

  // GPU memory is not thread-safe: whoever touches it (uploads, readbacks, allocation) holds
  // this lock, which the dispatcher holds while the GPU model runs. One lock for the whole
  // memory is the first step towards per-buffer ownership. Do not hold it across submit() or a
  // wait (a throttled submit and a wait need the dispatcher, which needs the lock), nor across
  // createContext() (which takes it to reset the context's memstore slot).
  std::unique_lock<std::mutex> lockMemory() { return std::unique_lock<std::mutex>(memoryMutex_); }
  gpu::Device& gpu() { return gpu_; }
  const Memstore& memstore() const { return *memstore_; }
  gpu::GpuAddress ringbufferAddress(int ring) const;

  // Dispatcher control: a paused dispatcher starts no new turn (the current one finishes).
  void pauseDispatcher();
  void resumeDispatcher();
  // Waits until every queue is empty and nothing is in flight; false on timeout.
  bool waitIdle(std::chrono::nanoseconds timeout);

  std::vector<FaultRecord> faults() const;
  DeviceStats stats() const;
  ContextStats contextStats(ContextId id) const;
  std::vector<ContextSummary> contextSummaries() const;
  std::string contextTable() const { return formatContextTable(contextSummaries()); }

 private:
  friend class Fence;
  // Retirement callbacks collected under the lock, run after it is released.
  using Completions = std::vector<std::pair<std::function<void(const Retirement&)>, Retirement>>;

  std::shared_ptr<ContextState> findLocked(ContextId id) const;
  WaitResult waitOn(const ContextState& c, Timestamp ts, std::chrono::nanoseconds timeout);
  void addPendingLocked(const std::shared_ptr<ContextState>& c);
  void eraseIfDrainedLocked(ContextState& c);

  // Dispatcher (dispatcher.cpp).
  void dispatcherMain();
  bool hasWorkLocked() const;
  Turn takeTurnLocked();
  void runTurn(Turn& turn, Completions& done);
  void retireLocked(Command& c, Completions& done);
  // Ends a command that will not retire (lost, discarded).
  void endLocked(Command& c, RetireStatus status, bool inflight, Completions& done);

  // Fault recovery (recovery.cpp); the memory lock and the state lock are held.
  void recoverLocked(Turn& turn, size_t at, const gpu::cp::CpFault& fault, Completions& done);

  gpu::Device& gpu_;
  DeviceOptions options_;
  // Lock order: memoryMutex_ before mutex_. Callbacks run with neither held.
  std::mutex memoryMutex_;
  mutable std::mutex mutex_;
  std::condition_variable workCv_;    // the dispatcher: work arrived, resume, stop
  std::condition_variable retireCv_;  // waiters: timestamps retired, contexts lost, idle
  std::condition_variable queueCv_;   // throttled submitters: queues drained
  std::unique_ptr<Memstore> memstore_;
  std::array<std::unique_ptr<RingState>, kRingbuffers> rings_;
  std::map<ContextId, std::shared_ptr<ContextState>> contexts_;
  std::array<bool, kMaxContexts> slotUsed_{};
  FaultWindow faultWindow_;
  std::vector<FaultRecord> faults_;
  DeviceStats stats_;
  bool paused_ = false, stopping_ = false, turnActive_ = false;
  std::thread dispatcher_;  // last: starts once everything above exists
};

}  // namespace tessera::kmd
