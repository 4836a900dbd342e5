// Fault recovery (REFERENCES.md §2): the faulting command gets the next step of its context's
// policy (recovery_policy.h); commands behind it in the turn never ran and are replayed, which
// makes their contexts innocent; a context that runs out of steps is invalidated.
#include <algorithm>

#include "kmd/device.h"
#include "kmd/dispatch_state.h"
#include "kmd/snapshot.h"

namespace tessera::kmd {

namespace {

// Marks commands of `c` in [first, last) skipped up to and including the first end-of-frame
// one; true if that one was found.
template <typename It>
bool skipToEndOfFrame(It first, It last, const ContextState& c) {
  for (; first != last; ++first) {
    if (first->context.get() != &c) continue;
    first->skipAll = true;
    if (hasFlag(first->object.flags, DrawFlags::EndOfFrame)) return true;
  }
  return false;
}

}  // namespace

void Device::recoverLocked(Turn& turn, size_t at, const gpu::cp::CpFault& fault,
                           Completions& done) {
  RingState& rs = *rings_[turn.ring];
  Command& bad = turn.commands[at];
  ContextState& c = *bad.context;
  const MemstoreSlot ringSlot = memstore_->read(memstore_->ringSlot(turn.ring));
  const MemstoreSlot contextSlot = memstore_->read(memstore_->contextSlot(c.id));

  FaultRecord r;
  r.sequence = ++stats_.faults;
  r.context = c.id;
  r.contextName = c.name;
  r.timestamp = bad.timestamp;
  r.ring = turn.ring;
  // The ring's IB marker names the IB that was running, if this command had reached one.
  if (ringSlot.sop == bad.ringTimestamp && ringSlot.currentIb < bad.object.ibs.size())
    r.ibIndex = static_cast<int>(ringSlot.currentIb);
  r.fault = fault;
  r.hang = isHang(fault.kind);
  stats_.hangs += r.hang;
  r.replayAllowed = faultWindow_.recordFault(options_.clock());
  r.action = c.recovery.onFault(r.replayAllowed);
  // Outside every IB there is no IB to skip: skipping the command is the same step's intent.
  if (r.action == RecoveryAction::SkipIb && r.ibIndex < 0) {
    r.action = RecoveryAction::SkipCommand;
    c.recovery.onFault(true);  // and the context's next fault goes past it too
  }
  ++c.stats.faults;

  if (!options_.snapshotFolder.empty()) {
    // The faulting command and its neighbours, as they ran.
    std::vector<SnapshotCommand> around;
    for (size_t i = at > 0 ? at - 1 : 0; i <= std::min(at + 1, turn.commands.size() - 1); ++i) {
      const Command& cmd = turn.commands[i];
      around.push_back({cmd.context->id, cmd.timestamp, cmd.segment, cmd.object.ibs});
    }
    r.snapshotPath = writeFaultSnapshot(gpu_.memory(), options_.snapshotFolder,
                                        {&r, around, ringSlot, contextSlot});
  }

  const auto tailBegin = turn.commands.begin() + static_cast<std::ptrdiff_t>(at) + 1;
  switch (r.action) {
    case RecoveryAction::Replay:
      break;
    case RecoveryAction::SkipIb:
      bad.skippedIbs |= 1u << r.ibIndex;
      break;
    case RecoveryAction::SkipCommand:
      bad.skipAll = true;
      break;
    case RecoveryAction::SkipFrame:
      bad.skipAll = true;
      if (!hasFlag(bad.object.flags, DrawFlags::EndOfFrame) &&
          !skipToEndOfFrame(tailBegin, turn.commands.end(), c) &&
          !skipToEndOfFrame(c.queue.begin(), c.queue.end(), c))
        c.recovery.skipToEndOfFrame = true;  // the frame's end is not submitted yet
      break;
    case RecoveryAction::Invalidate:
      c.guilty = true;
      break;
  }

  // The new replay list: the faulting command, then what never ran behind it.
  std::deque<Command> replay;
  auto keep = [&](Command& cmd) {
    ++cmd.context->stats.replayed;
    replay.push_back(std::move(cmd));
  };
  if (c.guilty)
    endLocked(bad, RetireStatus::Lost, true, done);
  else
    keep(bad);
  for (auto it = tailBegin; it != turn.commands.end(); ++it) {
    ContextState& owner = *it->context;
    if (owner.guilty) {
      endLocked(*it, RetireStatus::Lost, true, done);
      continue;
    }
    if (&owner != &c) owner.innocent = true;
    keep(*it);
  }
  for (Command& cmd : rs.replay) replay.push_back(std::move(cmd));
  rs.replay = std::move(replay);

  if (c.guilty) {
    for (Command& cmd : c.queue) endLocked(cmd, RetireStatus::Lost, false, done);
    c.queue.clear();
    auto& pending = rs.pending;
    pending.erase(std::remove_if(pending.begin(), pending.end(),
                                 [&](const auto& p) { return p.get() == &c; }),
                  pending.end());
    c.pending = false;
  }
  faults_.push_back(std::move(r));
  eraseIfDrainedLocked(c);
}

}  // namespace tessera::kmd
