#include "api/egl/egl_top.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace tessera::egl {

bool topRequested() {
  const char* v = std::getenv("TESSERA_TOP");
  return v && std::strcmp(v, "1") == 0;
}

void rememberContext(Display& d, const Context& c) {
  if (!d.top || !d.kernel) return;  // only a summary to come needs the row
  for (kmd::ContextSummary& s : d.kernel->contextSummaries()) {
    if (s.id != c.kernelId) continue;
    s.name = c.name;
    s.destroyed = true;
    d.finishedContexts.push_back(std::move(s));
  }
  d.topPending = true;
}

std::string contextSummary(const Display& d) {
  if (!d.kernel) return {};
  std::map<kmd::ContextId, std::string> names;
  for (const Context* c : d.contexts) names[c->kernelId] = c->name;
  std::vector<kmd::ContextSummary> rows = d.finishedContexts;
  for (kmd::ContextSummary& s : d.kernel->contextSummaries()) {
    if (const auto it = names.find(s.id); it != names.end()) s.name = it->second;
    rows.push_back(std::move(s));
  }
  const std::string table = kmd::formatContextTable(rows);
  const double clockMHz = d.device ? d.device->preset().clockMHz : 0;
  // The kernel's fixed-width lines, each led by one more column: GPU time in milliseconds.
  std::string out;
  size_t start = 0;
  for (size_t line = 0; start < table.size(); ++line) {
    const size_t end = table.find('\n', start);
    const size_t stop = end == std::string::npos ? table.size() : end;
    char ms[32];
    if (line == 0) {
      std::snprintf(ms, sizeof ms, "%10s ", "gpu ms");
    } else {
      const double cycles = rows[line - 1].stats.gpuCycles;
      std::snprintf(ms, sizeof ms, "%10.3f ", clockMHz > 0 ? cycles / (clockMHz * 1e3) : 0.0);
    }
    out += ms;
    out.append(table, start, stop - start);
    out += '\n';
    start = stop + 1;
  }
  return out;
}

void printContextSummary(Display& d, const char* when) {
  if (!d.top || !d.topPending || !d.kernel) return;
  const std::string table = contextSummary(d);
  std::fprintf(stderr, "tessera: contexts at %s (%s, %.0f MHz):\n%s", when,
               d.device ? std::string(d.device->preset().name).c_str() : "?",
               d.device ? d.device->preset().clockMHz : 0.0, table.c_str());
  std::fflush(stderr);
  d.finishedContexts.clear();
  d.topPending = false;
}

}  // namespace tessera::egl
