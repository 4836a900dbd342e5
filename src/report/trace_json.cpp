#include "report/trace_json.h"

#include <algorithm>

namespace tessera::report {
namespace {

using gpu::perf::Block;
using gpu::perf::PassKind;
using nlohmann::json;

// Track ids: the two engines first, then one per block.
constexpr int kEngineTrack = 1, kBlitTrack = 2, kFirstBlockTrack = 10;

json threadName(int tid, const std::string& name) {
  return {
      {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"name", "thread_name"}, {"args", {{"name", name}}}};
}

}  // namespace

json chromeTrace(const gpu::perf::SubmissionTiming& t, const std::string& title) {
  const double usPerCycle = t.clockMHz > 0 ? 1.0 / t.clockMHz : 0.0;
  json events = json::array();
  events.push_back(
      {{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", title}}}});
  events.push_back(threadName(kEngineTrack, "Rendering engine"));
  events.push_back(threadName(kBlitTrack, "Blit engine"));
  for (size_t b = 0; b < gpu::perf::kBlocks; ++b)
    events.push_back(threadName(kFirstBlockTrack + int(b),
                                std::string(gpu::perf::blockName(static_cast<Block>(b)))));

  auto slice = [&](int tid, const std::string& name, const gpu::perf::Phase& ph, json args) {
    if (ph.cycles <= 0) return;
    events.push_back({{"ph", "X"},
                      {"pid", 1},
                      {"tid", tid},
                      {"name", name},
                      {"ts", ph.start * usPerCycle},
                      {"dur", ph.cycles * usPerCycle},
                      {"args", std::move(args)}});
  };
  size_t bin = 0;
  for (const auto& p : t.passes) {
    const bool isBin = p.kind == PassKind::Bin;
    const std::string name =
        std::string(gpu::perf::passName(p.kind)) + (isBin ? " bin " + std::to_string(bin) : "");
    const std::string bound(gpu::perf::blockName(p.bound));
    slice(kEngineTrack, name, p.render, {{"cycles", p.render.cycles}, {"bound", bound}});
    if (isBin) {
      slice(kBlitTrack, "GMEM Load", p.load, {{"bin", bin}, {"cycles", p.load.cycles}});
      slice(kBlitTrack, "GMEM Store", p.store, {{"bin", bin}, {"cycles", p.store.cycles}});
      ++bin;
    }
    // Each block's busy cycles in the pass, from the pass's start (blocks run as a pipeline).
    for (size_t b = 0; b < gpu::perf::kBlocks; ++b) {
      const double busy = p.busy[b];
      if (busy <= 0) continue;
      const double start = isBin ? std::min(p.load.start, p.render.start) : p.render.start;
      slice(kFirstBlockTrack + int(b), name, {start, busy}, {{"cycles", busy}});
    }
    const double span = (isBin ? p.store.end() - p.load.start : p.render.cycles);
    if (span > 0) {
      const double util = 100.0 * p.busy[static_cast<size_t>(Block::Bus)] / span;
      events.push_back({{"ph", "C"},
                        {"pid", 1},
                        {"name", "bus utilisation %"},
                        {"ts", (isBin ? p.load.start : p.render.start) * usPerCycle},
                        {"args", {{"percent", std::min(100.0, util)}}}});
    }
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace tessera::report
