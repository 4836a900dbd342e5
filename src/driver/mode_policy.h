// The driver's per-batch choice between tile memory and system memory when the mode is `auto`,
// as freedreno's autotuner makes it (REFERENCES.md §1 "Per-batch flow"): bypass (sysmem) for a
// batch with no draws or no attachments; otherwise tile memory when the batch clears, tests
// depth or stencil, blends, is multisampled or has more than 5 draws; otherwise from the
// samples the last batches on the same framebuffer passed (the render backend's counter): tile
// memory when they averaged at least 500, else bypass. Binning then needs 2 bins and a draw.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "pipe/state.h"

namespace tessera::driver {

// What the policy looks at in a batch.
struct BatchFeatures {
  uint32_t draws = 0, clears = 0;
  bool attachments = false;   // a colour or depth/stencil surface is bound
  bool depthStencil = false;  // a draw tests depth or stencil
  bool blend = false;         // a draw blends
  bool multisample = false;
  pipe::Framebuffer framebuffer;  // the history's key
};

struct ModeDecision {
  bool sysmem = false;
  std::string reason;
};

class ModePolicy final {
 public:
  static constexpr uint32_t kMaxDraws = 5;             // more draws: tile memory
  static constexpr uint32_t kHistory = 5;              // batches remembered per framebuffer
  static constexpr uint64_t kMinAverageSamples = 500;  // fewer on average: bypass

  ModeDecision choose(const BatchFeatures& batch) const;
  // Whether choose() looks at the history for this batch: the driver then first waits for the
  // batches it has submitted, so that the choice does not depend on how far the GPU has got.
  bool needsHistory(const BatchFeatures& batch) const { return !byFeatures(batch); }
  // The batch on `fb` passed `samples` samples (its render backend's counter).
  void record(const pipe::Framebuffer& fb, uint64_t samples);

 private:
  // The decision the batch's own features make, if they make one.
  static std::optional<ModeDecision> byFeatures(const BatchFeatures& b);
  using Key = std::tuple<pipe::ResourceId, pipe::ResourceId, uint32_t, uint32_t>;
  static Key key(const pipe::Framebuffer& fb) { return {fb.color, fb.depth, fb.width, fb.height}; }
  std::map<Key, std::deque<uint64_t>> history_;
};

}  // namespace tessera::driver
