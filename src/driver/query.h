// Hardware occlusion queries that stay exact across bins and batches (seed on Adreno queries).
// A query's life is a list of periods, one per batch it spans: the driver stops it when a
// batch is flushed and restarts it in the next. Each start or stop is a sample point in the draw
// IB, which every bin replays, so a sample is taken once per bin:
// - PerBin (Adreno a3xx/a4xx): the batch's sample points get slots; per bin, IB0 sets CP_SCRATCH0
//   to the bin's row of a per-batch buffer (bins × slots × 8 bytes) and each point writes the
//   render backend's sample counter (ZPASS_DONE) at CP_SCRATCH0 + slot × 8 (CP_REG_WRITE_ADD).
//   The result is the sum over periods and bins of stop − start, added up by the CPU.
// - Accumulate (newer Adreno): each query owns {start, stop, result}; every stop point adds
//   stop − start to the result on the GPU (CP_MEM_TO_MEM), bin after bin, batch after batch.
// Sample points are skipped in the binning pass (CP_COND_MODE_EXEC), which has no samples. A
// result is available once the fence of the query's last period has retired.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/cp/command_writer.h"
#include "gpu/mem/gpu_memory.h"
#include "pipe/context.h"

namespace tessera::driver {

enum class QueryScheme : uint8_t { PerBin, Accumulate };

// A batch's per-bin sample buffer (PerBin): bins × slots × 8 bytes.
struct QueryBuffer {
  QueryBuffer(gpu::GpuMemory& memory, uint32_t bins, uint32_t slots);
  ~QueryBuffer() { memory.release(address); }
  QueryBuffer(const QueryBuffer&) = delete;
  QueryBuffer& operator=(const QueryBuffer&) = delete;
  uint64_t sample(uint32_t bin, uint32_t slot) const;

  gpu::GpuMemory& memory;
  gpu::GpuAddress address = 0;
  uint32_t bins = 0, stride = 0;  // stride: bytes per bin
};

// What a batch holds of the queries: its sample slots and the queries running in it.
struct BatchQueries {
  uint32_t slots = 0;    // PerBin sample slots
  uint32_t samples = 0;  // sample points, either scheme
  std::vector<pipe::QueryId> running;
  std::shared_ptr<QueryBuffer> buffer;  // PerBin, allocated when the batch is flushed
};

class QueryTable final {
 public:
  QueryTable(gpu::GpuMemory& memory, QueryScheme scheme) : memory_(memory), scheme_(scheme) {}

  pipe::QueryId create(pipe::QueryType type);
  void destroy(pipe::QueryId id);
  // Start or stop a query in the batch being recorded (its draw IB gets a sample point).
  // Errors (tessera::Error): an unknown id, beginning a running query, ending a stopped one.
  void begin(pipe::QueryId id, BatchQueries& batch, gpu::cp::CommandWriter& draws);
  void end(pipe::QueryId id, BatchQueries& batch, gpu::cp::CommandWriter& draws);
  // A new batch: every running query restarts in it.
  void batchStarted(BatchQueries& batch, gpu::cp::CommandWriter& draws);
  // The batch is being flushed: running queries stop at its end (draws gets their stop points).
  void batchEnding(BatchQueries& batch, gpu::cp::CommandWriter& draws);
  // IB0 of the flushed batch, before bin `bin`'s draw IB: the bin's sample base (PerBin). The
  // buffer is allocated on the first call, for `bins` bins.
  void emitBinBase(BatchQueries& batch, uint32_t bins, uint32_t bin, gpu::cp::CommandWriter& ib0);
  // The batch was submitted with `fence`, or dropped without running (its periods count 0).
  void batchSubmitted(BatchQueries& batch, uint64_t fence);
  void batchDropped(BatchQueries& batch);
  // Whether the query has a period in the batch being recorded (it needs a flush to finish).
  bool pendingIn(pipe::QueryId id, const BatchQueries& batch) const;
  // The result, if every period's fence is at most `retired`.
  pipe::QueryResult result(pipe::QueryId id, uint64_t retired) const;
  bool running(pipe::QueryId id) const;

 private:
  struct Period {
    std::shared_ptr<QueryBuffer> buffer;  // PerBin; null while its batch is recorded
    uint32_t start = 0, stop = 0;
    bool stopped = false;
    const BatchQueries* batch = nullptr;  // while recorded
    uint64_t fence = 0;
  };
  struct Query {
    pipe::QueryType type = pipe::QueryType::OcclusionCounter;
    bool exists = false, running = false, begun = false;
    std::vector<Period> periods;
    gpu::GpuAddress accumulator = 0;  // Accumulate: start, stop, result (3 × 8 bytes)
  };
  Query& get(pipe::QueryId id, const char* what);
  const Query& get(pipe::QueryId id, const char* what) const;
  // Frees the accumulator unless a batch being recorded may still write it (then it stays
  // allocated: a few bytes).
  void releaseAccumulator(Query& q);
  // A sample point in the draw IB for `q` (start or stop), returning its slot.
  uint32_t sample(Query& q, BatchQueries& batch, gpu::cp::CommandWriter& draws, bool stop);
  void startPeriod(Query& q, BatchQueries& batch, gpu::cp::CommandWriter& draws);
  void stopPeriod(pipe::QueryId id, Query& q, BatchQueries& batch, gpu::cp::CommandWriter& draws);

  gpu::GpuMemory& memory_;
  QueryScheme scheme_;
  std::vector<Query> queries_;  // id − 1
};

}  // namespace tessera::driver
