#include "kmd/stats.h"

#include <cstdio>

namespace tessera::kmd {

std::string formatContextTable(std::span<const ContextSummary> contexts) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%4s %-16s %4s %4s %9s %9s %7s %5s %6s %14s %s\n", "ctx", "name",
                "prio", "ring", "submitted", "retired", "skipped", "lost", "faults", "gpu cycles",
                "status");
  out += line;
  for (const ContextSummary& c : contexts) {
    std::string status(resetStatusName(c.reset));
    if (c.destroyed) status += ", destroyed";
    if (c.queued) status += ", " + std::to_string(c.queued) + " queued";
    std::snprintf(
        line, sizeof line, "%4u %-16.16s %4d %4d %9llu %9llu %7llu %5llu %6llu %14.0f %s\n", c.id,
        c.name.c_str(), c.priority, c.ring, static_cast<unsigned long long>(c.stats.submitted),
        static_cast<unsigned long long>(c.stats.retired),
        static_cast<unsigned long long>(c.stats.skipped),
        static_cast<unsigned long long>(c.stats.lost),
        static_cast<unsigned long long>(c.stats.faults), c.stats.gpuCycles, status.c_str());
    out += line;
  }
  return out;
}

}  // namespace tessera::kmd
