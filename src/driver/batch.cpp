// Recording into the batch and turning it into IB0 at flush (freedreno's fd_gmem_render_tiles):
// sysmem → one pass over the surface; GMEM → optional binning pass, then per bin
// SET_BIN_DATA / SET_BIN → restore → draw IB → resolve.
#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "driver/batch.h"
#include "driver/context.h"

#include "gpu/lrz/low_res_z.h"
#include "gpu/vsc/block_table.h"
#include "gpu/vsc/visibility_stream.h"

namespace tessera::driver {

using gpu::GpuAddress;
using gpu::cp::CommandWriter;
using gpu::cp::Event;
using gpu::cp::Opcode;
using gpu::cp::packXY;
using gpu::cp::Reg;

namespace {

// Samples per pixel of a framebuffer (its attachments agree: setFramebuffer checks).
uint32_t framebufferSamples(ResourceTable& resources, const pipe::Framebuffer& fb) {
  if (fb.color) return resources.get(fb.color, ResourceKind::ColorSurface, "flush").samples;
  if (fb.depth) return resources.get(fb.depth, ResourceKind::DepthSurface, "flush").samples;
  return 1;
}

// RB_BLIT_CNTL and the blit event (buffer 0 colour, 1 depth/stencil); a RESOLVED blit between
// a multisample buffer and `resolved`, its single-sample image, names that image as well.
void emitBlit(CommandWriter& w, uint32_t buffer, Event e, const Resource* resolved = nullptr) {
  if (resolved) {
    w.address(Reg::RB_BLIT_DST_LO, Reg::RB_BLIT_DST_HI, resolved->address);
    w.reg(Reg::RB_BLIT_DST_PITCH, resolved->pitch);
  }
  w.reg(Reg::RB_BLIT_CNTL, buffer | (resolved ? 2u : 0u));
  w.event(e);
}

}  // namespace

Batch& Context::currentBatch() {
  if (!batch_) {
    batch_ = std::make_unique<Batch>(memory_);
    queries_.batchStarted(batch_->queries);
    // A batch belongs to one framebuffer (setFramebuffer ends it): it writes the attachments.
    use(fb_.color);
    use(fb_.depth);
  }
  return *batch_;
}

void Context::beginQuery(pipe::QueryId id) {
  Batch& b = currentBatch();
  queries_.begin(id, b.queries, b.draws);
}

void Context::endQuery(pipe::QueryId id) {
  Batch& b = currentBatch();
  queries_.end(id, b.queries, b.draws);
}

void Context::recordTimestamp(pipe::QueryId id) {
  // The batch being recorded writes it after its last pass; with none, the clock is read once
  // the submitted work is done.
  if (!batch_) reap(true);
  queries_.timestamp(id, batch_ ? &batch_->queries : nullptr);
}

uint64_t Context::gpuTimeNs() {
  return queries_.nanoseconds(device_.clockCycles());
}

pipe::QueryResult Context::queryResult(pipe::QueryId id, bool wait) {
  // The result needs the batch being recorded when a period of the query lies in it.
  if (wait && batch_ && !queries_.running(id) && queries_.pendingIn(id, batch_->queries))
    submitBatch();
  // Waiting is for the fence of the query's last period.
  if (wait && !queries_.running(id)) {
    if (const uint64_t fence = queries_.fence(id)) reapThrough(static_cast<kmd::Timestamp>(fence));
  }
  return queries_.result(id, kernel_->retiredTimestamp(kernelContext_));
}

void Context::clear(uint32_t buffers, const std::array<float, 4>& color, float depth,
                    uint8_t stencil) {
  buffers &= pipe::kClearColor | pipe::kClearDepth | pipe::kClearStencil;
  if (!fb_.color) buffers &= ~pipe::kClearColor;
  if (!fb_.depth) buffers &= ~(pipe::kClearDepth | pipe::kClearStencil);
  if (!buffers) return;
  Batch& b = currentBatch();
  const Rect r = scissorRect();
  // A whole-surface clear before any draw replaces the old contents: no restore needed.
  const bool whole = r.x0 == 0 && r.y0 == 0 && r.x1 == fb_.width && r.y1 == fb_.height;
  // A buffer is wholly replaced only when every bit of it is cleared: full write masks, and for
  // packed depth/stencil both parts (or a format without stencil).
  uint32_t wholeBits = 0;
  if ((buffers & pipe::kClearColor) && (blend_.colorWriteMask & 0xf) == 0xf)
    wholeBits |= pipe::kClearColor;
  const bool hasStencil =
      fb_.depth && resources_.get(fb_.depth, ResourceKind::DepthSurface, "clear").depthFormat ==
                       pipe::DepthFormat::D24S8;
  const bool stencilWhole = (buffers & pipe::kClearStencil) && dsa_.front.writeMask == 0xff;
  if ((buffers & pipe::kClearDepth) && dsa_.depthWrite && (stencilWhole || !hasStencil))
    wholeBits |= pipe::kClearDepth;
  if (b.drawCount == 0 && whole) b.clearedBeforeDraw |= wholeBits;
  if (buffers & pipe::kClearColor) b.written |= pipe::kClearColor;
  if (buffers & (pipe::kClearDepth | pipe::kClearStencil)) {
    b.written |= pipe::kClearDepth;
    b.usesDepth = true;
    // Occluders drawn before the clear no longer hide what is drawn after it.
    if (b.drawCount > 0) b.lrzOk = false;
  }
  b.invalidated &= ~b.written;
  growMaxScissor(r);
  emitState(b.draws, kDirtyScissor | kDirtyBlend | kDirtyDsa);  // scissor and write masks
  b.draws.reg(Reg::RB_CLEAR_CNTL, buffers);
  for (uint32_t i = 0; i < 4; ++i) b.draws.regFloat(Reg::RB_CLEAR_COLOR, color[i], i);
  b.draws.regFloat(Reg::RB_CLEAR_DEPTH, depth);
  b.draws.reg(Reg::RB_CLEAR_STENCIL, stencil);
  b.draws.event(Event::CLEAR);
  ++b.clearCount;
}

void Context::draw(const pipe::DrawInfo& info) {
  if (!fb_.color && !fb_.depth) throw Error("draw: no framebuffer bound");
  if (info.count == 0) return;
  if (!vs_ || !fs_) throw Error("draw: no shaders bound");
  Batch& b = currentBatch();
  uint32_t type = 0;
  GpuAddress indexAddr = 0;
  uint32_t indexBytes = 0;
  if (info.indexSize != pipe::IndexSize::None) {
    const Resource& ib =
        resources_.get(info.indexBuffer, ResourceKind::Buffer, "draw index buffer");
    type = info.indexSize == pipe::IndexSize::U8    ? 1
           : info.indexSize == pipe::IndexSize::U16 ? 2
                                                    : 3;
    if (info.indexOffset > ib.size) throw Error("draw: index offset beyond the index buffer");
    indexAddr = ib.address + info.indexOffset;
    use(info.indexBuffer);
    indexBytes = static_cast<uint32_t>(ib.size - info.indexOffset);
  }
  emitState(b.draws);
  b.lrzOk = b.lrzOk && gpu::lrz::lrzCompatible(
                           dsa_, blend_, fb_.color != pipe::kNoResource, raster_.polygonOffset,
                           resources_.get(fs_, ResourceKind::FragmentShader, "draw").kills);
  if (blend_.colorWriteMask && fb_.color) b.written |= pipe::kClearColor;
  if (blend_.enable && blend_.colorWriteMask && fb_.color) b.blends = true;
  if (dsa_.depthTest || dsa_.stencilTest) {
    b.usesDepth = true;
    if ((dsa_.depthTest && dsa_.depthWrite) || dsa_.stencilTest) {
      b.written |= pipe::kClearDepth;
      b.drawsWriteDepthStencil = true;
    }
  }
  b.invalidated &= ~b.written;
  growMaxScissor(scissorRect());
  const uint32_t prim = static_cast<uint32_t>(info.primitive) | type << 4;
  if (type)
    b.draws.packet(Opcode::CP_DRAW_INDX, {prim, info.count, static_cast<uint32_t>(indexAddr),
                                          static_cast<uint32_t>(indexAddr >> 32), indexBytes});
  else
    b.draws.packet(Opcode::CP_DRAW_INDX, {prim, info.count});
  ++b.drawCount;
  ++software_.drawCalls;
  software_.vsRegisters += resources_.get(vs_, ResourceKind::VertexShader, "draw").registers;
  software_.fsRegisters += resources_.get(fs_, ResourceKind::FragmentShader, "draw").registers;
}

void Context::invalidate(uint32_t buffers) {
  currentBatch();
  uint32_t bits = 0;
  if (buffers & pipe::kClearColor) bits |= pipe::kClearColor;
  if (buffers & (pipe::kClearDepth | pipe::kClearStencil)) bits |= pipe::kClearDepth;
  batch_->invalidated |= bits;
  batch_->written &= ~bits;
  if (fb_.color && (bits & pipe::kClearColor))
    resources_.get(fb_.color, ResourceKind::ColorSurface, "invalidate").valid = false;
  if (fb_.depth && (bits & pipe::kClearDepth))
    resources_.get(fb_.depth, ResourceKind::DepthSurface, "invalidate").valid = false;
}

void Context::emitSurfaces(CommandWriter& w, bool depthInGmem) {
  w.reg(Reg::RB_SURFACE_SIZE, packXY(fb_.width, fb_.height));
  // A multisample buffer's RB_*_BASE is its samples: the RB draws into them in sysmem mode,
  // and GMEM stores or restores them raw; RESOLVED blits reach the single-sample image.
  const uint32_t samples = framebufferSamples(resources_, fb_);
  w.reg(Reg::RB_MSAA_CNTL, samples == 4 ? 2u : samples == 2 ? 1u : 0u);
  if (fb_.color) {
    const Resource& c = resources_.get(fb_.color, ResourceKind::ColorSurface, "flush");
    w.reg(Reg::RB_COLOR_INFO, (static_cast<uint32_t>(c.colorFormat) + 1) | 0xf0);
    w.address(Reg::RB_COLOR_BASE_LO, Reg::RB_COLOR_BASE_HI,
              c.samples > 1 ? c.sampleAddress : c.address);
    w.reg(Reg::RB_COLOR_PITCH, c.samples > 1 ? c.samplePitch : c.pitch);
  } else {
    w.reg(Reg::RB_COLOR_INFO, 0);
  }
  if (fb_.depth && depthInGmem) {
    const Resource& d = resources_.get(fb_.depth, ResourceKind::DepthSurface, "flush");
    w.reg(Reg::RB_DEPTH_INFO, static_cast<uint32_t>(d.depthFormat));
    w.address(Reg::RB_DEPTH_BASE_LO, Reg::RB_DEPTH_BASE_HI,
              d.samples > 1 ? d.sampleAddress : d.address);
    w.reg(Reg::RB_DEPTH_PITCH, d.samples > 1 ? d.samplePitch : d.pitch);
  } else {
    w.reg(Reg::RB_DEPTH_INFO, 0);
  }
}

void Context::buildSysmem(CommandWriter& ib0, GpuAddress drawIb, uint32_t drawDwords) {
  emitSurfaces(ib0, fb_.depth != 0);
  ib0.packet(Opcode::CP_SET_MARKER, {static_cast<uint32_t>(gpu::cp::RenderMode::Sysmem)});
  ib0.packet(Opcode::CP_SET_BIN, {0, packXY(0, 0), packXY(fb_.width - 1, fb_.height - 1)});
  ib0.reg(Reg::PC_PRIM_COUNT_CNTL, 1);
  BatchQueries& q = batch_->queries;
  queries_.emitPassBase(q, 1, 0, ib0);  // sysmem counts as one bin
  ib0.append(q.prologue);
  // Multisample buffers are drawn in their samples in system memory; the same rule as in GMEM
  // decides what the samples hold (docs/msaa.md), so every mode renders the same image.
  const Batch& b = *batch_;
  Resource* ms[2] = {};
  if (fb_.color) ms[0] = &resources_.get(fb_.color, ResourceKind::ColorSurface, "flush");
  if (fb_.depth && b.usesDepth)
    ms[1] = &resources_.get(fb_.depth, ResourceKind::DepthSurface, "flush");
  constexpr uint32_t kBits[2] = {pipe::kClearColor, pipe::kClearDepth};
  for (uint32_t i = 0; i < 2; ++i) {
    Resource* r = ms[i];
    if (!r || r->samples == 1) continue;
    // Samples dropped by an earlier batch come back from the resolved image.
    if (r->valid && !r->samplesValid && !(b.clearedBeforeDraw & kBits[i]))
      emitBlit(ib0, i, Event::RESTORE, r);
  }
  ib0.indirectBuffer(drawIb, drawDwords);
  for (uint32_t i = 0; i < 2; ++i) {
    Resource* r = ms[i];
    if (!r || r->samples == 1) continue;
    if (b.invalidated & kBits[i]) {
      r->samplesValid = false;
    } else if (b.written & kBits[i]) {
      emitBlit(ib0, i, Event::RESOLVE, r);  // the resolve blit averages into the image
      r->samplesValid = !endOfFrame_;
    }
  }
  ib0.append(q.epilogue);
}

void Context::growBuffer(GpuAddress& bo, uint64_t& size, uint64_t bytes, const char* name) {
  if (bytes <= size) return;
  // The buffer a queued batch may still use is not released before that batch retires.
  if (bo) batch_->retired.push_back(bo);
  bo = memory_.allocate(bytes, name);
  size = bytes;
}

void Context::emitLrz(CommandWriter& ib0, bool enable) {
  ib0.reg(Reg::GRAS_LRZ_CNTL, enable ? 1u : 0u);
  if (!enable) return;
  const uint32_t pitch = (fb_.width + gpu::lrz::kBlock - 1) / gpu::lrz::kBlock;
  const uint32_t rows = (fb_.height + gpu::lrz::kBlock - 1) / gpu::lrz::kBlock;
  growBuffer(lrz_, lrzBytes_, uint64_t{pitch} * rows * gpu::lrz::kBytesPerBlock, "lrz");
  ib0.address(Reg::GRAS_LRZ_BUFFER_LO, Reg::GRAS_LRZ_BUFFER_HI, lrz_);
  ib0.reg(Reg::GRAS_LRZ_PITCH, packXY(pitch, rows));
}

void Context::emitBlockTable(CommandWriter& ib0, const gpu::vsc::BlockControl& control,
                             const BinLayout& layout) {
  ib0.reg(Reg::VSC_BLOCK_CNTL, gpu::vsc::encodeBlockControl(control));
  if (!control.enable) return;
  const gpu::vsc::BlockGeometry geometry{control.size, layout.binW, layout.binH};
  growBuffer(
      blockTable_, blockTableBytes_,
      uint64_t{layout.nx} * layout.ny * geometry.entriesPerBin() * gpu::vsc::kBlockEntryBytes,
      "block table");
  ib0.address(Reg::VSC_BLOCK_TABLE_LO, Reg::VSC_BLOCK_TABLE_HI, blockTable_);
}

void Context::ensureVscBuffers(uint32_t pipes) {
  while (vscData_.size() < pipes) {
    vscBytes_.push_back(device_.preset().vscPipeBytes);
    vscData_.push_back(memory_.allocate(vscBytes_.back(), "vsc pipe"));
  }
}

bool Context::buildGmem(CommandWriter& ib0, GpuAddress drawIb, uint32_t drawDwords,
                        BatchReport& report) {
  Batch& b = *batch_;
  const bool depth = fb_.depth && b.usesDepth;
  BinLayoutInput in;
  in.x = b.maxScissor.x0;
  in.y = b.maxScissor.y0;
  in.width = b.maxScissor.x1 - b.maxScissor.x0;
  in.height = b.maxScissor.y1 - b.maxScissor.y0;
  Resource* color =
      fb_.color ? &resources_.get(fb_.color, ResourceKind::ColorSurface, "flush") : nullptr;
  Resource* zs = depth ? &resources_.get(fb_.depth, ResourceKind::DepthSurface, "flush") : nullptr;
  if (color) in.bufferCpp.push_back(gpu::rb::bytesPerPixel(color->colorFormat));
  if (zs) in.bufferCpp.push_back(gpu::rb::bytesPerPixel(zs->depthFormat));
  in.samples = framebufferSamples(resources_, fb_);
  const bool ms = in.samples > 1;
  std::shared_ptr<const BinLayout> fits;
  try {
    fits = layouts_.get(device_.preset(), in);
  } catch (const Error& e) {
    // Nothing is emitted yet: the batch renders in system memory instead.
    report.reason = std::string("GMEM cannot hold the batch's buffers (") + e.what() + "): sysmem";
    return false;
  }
  const BinLayout& layout = *fits;
  report.layout = layout;
  const bool wantBinning =
      options_.mode == RenderMode::Binning || options_.mode == RenderMode::Auto;
  const bool binning = wantBinning && layout.bins.size() >= 2 && b.drawCount >= 1;
  report.mode = binning ? RenderMode::Binning : RenderMode::Naive;
  if (wantBinning && !binning)
    report.reason = "binning needs at least 2 bins and 1 draw: naive tiling";
  emitSurfaces(ib0, depth);
  uint32_t slot = 0;
  if (color) ib0.reg(Reg::RB_GMEM_COLOR_BASE, layout.gmemBase[slot++]);
  if (zs) ib0.reg(Reg::RB_GMEM_DEPTH_BASE, layout.gmemBase[slot++]);
  ib0.reg(Reg::RB_BIN_SIZE, packXY(layout.binW, layout.binH));

  // Restore only what must survive: not a buffer cleared before it was drawn to, nor one whose
  // contents are undefined (REFERENCES.md §1).
  const bool restoreColor = color && color->valid && !(b.clearedBeforeDraw & pipe::kClearColor);
  const bool restoreDepth = zs && zs->valid && !(b.clearedBeforeDraw & pipe::kClearDepth);
  const bool resolveColor =
      color && (b.written & pipe::kClearColor) && !(b.invalidated & pipe::kClearColor);
  const bool resolveDepth =
      zs && (b.written & pipe::kClearDepth) && !(b.invalidated & pipe::kClearDepth);
  // Multisample (docs/msaa.md): RESOLVE averages the samples into the single-sample image; the
  // samples themselves are stored too unless the flush ends the frame, and a restore takes them
  // from the stored samples or, when none were kept, from the image.
  const bool keepSamples = ms && !endOfFrame_;
  const Resource* restoreColorFrom = ms && color && !color->samplesValid ? color : nullptr;
  const Resource* restoreDepthFrom = ms && zs && !zs->samplesValid ? zs : nullptr;

  // Query sample rows: one per bin, then the binning pass's.
  const uint32_t rows = static_cast<uint32_t>(layout.bins.size()) + (binning ? 1 : 0);
  if (binning) {
    const uint32_t pipes = static_cast<uint32_t>(layout.pipes.size());
    if (pipes > gpu::vsc::kMaxPipes) throw Error("bin layout uses more than 32 VSC pipes");
    growOverflowedStreams();
    ensureVscBuffers(pipes);
    ib0.reg(Reg::VSC_BIN_SIZE, packXY(layout.binW, layout.binH));
    ib0.reg(Reg::VSC_BIN_COUNT, packXY(layout.nx, layout.ny));
    ib0.reg(Reg::VSC_BIN_ORIGIN, packXY(layout.x, layout.y));
    ib0.address(Reg::VSC_SIZE_LO, Reg::VSC_SIZE_HI, vscSizes_);
    for (uint32_t p = 0; p < gpu::vsc::kMaxPipes; ++p) {
      if (p >= pipes) {
        ib0.reg(Reg::VSC_PIPE_CONFIG, 0, p);  // terminates the pipe list
        break;
      }
      const VscPipe& vp = layout.pipes[p];
      ib0.reg(Reg::VSC_PIPE_CONFIG, vp.x | vp.y << 8 | vp.w << 16 | vp.h << 24, p);
      ib0.address(Reg::VSC_PIPE_DATA_LO, Reg::VSC_PIPE_DATA_HI, vscData_[p], p);
      ib0.reg(Reg::VSC_PIPE_DATA_LENGTH, vscBytes_[p], p);
    }
    // LRZ and the interleaved resolve work per pixel: multisample batches go without them.
    emitLrz(ib0, report.lrz = device_.preset().lrz && b.lrzOk && zs && !ms);
    gpu::vsc::BlockControl blocks;
    blocks.enable = report.blockResolve = device_.preset().resolveBlock != 0 && !ms;
    blocks.size = device_.preset().resolveBlock;
    blocks.earlyColor = resolveColor;
    blocks.earlyDepth = resolveDepth;
    blocks.zsStatic = !b.drawsWriteDepthStencil;
    // Fragments a full-cover triangle hides still pass their tests: queries must count them.
    blocks.keepFragments = b.queries.occlusionSamples > 0;
    emitBlockTable(ib0, blocks, layout);
    ib0.packet(Opcode::CP_SET_MARKER, {static_cast<uint32_t>(gpu::cp::RenderMode::Binning)});
    ib0.packet(Opcode::CP_SET_BIN,
               {0, packXY(layout.x, layout.y),
                packXY(layout.x + layout.width - 1, layout.y + layout.height - 1)});
    // The binning pass sees every primitive once: it alone counts primitives generated.
    ib0.reg(Reg::PC_PRIM_COUNT_CNTL, 1);
    queries_.emitPassBase(b.queries, rows, rows - 1, ib0);
    ib0.append(b.queries.prologue);
    ib0.indirectBuffer(drawIb, drawDwords);
    ib0.event(Event::VSC_FLUSH);
    ib0.append(b.queries.epilogue);
  }

  ib0.packet(Opcode::CP_SET_MARKER, {static_cast<uint32_t>(gpu::cp::RenderMode::Gmem)});
  for (uint32_t index = 0; index < layout.bins.size(); ++index) {
    const Bin& bin = layout.bins[index];
    // Without a binning pass, the first bin counts primitives generated (each bin draws them
    // all).
    if (index < 2) ib0.reg(Reg::PC_PRIM_COUNT_CNTL, !binning && index == 0 ? 1u : 0u);
    // Samples of queries running across the batch: before the bin reads its stream and block
    // table, restores and draws, and after it resolves.
    queries_.emitPassBase(b.queries, rows, index, ib0);
    ib0.append(b.queries.prologue);
    if (binning) {
      const VscPipe& vp = layout.pipes[bin.pipe];
      ib0.reg(Reg::PC_VSTREAM_CONTROL, (vp.w * vp.h) | bin.slot << 16);
      const GpuAddress size = vscSizes_ + 4 * bin.pipe;
      ib0.packet(Opcode::CP_SET_BIN_DATA,
                 {static_cast<uint32_t>(vscData_[bin.pipe]),
                  static_cast<uint32_t>(vscData_[bin.pipe] >> 32), static_cast<uint32_t>(size),
                  static_cast<uint32_t>(size >> 32)});
    }
    ib0.packet(Opcode::CP_SET_BIN,
               {0, packXY(bin.x, bin.y), packXY(bin.x + bin.w - 1, bin.y + bin.h - 1)});
    if (restoreColor) emitBlit(ib0, 0, Event::RESTORE, restoreColorFrom), ++report.restores;
    if (restoreDepth) emitBlit(ib0, 1, Event::RESTORE, restoreDepthFrom), ++report.restores;
    ib0.indirectBuffer(drawIb, drawDwords);
    if (resolveColor) emitBlit(ib0, 0, Event::RESOLVE, ms ? color : nullptr), ++report.resolves;
    if (resolveColor && keepSamples) emitBlit(ib0, 0, Event::RESOLVE), ++report.resolves;
    if (resolveDepth) emitBlit(ib0, 1, Event::RESOLVE, ms ? zs : nullptr), ++report.resolves;
    if (resolveDepth && keepSamples) emitBlit(ib0, 1, Event::RESOLVE), ++report.resolves;
    ib0.append(b.queries.epilogue);
  }
  if (ms) {
    // What the stored samples hold after this batch.
    if (color && (b.invalidated & pipe::kClearColor)) color->samplesValid = false;
    if (resolveColor) color->samplesValid = keepSamples;
    if (zs && (b.invalidated & pipe::kClearDepth)) zs->samplesValid = false;
    if (resolveDepth) zs->samplesValid = keepSamples;
  }
  return true;
}

// The batch submitted while it lives ends a frame.
class Context::EndOfFrame final {
 public:
  explicit EndOfFrame(Context& c) : flag_(c.endOfFrame_) { flag_ = true; }
  ~EndOfFrame() { flag_ = false; }
  EndOfFrame(const EndOfFrame&) = delete;
  EndOfFrame& operator=(const EndOfFrame&) = delete;

