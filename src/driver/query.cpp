#include "driver/query.h"

#include <algorithm>
#include <string>

#include "common/error.h"

namespace tessera::driver {

using gpu::cp::CommandWriter;
using gpu::cp::Event;
using gpu::cp::Opcode;
using gpu::cp::Reg;
using gpu::cp::RenderMode;

namespace {

constexpr uint32_t kSampleBytes = 8;
// Sample points run in the passes that draw pixels.
constexpr uint32_t kDrawingModes =
    1u << static_cast<uint32_t>(RenderMode::Sysmem) | 1u << static_cast<uint32_t>(RenderMode::Gmem);

// `body` behind a CP_COND_MODE_EXEC that skips it in the binning pass.
void drawingPassesOnly(CommandWriter& draws, const CommandWriter& body) {
  draws.packet(Opcode::CP_COND_MODE_EXEC, {kDrawingModes, body.size()});
  draws.append(body);
}

uint32_t lo(gpu::GpuAddress a) {
  return static_cast<uint32_t>(a);
}
uint32_t hi(gpu::GpuAddress a) {
  return static_cast<uint32_t>(a >> 32);
}

}  // namespace

QueryBuffer::QueryBuffer(gpu::GpuMemory& m, uint32_t binCount, uint32_t slots)
    : memory(m), bins(binCount), stride(slots * kSampleBytes) {
  const uint64_t bytes = uint64_t{bins} * stride;
  address = memory.allocate(bytes, "query samples");
  // CP_REG_WRITE_ADD adds to the low address dword only: the buffer must not cross 4 GiB.
  if (hi(address) != hi(address + bytes)) {
    memory.release(address);
    address = memory.allocate(bytes, "query samples");
  }
}

uint64_t QueryBuffer::sample(uint32_t bin, uint32_t slot) const {
  return memory.read64(gpu::BusClient::Host,
                       address + uint64_t{bin} * stride + slot * kSampleBytes);
}

QueryTable::Query& QueryTable::get(pipe::QueryId id, const char* what) {
  if (id == 0 || id > queries_.size() || !queries_[id - 1].exists)
    throw Error(std::string(what) + ": query " + std::to_string(id) + " does not exist");
  return queries_[id - 1];
}

const QueryTable::Query& QueryTable::get(pipe::QueryId id, const char* what) const {
  return const_cast<QueryTable*>(this)->get(id, what);
}

void QueryTable::releaseAccumulator(Query& q) {
  for (const Period& p : q.periods)
    if (p.batch) return;
  if (q.accumulator) memory_.release(q.accumulator);
  q.accumulator = 0;
}

pipe::QueryId QueryTable::create(pipe::QueryType type) {
  Query q;
  q.type = type;
  q.exists = true;
  queries_.push_back(std::move(q));
  return static_cast<pipe::QueryId>(queries_.size());
}

void QueryTable::destroy(pipe::QueryId id) {
  Query& q = get(id, "destroyQuery");
  if (q.running) throw Error("destroyQuery: query " + std::to_string(id) + " is running");
  releaseAccumulator(q);
  q = Query{};
}

uint32_t QueryTable::sample(Query& q, BatchQueries& batch, CommandWriter& draws, bool stop) {
  CommandWriter body;
  uint32_t slot = 0;
  ++batch.samples;
  if (scheme_ == QueryScheme::PerBin) {
    slot = batch.slots++;
    body.packet(Opcode::CP_REG_WRITE_ADD,
                {gpu::cp::regOffset(Reg::RB_SAMPLE_COUNT_ADDR_LO, 0),
                 gpu::cp::regOffset(Reg::CP_SCRATCH, 0), slot * kSampleBytes});
    body.event(Event::ZPASS_DONE);
  } else {
    const gpu::GpuAddress at = q.accumulator + (stop ? kSampleBytes : 0);
    body.address(Reg::RB_SAMPLE_COUNT_ADDR_LO, Reg::RB_SAMPLE_COUNT_ADDR_HI, at);
    body.event(Event::ZPASS_DONE);
    if (stop) {
      // result += stop − start, in this bin.
      const gpu::GpuAddress start = q.accumulator, result = q.accumulator + 2 * kSampleBytes;
      body.packet(Opcode::CP_MEM_TO_MEM,
                  {3u, lo(result), hi(result), lo(at), hi(at), lo(start), hi(start)});
    }
  }
  drawingPassesOnly(draws, body);
  return slot;
}

void QueryTable::startPeriod(Query& q, BatchQueries& batch, CommandWriter& draws) {
  Period p;
  p.batch = &batch;
  p.start = sample(q, batch, draws, false);
  q.periods.push_back(p);
}

void QueryTable::stopPeriod(pipe::QueryId id, Query& q, BatchQueries& batch, CommandWriter& draws) {
  Period& p = q.periods.back();
  p.stop = sample(q, batch, draws, true);
  p.stopped = true;
  std::erase(batch.running, id);
}

void QueryTable::begin(pipe::QueryId id, BatchQueries& batch, CommandWriter& draws) {
  Query& q = get(id, "beginQuery");
  if (q.running) throw Error("beginQuery: query " + std::to_string(id) + " is already running");
  // A new result: earlier periods are forgotten. Accumulate: a fresh, zeroed accumulator, so
  // that a stop still pending in this batch cannot add to the new result.
  releaseAccumulator(q);
  q.periods.clear();
  if (scheme_ == QueryScheme::Accumulate) {
    q.accumulator = memory_.allocate(3 * kSampleBytes, "query accumulator");
  }
  q.running = q.begun = true;
  batch.running.push_back(id);
  startPeriod(q, batch, draws);
}

void QueryTable::end(pipe::QueryId id, BatchQueries& batch, CommandWriter& draws) {
  Query& q = get(id, "endQuery");
  if (!q.running) throw Error("endQuery: query " + std::to_string(id) + " is not running");
  q.running = false;
  stopPeriod(id, q, batch, draws);
}

void QueryTable::batchStarted(BatchQueries& batch, CommandWriter& draws) {
  for (size_t i = 0; i < queries_.size(); ++i) {
    Query& q = queries_[i];
    if (!q.running) continue;
    batch.running.push_back(static_cast<pipe::QueryId>(i + 1));
    startPeriod(q, batch, draws);
  }
}

void QueryTable::batchEnding(BatchQueries& batch, CommandWriter& draws) {
  const std::vector<pipe::QueryId> running = batch.running;
  for (pipe::QueryId id : running) stopPeriod(id, queries_[id - 1], batch, draws);
}

void QueryTable::emitBinBase(BatchQueries& batch, uint32_t bins, uint32_t bin, CommandWriter& ib0) {
  if (scheme_ != QueryScheme::PerBin || batch.slots == 0) return;
  if (!batch.buffer) batch.buffer = std::make_shared<QueryBuffer>(memory_, bins, batch.slots);
  const QueryBuffer& b = *batch.buffer;
  ib0.reg(Reg::CP_SCRATCH, lo(b.address) + bin * b.stride, 0);
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
}

void QueryTable::batchDropped(BatchQueries& batch) {
  // Nothing was drawn: the periods of this batch count no sample.
  for (Query& q : queries_)
    std::erase_if(q.periods, [&](const Period& p) { return p.batch == &batch; });
}

bool QueryTable::pendingIn(pipe::QueryId id, const BatchQueries& batch) const {
  for (const Period& p : get(id, "query").periods)
    if (p.batch == &batch) return true;
  return false;
}

bool QueryTable::running(pipe::QueryId id) const {
  return get(id, "query").running;
}

pipe::QueryResult QueryTable::result(pipe::QueryId id, uint64_t retired) const {
  const Query& q = get(id, "queryResult");
  if (!q.begun) throw Error("queryResult: query " + std::to_string(id) + " was never begun");
  if (q.running) return {};
  for (const Period& p : q.periods)
    if (p.batch || p.fence > retired) return {};
  uint64_t samples = 0;
  if (scheme_ == QueryScheme::Accumulate) {
    // Periods whose batch was dropped never reached the GPU and added nothing.
    if (!q.periods.empty())
      samples = memory_.read64(gpu::BusClient::Host, q.accumulator + 2 * kSampleBytes);
  } else {
    for (const Period& p : q.periods)
      for (uint32_t bin = 0; bin < p.buffer->bins; ++bin)
        samples += p.buffer->sample(bin, p.stop) - p.buffer->sample(bin, p.start);
  }
  const bool predicate = q.type != pipe::QueryType::OcclusionCounter;
  return {true, predicate ? uint64_t{samples > 0} : samples};
}

}  // namespace tessera::driver
