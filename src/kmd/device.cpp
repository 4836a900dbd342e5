// kmd::Device: contexts, submission, waits, fences and the records. The dispatcher's turns are
// in dispatcher.cpp, fault recovery in recovery.cpp.
#include "kmd/device.h"

#include <algorithm>
#include <cstdlib>

#include "common/error.h"
#include "kmd/dispatch_state.h"

namespace tessera::kmd {

DeviceOptions optionsFromEnvironment() {
  DeviceOptions o;
  if (const char* dir = std::getenv("TESSERA_FAULT_DIR")) o.snapshotFolder = dir;
  return o;
}

namespace {

// condition_variable::wait_for adds the timeout to now(): keep it far from overflowing.
std::chrono::nanoseconds clampTimeout(std::chrono::nanoseconds t) {
  constexpr std::chrono::nanoseconds kForever = std::chrono::hours(24 * 365);
  return std::clamp(t, std::chrono::nanoseconds(0), kForever);
}

std::string describeContext(const ContextState& c) {
  return "context " + std::to_string(c.id) + " \"" + c.name + "\"";
}

std::string milliseconds(std::chrono::nanoseconds t) {
  return std::to_string(std::chrono::duration<double, std::milli>(t).count()) + " ms";
}

}  // namespace

Device::Device(gpu::Device& gpu, DeviceOptions options)
    : gpu_(gpu), options_(std::move(options)), paused_(options_.startPaused) {
  if (!options_.clock) options_.clock = [] { return std::chrono::steady_clock::now(); };
  {
    auto memory = lockMemory();
    memstore_ = std::make_unique<Memstore>(gpu_.memory());
    for (int r = 0; r < kRingbuffers; ++r) {
      rings_[r] = std::make_unique<RingState>();
      rings_[r]->ring = std::make_unique<Ringbuffer>(gpu_.memory(), r);
    }
  }
  dispatcher_ = std::thread([this] { dispatcherMain(); });
}

Device::~Device() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  workCv_.notify_all();
  queueCv_.notify_all();
  retireCv_.notify_all();
  dispatcher_.join();
  Completions done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& rs : rings_) {
      for (Command& c : rs->replay) endLocked(c, RetireStatus::Discarded, true, done);
      rs->replay.clear();
      rs->pending.clear();
    }
    for (auto& [id, c] : contexts_) {
      for (Command& cmd : c->queue) endLocked(cmd, RetireStatus::Discarded, false, done);
      c->queue.clear();
    }
  }
  for (auto& [fn, r] : done) fn(r);
  auto memory = lockMemory();
  for (auto& rs : rings_) gpu_.memory().release(rs->ring->base());
  gpu_.memory().release(memstore_->base());
}

ContextId Device::createContext(int priority, std::string name) {
  if (priority < 0 || priority >= kPriorityLevels)
    throw Error("kmd: context priority " + std::to_string(priority) + " is outside 0.." +
                std::to_string(kPriorityLevels - 1));
  auto memory = lockMemory();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto free = std::find(slotUsed_.begin(), slotUsed_.end(), false);
  if (free == slotUsed_.end())
    throw Error("kmd: no free context slot (" + std::to_string(kMaxContexts) + " in use)");
  *free = true;
  auto c = std::make_shared<ContextState>();
  c->id = static_cast<ContextId>(free - slotUsed_.begin()) + 1;
  c->name = std::move(name);
  c->priority = priority;
  c->ring = priority / kPrioritiesPerRing;
  memstore_->clear(memstore_->contextSlot(c->id));  // a reused slot starts from timestamp 0
  contexts_.emplace(c->id, c);
  return c->id;
}

void Device::destroyContext(ContextId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<ContextState> c = findLocked(id);
  c->destroyed = true;
  eraseIfDrainedLocked(*c);
  queueCv_.notify_all();  // a throttled submitter of this context gives up
}

std::shared_ptr<ContextState> Device::findLocked(ContextId id) const {
  auto it = contexts_.find(id);
  if (it == contexts_.end() || it->second->destroyed)
    throw Error("kmd: context " + std::to_string(id) +
                " does not exist (never created or destroyed)");
  return it->second;
}

void Device::eraseIfDrainedLocked(ContextState& c) {
  if (!c.destroyed || !c.queue.empty() || c.inflight != 0) return;
  auto it = contexts_.find(c.id);
  if (it == contexts_.end() || it->second.get() != &c) return;
  slotUsed_[c.id - 1] = false;
  contexts_.erase(it);
}

void Device::addPendingLocked(const std::shared_ptr<ContextState>& c) {
  if (c->pending || c->queue.empty()) return;
  // Behind every context of higher or equal priority: round robin among equals.
  auto& pending = rings_[c->ring]->pending;
  auto at = std::find_if(pending.begin(), pending.end(),
                         [&](const auto& p) { return p->priority > c->priority; });
  pending.insert(at, c);
  c->pending = true;
}

Timestamp Device::submit(ContextId id, DrawObject object) {
  std::vector<DrawObject> one;
  one.push_back(std::move(object));
  return submit(id, std::move(one));
}