 private:
  bool& flag_;
};

pipe::Fence Context::flushFrame() {
  // The frame ends even when the flush throws a fault.
  struct NextFrame {
    uint64_t& ended;
    ~NextFrame() { ++ended; }
  } next{framesEnded_};
  EndOfFrame frame(*this);
  return flush();
}

pipe::Fence Context::flush() {
  submitBatch();
  reap(false);
  throwPendingFault();
  return {timestamp_};
}

void Context::finish() {
  submitBatch();
  reap(true);
  throwPendingFault();
}

void Context::throwPendingFault() {
  if (pendingFault_.empty()) return;
  throw Error(std::exchange(pendingFault_, {}));
}

void Context::dropBatch() {
  // BOs the batch replaced may be in use by batches submitted before it.
  const std::vector<GpuAddress> replaced = std::move(batch_->retired);
  batch_->retired.clear();
  batch_.reset();
  ++batchSerial_;
  for (GpuAddress bo : replaced) releaseLater(bo);
}

void Context::submitBatch() {
  if (!batch_) return;
  Batch& batch = *batch_;
  if (batch.drawCount == 0 && batch.clearCount == 0) {  // nothing to render (REFERENCES.md §1)
    // A timestamp in it reads the clock once the work submitted before it is done.
    if (!batch.queries.timestamps.empty()) reap(true);
    queries_.batchDropped(batch.queries);
    dropBatch();
    return;
  }
  queries_.batchEnding(batch.queries);  // running queries stop with the batch
  BatchReport report;
  report.draws = batch.drawCount;
  report.clears = batch.clearCount;
  const GpuAddress drawIb = batch.uploads.upload(batch.draws.words());
  CommandWriter ib0;
  bool sysmem = device_.preset().sysmemOnly || options_.mode == RenderMode::Sysmem;
  std::string policy;
  if (options_.mode == RenderMode::Auto && !sysmem) {
    BatchFeatures features;
    features.draws = batch.drawCount;
    features.clears = batch.clearCount;
    features.attachments = fb_.color || fb_.depth;
    features.depthStencil = batch.usesDepth;
    features.blend = batch.blends;
    features.multisample = framebufferSamples(resources_, fb_) > 1;
    features.framebuffer = fb_;
    // The history must hold every batch submitted before, whatever the GPU has finished.
    if (policy_.needsHistory(features)) reap(true);
    const ModeDecision d = policy_.choose(features);
    sysmem = d.sysmem;
    policy = d.reason;
  }
  if (!sysmem && !buildGmem(ib0, drawIb, batch.draws.size(), report)) {
    sysmem = true;
    policy = policy.empty() ? report.reason : policy + "; " + report.reason;
  }
  if (sysmem) {
    report.mode = RenderMode::Sysmem;
    report.reason = !policy.empty()               ? policy
                    : device_.preset().sysmemOnly ? "preset renders in system memory"
                                                  : "sysmem requested";
    buildSysmem(ib0, drawIb, batch.draws.size());
  } else {
    if (!policy.empty())
      report.reason = report.reason.empty() ? policy : policy + "; " + report.reason;
    if (report.reason.empty())
      report.reason = std::string(renderModeName(report.mode)) + " requested";
  }
  ib0.append(batch.queries.tail);  // timestamps: after the last pass
  ++software_.batches;
  ++(report.mode == RenderMode::Sysmem ? software_.batchesSysmem : software_.batchesGmem);
  if (batch.drawCount == 0) ++software_.batchesNonDraw;
  if (report.restores > 0) ++software_.batchesRestore;
  // Surfaces the batch writes hold defined contents once it ran; invalidated ones do not.
  if (fb_.color) {
    auto& c = resources_.get(fb_.color, ResourceKind::ColorSurface, "flush");
    if (batch.written & pipe::kClearColor) c.valid = true;
  }
  if (fb_.depth) {
    auto& d = resources_.get(fb_.depth, ResourceKind::DepthSurface, "flush");
    if (batch.written & pipe::kClearDepth) d.valid = true;
  }
  submit(ib0, drawIb, std::move(report));
  dirty_ = kDirtyAll;  // the next batch's draw IB starts from nothing
}

void Context::submit(const CommandWriter& ib0, GpuAddress drawIb, BatchReport report) {
  const GpuAddress ib0Addr = batch_->uploads.upload(ib0.words());
  if (options_.captureStreams) {
    // The kernel's ring calls IB0 (kmd/ringbuffer.h); the capture starts there.
    capture_ = {};
    capture_.ring = ib0Addr;
    capture_.ringDwords = ib0.size();
    capture_.buffers.push_back({"ib0", ib0Addr, ib0.words()});
    capture_.buffers.push_back({"draw ib", drawIb, batch_->draws.words()});
  }

  // The kernel-mode layer runs IB0 from its ringbuffer on the dispatcher thread; each run (a
  // replay too) resets the blocks' counters first and reads them after, so the report is the
  // last run's. The application goes on recording meanwhile.
  auto submitted = std::make_unique<SubmittedBatch>();
  SubmittedBatch* s = submitted.get();
  const uint32_t pipes = report.mode == RenderMode::Binning && report.layout
                             ? static_cast<uint32_t>(report.layout->pipes.size())
                             : 0;
  s->report = std::move(report);
  s->report.frame = framesEnded_;
  s->fb = fb_;
  kmd::DrawObject object;
  object.ibs = {{ib0Addr, ib0.size()}};
  object.flags = endOfFrame_ ? kmd::DrawFlags::EndOfFrame : kmd::DrawFlags::None;
  object.beforeRun = [](gpu::Device& gpu) {
    gpu.pipeline().resetStats();
    gpu.commandProcessor().resetStats();
  };
  const GpuAddress sizes = vscSizes_;
  object.afterRun = [s, pipes, sizes](gpu::Device& gpu,
                                      const std::optional<gpu::cp::CpFault>& fault) {
    if (fault && !s->report.fault) s->report.fault = fault;
    readStats(gpu, s->report);
    // The binning pass wrote each pipe's stream size; the next batch overwrites them.
    s->streamSizes.clear();
    for (uint32_t p = 0; p < pipes && !fault; ++p)
      s->streamSizes.push_back(gpu.memory().read32(gpu::BusClient::Host, sizes + 4 * p));
  };
  object.onRetire = [this, s](const kmd::Retirement&) {
    // Notified under the lock: once the application sees `ended` it may destroy the context,
    // and this thread must no longer be touching its condition variable.
    std::lock_guard<std::mutex> lock(endMutex_);
    s->ended = true;
    endCv_.notify_all();
  };
  s->batch = std::move(batch_);
  try {
    timestamp_ = kernel_->submit(kernelContext_, std::move(object));
  } catch (...) {
    // Never queued: its buffers go, the ones it replaced once earlier batches are done.
    batch_ = std::move(s->batch);
    queries_.batchDropped(batch_->queries);
    dropBatch();
    throw;
  }
  s->timestamp = timestamp_;
  for (pipe::ResourceId id : s->batch->uses) resources_.get(id, "submit").lastUse = timestamp_;
  queries_.batchSubmitted(s->batch->queries, timestamp_);
  ++batchSerial_;
  inflight_.push_back(std::move(submitted));
}

void Context::readStats(gpu::Device& gpu, BatchReport& report) {
  auto& pipeline = gpu.pipeline();
  BlockStats& s = report.stats;
  s.bus = gpu.lastBus();
  s.cp = gpu.commandProcessor().stats();
  s.pipeline = pipeline.stats();
  s.vsc = pipeline.vscStats();
  s.gmem = pipeline.gmemStats();
  s.sp = pipeline.shaderCore().stats();
  s.ras = pipeline.rasterizer().stats();
  s.rb = pipeline.renderBackend().stats();
  s.pc = pipeline.primitiveSetup().stats();
  s.vfd = pipeline.vertexFetch().stats();
  s.tex = pipeline.textureUnit().stats();
  s.fragment = pipeline.fragmentStats();
  s.lrz = pipeline.lrzStats();
  s.blockTable = pipeline.blockTableStats();
  s.blockResolve = pipeline.blockResolveStats();
  s.blockResolves = pipeline.blockResolves();
  report.timing = gpu.lastTiming();
}

gpu::GpuAddress Context::surfaceImage(pipe::ResourceId id) {
  return resources_.get(id, ResourceKind::ColorSurface, "surfaceImage").address;
}

std::vector<uint8_t> Context::readSurface(pipe::ResourceId id) {
  const Resource& r = resources_.get(id, "readSurface");
  if (r.kind != ResourceKind::ColorSurface && r.kind != ResourceKind::DepthSurface)
    throw Error("readSurface: resource " + std::to_string(id) + " is not a surface");
  if (batch_ && (id == fb_.color || id == fb_.depth)) {
    // Reading an attachment back ends the frame: multisample contents need not survive this
    // flush, only the resolved image (docs/msaa.md).
    EndOfFrame frame(*this);
    submitBatch();
  }
  waitIdle(id);
  const Resource& done = resources_.get(id, "readSurface");
  std::vector<uint8_t> out(done.size);
  memory_.read(gpu::BusClient::Host, done.address, out.data(), out.size());
  return out;
}

}  // namespace tessera::driver
