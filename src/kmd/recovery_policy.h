// The fault-recovery policy (REFERENCES.md §2): each fault of a context moves it one step along
// replay -> skip the faulting IB -> skip the command -> skip to the end of frame -> invalidate;
// a frame that completes without a fault starts the context over. More than kMaxFaultsInWindow
// faults inside kFaultWindow (device-wide) disables replay: a fault storm is not retried.
#pragma once
#include <array>
#include <chrono>
#include <deque>
#include <functional>

#include "kmd/limits.h"
#include "kmd/types.h"

namespace tessera::kmd {

using TimePoint = std::chrono::steady_clock::time_point;
// Where recovery reads the time: a real clock by default, a model clock in tests.
using Clock = std::function<TimePoint()>;

inline constexpr std::array<RecoveryAction, 5> kRecoveryPolicy = {
    RecoveryAction::Replay, RecoveryAction::SkipIb, RecoveryAction::SkipCommand,
    RecoveryAction::SkipFrame, RecoveryAction::Invalidate};

// The device's recent faults.
class FaultWindow final {
 public:
  // Records a fault at `now`; true while replay is still allowed (at most kMaxFaultsInWindow
  // faults, this one included, inside the window ending at `now`).
  bool recordFault(TimePoint now) {
    faults_.push_back(now);
    while (!faults_.empty() && now - faults_.front() >= kFaultWindow) faults_.pop_front();
    return faults_.size() <= kMaxFaultsInWindow;
  }
  size_t recentFaults() const { return faults_.size(); }

 private:
  std::deque<TimePoint> faults_;
};

// A context's place on the policy.
struct RecoveryState {
  size_t step = 0;                // index into kRecoveryPolicy of the next fault's action
  bool faultedThisFrame = false;  // a fault since the last end-of-frame command
  bool skipToEndOfFrame = false;  // commands are skipped until one flagged EndOfFrame

  // The action for a new fault; advances the step.
  RecoveryAction onFault(bool replayAllowed) {
    faultedThisFrame = true;
    if (step == 0 && !replayAllowed) step = 1;
    const RecoveryAction a = kRecoveryPolicy[step];
    if (step + 1 < kRecoveryPolicy.size()) ++step;
    return a;
  }
  // An EndOfFrame command retired: a clean frame resets the policy.
  void onEndOfFrame() {
    if (!faultedThisFrame) step = 0;
    faultedThisFrame = false;
  }
};

}  // namespace tessera::kmd
