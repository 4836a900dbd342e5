#include "report/frame_range.h"

#include <charconv>

namespace tessera::report {
namespace {

bool parseNumber(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out >= 1;
}

}  // namespace

std::optional<FrameRange> parseFrameRange(std::string_view text) {
  FrameRange r;
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) {
    if (!parseNumber(text, r.first)) return std::nullopt;
    r.last = r.first;
    return r;
  }
  if (!parseNumber(text.substr(0, dash), r.first) || !parseNumber(text.substr(dash + 1), r.last) ||
      r.first > r.last)
    return std::nullopt;
  return r;
}

}  // namespace tessera::report
