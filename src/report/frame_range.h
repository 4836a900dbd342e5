// Which frames a report covers: `N` or `A-B`, 1-based and inclusive (`tessera run --frames`,
// TESSERA_REPORT_FRAMES). Parsed in one place for the command and for libEGL.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tessera::report {

struct FrameRange {
  uint64_t first = 1, last = UINT64_MAX;  // every frame by default
  bool contains(uint64_t frame) const { return frame >= first && frame <= last; }
};

// `5` or `1-3`; nullopt unless both ends are >= 1 and first <= last.
std::optional<FrameRange> parseFrameRange(std::string_view text);

}  // namespace tessera::report
