// Performance counters read by CP_REG_TO_MEM (countables.h): block counters are read from the
// blocks' Stats when the packet runs; the GPU clock (RBBM_ALWAYSON_COUNTER) and the busy cycles
// exist only once the timing model has scheduled the submission, so those reads remember where
// in the submission they were taken and are written after it.
#include <cstring>
#include <numeric>

#include "gpu/pipeline/countables.h"
#include "gpu/pipeline/pipeline.h"

namespace tessera::gpu {

namespace {

const cp::CpStats kNoCpStats{};

double sum(const perf::BlockCycles& c) {
  return std::accumulate(c.begin(), c.end(), 0.0);
}

// How far into a stretch `done` of its `total` work is: the share of the block cycles it needs.
double progress(const Preset& preset, const perf::BlockWork& done, const perf::BlockWork& total) {
  const double all = sum(perf::blockCycles(preset, total));
  return all > 0 ? std::min(1.0, sum(perf::blockCycles(preset, done)) / all) : 1.0;
}

}  // namespace

uint64_t Pipeline::readCountable(size_t countable, const cp::CpStats& cp) {
  const CounterSources sources{cp,
                               stats_,
                               writer_.stats(),
                               blit_.stats(),
                               sp_.stats(),
                               ras_.stats(),
                               rb_.stats(),
                               setup_.stats(),
                               vfd_.stats(),
                               tex_.stats(),
                               fragment_.stats(),
                               lrz_.stats(),
                               blocks_.stats(),
                               resolver_.stats(),
                               memory_.stats()};
  return countables()[countable].read(sources);
}

void Pipeline::counterToMemory(uint32_t select, GpuAddress dst) {
  std::optional<size_t> index;
  if (select != cp::kAlwaysOnCounter) {
    index = countableOfSelect(select);
    if (!index)
      throw GpuFault(FaultKind::BadState, dst, BusClient::CommandProcessor,
                     "RBBM_PERFCTR_SEL " + std::to_string(select) + " selects no countable");
  }
  if (recordsBins() && openJob()) {
    BinCall c;
    c.kind = BinCall::Kind::Counter;
    c.select = select;
    c.dst = dst;
    c.cp = cp_ ? cp_->stats() : kNoCpStats;
    c.cpWork = sampleWork() - stretchStart_;
    record(std::move(c), nullptr);
    return;
  }
  if (index && countables()[*index].read) {
    memory_.write64(BusClient::CommandProcessor, dst,
                    readCountable(*index, cp_ ? cp_->stats() : kNoCpStats));
    return;
  }
  // Charged (and its address checked) now; the value is filled in by resolveTimedCounters.
  memory_.write64(BusClient::CommandProcessor, dst, 0);
  TimedCounter t;
  t.dst = dst;
  t.select = select;
  t.stretch = stretch_;
  t.bin = stats_.bins.size();
  if (stretch_ == Stretch::Bin) --t.bin;
  t.binningDone = stats_.binningDraws > 0 || stats_.binningWork != perf::BlockWork{};
  t.done = sampleWork() - stretchStart_;
  timedCounters_.push_back(t);
  timedAddresses_.insert(dst);
}

bool Pipeline::deferMemToMem(uint32_t flags, GpuAddress dst, GpuAddress a, GpuAddress b) {
  if (!timedAddresses_.contains(a) && !timedAddresses_.contains(b) &&
      !((flags & 1) && timedAddresses_.contains(dst)))
    return false;
  TimedCounter t;
  t.memToMem = true;
  t.flags = flags;
  t.dst = dst;
  t.a = a;
  t.b = b;
  timedCounters_.push_back(t);
  timedAddresses_.insert(dst);
  return true;
}

void Pipeline::resolveTimedCounters(const Preset& preset, const perf::SubmissionTiming& timing,
                                    uint64_t clockBase) {
  if (timedCounters_.empty()) return;  // most submissions read no clock
  const std::vector<perf::PassWork> passes = passWork(stats_);
  const size_t firstBin = passes.size() - stats_.bins.size();
  auto load = [&](GpuAddress at) {
    uint64_t v;
    std::memcpy(&v, memory_.span(BusClient::CommandProcessor, at, 8).data(), 8);
    return v;
  };
  for (const TimedCounter& t : timedCounters_) {
    uint64_t value = 0;
    if (t.memToMem) {  // the CP charged the bus when it deferred the packet
      value = cp::memToMem(t.flags, load(t.dst), load(t.a), load(t.b));
      std::memcpy(memory_.span(BusClient::CommandProcessor, t.dst, 8).data(), &value, 8);
      continue;
    }
    // The pass the read fell in and how far into it; a read between passes is at the end of
    // the last pass before it.
    size_t pass = 0;
    double frac = 1;
    switch (t.stretch) {
      case Stretch::Bin:
        pass = firstBin + t.bin;
        frac = progress(preset, t.done, passes[pass].work);
        break;
      case Stretch::Binning:
        pass = 1;
        frac = progress(preset, t.done, passes[pass].work);
        break;
      case Stretch::Setup:
        if (t.bin > 0) {
          pass = firstBin + t.bin - 1;
        } else if (t.binningDone && firstBin > 1) {
          pass = 1;
        } else {
          frac = progress(preset, t.done, passes[0].work);
        }
        break;
    }
    const perf::PassTiming& p = timing.passes[pass];
    const bool bin = p.kind == perf::PassKind::Bin;
    const double start = bin ? p.load.start : p.render.start;
    const double end = bin ? std::max(p.render.end(), p.store.end()) : p.render.end();
    if (t.select == cp::kAlwaysOnCounter) {
      value = clockBase + static_cast<uint64_t>(std::llround(start + (end - start) * frac));
    } else {
      const size_t block =
          static_cast<size_t>(countables()[*countableOfSelect(t.select)].busyBlock);
      double busy = p.busy[block] * frac;
      for (size_t q = 0; q < pass; ++q) busy += timing.passes[q].busy[block];
      value = static_cast<uint64_t>(std::llround(busy));
    }
    std::memcpy(memory_.span(BusClient::CommandProcessor, t.dst, 8).data(), &value, 8);
  }
  timedCounters_.clear();
  timedAddresses_.clear();
}

}  // namespace tessera::gpu
