// Splits a submission's work at its pass and bin boundaries for the timing model: the
// functional blocks only count, and the difference of two samples is what ran in between.
#include "gpu/pipeline/pipeline.h"

namespace tessera::gpu {

perf::BlockWork Pipeline::sampleWork() {
  perf::BlockWork w;
  if (cp_) {
    w.cpPackets = cp_->stats().packets;
    w.cpDwords = cp_->stats().dwordsFetched;
  }
  const vfd::VfdStats& vfd = vfd_.stats();
  w.vertices = vfd.vertices;
  w.attributeBytes = vfd.attributeBytes;
  const sp::SpStats& sp = sp_.stats();
  w.warps = sp.vertexWarps + sp.fragmentWarps;
  w.warpRegisters = sp.warpRegisters;
  w.fpuInstructions = sp.fpuInstructions;
  w.sfuInstructions = sp.sfuInstructions;
  w.texInstructions = sp.texInstructions;
  w.flowInstructions = sp.branchInstructions;
  w.aluInstructions = sp.instructions - sp.fpuInstructions - sp.sfuInstructions -
                      sp.texInstructions - sp.branchInstructions;
  w.binnedPrimitives = stats_.binningPrimitives;
  w.binHits = writer_.stats().binHits;
  w.blockUpdates = blocks_.stats().updates;
  w.triangles = ras_.stats().triangles;
  w.quads = ras_.stats().quads;
  w.texels = tex_.stats().texelFetches;
  w.ropSamples = rb_.stats().samplesTested;
  const gmem::GmemStats& g = blit_.stats();
  w.clearBytes = g.clearBytes;
  w.restoreBytes = g.restoreBytes;
  w.resolveBytes = g.resolveBytes;
  w.busBytes = memory_.stats().totalGpuBytes();
  return w;
}

void Pipeline::closeStretch(Stretch next) {
  const perf::BlockWork now = sampleWork();
  const perf::BlockWork done = now - stretchStart_;
  switch (stretch_) {
    case Stretch::Setup:
      stats_.setupWork += done;
      break;
    case Stretch::Binning:
      stats_.binningWork += done;
      break;
    case Stretch::Bin:
      // A bin's stretch is open only after setBin pushed its record.
      stats_.bins.back().work += done;
      break;
  }
  stretch_ = next;
  stretchStart_ = now;
}

std::vector<perf::PassWork> passWork(const PipelineStats& stats) {
  std::vector<perf::PassWork> passes;
  passes.reserve(stats.bins.size() + 2);
  passes.push_back({perf::PassKind::Setup, stats.setupWork, {}});
  if (stats.binningDraws > 0 || stats.binningWork != perf::BlockWork{})
    passes.push_back({perf::PassKind::Binning, stats.binningWork, {}});
  for (const BinRecord& b : stats.bins)
    passes.push_back(
        {b.sysmem ? perf::PassKind::Sysmem : perf::PassKind::Bin, b.work, b.earlyResolves});
  return passes;
}

void Pipeline::beginSubmission() {
  runView_ = memory_.pinnedView();
  passInSubmission_ = 0;
  shaders_.invalidateInstructionCache();
  stretch_ = Stretch::Setup;
  stretchStart_ = sampleWork();
}

void Pipeline::endSubmission() {
  finishBins();
  closeStretch(Stretch::Setup);
  runView_.reset();
}

}  // namespace tessera::gpu
