// Queries that stay exact across bins and batches (seed on Adreno queries; docs/queries.md).
// A query's life is a list of periods, one per batch it spans: the driver stops it when a batch
// is flushed and restarts it in the next. Each start or stop is a sample point: in the draw IB
// where the application began or ended it, or, for a query running when the batch starts or
// ends, in the batch's prologue or epilogue, which IB0 runs in every pass around the pass's
// restores, draws and resolves. Every pass takes its own samples:
// - PerBin (Adreno a3xx/a4xx): the batch's sample points get slots; per pass, IB0 sets
//   CP_SCRATCH[0..1] to the pass's row of a per-batch buffer (rows × slots × 8 bytes; a row per
//   bin, plus one for the binning pass) and each value is written at the row + slot × 8
//   (ZPASS_DONE at an address made by CP_REG_WRITE_ADD, counters by CP_REG_TO_MEM relative to
//   CP_SCRATCH). The result is the sum over periods and rows of stop − start, added by the CPU.
// - Accumulate (newer Adreno): each query owns {start, stop, result} per value; every stop point
//   adds stop − start to the result on the GPU (CP_MEM_TO_MEM), pass after pass.
// Occlusion samples are skipped in the binning pass (CP_COND_MODE_EXEC), which has no samples;
// time, primitive and counter samples run in every pass. A timestamp is written once, after the
// batch's last pass. A result is available once the fence of the query's last period retired.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "driver/software_counters.h"
#include "gpu/cp/command_writer.h"
#include "gpu/mem/gpu_memory.h"
#include "pipe/context.h"

namespace tessera::driver {

enum class QueryScheme : uint8_t { PerBin, Accumulate };

// A batch's per-pass sample buffer (PerBin): rows × slots × 8 bytes.
struct QueryBuffer {
  QueryBuffer(gpu::GpuMemory& memory, uint32_t rows, uint32_t slots);
  ~QueryBuffer() { memory.release(address); }
  QueryBuffer(const QueryBuffer&) = delete;
  QueryBuffer& operator=(const QueryBuffer&) = delete;
  uint64_t sample(uint32_t row, uint32_t slot) const;

  gpu::GpuMemory& memory;
  gpu::GpuAddress address = 0;
  uint32_t rows = 0, stride = 0;  // stride: bytes per row
};

// What a batch holds of the queries: its sample slots, the queries running in it and the
// sample points IB0 runs around every pass and after the last.
struct BatchQueries {
  uint32_t slots = 0;             // PerBin sample slots
  uint32_t occlusionSamples = 0;  // occlusion sample points, either scheme
  std::vector<pipe::QueryId> running;
  gpu::cp::CommandWriter prologue, epilogue;  // per pass: before restores, after resolves
  gpu::cp::CommandWriter tail;                // once, after the last pass (timestamps)
  std::vector<pipe::QueryId> timestamps;
  std::shared_ptr<QueryBuffer> buffer;  // PerBin, allocated when the batch is flushed
  // Accumulators of queries begun again (or destroyed) while this batch still writes the old
  // one: freed once the batch has run or been dropped.
  std::vector<gpu::GpuAddress> retiredAccumulators;
};

// What the query table needs from its context: the software counters and the GPU clock.
struct QueryContext {
  const SoftwareCounters* software = nullptr;
  std::function<uint64_t()> clockCycles;  // the GPU clock now, after all submitted work
  double clockMHz = 0;
  // Frees an accumulator once no submitted batch can still write it (null: at once).
  std::function<void(gpu::GpuAddress)> releaseLater;
};

class QueryTable final {
 public:
  QueryTable(gpu::GpuMemory& memory, QueryScheme scheme, QueryContext context)
      : memory_(memory), scheme_(scheme), context_(std::move(context)) {}
  // Frees the accumulators (the context is going and the GPU is done with them).
  ~QueryTable();
  QueryTable(const QueryTable&) = delete;
  QueryTable& operator=(const QueryTable&) = delete;

  // Every counter a Counters query can sample: the GPU's countables, then the driver's.
  static std::span<const pipe::CounterInfo> counterList();

