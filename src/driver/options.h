// How the user-mode driver renders a batch (REFERENCES.md §1, seed 000): straight to system
// memory, tiled with the draw IB replayed per bin ("naive"), or tiled after a binning pass; or
// ("auto") chosen per batch by the driver's policy (mode_policy.h).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::driver {

enum class RenderMode : uint8_t { Sysmem, Naive, Binning, Auto };

constexpr std::string_view renderModeName(RenderMode m) {
  constexpr std::string_view kNames[] = {"sysmem", "naive", "binning", "auto"};
  return kNames[static_cast<size_t>(m)];
}
RenderMode parseRenderMode(std::string_view name);  // throws tessera::Error listing the modes

struct DriverOptions {
  // The mode asked for; a batch may fall back (see its report). Auto: the policy chooses.
  RenderMode mode = RenderMode::Binning;
  bool captureStreams = false;  // keep each submission's buffers for `tessera dump`
  int priority = 8;             // the kernel context's priority: 0 highest .. 15 lowest (KGSL's)
};

}  // namespace tessera::driver
