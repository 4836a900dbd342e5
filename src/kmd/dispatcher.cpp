// The dispatcher thread (KGSL's adreno_dispatcher_work, seed 004): each turn takes the
// highest-priority ringbuffer with work, fills its in-flight window from the pending contexts in
// bursts, writes their ring segments, runs them on the GPU model and retires them from the
// memstore's end-of-pipe timestamps.
#include <algorithm>
#include <set>

#include "kmd/device.h"
#include "kmd/dispatch_state.h"

namespace tessera::kmd {

void Device::dispatcherMain() {
  for (;;) {
    Turn turn;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      workCv_.wait(lock, [&] { return stopping_ || (!paused_ && hasWorkLocked()); });
      if (stopping_) return;
      turn = takeTurnLocked();
    }
    Completions done;
    runTurn(turn, done);
    for (auto& [fn, r] : done) fn(r);
    {
      // Idle only once the callbacks ran: waitIdle() promises that they did.
      std::lock_guard<std::mutex> lock(mutex_);
      turnActive_ = false;
    }
    retireCv_.notify_all();
  }
}

bool Device::hasWorkLocked() const {
  return std::any_of(rings_.begin(), rings_.end(),
                     [](const auto& rs) { return !rs->replay.empty() || !rs->pending.empty(); });
}

Turn Device::takeTurnLocked() {
  Turn turn;
  // Ringbuffer 0 holds the highest priorities: it always goes first.
  auto it = std::find_if(rings_.begin(), rings_.end(), [](const auto& rs) {
    return !rs->replay.empty() || !rs->pending.empty();
  });
  if (it == rings_.end()) return turn;
  RingState& rs = **it;
  turn.ring = static_cast<int>(it - rings_.begin());

  std::set<const ContextState*> active;
  for (const Command& c : rs.replay) active.insert(c.context.get());
  for (const auto& c : rs.pending) active.insert(c.get());
  const size_t limit = active.size() <= 1 ? kInflightOneContext : kInflightShared;

  // A fault's replays go first, in their ring order, whatever the window: they were in flight.
  for (Command& c : rs.replay) turn.commands.push_back(std::move(c));
  rs.replay.clear();
  RingStats& ringStats = stats_.rings[turn.ring];
  while (turn.commands.size() < limit && !rs.pending.empty()) {
    std::shared_ptr<ContextState> c = rs.pending.front();
    rs.pending.pop_front();
    c->pending = false;
    const size_t n =
        std::min({size_t{kContextBurst}, limit - turn.commands.size(), c->queue.size()});
    for (size_t i = 0; i < n; ++i) {
      Command cmd = std::move(c->queue.front());
      c->queue.pop_front();
      // Recovery skipping to the end of a frame covers commands submitted after the fault too.
      if (c->recovery.skipToEndOfFrame) {
        cmd.skipAll = true;
        if (hasFlag(cmd.object.flags, DrawFlags::EndOfFrame)) c->recovery.skipToEndOfFrame = false;
      }
      ++c->inflight;
      turn.commands.push_back(std::move(cmd));
    }
    ++ringStats.bursts;
    addPendingLocked(c);  // back in line if it has more
  }
  ++stats_.turns;
  ++ringStats.turns;
  ringStats.commands += turn.commands.size();
  ringStats.maxInflight =
      std::max(ringStats.maxInflight, static_cast<uint32_t>(turn.commands.size()));
  turnActive_ = true;
  queueCv_.notify_all();
  return turn;
}

void Device::runTurn(Turn& turn, Completions& done) {
  std::unique_lock<std::mutex> memory(memoryMutex_);
  RingState& rs = *rings_[turn.ring];
  uint32_t dwords = 0;
  for (const Command& c : turn.commands)
    dwords +=
        kSegmentFixedDwords + kSegmentDwordsPerIb * static_cast<uint32_t>(c.object.ibs.size());
  rs.ring->beginTurn(dwords);
  for (Command& c : turn.commands) {
    c.ringTimestamp = ++rs.timestamp;
    const SegmentPlan plan{c.context->id, c.timestamp,  c.ringTimestamp,
                           c.object.ibs,  c.skippedIbs, c.skipAll};
    c.segment = rs.ring->write(buildSegment(*memstore_, turn.ring, plan));
  }

  // The GPU consumes the ring one command at a time, so that each run's cycles are its own.
  size_t at = 0;
  std::optional<gpu::cp::CpFault> fault;
  std::vector<double> cycles;
  for (; at < turn.commands.size(); ++at) {
    Command& c = turn.commands[at];
    if (c.object.beforeRun) c.object.beforeRun(gpu_);
    try {
      fault = gpu_.submit(c.segment.address, c.segment.dwords);
      cycles.push_back(gpu_.lastTiming().cycles);
    } catch (const std::exception& e) {  // the model must not take the dispatcher down
      fault = gpu::cp::CpFault{gpu::FaultKind::BadState, c.segment.address, c.segment.address,
                               gpu::BusClient::CommandProcessor,
                               std::string("the GPU model stopped: ") + e.what()};
      cycles.push_back(0);
    }
    c.gpuCycles += cycles.back();
    // Retirement is the memstore's word: the end-of-pipe timestamp must have landed.
    const MemstoreSlot slot = memstore_->read(memstore_->contextSlot(c.context->id));
    if (!fault && !timestampReached(slot.eop, c.timestamp))
      fault = gpu::cp::CpFault{gpu::FaultKind::BadState, c.segment.address, c.segment.address,
                               gpu::BusClient::CommandProcessor,
                               "the command's end-of-pipe timestamp never landed (memstore "
                               "overwritten?)"};
    if (c.object.afterRun) c.object.afterRun(gpu_, fault);
    if (fault) {
      ++c.faults;
      break;
    }
  }

  std::lock_guard<std::mutex> lock(mutex_);
  stats_.gpuSubmits += cycles.size();
  for (size_t i = 0; i < cycles.size(); ++i) turn.commands[i].context->stats.gpuCycles += cycles[i];
  for (size_t i = 0; i < at && i < turn.commands.size(); ++i) retireLocked(turn.commands[i], done);
  if (fault) recoverLocked(turn, at, *fault, done);
  retireCv_.notify_all();
  queueCv_.notify_all();
}

void Device::retireLocked(Command& c, Completions& done) {
  ContextState& s = *c.context;
  const bool skipped = c.skipAll || c.skippedIbs != 0;
  s.retired = c.timestamp;
  --s.inflight;
  ++(skipped ? s.stats.skipped : s.stats.retired);
  if (hasFlag(c.object.flags, DrawFlags::EndOfFrame)) s.recovery.onEndOfFrame();
  if (c.object.onRetire)
    done.emplace_back(
        std::move(c.object.onRetire),
        Retirement{s.id, c.timestamp, skipped ? RetireStatus::Skipped : RetireStatus::Retired,
                   c.gpuCycles, c.faults});
  eraseIfDrainedLocked(s);
}

void Device::endLocked(Command& c, RetireStatus status, bool inflight, Completions& done) {
  ContextState& s = *c.context;
  if (inflight) --s.inflight;
  if (status == RetireStatus::Lost) ++s.stats.lost;
  if (c.object.onRetire)
    done.emplace_back(std::move(c.object.onRetire),
                      Retirement{s.id, c.timestamp, status, c.gpuCycles, c.faults});
}

}  // namespace tessera::kmd