  pipe::QueryId create(pipe::QueryType type);
  pipe::QueryId createCounters(std::span<const uint32_t> counters);
  void destroy(pipe::QueryId id);
  // Start or stop a query in the batch being recorded (its draw IB gets a sample point).
  // Errors (tessera::Error): an unknown id, beginning a running query, ending a stopped one,
  // beginning a Timestamp query.
  void begin(pipe::QueryId id, BatchQueries& batch, gpu::cp::CommandWriter& draws);
  void end(pipe::QueryId id, BatchQueries& batch, gpu::cp::CommandWriter& draws);
  // A Timestamp query: written after the last pass of `batch`, or now when there is none.
  void timestamp(pipe::QueryId id, BatchQueries* batch);
  // A new batch: every running query restarts in its prologue.
  void batchStarted(BatchQueries& batch);
  // The batch is being flushed: running queries stop in its epilogue.
  void batchEnding(BatchQueries& batch);
  // IB0 of the flushed batch, before pass `row` of `rows` (bins, then the binning pass): the
  // pass's sample base (PerBin). The buffer is allocated on the first call.
  void emitPassBase(BatchQueries& batch, uint32_t rows, uint32_t row, gpu::cp::CommandWriter& ib0);
  // The batch was submitted with `fence`, or dropped without running (its periods count 0).
  void batchSubmitted(BatchQueries& batch, uint64_t fence);
  void batchDropped(BatchQueries& batch);
  // Whether the query has a period in the batch being recorded (it needs a flush to finish).
  bool pendingIn(pipe::QueryId id, const BatchQueries& batch) const;
  // The result, if every period's fence is at most `retired`.
  pipe::QueryResult result(pipe::QueryId id, uint64_t retired) const;
  bool running(pipe::QueryId id) const;
  // Frees the accumulators a batch retired, once the batch has left the GPU or was dropped.
  void releaseRetired(BatchQueries& batch);
  // The timestamp of the last submitted batch the query's result needs (0: none).
  uint64_t fence(pipe::QueryId id) const;
  // GPU clock cycles in nanoseconds at the preset's clock (time queries, GL_TIMESTAMP_EXT).
  uint64_t nanoseconds(uint64_t cycles) const;

 private:
  struct Period {
    std::shared_ptr<QueryBuffer> buffer;  // PerBin; null while its batch is recorded
    uint32_t start = 0, stop = 0;         // first slots
    bool stopped = false;
    BatchQueries* batch = nullptr;  // while recorded
    uint64_t fence = 0;
  };
  struct Query {
    pipe::QueryType type = pipe::QueryType::OcclusionCounter;
    bool exists = false, running = false, begun = false;
    std::vector<Period> periods;
    // What each sample point writes: hardware countable selects (RBBM_PERFCTR_SEL), or one
    // value (the RB sample counter, the GPU clock) when empty.
    std::vector<uint32_t> selects;
    std::vector<uint32_t> counters;  // Counters: the indices into counterList()
    // Accumulate: start, stop, result per value; Timestamp: its value.
    gpu::GpuAddress accumulator = 0;
    uint64_t cpuTimestamp = 0;  // Timestamp taken with no batch: the clock then
    bool cpuTimestampSet = false;
    SoftwareCounters softwareStart, softwareTotal;
    uint32_t values() const { return selects.empty() ? 1u : static_cast<uint32_t>(selects.size()); }
  };
  Query& get(pipe::QueryId id, const char* what);
  const Query& get(pipe::QueryId id, const char* what) const;
  pipe::QueryId add(Query q);
  // Frees the accumulator, or hands it to the batch being recorded that may still write it.
  void releaseAccumulator(Query& q);
  void release(gpu::GpuAddress accumulator);
  // A sample point for `q` (start or stop) into `w`, returning its first slot.
  uint32_t sample(Query& q, BatchQueries& batch, gpu::cp::CommandWriter& w, bool stop);
  void startPeriod(Query& q, BatchQueries& batch, gpu::cp::CommandWriter& w);
  void stopPeriod(pipe::QueryId id, Query& q, BatchQueries& batch, gpu::cp::CommandWriter& w);
  // The sum over periods of each value's stop − start.
  std::vector<uint64_t> hardwareValues(const Query& q) const;

  gpu::GpuMemory& memory_;
  QueryScheme scheme_;
  QueryContext context_;
  std::vector<Query> queries_;  // id − 1
};

}  // namespace tessera::driver