Timestamp Device::submit(ContextId id, std::vector<DrawObject> objects) {
  if (objects.empty()) throw Error("kmd: submit of no draw objects");
  if (objects.size() > kDrawQueueSize)
    throw Error("kmd: " + std::to_string(objects.size()) +
                " draw objects in one submit; the draw queue holds " +
                std::to_string(kDrawQueueSize));
  for (const DrawObject& o : objects)
    if (o.ibs.size() > kMaxIbsPerDrawObject)
      throw Error("kmd: a draw object with " + std::to_string(o.ibs.size()) + " IBs; at most " +
                  std::to_string(kMaxIbsPerDrawObject));

  std::unique_lock<std::mutex> lock(mutex_);
  std::shared_ptr<ContextState> c = findLocked(id);
  auto refuseIfLost = [&] {
    if (c->guilty)
      throw Error("kmd: " + describeContext(*c) +
                  " was invalidated after faulting the GPU (reset status guilty); create a new "
                  "context");
  };
  refuseIfLost();
  // Throttle (REFERENCES.md §2): a submitter that runs far ahead of the GPU waits.
  if (c->queue.size() >= kThrottleQueued) {
    ++stats_.throttledSubmits;
    const bool drained = queueCv_.wait_for(lock, clampTimeout(options_.throttleTimeout), [&] {
      return c->queue.size() < kThrottleQueued || c->guilty || c->destroyed || stopping_;
    });
    if (!drained)
      throw Error("kmd: " + describeContext(*c) + ": its draw queue still holds " +
                  std::to_string(c->queue.size()) + " commands after waiting " +
                  milliseconds(options_.throttleTimeout) +
                  " (the GPU is stuck or the dispatcher paused)");
    if (c->destroyed || stopping_)
      throw Error("kmd: " + describeContext(*c) + " was destroyed while its submit waited");
    refuseIfLost();
  }
  if (c->queue.size() + objects.size() > kDrawQueueSize)
    throw Error("kmd: " + describeContext(*c) + ": " + std::to_string(objects.size()) +
                " more draw objects would overflow its draw queue (" +
                std::to_string(c->queue.size()) + " of " + std::to_string(kDrawQueueSize) +
                " queued)");
  for (DrawObject& o : objects) {
    Command cmd;
    cmd.context = c;
    cmd.timestamp = ++c->submitted;
    cmd.object = std::move(o);
    c->queue.push_back(std::move(cmd));
    ++c->stats.submitted;
  }
  addPendingLocked(c);
  workCv_.notify_one();
  return c->submitted;
}

WaitResult Device::waitTimestamp(ContextId id, Timestamp ts, std::chrono::nanoseconds timeout) {
  std::shared_ptr<ContextState> c;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c = findLocked(id);
  }
  return waitOn(*c, ts, timeout);
}

WaitResult Device::waitOn(const ContextState& c, Timestamp ts, std::chrono::nanoseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!timestampReached(c.submitted, ts))
    throw Error("kmd: " + describeContext(c) + ": timestamp " + std::to_string(ts) +
                " was never submitted (the last is " + std::to_string(c.submitted) + ")");
  retireCv_.wait_for(lock, clampTimeout(timeout),
                     [&] { return timestampReached(c.retired, ts) || c.guilty || stopping_; });
  if (timestampReached(c.retired, ts)) return WaitResult::Retired;
  return c.guilty ? WaitResult::ContextLost : WaitResult::Timeout;
}

Timestamp Device::retiredTimestamp(ContextId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return findLocked(id)->retired;
}

Timestamp Device::submittedTimestamp(ContextId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return findLocked(id)->submitted;
}

Fence Device::createFence(ContextId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<ContextState> c = findLocked(id);
  const Timestamp ts = c->submitted;
  return Fence(this, std::move(c), ts);
}

ResetStatus Device::resetStatus(ContextId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<ContextState> c = findLocked(id);
  return c->guilty ? ResetStatus::Guilty : c->innocent ? ResetStatus::Innocent : ResetStatus::None;
}

gpu::GpuAddress Device::ringbufferAddress(int ring) const {
  if (ring < 0 || ring >= kRingbuffers)
    throw Error("kmd: ringbuffer " + std::to_string(ring) + " does not exist");
  return rings_[ring]->ring->base();
}

void Device::pauseDispatcher() {
  std::lock_guard<std::mutex> lock(mutex_);
  paused_ = true;
}

void Device::resumeDispatcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = false;
  }
  workCv_.notify_all();
}

bool Device::waitIdle(std::chrono::nanoseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return retireCv_.wait_for(lock, clampTimeout(timeout),
                            [&] { return !turnActive_ && !hasWorkLocked(); });
}

std::vector<FaultRecord> Device::faults() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return faults_;
}

DeviceStats Device::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

ContextStats Device::contextStats(ContextId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return findLocked(id)->stats;
}

std::vector<ContextSummary> Device::contextSummaries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ContextSummary> out;
  for (const auto& [id, c] : contexts_) {
    ContextSummary s;
    s.id = id;
    s.name = c->name;
    s.priority = c->priority;
    s.ring = c->ring;
    s.submittedTimestamp = c->submitted;
    s.retiredTimestamp = c->retired;
    s.queued = static_cast<uint32_t>(c->queue.size());
    s.reset = c->guilty     ? ResetStatus::Guilty
              : c->innocent ? ResetStatus::Innocent
                            : ResetStatus::None;
    s.destroyed = c->destroyed;
    s.stats = c->stats;
    out.push_back(std::move(s));
  }
  return out;
}

ContextId Fence::context() const {
  if (!context_) throw Error("kmd: empty fence");
  return context_->id;
}

bool Fence::signaled() const {
  return wait(std::chrono::nanoseconds(0)) != WaitResult::Timeout;
}

WaitResult Fence::wait(std::chrono::nanoseconds timeout) const {
  if (!device_) throw Error("kmd: wait on an empty fence");
  return device_->waitOn(*context_, timestamp_, timeout);
}

}  // namespace tessera::kmd
