#include "report/counters_json.h"

#include <cmath>
#include <string>

#include "common/error.h"
#include "gpu/pipeline/countables.h"

namespace tessera::report {

using nlohmann::json;

json busJson(const gpu::BusStats& b) {
  json j = json::object();
  for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i)
    j[std::string(gpu::kBusClientNames[i])] = {{"read_bytes", b.client[i].readBytes},
                                               {"write_bytes", b.client[i].writeBytes}};
  j["total_gpu_bytes"] = b.totalGpuBytes();
  return j;
}

namespace {

json workJson(const gpu::perf::BlockWork& w) {
  json j = json::object();
  for (const auto& f : gpu::perf::kWorkFields) j[std::string(f.name)] = w.*f.member;
  return j;
}

}  // namespace

json timingJson(const gpu::perf::SubmissionTiming& t) {
  using gpu::perf::Block;
  json busy = json::object(), percent = json::object();
  for (size_t i = 0; i < gpu::perf::kBlocks; ++i) {
    const auto b = static_cast<Block>(i);
    const std::string name(gpu::perf::blockName(b));
    busy[name] = t.busy[i];
    percent[name] = t.busyPercent(b);
  }
  double setup = 0, binning = 0;
  for (const auto& p : t.passes) {
    if (p.kind == gpu::perf::PassKind::Setup) setup += p.render.cycles;
    if (p.kind == gpu::perf::PassKind::Binning) binning += p.render.cycles;
  }
  return {{"cycles", t.cycles},      {"milliseconds", t.milliseconds()},
          {"clock_mhz", t.clockMHz}, {"bound", std::string(gpu::perf::blockName(t.bound))},
          {"busy_cycles", busy},     {"busy_percent", percent},
          {"setup_cycles", setup},   {"binning_cycles", binning}};
}

gpu::perf::SubmissionTiming frameTiming(std::span<const driver::BatchReport> batches) {
  gpu::perf::SubmissionTiming t;
  for (const auto& b : batches) gpu::perf::append(t, b.timing);
  return t;
}

gpu::CounterSources counterSources(const driver::BlockStats& s) {
  return {s.cp,  s.pipeline, s.vsc,      s.gmem, s.sp,         s.ras,          s.rb, s.pc,
          s.vfd, s.tex,      s.fragment, s.lrz,  s.blockTable, s.blockResolve, s.bus};
}

json blockCountersJson(const driver::BlockStats& s) {
  // The countable table, but for the bus (batchJson's "bytes") and busy cycles ("timing").
  const gpu::CounterSources sources = counterSources(s);
  json j = json::object();
  for (const gpu::Countable& c : gpu::countables()) {
    if (!c.read || c.group == gpu::CounterGroup::Bus) continue;
    j[std::string(gpu::kCounterGroupNames[static_cast<size_t>(c.group)])][std::string(c.name)] =
        c.read(sources);
  }
  return j;
}

json batchJson(const driver::BatchReport& b) {
  json j = blockCountersJson(b.stats);
  j["mode"] = std::string(driver::renderModeName(b.mode));
  j["reason"] = b.reason;
  j["draws"] = b.draws;
  j["clears"] = b.clears;
  j["restores"] = b.restores;
  j["resolves"] = b.resolves;
  j["visibility_overflow"] = b.visibilityOverflow;
  j["lrz"] = b.lrz;
  j["block_resolve"] = b.blockResolve;
  j["bytes"] = busJson(b.stats.bus);
  j["timing"] = timingJson(b.timing);
  json bins = json::array();
  const auto& rows = b.stats.pipeline.bins;
  // The timing model's passes end with one per window, in the same order.
  const auto& passes = b.timing.passes;
  const size_t first = passes.size() >= rows.size() ? passes.size() - rows.size() : 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    json row = {{"x", r.window.x0},
                {"y", r.window.y0},
                {"w", r.window.x1 - r.window.x0},
                {"h", r.window.y1 - r.window.y0},
                {"primitives", r.primitives},
                {"triangles", r.triangles},
                {"fragments", r.fragments},
                {"used_stream", r.usedStream},
                {"stream_overflow", r.streamOverflow},
                {"block_table", r.blockTable},
                {"early_resolves", r.earlyResolves.size()},
                {"work", workJson(r.work)}};
    if (first + i < passes.size()) {
      const auto& t = passes[first + i];
      row["load_cycles"] = t.load.cycles;
      row["render_cycles"] = t.render.cycles;
      row["store_cycles"] = t.store.cycles;
      row["bound"] = std::string(gpu::perf::blockName(t.bound));
    }
    bins.push_back(row);
  }
  j["per_bin"] = bins;
  if (b.layout)
    j["layout"] = {{"x", b.layout->x},
                   {"y", b.layout->y},
                   {"bin_w", b.layout->binW},
                   {"bin_h", b.layout->binH},
                   {"nx", b.layout->nx},
                   {"ny", b.layout->ny},
                   {"pipes", b.layout->pipes.size()},
                   {"gmem_used", b.layout->gmemUsed}};
  return j;
}

gpu::BusStats sumBus(std::span<const driver::BatchReport> batches) {
  gpu::BusStats s;
  for (const auto& b : batches)
    for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i) {
      s.client[i].readBytes += b.stats.bus.client[i].readBytes;
      s.client[i].writeBytes += b.stats.bus.client[i].writeBytes;
    }
  return s;
}

uint64_t countableValue(std::span<const driver::BatchReport> batches, size_t countable) {
  const gpu::Countable& c = gpu::countables()[countable];
  uint64_t sum = 0;
  for (const auto& b : batches)
    sum +=
        c.read
            ? c.read(counterSources(b.stats))
            : static_cast<uint64_t>(std::llround(b.timing.busy[static_cast<size_t>(c.busyBlock)]));
  return sum;
}

double countableValue(const json& frame, size_t countable) {
  const gpu::Countable& c = gpu::countables()[countable];
  const std::string name(c.name);
  const json* v = nullptr;
  if (c.group == gpu::CounterGroup::Busy) {
    v = &frame.at("timing").at("busy_cycles").at(name);
  } else if (c.group == gpu::CounterGroup::Bus) {
    // "<client>_read_bytes" / "<client>_write_bytes" of "bytes": {"<client>": {...}}.
    const bool write = name.ends_with("_write_bytes");
    const std::string client = name.substr(0, name.size() - (write ? 12 : 11));
    v = &frame.at("bytes").at(client).at(write ? "write_bytes" : "read_bytes");
  } else {
    v = &frame.at("counters")
             .at(std::string(gpu::kCounterGroupNames[static_cast<size_t>(c.group)]))
             .at(name);
  }
  return v->get<double>();
}

size_t requireCountable(const std::string& name) {
  if (const std::optional<size_t> c = gpu::findCountable(name)) return *c;
  std::string groups;
  for (std::string_view g : gpu::kCounterGroupNames)
    groups += (groups.empty() ? "" : ", ") + std::string(g);
  throw Error("unknown counter '" + name + "': counters are GROUP.NAME with GROUP one of " +
              groups + " (`tessera counters` lists them)");
}

void addCounters(json& a, const json& b) {
  if (a.is_null()) {
    a = b;
    return;
  }
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : b.items()) addCounters(a[key], value);
  } else if (a.is_number_unsigned() && b.is_number_unsigned()) {
    a = a.get<uint64_t>() + b.get<uint64_t>();
  } else if (a.is_number_integer() && b.is_number_integer()) {
    a = a.get<int64_t>() + b.get<int64_t>();
  } else if (a.is_number() && b.is_number()) {
    a = a.get<double>() + b.get<double>();
  }
}

}  // namespace tessera::report
