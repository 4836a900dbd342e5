#include "driver/query.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.h"
#include "gpu/pipeline/countables.h"

namespace tessera::driver {

using gpu::cp::CommandWriter;
using gpu::cp::Event;
using gpu::cp::Opcode;
using gpu::cp::Reg;
using gpu::cp::RenderMode;
using pipe::QueryType;

namespace {

constexpr uint32_t kSampleBytes = 8;
constexpr uint32_t kScratchBase = 1u << 31;  // CP_REG_TO_MEM: relative to CP_SCRATCH[1]:[0]
// Occlusion sample points run in the passes that draw pixels.
constexpr uint32_t kDrawingModes =
    1u << static_cast<uint32_t>(RenderMode::Sysmem) | 1u << static_cast<uint32_t>(RenderMode::Gmem);
constexpr uint32_t kPerfCounters = 16;  // RBBM_PERFCTR_SEL/LO/HI[n]

uint32_t lo(gpu::GpuAddress a) {
  return static_cast<uint32_t>(a);
}
uint32_t hi(gpu::GpuAddress a) {
  return static_cast<uint32_t>(a >> 32);
}

bool isOcclusion(QueryType t) {
  return t == QueryType::OcclusionCounter || t == QueryType::OcclusionPredicate ||
         t == QueryType::OcclusionConservative;
}

size_t hardwareCounters() {
  return gpu::countables().size();
}

std::vector<pipe::CounterInfo> buildCounterList() {
  std::vector<pipe::CounterInfo> list;
  for (const gpu::Countable& c : gpu::countables())
    list.push_back({std::string(gpu::kCounterGroupNames[static_cast<size_t>(c.group)]),
                    std::string(c.name), std::string(c.description), true, false});
  for (const SoftwareCounterInfo& c : kSoftwareCounters)
    list.push_back(
        {"driver", std::string(c.name), std::string(c.description), false, c.perDraw != nullptr});
  return list;
}

// A CP_REG_TO_MEM of counter `select` (into RBBM_PERFCTR n) to `dst` (relative to CP_SCRATCH
// when `relative`).
void readCounter(CommandWriter& w, uint32_t select, uint32_t n, uint64_t dst, bool relative) {
  const bool clock = select == gpu::cp::kAlwaysOnCounter;
  if (!clock) w.reg(Reg::RBBM_PERFCTR_SEL, select, n);
  const uint32_t reg = clock ? gpu::cp::regOffset(Reg::RBBM_ALWAYSON_COUNTER_LO)
                             : gpu::cp::regOffset(Reg::RBBM_PERFCTR_LO, n);
  w.packet(Opcode::CP_REG_TO_MEM,
           {reg | 2u << 16 | (relative ? kScratchBase : 0u), lo(dst), relative ? 0u : hi(dst)});
}

}  // namespace

std::span<const pipe::CounterInfo> QueryTable::counterList() {
  static const std::vector<pipe::CounterInfo> list = buildCounterList();
  return list;
}

QueryBuffer::QueryBuffer(gpu::GpuMemory& m, uint32_t rowCount, uint32_t slots)
    : memory(m), rows(rowCount), stride(slots * kSampleBytes) {
  const uint64_t bytes = uint64_t{rows} * stride;
  address = memory.allocate(bytes, "query samples");
  // CP_REG_WRITE_ADD adds to the low address dword only: the buffer must not cross 4 GiB.
  if (hi(address) != hi(address + bytes)) {
    memory.release(address);
    address = memory.allocate(bytes, "query samples");
  }
}

uint64_t QueryBuffer::sample(uint32_t row, uint32_t slot) const {
  return memory.read64(gpu::BusClient::Host,
                       address + uint64_t{row} * stride + slot * kSampleBytes);
}

QueryTable::Query& QueryTable::get(pipe::QueryId id, const char* what) {
  if (id == 0 || id > queries_.size() || !queries_[id - 1].exists)
    throw Error(std::string(what) + ": query " + std::to_string(id) + " does not exist");
  return queries_[id - 1];
}

const QueryTable::Query& QueryTable::get(pipe::QueryId id, const char* what) const {
  return const_cast<QueryTable*>(this)->get(id, what);
}

QueryTable::~QueryTable() {
  for (Query& q : queries_)
    if (q.accumulator) memory_.release(q.accumulator);
}

void QueryTable::releaseAccumulator(Query& q) {
  if (!q.accumulator) return;
  BatchQueries* writer = nullptr;
  for (const Period& p : q.periods)
    if (p.batch) writer = p.batch;
  if (writer)
    writer->retiredAccumulators.push_back(q.accumulator);
  else
    release(q.accumulator);
  q.accumulator = 0;
}

void QueryTable::release(gpu::GpuAddress accumulator) {
  if (context_.releaseLater) {
    context_.releaseLater(accumulator);
  } else {
    memory_.release(accumulator);
  }
}

void QueryTable::releaseRetired(BatchQueries& batch) {
  for (gpu::GpuAddress a : batch.retiredAccumulators) release(a);
  batch.retiredAccumulators.clear();
}

pipe::QueryId QueryTable::add(Query q) {
  q.exists = true;
  queries_.push_back(std::move(q));
  return static_cast<pipe::QueryId>(queries_.size());
}

pipe::QueryId QueryTable::create(QueryType type) {
  if (type == QueryType::Counters)
    throw Error("createQuery: a counters query is made with createCounterQuery");
  Query q;
  q.type = type;
  if (type == QueryType::TimeElapsed || type == QueryType::Timestamp)
    q.selects = {gpu::cp::kAlwaysOnCounter};
  if (type == QueryType::PrimitivesGenerated)
    q.selects = {gpu::counterSelect(*gpu::findCountable("pc.primitives_generated"))};
  return add(std::move(q));
}

pipe::QueryId QueryTable::createCounters(std::span<const uint32_t> counters) {
  if (counters.empty()) throw Error("createCounterQuery: no counter chosen");
  Query q;
  q.type = QueryType::Counters;
  for (uint32_t c : counters) {
    if (c >= counterList().size())
      throw Error("createCounterQuery: counter " + std::to_string(c) + " does not exist (" +
                  std::to_string(counterList().size()) + " counters)");
    q.counters.push_back(c);
    if (c < hardwareCounters()) q.selects.push_back(gpu::counterSelect(c));
  }
  // A query of software counters only takes no GPU sample; it still needs a slot to hold on to
  // its periods, so it samples the first countable and ignores it.
  if (q.selects.empty()) q.selects.push_back(gpu::counterSelect(0));
  return add(std::move(q));
}

void QueryTable::destroy(pipe::QueryId id) {
  Query& q = get(id, "destroyQuery");
  if (q.running) throw Error("destroyQuery: query " + std::to_string(id) + " is running");
  releaseAccumulator(q);
  q = Query{};
}

uint32_t QueryTable::sample(Query& q, BatchQueries& batch, CommandWriter& w, bool stop) {
  CommandWriter body;
  const uint32_t n = q.values();
  uint32_t slot = 0;
  const bool occlusion = isOcclusion(q.type);
  if (occlusion) ++batch.occlusionSamples;
  if (scheme_ == QueryScheme::PerBin) {
    slot = batch.slots;
    batch.slots += n;
    if (occlusion) {
      body.packet(Opcode::CP_REG_WRITE_ADD,
                  {gpu::cp::regOffset(Reg::RB_SAMPLE_COUNT_ADDR_LO, 0),
                   gpu::cp::regOffset(Reg::CP_SCRATCH, 0), slot * kSampleBytes});
      body.event(Event::ZPASS_DONE);
    } else {
      for (uint32_t k = 0; k < n; ++k)
        readCounter(body, q.selects[k], k % kPerfCounters, (slot + k) * kSampleBytes, true);
    }
  } else {
    const gpu::GpuAddress at = q.accumulator + (stop ? n * kSampleBytes : 0);
    if (occlusion) {
      body.address(Reg::RB_SAMPLE_COUNT_ADDR_LO, Reg::RB_SAMPLE_COUNT_ADDR_HI, at);
      body.event(Event::ZPASS_DONE);
    } else {
      for (uint32_t k = 0; k < n; ++k)
        readCounter(body, q.selects[k], k % kPerfCounters, at + k * kSampleBytes, false);
    }
    if (stop) {
      // result += stop − start, in this pass.
      for (uint32_t k = 0; k < n; ++k) {
        const gpu::GpuAddress start = q.accumulator + k * kSampleBytes;
        const gpu::GpuAddress end = at + k * kSampleBytes;
        const gpu::GpuAddress result = q.accumulator + (2 * n + k) * kSampleBytes;
        body.packet(Opcode::CP_MEM_TO_MEM,
                    {3u, lo(result), hi(result), lo(end), hi(end), lo(start), hi(start)});
      }
    }
  }
  if (occlusion) {
    w.packet(Opcode::CP_COND_MODE_EXEC, {kDrawingModes, body.size()});
  }
  w.append(body);
  return slot;
}

void QueryTable::startPeriod(Query& q, BatchQueries& batch, CommandWriter& w) {
  Period p;
  p.batch = &batch;
  p.start = sample(q, batch, w, false);
  q.periods.push_back(p);
}

void QueryTable::stopPeriod(pipe::QueryId id, Query& q, BatchQueries& batch, CommandWriter& w) {
  Period& p = q.periods.back();
  p.stop = sample(q, batch, w, true);
  p.stopped = true;
  std::erase(batch.running, id);
}

void QueryTable::begin(pipe::QueryId id, BatchQueries& batch, CommandWriter& draws) {
  Query& q = get(id, "beginQuery");
  if (q.type == QueryType::Timestamp)
    throw Error("beginQuery: query " + std::to_string(id) +
                " is a timestamp query (recordTimestamp takes it)");
  if (q.running) throw Error("beginQuery: query " + std::to_string(id) + " is already running");
  // A new result: earlier periods are forgotten. Accumulate: a fresh, zeroed accumulator, so
  // that a stop still pending in this batch cannot add to the new result.
  releaseAccumulator(q);
  q.periods.clear();
  if (scheme_ == QueryScheme::Accumulate)
    q.accumulator = memory_.allocate(3 * q.values() * kSampleBytes, "query accumulator");
  if (context_.software) q.softwareStart = *context_.software;
  q.softwareTotal = {};
  q.running = q.begun = true;
  batch.running.push_back(id);
  startPeriod(q, batch, draws);
}

void QueryTable::end(pipe::QueryId id, BatchQueries& batch, CommandWriter& draws) {
  Query& q = get(id, "endQuery");
  if (!q.running) throw Error("endQuery: query " + std::to_string(id) + " is not running");
  q.running = false;
  stopPeriod(id, q, batch, draws);
  if (context_.software) {
    // Plain counts: what happened since begin (the software counters only grow).
    const SoftwareCounters& now = *context_.software;
    for (const SoftwareCounterInfo& c : kSoftwareCounters)
      q.softwareTotal.*c.member = now.*c.member - q.softwareStart.*c.member;
  }
}

void QueryTable::timestamp(pipe::QueryId id, BatchQueries* batch) {
  Query& q = get(id, "recordTimestamp");
  if (q.type != QueryType::Timestamp)
    throw Error("recordTimestamp: query " + std::to_string(id) + " is not a timestamp query");
  releaseAccumulator(q);
  q.periods.clear();
  q.begun = true;
  q.cpuTimestampSet = false;
  if (!batch) {
    // Nothing is waiting to run: the GPU clock now is when the earlier work was done.
    q.cpuTimestamp = context_.clockCycles ? context_.clockCycles() : 0;
    q.cpuTimestampSet = true;
    return;
  }
  q.accumulator = memory_.allocate(kSampleBytes, "timestamp");
  readCounter(batch->tail, gpu::cp::kAlwaysOnCounter, 0, q.accumulator, false);
  Period p;
  p.batch = batch;
  p.stopped = true;
  q.periods.push_back(p);
  batch->timestamps.push_back(id);
}

void QueryTable::batchStarted(BatchQueries& batch) {
  for (size_t i = 0; i < queries_.size(); ++i) {
    Query& q = queries_[i];
    if (!q.running) continue;
    batch.running.push_back(static_cast<pipe::QueryId>(i + 1));
    startPeriod(q, batch, batch.prologue);
  }
}

void QueryTable::batchEnding(BatchQueries& batch) {
  const std::vector<pipe::QueryId> running = batch.running;
  for (pipe::QueryId id : running) stopPeriod(id, queries_[id - 1], batch, batch.epilogue);
}

void QueryTable::emitPassBase(BatchQueries& batch, uint32_t rows, uint32_t row,
                              CommandWriter& ib0) {
  if (scheme_ != QueryScheme::PerBin || batch.slots == 0) return;
  if (!batch.buffer) batch.buffer = std::make_shared<QueryBuffer>(memory_, rows, batch.slots);
  const QueryBuffer& b = *batch.buffer;
  ib0.reg(Reg::CP_SCRATCH, lo(b.address) + row * b.stride, 0);
  ib0.reg(Reg::CP_SCRATCH, hi(b.address), 1);
  ib0.reg(Reg::RB_SAMPLE_COUNT_ADDR_HI, hi(b.address));
}

void QueryTable::batchSubmitted(BatchQueries& batch, uint64_t fence) {
  for (Query& q : queries_)
    for (Period& p : q.periods)
      if (p.batch == &batch) {
        p.batch = nullptr;
        p.buffer = batch.buffer;
        p.fence = fence;
      }
  // The accumulators it retired are freed when the driver reaps it (releaseRetired).
}

void QueryTable::batchDropped(BatchQueries& batch) {
  // Nothing was drawn: the periods of this batch count no sample, and a timestamp in it is
  // the clock now.
  for (pipe::QueryId id : batch.timestamps) {
    Query& q = queries_[id - 1];
    if (!q.exists) continue;
    q.cpuTimestamp = context_.clockCycles ? context_.clockCycles() : 0;
    q.cpuTimestampSet = true;
  }
  for (Query& q : queries_)
    std::erase_if(q.periods, [&](const Period& p) { return p.batch == &batch; });
  releaseRetired(batch);
}

bool QueryTable::pendingIn(pipe::QueryId id, const BatchQueries& batch) const {
  for (const Period& p : get(id, "query").periods)
    if (p.batch == &batch) return true;
  return false;
}

uint64_t QueryTable::fence(pipe::QueryId id) const {
  uint64_t last = 0;
  for (const Period& p : get(id, "query").periods) last = std::max(last, p.fence);
  return last;
}

bool QueryTable::running(pipe::QueryId id) const {
  return get(id, "query").running;
}

std::vector<uint64_t> QueryTable::hardwareValues(const Query& q) const {
  const uint32_t n = q.values();
  std::vector<uint64_t> values(n, 0);
  if (q.periods.empty()) return values;  // every period's batch was dropped: nothing ran
  if (scheme_ == QueryScheme::Accumulate) {
    for (uint32_t k = 0; k < n; ++k)
      values[k] = memory_.read64(gpu::BusClient::Host, q.accumulator + (2 * n + k) * kSampleBytes);
    return values;
  }
  for (const Period& p : q.periods)
    for (uint32_t row = 0; row < p.buffer->rows; ++row)
      for (uint32_t k = 0; k < n; ++k)
        values[k] += p.buffer->sample(row, p.stop + k) - p.buffer->sample(row, p.start + k);
  return values;
}

uint64_t QueryTable::nanoseconds(uint64_t cycles) const {
  return context_.clockMHz > 0 ? static_cast<uint64_t>(std::llround(static_cast<double>(cycles) *
                                                                    1e3 / context_.clockMHz))
                               : cycles;
}

pipe::QueryResult QueryTable::result(pipe::QueryId id, uint64_t retired) const {
  const Query& q = get(id, "queryResult");
  if (!q.begun) throw Error("queryResult: query " + std::to_string(id) + " was never begun");
  if (q.running) return {};
  for (const Period& p : q.periods)
    if (p.batch || p.fence > retired) return {};
  pipe::QueryResult r;
  r.available = true;
  switch (q.type) {
    case QueryType::Timestamp:
      r.value = nanoseconds(q.cpuTimestampSet || !q.accumulator
                                ? q.cpuTimestamp
                                : memory_.read64(gpu::BusClient::Host, q.accumulator));
      return r;
    case QueryType::TimeElapsed:
      r.value = nanoseconds(hardwareValues(q)[0]);
      return r;
    case QueryType::Counters:
      break;
    default: {
      const uint64_t v = hardwareValues(q)[0];
      r.value =
          q.type == QueryType::OcclusionPredicate || q.type == QueryType::OcclusionConservative
              ? uint64_t{v > 0}
              : v;
      return r;
    }
  }
  const std::vector<uint64_t> hw = hardwareValues(q);
  size_t next = 0;
  for (uint32_t c : q.counters) {
    if (c < hardwareCounters()) {
      r.counters.push_back(static_cast<double>(hw[next++]));
      continue;
    }
    const SoftwareCounterInfo& s = kSoftwareCounters[c - hardwareCounters()];
    const double value = static_cast<double>(q.softwareTotal.*s.member);
    if (!s.perDraw) {
      r.counters.push_back(value);
      continue;
    }
    const uint64_t per = q.softwareTotal.*s.perDraw;
    r.counters.push_back(per ? value / static_cast<double>(per) : 0.0);
  }
  return r;
}

}  // namespace tessera::driver
