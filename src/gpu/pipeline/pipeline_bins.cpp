// The bins of a GMEM render pass on host threads (bin_jobs.h): the pass's pipeline records each
// bin's calls, bin workers run them, and the pass merges their counters in bin order.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <utility>

#include "common/counter_sum.h"
#include "gpu/pipeline/countables.h"
#include "gpu/pipeline/pipeline.h"

namespace tessera::gpu {

BinJob::BinJob() = default;
BinJob::BinJob(BinJob&&) noexcept = default;
BinJob::~BinJob() = default;

BinWorker::BinWorker(GpuMemory& memory, uint32_t gmemBytes)
    : gmem(gmemBytes), pipeline(memory, gmem) {
  pipeline.worker_ = true;
}

namespace {

// Recorded bins waiting to be merged, per host thread: enough to keep every thread busy while
// the CP records ahead, few enough that their GMEM copies stay small (at most kMaxJobs).
constexpr size_t kJobsPerThread = 4;
constexpr size_t kMaxJobs = 64;
// Bins whose host cost is remembered for scheduling.
constexpr size_t kMaxBinCosts = 4096;

}  // namespace

void Pipeline::setThreads(unsigned threads) {
  if (!jobs_.empty()) throw std::logic_error("Pipeline::setThreads during a submission");
  threads_ = std::clamp(threads, 1u, kMaxThreads);
  pool_.reset();
  if (threads_ > 1) pool_ = std::make_unique<ThreadPool>(threads_);
  // Sysmem passes draw here; a bin worker gets the pool when it takes a bin (beginBinJob).
  fragment_.setHelpers(pool_.get());
}

void Pipeline::record(BinCall call, const cp::RegisterFile* regs) {
  BinJob& job = jobFor(call.kind);
  if (cp_) call.packet = cp_->currentPacket();
  if (regs) {
    // One copy per register state, shared by the calls that see it.
    if (!regsSnapshot_ || snapshotGeneration_ != regs->generation()) {
      regsSnapshot_ = std::make_shared<const cp::RegisterFile>(*regs);
      snapshotGeneration_ = regs->generation();
    }
    call.regs = regsSnapshot_;
  }
  job.calls.push_back(std::move(call));
}

bool Pipeline::recordInBin(BinCall call, const cp::RegisterFile& regs) {
  if (!recordsBins() || !openJob()) return false;
  record(std::move(call), &regs);
  return true;
}

BinJob& Pipeline::jobFor(BinCall::Kind kind) {
  BinJob* open = openJob();
  const bool startsBin = kind == BinCall::Kind::SetBinData || kind == BinCall::Kind::SetBin;
  if (open && startsBin && open->record != SIZE_MAX) {
    closeJob(*open);
    open = nullptr;
  }
  if (open) return *open;
  // Enough bins are in flight: the oldest merges first, the others keep running.
  mergeFront(std::min(kJobsPerThread * threads_, kMaxJobs) - 1);
  BinJob& job = jobs_.emplace_back();
  if (!idleWorkers_.empty()) {
    job.worker = std::move(idleWorkers_.back());
    idleWorkers_.pop_back();
  } else {
    job.worker = std::make_unique<BinWorker>(memory_, gmem_.size());
  }
  job.worker->pipeline.beginBinJob(*this);
  return job;
}

void Pipeline::closeJob(BinJob& job) {
  job.closed = true;
  job.done = submitJob(job);
}

std::future<void> Pipeline::submitJob(BinJob& job) {
  const auto last = binCosts_.find(job.costKey);
  return submitTask([this, &job] { runJob(job); },  // runJob catches what the bin raises
                    last == binCosts_.end() ? 0 : last->second);
}

std::future<void> Pipeline::submitTask(std::function<void()> task, uint64_t cost) {
  if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
  auto finished = std::make_shared<std::promise<void>>();
  std::future<void> done = finished->get_future();
  pool_->submit(
      [task = std::move(task), finished] {
        task();
        finished->set_value();
      },
      cost);
  return done;
}

void Pipeline::awaitOnPool(std::future<void>& done) {
  // The CP's thread is one of the pool's: while it waits it runs queued tasks, bins and the
  // shading helpers the running bins ask for (FragmentStage), until the awaited one is done.
  pool_->runUntil(
      [&done] { return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
}

void Pipeline::beginBinJob(const Pipeline& pass) {
  fragment_.setHelpers(pass.threads_ > 1 ? pass.pool_.get() : nullptr);
  configureCores(pass.fragment_.cores(), pass.tex_.cache().config());
  privateLock_ = pass.privateLock_;
  resetStats();  // also empties the texture cache: every bin starts cold
  counterWrites_.clear();
  shaders_.invalidateInstructionCache();
  mode_ = cp::RenderMode::Gmem;
  reader_.reset();
  resolver_.endBin();
  lrz_.followBuffer(pass.lrz_);
  blocks_.followTable(pass.blocks_);
  binsInPass_ = pass.binsInPass_;
  passTriangles_ = 0;
  fragment_.setOverdrawMap(pass.overdraw_, pass.overdrawW_, pass.overdrawH_);
}

void Pipeline::runJob(BinJob& job) {
  Pipeline& w = job.worker->pipeline;
  // The worker sees the buffer objects the submission sees, and counts its own traffic.
  GpuMemory::ViewScope pin(memory_, runView_ ? runView_ : memory_.view());
  GpuMemory::BusCountingScope scope(memory_, job.bus);
  const auto start = std::chrono::steady_clock::now();
  // GMEM is zeroed here, on the bin's thread, rather than on the CP's as the job opens.
  if (!std::exchange(job.started, true)) w.gmem_.zero();
  for (const BinCall& c : job.calls) {
    if (job.error) break;
    try {
      w.runCall(c);
    } catch (...) {
      job.error = std::current_exception();
      job.errorPacket = c.packet;
    }
  }
  job.calls.clear();
  job.hostNanos += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count());
}

void Pipeline::runCall(const BinCall& c) {
  switch (c.kind) {
    case BinCall::Kind::SetBinData:
      setBinData(c.data, *c.regs);
      return;
    case BinCall::Kind::SetBin:
      setBin(*c.regs);
      return;
    case BinCall::Kind::Draw:
      draw(c.draw, *c.regs);
      return;
    case BinCall::Kind::Event:
      event(c.event, *c.regs);
      return;
    case BinCall::Kind::Counter:
      workerCounter(c);
      return;
  }
}

void Pipeline::workerCounter(const BinCall& c) {
  // Charged (and its address checked) now; the merge writes the value.
  memory_.write64(BusClient::CommandProcessor, c.dst, 0);
  const std::optional<size_t> index =
      c.select == cp::kAlwaysOnCounter ? std::nullopt : countableOfSelect(c.select);
  if (index && countables()[*index].read) {
    counterWrites_.push_back({c.dst, c.select, readCountable(*index, c.cp), shaders_.fetchCount()});
    return;
  }
  // The clock and busy cycles: read after timing, at this point of the bin.
  TimedCounter t;
  t.dst = c.dst;
  t.select = c.select;
  t.stretch = Stretch::Bin;
  t.done = sampleWork();
  t.done += c.cpWork;
  timedCounters_.push_back(t);
}

void Pipeline::sync() {
  if (jobs_.empty()) return;
  // The open bin's calls so far join the ended bins on the pool (the CP runs its share of them
  // while it waits); the bin stays open for the calls after this point.
  BinJob* open = openJob();
  std::future<void> openDone;
  if (open && !open->calls.empty()) openDone = submitJob(*open);
  mergeFront(open ? 1 : 0);
  if (open) {
    if (openDone.valid()) awaitOnPool(openDone);
    if (open->error) mergeFront(0);  // throws it
    mergeCounters(*open);
  }
}

void Pipeline::mergeFront(size_t keep) {
  while (jobs_.size() > keep) {
    BinJob& job = jobs_.front();
    if (job.closed) awaitOnPool(job.done);
    if (job.error) {
      const std::exception_ptr error = job.error;
      const GpuAddress packet = job.errorPacket;
      dropJobs();
      try {
        std::rethrow_exception(error);
      } catch (GpuFault& f) {
        f.setPacket(packet);
        throw;
      }
    }
    if (!job.closed) return;
    mergeJob(job);
    idleWorkers_.push_back(std::move(job.worker));
    jobs_.pop_front();
  }
}

void Pipeline::finishBins() {
  if (BinJob* open = openJob()) closeJob(*open);
  sync();
}

void Pipeline::dropJobs() {
  if (pool_) pool_->wait();
  for (BinJob& job : jobs_) idleWorkers_.push_back(std::move(job.worker));
  jobs_.clear();
}

void Pipeline::mergeCounters(BinJob& job) {
  Pipeline& w = job.worker->pipeline;
  // The pass's counters hold every bin before this one: the worker's values add to them.
  static const std::optional<size_t> kShaderFetchBytes =
      findCountable("bus.shader_fetch_read_bytes");
  for (; job.countersMerged < w.counterWrites_.size(); ++job.countersMerged) {
    const BinCounterWrite& c = w.counterWrites_[job.countersMerged];
    uint64_t value = c.local;
    if (c.select == kZpassSelect) {
      value += rb_.stats().samplesPassed;
    } else {
      const size_t countable = *countableOfSelect(c.select);
      value += readCountable(countable, cp::CpStats{});  // the CP's share is in c.local
      // Programs the pass had fetched before this bin cost it nothing (mergeJob).
      if (countable == kShaderFetchBytes)
        value -= shaders_.fetchedAgain(w.shaders_, c.programFetches);
    }
    std::memcpy(memory_.span(BusClient::CommandProcessor, c.dst, 8).data(), &value, 8);
  }
  for (; job.timedMerged < w.timedCounters_.size(); ++job.timedMerged) {
    TimedCounter t = w.timedCounters_[job.timedMerged];
    t.bin = job.record == SIZE_MAX ? 0 : job.record;
    timedCounters_.push_back(t);
    timedAddresses_.insert(t.dst);
  }
}

void Pipeline::mergeJob(BinJob& job) {
  mergeCounters(job);
  // The next run of this bin is predicted to cost what this one did (a bound on the table: a
  // program drawing ever new passes does not grow it without end).
  if (binCosts_.size() >= kMaxBinCosts) binCosts_.clear();
  binCosts_[job.costKey] = job.hostNanos;
  Pipeline& w = job.worker->pipeline;
  // Programs the pass had fetched already this submission cost the bin nothing.
  job.bus[BusClient::ShaderFetch].readBytes -= shaders_.absorbFetches(w.shaders_);
  perf::BlockWork work;
  {
    GpuMemory::BusCountingScope scope(memory_, job.bus);
    work = w.sampleWork();
  }
  if (job.record != SIZE_MAX && !w.stats_.bins.empty()) {
    BinRecord& r = stats_.bins[job.record];
    const BinRecord& b = w.stats_.bins.front();
    r.primitives += b.primitives;
    r.triangles += b.triangles;
    r.fragments += b.fragments;
    r.streamOverflow = b.streamOverflow;
    r.usedStream = b.usedStream;
    r.blockTable = b.blockTable;
    r.earlyResolves = b.earlyResolves;
    r.work += work;
    // The pass's own stretch of this bin holds only the CP's share: what is merged now is not
    // counted again when the stretch closes.
    stretchStart_ += work;
  }
  const PipelineStats& s = w.stats_;
  stats_.draws += s.draws;
  stats_.drawsSkipped += s.drawsSkipped;
  stats_.verticesShaded += s.verticesShaded;
  stats_.primitivesIn += s.primitivesIn;
  stats_.clears += s.clears;
  stats_.primitivesGenerated += s.primitivesGenerated;
  vfd_.addStats(w.vfd_.stats());
  sp_.addStats(w.sp_.stats());
  ras_.addStats(w.ras_.stats());
  rb_.addStats(w.rb_.stats());
  setup_.addStats(w.setup_.stats());
  tex_.addStats(w.tex_.stats());
  addCounters(fragment_.stats(), w.fragment_.stats());
  addCounters(lrz_.stats(), w.lrz_.stats());
  addCounters(resolver_.stats(), w.resolver_.stats());
  addCounters(blit_.stats(), w.blit_.stats());
  // Render-pass bins read streams; the binning pass's figures are the pass's own.
  writer_.stats().bytesRead += w.writer_.stats().bytesRead;
  std::vector<gmem::BlockResolveEvent>& events = w.resolver_.events();
  resolver_.events().insert(resolver_.events().end(), events.begin(), events.end());
  memory_.addStats(job.bus);
}

}  // namespace tessera::gpu
