#include "kmd/fault.h"

namespace tessera::kmd {

std::string FaultRecord::describe() const {
  std::string s = "fault " + std::to_string(sequence) + " on context " + std::to_string(context) +
                  " \"" + contextName + "\" timestamp " + std::to_string(timestamp);
  if (ibIndex >= 0) s += " IB " + std::to_string(ibIndex);
  s += ": " + fault.describe();
  if (hang) s += " [hang]";
  s += "; recovery: " + std::string(recoveryActionName(action));
  if (!replayAllowed) s += " (replay disabled by the fault rate)";
  if (!snapshotPath.empty()) s += "; snapshot " + snapshotPath;
  return s;
}

}  // namespace tessera::kmd
