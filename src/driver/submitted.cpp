// Batches after their submission (freedreno's fences and deferred BO frees, fd_bo_cpu_prep):
// reaping what the kernel is done with, freeing buffers once nothing can use them, and making
// the CPU wait for or work around buffers the GPU may still use.
#include <algorithm>

#include "common/error.h"
#include "driver/batch.h"
#include "driver/context.h"
#include "gpu/vsc/visibility_stream.h"

namespace tessera::driver {

bool Context::frontEnded() {
  std::lock_guard<std::mutex> lock(endMutex_);
  return inflight_.front()->ended;
}

void Context::reapFront() {
  {
    std::unique_lock<std::mutex> lock(endMutex_);
    endCv_.wait(lock, [&] { return inflight_.front()->ended; });
  }
  std::unique_ptr<SubmittedBatch> done = std::move(inflight_.front());
  inflight_.pop_front();
  retire(*done);
}

void Context::reap(bool wait) {
  while (!inflight_.empty() && (wait || frontEnded())) reapFront();
  if (wait) syncedThrough_ = timestamp_;
}

void Context::reapThrough(kmd::Timestamp through) {
  while (!inflight_.empty() && kmd::timestampReached(through, inflight_.front()->timestamp))
    reapFront();
  if (kmd::timestampReached(through, syncedThrough_)) syncedThrough_ = through;
  reap(false);
}

void Context::retire(SubmittedBatch& s) {
  for (uint32_t size : s.streamSizes)
    if (size & gpu::vsc::kOverflowBit) s.report.visibilityOverflow = true;
  if (s.report.visibilityOverflow) overflows_.push_back({s.timestamp, std::move(s.streamSizes)});
  if (options_.mode == RenderMode::Auto) policy_.record(s.fb, s.report.stats.rb.samplesPassed);
  if (s.report.fault) {
    disjoint_ = true;  // the clock kept running over work that was lost
    if (pendingFault_.empty()) {
      // The kernel's record of it names the snapshot it wrote (TESSERA_FAULT_DIR), if any.
      std::string snapshot;
      for (const kmd::FaultRecord& r : kernel_->faults())
        if (r.context == kernelContext_ && r.timestamp == s.timestamp && !r.snapshotPath.empty())
          snapshot = r.snapshotPath;
      pendingFault_ =
          s.report.fault->describe() + (snapshot.empty() ? "" : " (snapshot: " + snapshot + ")");
    }
  }
  queries_.releaseRetired(s.batch->queries);
  s.batch.reset();  // its IBs, uploads and the buffers it replaced
  reports_.push_back(std::move(s.report));
}

void Context::growOverflowedStreams() {
  // The binning pass reports each pipe's stream size; grow the buffers that overflowed so later
  // batches fit (the overflowed one drew those bins without the stream). The batch being built
  // takes the sizes of every batch submitted before it but the last, waiting for them if need
  // be, and of the last one too once the application waited for it (finish, a readback): what
  // it gets depends on the program, never on how far the GPU has got, and the last batch may
  // still run meanwhile.
  const kmd::Timestamp through = syncedThrough_ == timestamp_ ? timestamp_ : timestamp_ - 1;
  if (through == 0) return;
  reapThrough(through);
  while (!overflows_.empty() && kmd::timestampReached(through, overflows_.front().timestamp)) {
    grow(overflows_.front().sizes);
    overflows_.pop_front();
  }
}

void Context::grow(const std::vector<uint32_t>& streamSizes) {
  for (size_t p = 0; p < streamSizes.size() && p < vscData_.size(); ++p) {
    const uint32_t size = streamSizes[p];
    if (!(size & gpu::vsc::kOverflowBit)) continue;
    uint32_t bytes = vscBytes_[p];
    while (bytes < (size & ~gpu::vsc::kOverflowBit)) bytes *= 2;
    if (bytes == vscBytes_[p]) continue;  // an earlier batch's overflow grew it already
    releaseLater(vscData_[p]);
    vscBytes_[p] = bytes;
    vscData_[p] = memory_.allocate(bytes, "vsc pipe");
  }
}

std::vector<BatchReport> Context::takeReports() {
  reap(true);
  return std::move(reports_);
}

std::vector<BatchReport> Context::takeRetiredReports() {
  reap(false);
  return std::move(reports_);
}

void Context::releaseLater(gpu::GpuAddress bo) {
  // Batches retire in order: the newest one, recorded or submitted, is the last that may use it.
  if (batch_) {
    batch_->retired.push_back(bo);
  } else if (!inflight_.empty()) {
    inflight_.back()->batch->retired.push_back(bo);
  } else {
    memory_.release(bo);
  }
}

void Context::use(pipe::ResourceId id) {
  if (!id) return;
  Resource& r = resources_.get(id, "use");
  if (r.batchMark == batchSerial_) return;
  r.batchMark = batchSerial_;
  batch_->uses.push_back(id);
  if (r.parent) use(r.parent);
}

bool Context::busy(const Resource& r) const {
  if (batch_ && r.batchMark == batchSerial_) return true;
  return r.lastUse != 0 &&
         !kmd::timestampReached(kernel_->retiredTimestamp(kernelContext_), r.lastUse);
}

void Context::waitIdle(pipe::ResourceId id) {
  const pipe::ResourceId parent = resources_.get(id, "wait").parent;
  auto inBatch = [&](pipe::ResourceId r) {
    return r && batch_ && resources_.get(r, "wait").batchMark == batchSerial_;
  };
  if (inBatch(id) || inBatch(parent)) submitBatch();
  // The later of the two last uses (a view's texture may have been drawn through another view).
  kmd::Timestamp last = resources_.get(id, "wait").lastUse;
  if (parent) {
    const kmd::Timestamp p = resources_.get(parent, "wait").lastUse;
    if (last == 0 || (p != 0 && kmd::timestampReached(p, last))) last = p;
  }
  if (last != 0) reapThrough(last);
}

}  // namespace tessera::driver
