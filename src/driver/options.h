// How the user-mode driver renders a batch (REFERENCES.md §1, seed 000): straight to system
// memory, tiled with the draw IB replayed per bin ("naive"), or tiled after a binning pass.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::driver {

enum class RenderMode : uint8_t { Sysmem, Naive, Binning };

constexpr std::string_view renderModeName(RenderMode m) {
  return m == RenderMode::Sysmem ? "sysmem" : m == RenderMode::Naive ? "naive" : "binning";
}
RenderMode parseRenderMode(std::string_view name);  // throws tessera::Error listing the modes

struct DriverOptions {
  RenderMode mode = RenderMode::Binning;  // the mode asked for; a batch may fall back (see report)
  bool captureStreams = false;            // keep each submission's buffers for `tessera dump`
  int priority = 8;  // the kernel context's priority: 0 highest .. 15 lowest (KGSL's)
};

}  // namespace tessera::driver
