// The bins of a GMEM render pass run on host threads (issue: speed; DESIGN.md "Parallel
// bins"). The bins of a pass are independent by construction: each draws its own window into
// its own GMEM and resolves to its own pixels. So while the command processor walks the ring,
// the pipeline records each bin's calls (CP_SET_BIN_DATA, CP_SET_BIN, draws, events, counter
// reads) with the registers they saw, and a bin worker — a pipeline of its own, with its own
// GMEM, texture cache and counters, starting every bin from the same cold state — runs them.
// The pass merges the workers' counters in bin order, so images and every counter are the same
// for any number of threads.
//
// Where the CP itself touches memory (CpBackend::sync), every recorded call runs first. A
// counter read inside a bin (CP_REG_TO_MEM of a countable, ZPASS_DONE) is the worker's own part
// plus the pass's counters from before the bin, added at the merge: counters are sums, so the
// value equals that of running every bin in turn.
#pragma once
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <vector>

#include "gpu/cp/command_processor.h"
#include "gpu/perf/block_work.h"

namespace tessera::gpu {

// One call of the CP into the pipeline inside a bin.
struct BinCall {
  enum class Kind : uint8_t { SetBinData, SetBin, Draw, Event, Counter };
  Kind kind = Kind::Draw;
  GpuAddress packet = 0;  // the packet that made the call: a fault names it
  std::shared_ptr<const cp::RegisterFile> regs;
  cp::DrawPacket draw{};
  cp::BinData data{};
  cp::Event event{};
  uint32_t select = 0;     // Counter: the countable (RBBM_PERFCTR_SEL encoding, or the clock)
  GpuAddress dst = 0;      // Counter: where its value goes
  cp::CpStats cp{};        // Counter: the CP's counters at the read
  perf::BlockWork cpWork;  // Counter: the CP's share of the bin's work by then
};

// A counter value a worker wrote: its own part, to which the merge adds the pass's.
struct BinCounterWrite {
  GpuAddress dst = 0;
  uint32_t select = 0;  // kZpassSelect: ZPASS_DONE's sample count
  uint64_t local = 0;
  size_t programFetches = 0;  // programs the worker had fetched by then (ShaderCache)
};
inline constexpr uint32_t kZpassSelect = 0xfffffffeu;

struct BinWorker;  // a pipeline and its GMEM (pipeline.h)

// The recorded and not yet merged part of one bin.
struct BinJob {
  size_t record = SIZE_MAX;  // its BinRecord in the pass's stats, once CP_SET_BIN is recorded
  std::unique_ptr<BinWorker> worker;
  std::vector<BinCall> calls;  // recorded, not yet run
  bool closed = false;         // the bin has ended: no call will be added
  bool started = false;        // its worker has run calls (a sync runs an open bin's so far)
  std::future<void> done;      // closed: ready once a worker thread has run it
  BusStats bus;                // the worker's bus traffic
  std::exception_ptr error;    // what the worker raised; it runs nothing after
  GpuAddress errorPacket = 0;
  size_t countersMerged = 0, timedMerged = 0;  // worker's counter writes already merged
  // Host scheduling only, never a result: which bin of which pass of the submission this is,
  // and the host time its calls took, the prediction of its cost the next time the same bin
  // runs (the pool starts the costliest queued bin first).
  uint64_t costKey = 0;
  uint64_t hostNanos = 0;

  BinJob();
  BinJob(BinJob&&) noexcept;
  ~BinJob();
};

}  // namespace tessera::gpu
