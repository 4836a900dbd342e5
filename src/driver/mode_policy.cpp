#include "driver/mode_policy.h"

namespace tessera::driver {

std::optional<ModeDecision> ModePolicy::byFeatures(const BatchFeatures& b) {
  if (b.draws == 0) return ModeDecision{true, "auto: sysmem, the batch has no draws"};
  if (!b.attachments) return ModeDecision{true, "auto: sysmem, nothing is bound to draw into"};
  // Features that make tile memory pay off (freedreno's gmem reasons).
  if (b.clears) return ModeDecision{false, "auto: gmem, the batch clears"};
  if (b.depthStencil) return ModeDecision{false, "auto: gmem, depth or stencil is tested"};
  if (b.blend) return ModeDecision{false, "auto: gmem, the batch blends"};
  if (b.multisample) return ModeDecision{false, "auto: gmem, the batch is multisampled"};
  if (b.draws > kMaxDraws)
    return ModeDecision{false, "auto: gmem, " + std::to_string(b.draws) + " draws (more than " +
                                   std::to_string(kMaxDraws) + ")"};
  return std::nullopt;
}

ModeDecision ModePolicy::choose(const BatchFeatures& b) const {
  if (auto d = byFeatures(b)) return *d;
  const auto h = history_.find(key(b.framebuffer));
  if (h == history_.end() || h->second.empty())
    return {true, "auto: sysmem, few draws and no history for this framebuffer"};
  uint64_t sum = 0;
  for (uint64_t s : h->second) sum += s;
  const uint64_t average = sum / h->second.size();
  const std::string figure = "the last " + std::to_string(h->second.size()) + " batches passed " +
                             std::to_string(average) + " samples on average";
  if (average < kMinAverageSamples) return {true, "auto: sysmem, " + figure};
  return {false, "auto: gmem, " + figure};
}

void ModePolicy::record(const pipe::Framebuffer& fb, uint64_t samples) {
  std::deque<uint64_t>& h = history_[key(fb)];
  h.push_back(samples);
  while (h.size() > kHistory) h.pop_front();
}

}  // namespace tessera::driver
