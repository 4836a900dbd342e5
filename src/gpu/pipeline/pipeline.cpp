#include "gpu/pipeline/pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

#include "gpu/pc/primitive_assembly.h"
#include "gpu/pipeline/tex_const.h"

namespace tessera::gpu {
namespace {

using cp::Reg;

[[noreturn]] void badState(const std::string& what) {
  throw GpuFault(FaultKind::BadState, 0, BusClient::CommandProcessor, what);
}

// The bin's window (CP_SET_BIN) must fit the GMEM slices RB_BIN_SIZE lays out.
void checkWindowFitsBin(const DrawState& s) {
  const ras::Scissor& w = s.windowScissor;
  if (w.x1 - w.x0 > int(s.binWidth) || w.y1 - w.y0 > int(s.binHeight))
    badState("CP_SET_BIN window is larger than RB_BIN_SIZE");
}

// Bytes of a bin's GMEM buffer of `bpp` bytes a pixel (all its samples').
uint64_t gmemBufferBytes(const DrawState& s, uint32_t bpp) {
  return uint64_t{s.binWidth} * s.binHeight * bpp;
}

}  // namespace

Pipeline::Pipeline(GpuMemory& memory, gmem::TileMemory& gmem)
    : memory_(memory),
      gmem_(gmem),
      vfd_(memory),
      tex_(memory),
      vertices_(vfd_, sp_),
      fragment_(sp_, ras_, rb_, memory) {}

Pipeline::~Pipeline() = default;

void Pipeline::resetStats() {
  stats_ = {};
  lrz_.stats() = {};
  blocks_.stats() = {};
  resolver_.stats() = {};
  resolver_.events().clear();
  timedCounters_.clear();
  timedAddresses_.clear();
  stretch_ = Stretch::Setup;
  writer_.stats() = {};
  blit_.stats() = {};
  fragment_.stats() = {};
  sp_.resetStats();
  ras_.resetStats();
  rb_.resetStats();
  tex_.resetStats();
  fragment_.resetCores();
  vfd_.resetStats();
  setup_.resetStats();
}

const DrawState& Pipeline::state(const cp::RegisterFile& regs) {
  if (regs.generation() != stateGeneration_) {
    state_ = decodeDrawState(regs);
    stateGeneration_ = regs.generation();
  }
  return state_;
}

void Pipeline::bind(const ShaderBinding& b, isa::Stage stage, Bound& out) {
  out.program = &shaders_.get(memory_, b.program, b.programDwords, stage);
  out.host = shaders_.hostCode(b.program);
  out.constants.resize(b.constantCount);
  if (b.constantCount) {
    memory_.read(BusClient::ShaderFetch, b.constants, out.constants.data(),
                 uint64_t{b.constantCount} * 4);
  }
  if (out.program->constSpan > b.constantCount)
    badState("shader reads constant c" + std::to_string(out.program->constSpan - 1) + " but only " +
             std::to_string(b.constantCount) + " are bound");
  out.memory = &memory_;
  out.privateBase = b.privateBase;
  out.privateBytes = b.privateBytes;
  out.privateLock = privateLock_;
  out.textures.resize(b.textureCount);
  for (uint32_t i = 0; i < b.textureCount; ++i) {
    uint32_t w[kTexConstDwords];
    memory_.read(BusClient::ShaderFetch, b.textures + i * kTexConstDwords * 4, w, sizeof w);
    if (!decodeTexConst(w, out.textures[i]))
      badState("texture descriptor " + std::to_string(i) + " holds an unknown format or mode");
  }
}

void Pipeline::setMode(cp::RenderMode mode, const cp::RegisterFile& regs) {
  finishBins();  // the bins of the pass that ends
  closeStretch(mode == cp::RenderMode::Binning ? Stretch::Binning : Stretch::Setup);
  // LRZ lives from a binning pass through the GMEM pass after it: the binning pass builds it
  // and stores it, the bins read it.
  if (mode_ == cp::RenderMode::Binning && mode == cp::RenderMode::Gmem)
    lrz_.store(memory_);
  else if (mode == cp::RenderMode::Binning && (regs.get(Reg::GRAS_LRZ_CNTL) & 1))
    lrz_.begin(regs.getAddress(Reg::GRAS_LRZ_BUFFER_LO, Reg::GRAS_LRZ_BUFFER_HI),
               regs.get(Reg::GRAS_LRZ_PITCH) & 0xffff, regs.get(Reg::GRAS_LRZ_PITCH) >> 16);
  else
    lrz_.disable();
  // The block table, like LRZ, lives from a binning pass through the GMEM pass after it.
  resolver_.endBin();
  if (!(mode_ == cp::RenderMode::Binning && mode == cp::RenderMode::Gmem)) blocks_.disable();
  passTriangles_ = 0;
  binsInPass_ = 0;
  if (mode == cp::RenderMode::Gmem) ++passInSubmission_;
  mode_ = mode;
  reader_.reset();
  if (mode == cp::RenderMode::Binning) {
    vsc::BinGrid grid;
    const uint32_t size = regs.get(Reg::VSC_BIN_SIZE), count = regs.get(Reg::VSC_BIN_COUNT),
                   origin = regs.get(Reg::VSC_BIN_ORIGIN);
    grid = {origin & 0xffff, origin >> 16, size & 0xffff, size >> 16, count & 0xffff, count >> 16};
    if (grid.binW == 0 || grid.binH == 0 || grid.nx == 0 || grid.ny == 0 ||
        uint64_t{grid.nx} * grid.ny > 1u << 20)
      badState("binning pass started with an invalid VSC_BIN_SIZE/VSC_BIN_COUNT");
    std::vector<vsc::PipeConfig> pipes;
    for (uint32_t p = 0; p < vsc::kMaxPipes; ++p) {
      const uint32_t c = regs.get(Reg::VSC_PIPE_CONFIG, p);
      vsc::PipeConfig pc{c & 0xff,
                         (c >> 8) & 0xff,
                         (c >> 16) & 0xff,
                         c >> 24,
                         regs.getAddress(Reg::VSC_PIPE_DATA_LO, Reg::VSC_PIPE_DATA_HI, p),
                         regs.get(Reg::VSC_PIPE_DATA_LENGTH, p)};
      if (pc.w == 0 || pc.h == 0) break;
      pipes.push_back(pc);
    }
    if (pipes.empty()) badState("binning pass started with no VSC pipe configured");
    writer_.begin(grid, pipes);
    const vsc::BlockControl blocks = vsc::decodeBlockControl(regs.get(Reg::VSC_BLOCK_CNTL));
    if (blocks.enable) {
      const uint32_t surface = regs.get(Reg::RB_SURFACE_SIZE);
      blocks_.begin(grid, blocks.size,
                    regs.getAddress(Reg::VSC_BLOCK_TABLE_LO, Reg::VSC_BLOCK_TABLE_HI),
                    {0, 0, int(surface & 0xffff), int(surface >> 16)});
    }
  }
}

void Pipeline::setBin(const cp::RegisterFile& regs) {
  // Each window of a render pass (a bin, or the whole surface in sysmem mode) gets a record.
  if (mode_ == cp::RenderMode::Binning) return;
  BinRecord r;
  r.window = decodeRect(regs, Reg::GRAS_SC_WINDOW_SCISSOR_TL, Reg::GRAS_SC_WINDOW_SCISSOR_BR);
  r.sysmem = mode_ == cp::RenderMode::Sysmem;
  if (recordsBins()) {
    // A worker draws the bin (bin_jobs.h); the pass keeps its record and the CP's share.
    BinCall c;
    c.kind = BinCall::Kind::SetBin;
    record(std::move(c), &regs);
    closeStretch(Stretch::Bin);
    stats_.bins.push_back(r);
    BinJob& job = *openJob();
    job.record = stats_.bins.size() - 1;
    job.costKey = uint64_t{passInSubmission_} << 32 | binsInPass_;
    ++binsInPass_;
    return;
  }
  if (!worker_) closeStretch(Stretch::Bin);  // a worker's whole job is its bin's work
  stats_.bins.push_back(r);
  resolver_.endBin();
  passTriangles_ = 0;
  binQuadStart_ = ras_.stats().quads;
  if (mode_ == cp::RenderMode::Gmem) {
    lrz_.load(memory_, r.window);
    beginBlockBin(state(regs), r.window, regs.get(Reg::VSC_BLOCK_CNTL));
    ++binsInPass_;
  }
}

void Pipeline::beginBlockBin(const DrawState& s, const ras::Scissor& window,
                             uint32_t blockControl) {
  // A bin whose stream overflowed draws every primitive: its table does not describe that. The
  // block copies move samples as they are: a multisample pass resolves by its RESOLVE events.
  if (!blocks_.active() || !reader_.active() || reader_.overflowed() || s.samples > 1) return;
  const vsc::BinGrid& g = blocks_.grid();
  const int bx = (window.x0 - int(g.originX)) / int(g.binW);
  const int by = (window.y0 - int(g.originY)) / int(g.binH);
  if (window.x0 < int(g.originX) || window.y0 < int(g.originY) || bx >= int(g.nx) ||
      by >= int(g.ny) || window.x1 - window.x0 > int(g.binW) || window.y1 - window.y0 > int(g.binH))
    badState("CP_SET_BIN window is not a bin of the binning pass's VSC_BIN_* grid");
  const vsc::BlockControl control = vsc::decodeBlockControl(blockControl);
  gmem::BlockTarget t;
  t.color = s.hasColor && control.earlyColor;
  t.depth = s.depthFormat != rb::DepthFormat::None && control.earlyDepth;
  if (s.hasColor)
    t.colorSurface = {s.colorBase, s.colorPitch, s.surfaceWidth, s.surfaceHeight,
                      rb::bytesPerPixel(s.colorFormat)};
  if (s.depthFormat != rb::DepthFormat::None)
    t.depthSurface = {s.depthBase, s.depthPitch, s.surfaceWidth, s.surfaceHeight,
                      rb::bytesPerPixel(s.depthFormat)};
  // Full-cover triangles of a batch whose draws never write depth/stencil leave those intact.
  t.coverWritesDepth = !control.zsStatic;
  t.skipCovered = !control.keepFragments;
  t.gmemColorBase = s.gmemColorBase;
  t.gmemDepthBase = s.gmemDepthBase;
  t.binW = s.binWidth;
  checkWindowFitsBin(s);
  resolver_.beginBin(binsInPass_, window, blocks_.geometry(),
                     vsc::readBinBlocks(memory_, blocks_.table(), blocks_.geometry(),
                                        uint32_t(by) * g.nx + uint32_t(bx)),
                     t);
  stats_.bins.back().blockTable = true;
}

void Pipeline::advanceBlocks(uint32_t triangles) {
  if (!resolver_.active()) return;
  const uint64_t warps = fragment_.stats().warps;
  resolver_.advance(triangles, fragment_.pending() ? warps + 1 : warps);
  const uint64_t quads = ras_.stats().quads - binQuadStart_;
  const size_t before = resolver_.events().size();
  resolver_.drain(memory_, gmem_, blit_, warps, quads);
  std::vector<perf::ResolveSlice>& slices = stats_.bins.back().earlyResolves;
  for (size_t i = before; i < resolver_.events().size(); ++i)
    slices.push_back({quads, resolver_.events()[i].bytes});
}

bool Pipeline::fullCoverDraw(const DrawState& s, const cp::RegisterFile& regs) {
  if (!blocks_.active()) return false;
  const bool zsStatic = vsc::decodeBlockControl(regs.get(Reg::VSC_BLOCK_CNTL)).zsStatic;
  if (!overwritesAttachments(s, zsStatic)) return false;
  // The binner reads the fragment shader's header: a shader that may discard leaves holes.
  return !shaders_.get(memory_, s.fs.program, s.fs.programDwords, isa::Stage::Fragment)
              .uses(isa::kUsesKill);
}

void Pipeline::setBinData(const cp::BinData& data, const cp::RegisterFile& regs) {
  if (recordsBins()) {
    BinCall c;
    c.kind = BinCall::Kind::SetBinData;
    c.data = data;
    record(std::move(c), &regs);
    return;
  }
  const uint32_t vs = regs.get(Reg::PC_VSTREAM_CONTROL);
  reader_.setBinData(memory_, data.stream, data.size, vs & 0xffff, vs >> 16);
}

void Pipeline::collectVertices(std::span<const uint32_t> prims) {
  ids_.clear();
  if (seen_.size() < size_t{maxId_} + 1) seen_.resize(size_t{maxId_} + 1);
  const int n = pc::verticesPerPrimitive(draw_.prim);
  for (uint32_t t : prims) {
    uint32_t pos[3];
    pc::primitiveVertices(draw_.prim, t, draw_.count, pos);
    for (int k = 0; k < n; ++k) {
      const uint32_t id = indices_[pos[k]];
      if (!seen_[id]) {
        seen_[id] = 1;
        ids_.push_back(id);
      }
    }
  }
  for (uint32_t id : ids_) seen_[id] = 0;
}

void Pipeline::draw(const cp::DrawPacket& d, const cp::RegisterFile& regs) {
  if (recordInBin({.kind = BinCall::Kind::Draw, .draw = d}, regs)) return;
  const DrawState& s = state(regs);
  draw_ = d;
  static constexpr vfd::IndexSize kSizes[] = {vfd::IndexSize::U8, vfd::IndexSize::U8,
                                              vfd::IndexSize::U16, vfd::IndexSize::U32};
  const vfd::IndexSize indexSize = kSizes[static_cast<int>(d.indexType)];
  const bool indexed = d.indexType != cp::IndexType::None;
  // The model lists a draw's indices and primitives before running it; a stream asking for
  // more than this is faulted rather than allowed to exhaust the host's memory.
  if (d.count > kMaxDrawVertices)
    badState("draw of " + std::to_string(d.count) + " vertices is more than the " +
             std::to_string(kMaxDrawVertices) + " a draw may have");
  // A draw has at most one primitive per vertex.
  if (const size_t have = sequence_.size(); have < d.count) {
    sequence_.resize(d.count);
    std::iota(sequence_.begin() + ptrdiff_t(have), sequence_.end(), uint32_t(have));
  }
  if (indexed) {
    maxId_ = vfd_.readIndices(d.indexAddress, d.indexBytes, indexSize, d.count, indexData_);
    indices_ = indexData_;
  } else {
    indices_ = std::span(sequence_).first(d.count);
    maxId_ = d.count ? d.count - 1 : 0;
  }
  if (maxId_ >= 1u << 28)
    badState("index " + std::to_string(maxId_) + " is beyond any vertex buffer");
  allPrims_ = std::span(sequence_).first(pc::primitiveCount(d.prim, d.count));
  if (regs.get(cp::Reg::PC_PRIM_COUNT_CNTL) & 1) stats_.primitivesGenerated += allPrims_.size();

  switch (mode_) {
    case cp::RenderMode::Binning:
      if (indexed) vfd_.chargeIndices(indexSize, d.count);
      binningDraw(s, regs);
      return;
    case cp::RenderMode::Gmem:
      if (reader_.active()) {
        const bool ok = reader_.nextDraw(memory_, visible_, writer_.stats());
        for (uint32_t t : visible_)
          if (t >= allPrims_.size())
            badState("visibility stream names primitive " + std::to_string(t) + " of a draw with " +
                     std::to_string(allPrims_.size()));
        if (!stats_.bins.empty()) {
          stats_.bins.back().usedStream = ok;
          stats_.bins.back().streamOverflow = !ok;
        }
        // The stream steers index fetch: only the visible primitives' indices are read.
        const uint64_t fetched =
            ok ? std::min<uint64_t>(d.count, visible_.size() * pc::verticesPerPrimitive(d.prim))
               : d.count;
        if (indexed) vfd_.chargeIndices(indexSize, fetched);
        renderDraw(s, ok ? &visible_ : nullptr);
        return;
      }
      break;
    case cp::RenderMode::Sysmem:
      break;
  }
  if (indexed) vfd_.chargeIndices(indexSize, d.count);
  renderDraw(s, nullptr);
}

RenderTarget Pipeline::currentTarget(const DrawState& s, bool wholeColor, bool wholeDepth) {
  RenderTarget t;
  // A multisample buffer is addressed by sample: bytes per pixel and origin × samples.
  const uint32_t n = s.samples;
  const uint32_t cpp = s.hasColor ? rb::bytesPerPixel(s.colorFormat) * n : 0;
  const uint32_t zpp = rb::bytesPerPixel(s.depthFormat) * n;
  if (mode_ == cp::RenderMode::Gmem) {
    if (s.binWidth == 0 || s.binHeight == 0) badState("GMEM render pass with RB_BIN_SIZE of zero");
    const int ox = s.windowScissor.x0 * int(n), oy = s.windowScissor.y0;
    checkWindowFitsBin(s);
    // A buffer taken whole is overwritten over the bin's window, the bin clipped to the surface.
    const uint64_t rows = uint64_t(s.windowScissor.y1 - s.windowScissor.y0);
    const uint64_t columns = uint64_t(s.windowScissor.x1 - s.windowScissor.x0);
    auto take = [&](uint32_t base, uint32_t bpp, bool whole) {
      const uint64_t bytes = gmemBufferBytes(s, bpp);
      return whole ? gmem_.overwrite(base, bytes, s.binWidth * bpp, columns * bpp, rows)
                   : gmem_.slice(base, bytes);
    };
    if (cpp) t.color = {take(s.gmemColorBase, cpp, wholeColor), s.binWidth * cpp, ox, oy};
    if (zpp) t.depth = {take(s.gmemDepthBase, zpp, wholeDepth), s.binWidth * zpp, ox, oy};
  } else {
    // The whole surface must be mapped: the RB may touch any pixel of it.
    auto view = [&](GpuAddress base, uint32_t pitch, uint32_t bpp) {
      const uint64_t bytes =
          uint64_t{pitch} * (s.surfaceHeight - 1) + uint64_t{s.surfaceWidth} * bpp;
      return rb::SurfaceView{memory_.span(BusClient::RenderBackend, base, bytes).data(), pitch, 0,
                             0};
    };
    if (cpp) t.color = view(s.colorBase, s.colorPitch, cpp);
    if (zpp) t.depth = view(s.depthBase, s.depthPitch, zpp);
  }
  return t;
}

void Pipeline::chargeSysmemRb(const rb::RbStats& before) {
  if (mode_ != cp::RenderMode::Sysmem) return;
  const rb::RbStats& a = rb_.stats();
  memory_.countRead(BusClient::RenderBackend, (a.colorBytesRead - before.colorBytesRead) +
                                                  (a.depthBytesRead - before.depthBytesRead));
  memory_.countWrite(BusClient::RenderBackend,
                     (a.colorBytesWritten - before.colorBytesWritten) +
                         (a.depthBytesWritten - before.depthBytesWritten));
}

void Pipeline::renderDraw(const DrawState& s, const std::vector<uint32_t>* visible) {
  if (s.surfaceWidth == 0 || s.surfaceHeight == 0)
    badState("draw with a zero-sized RB_SURFACE_SIZE");
  if (visible && visible->empty()) {
    // Nothing of the draw touches this bin: it is skipped whole, without binding its shaders or
    // fetching a vertex (Adreno skips visibility-culled draws the same way).
    ++stats_.drawsSkipped;
    passTriangles_ += uint32_t(allPrims_.size());
    advanceBlocks(passTriangles_);
    return;
  }
  bind(s.vs, isa::Stage::Vertex, vs_);
  bind(s.fs, isa::Stage::Fragment, fs_);
  const std::span<const uint32_t> prims = visible ? *visible : allPrims_;
  ++stats_.draws;
  stats_.primitivesIn += prims.size();
  collectVertices(prims);
  vertices_.shade(*vs_.program, s.fetch, vs_.resources(tex_), ids_, maxId_);
  stats_.verticesShaded += ids_.size();
  const int nv = vertices_.varyings();
  if (fs_.program->numVaryings > nv)
    badState("fragment shader reads " + std::to_string(fs_.program->numVaryings) +
             " varyings, vertex shader writes " + std::to_string(nv));
  configureSetup(s, *vs_.program, fs_.program->flatVaryings);
  const rb::RbStats before = rb_.stats();
  const RenderTarget target = currentTarget(s);
  const ras::Scissor scissor = intersect(s.screenScissor, s.windowScissor);
  // The render pass tests against the whole batch's LRZ: later occluders hide earlier triangles.
  const bool lrz = mode_ == cp::RenderMode::Gmem && lrzDraw(s, fs_.program->uses(isa::kUsesKill));
  const bool blocks = resolver_.active();
  // A helper may shade the draw's warps beside this thread, unless block resolves follow its
  // colour writes as they happen; a fault leaves no helper running.
  fragment_.begin(s, *fs_.program, fs_.resources(tex_), target, lrz ? &lrz_ : nullptr, !blocks);
  struct StopHelper {
    FragmentStage& stage;
    ~StopHelper() { stage.abandon(); }
  } stopHelper{fragment_};
  const uint64_t fragsBefore = fragment_.stats().fragmentsShaded;
  const uint64_t trisBefore = setup_.stats().trianglesOut;
  forEachPrimitive(prims, vertices_.floatsPerVertex(), setup_,
                   [&](uint32_t t, const ras::Triangle& tri, const float* const* vary) {
                     if (blocks) {
                       // The rolling triangle counter of the interleaved resolve.
                       advanceBlocks(passTriangles_ + t);
                       fragment_.setFullCover(&resolver_, passTriangles_ + t);
                     }
                     if (lrz && lrz_.hidden(tri, scissor)) {
                       ++lrz_.stats().trianglesRejected;
                       return;
                     }
                     fragment_.triangle(tri, vary, nv, scissor);
                   });
  fragment_.end();
  fragment_.setFullCover(nullptr, 0);
  passTriangles_ += uint32_t(allPrims_.size());
  advanceBlocks(passTriangles_);
  chargeSysmemRb(before);
  if (!stats_.bins.empty()) {
    BinRecord& r = stats_.bins.back();
    r.primitives += prims.size();
    r.triangles += setup_.stats().trianglesOut - trisBefore;
    r.fragments += fragment_.stats().fragmentsShaded - fragsBefore;
  }
}

bool Pipeline::lrzDraw(const DrawState& s, bool shaderKills) {
  // LRZ keeps one depth per pixel centre: multisample passes do without it.
  return lrz_.active() && s.samples == 1 &&
         lrz::lrzCompatible(s.depthStencil, s.blend, s.hasColor, s.prim.polygonOffset, shaderKills);
}

void Pipeline::configureSetup(const DrawState& s, const isa::Program& vs, uint16_t flatVaryings) {
  pc::PrimitiveState prim = s.prim;
  prim.flatVaryings = flatVaryings;
  prim.pointSizeFloat = vs.pointSize ? vs.pointSize - 1 : -1;
  if (prim.pointSizeFloat >= vertices_.floatsPerVertex())
    badState("vertex shader names a point-size output it does not write");
  setup_.configure(s.viewport, s.cull, prim);
}

void Pipeline::clear(const DrawState& s, const cp::RegisterFile& regs) {
  const uint32_t which = regs.get(Reg::RB_CLEAR_CNTL);
  const ras::Scissor r = intersect(s.appScissor, s.windowScissor);
  if (mode_ == cp::RenderMode::Binning) {
    // Clears leave no trace in visibility streams, but the blocks they write are touched.
    blocks_.clear(r, passTriangles_);
    return;
  }
  if (r.x1 <= r.x0 || r.y1 <= r.y0) return;
  ++stats_.clears;
  // GLES 2.0 §4.2.3: a clear honours the colour, depth and stencil write masks; a partial mask
  // keeps the other bits, so the surface is read as well as written.
  const uint8_t colorMask = s.blend.colorWriteMask & 0xf;
  const bool depth = (which & 2) && s.depthStencil.depthWrite;
  const uint8_t stencilMask = (which & 4) ? s.depthStencil.front.writeMask : 0;
  const bool hasStencil = s.depthFormat == rb::DepthFormat::D24S8;
  // A clear of every byte of a buffer over the bin's whole window overwrites its GMEM slice:
  // the slice need not read as zeros first (gmem::TileMemory).
  const bool wholeBin = mode_ == cp::RenderMode::Gmem && r.x0 == s.windowScissor.x0 &&
                        r.y0 == s.windowScissor.y0 && r.x1 == s.windowScissor.x1 &&
                        r.y1 == s.windowScissor.y1;
  // A depth clear keeps a D24S8 buffer's stencil bits; where the bin has not yet taken the slice
  // those read as zeros, which the clear then writes itself.
  const bool zeroStencil =
      wholeBin && depth && hasStencil && stencilMask == 0 &&
      gmem_.stale(s.gmemDepthBase,
                  gmemBufferBytes(s, rb::bytesPerPixel(s.depthFormat) * s.samples));
  const RenderTarget t =
      currentTarget(s, wholeBin && (which & 1) && colorMask == 0xf,
                    wholeBin && depth && (!hasStencil || stencilMask == 0xff || zeroStencil));
  // Every sample of a multisample buffer is cleared: rows of x × samples elements.
  const int n = int(s.samples);
  const uint64_t area = uint64_t(r.x1 - r.x0) * uint64_t(r.y1 - r.y0) * uint64_t(n);
  uint64_t written = 0, read = 0;
  if ((which & 1) && s.hasColor && colorMask) {
    float rgba[4];
    for (int i = 0; i < 4; ++i) rgba[i] = regs.getFloat(Reg::RB_CLEAR_COLOR, i);
    rb::RenderBackend::clearColor(s.colorFormat, t.color, r.x0 * n, r.y0, r.x1 * n, r.y1, rgba,
                                  colorMask);
    written += area * rb::bytesPerPixel(s.colorFormat);
    if (colorMask != 0xf) read += area * rb::bytesPerPixel(s.colorFormat);
  }
  if ((depth || (stencilMask && hasStencil)) && s.depthFormat != rb::DepthFormat::None) {
    rb::RenderBackend::clearDepthStencil(
        s.depthFormat, t.depth, r.x0 * n, r.y0, r.x1 * n, r.y1, regs.getFloat(Reg::RB_CLEAR_DEPTH),
        zeroStencil ? uint8_t{0} : static_cast<uint8_t>(regs.get(Reg::RB_CLEAR_STENCIL)), depth,
        stencilMask != 0 || zeroStencil, zeroStencil ? uint8_t{0xff} : stencilMask);
    written += area * rb::bytesPerPixel(s.depthFormat);
    if (hasStencil && !(depth && stencilMask == 0xff))
      read += area * rb::bytesPerPixel(s.depthFormat);
  }
  if (mode_ == cp::RenderMode::Gmem) {
    ++blit_.stats().clears;
    blit_.stats().clearBytes += written;
  } else {
    memory_.countRead(BusClient::RenderBackend, read);
    memory_.countWrite(BusClient::RenderBackend, written);
  }
}

void Pipeline::blit(const DrawState& s, const cp::RegisterFile& regs, bool restore) {
  const uint32_t cntl = regs.get(Reg::RB_BLIT_CNTL);
  const bool depth = (cntl & 1) != 0;
  const bool resolved = (cntl & 2) != 0;
  if (mode_ != cp::RenderMode::Gmem && !(mode_ == cp::RenderMode::Sysmem && resolved))
    badState("RESTORE/RESOLVE outside a GMEM render pass");
  const uint32_t n = s.samples;
  gmem::SysmemSurface surf;
  gmem::SampleFormat format;
  format.samples = n;
  uint32_t gmemBase;
  if (depth) {
    if (s.depthFormat == rb::DepthFormat::None) badState("depth blit with no depth buffer bound");
    format.color = false;
    format.bytesPerPixel = rb::bytesPerPixel(s.depthFormat);
    surf = {s.depthBase, s.depthPitch, s.surfaceWidth, s.surfaceHeight, format.bytesPerPixel * n};
    gmemBase = s.gmemDepthBase;
  } else {
    if (!s.hasColor) badState("colour blit with no colour buffer bound");
    format.colorFormat = s.colorFormat;
    format.bytesPerPixel = rb::bytesPerPixel(s.colorFormat);
    surf = {s.colorBase, s.colorPitch, s.surfaceWidth, s.surfaceHeight, format.bytesPerPixel * n};
    gmemBase = s.gmemColorBase;
  }
  const gmem::BinRect bin{s.windowScissor.x0, s.windowScissor.y0, s.windowScissor.x1,
                          s.windowScissor.y1};
  if (resolved) {
    // The single-sample image (docs/msaa.md): averaged into on RESOLVE, copied into every
    // sample on RESTORE.
    const gmem::SysmemSurface target{s.blitDst, s.blitDstPitch, s.surfaceWidth, s.surfaceHeight,
                                     format.bytesPerPixel};
    if (mode_ == cp::RenderMode::Sysmem) {
      blit_.transferResolvedSysmem(memory_, surf, target, bin, format, restore);
      return;
    }
    checkWindowFitsBin(s);
    blit_.transferResolved(memory_, gmem_, target, gmemBase, s.binWidth, bin, format, restore);
    return;
  }
  checkWindowFitsBin(s);
  if (resolver_.active()) {
    // Block by block: only what the bin's table says is needed.
    if (restore)
      resolver_.restore(memory_, gmem_, blit_, depth);
    else
      resolver_.resolve(memory_, gmem_, blit_, depth, ras_.stats().quads - binQuadStart_);
    return;
  }
  blit_.transfer(memory_, gmem_, surf, gmemBase, s.binWidth, bin, restore);
}

void Pipeline::event(cp::Event e, const cp::RegisterFile& regs) {
  if (recordInBin({.kind = BinCall::Kind::Event, .event = e}, regs)) return;
  switch (e) {
    case cp::Event::CLEAR:
      clear(state(regs), regs);
      return;
    case cp::Event::RESTORE:
      blit(state(regs), regs, true);
      return;
    case cp::Event::RESOLVE:
      blit(state(regs), regs, false);
      return;
    case cp::Event::VSC_FLUSH:
      if (mode_ != cp::RenderMode::Binning) badState("VSC_FLUSH outside the binning pass");
      writer_.flush(memory_, regs.getAddress(Reg::VSC_SIZE_LO, Reg::VSC_SIZE_HI));
      blocks_.store(memory_);
      return;
    case cp::Event::ZPASS_DONE: {
      // The binning pass runs no render backend: it has no samples to report.
      if (mode_ == cp::RenderMode::Binning) return;
      const uint64_t samples = rb_.stats().samplesPassed;
      const GpuAddress dst =
          regs.getAddress(Reg::RB_SAMPLE_COUNT_ADDR_LO, Reg::RB_SAMPLE_COUNT_ADDR_HI);
      if (worker_) {
        // The bin's own count; the merge adds the pass's (bin_jobs.h).
        memory_.write64(BusClient::RenderBackend, dst, 0);
        counterWrites_.push_back({dst, kZpassSelect, samples, 0});
        return;
      }
      memory_.write64(BusClient::RenderBackend, dst, samples);
      return;
    }
    case cp::Event::FLUSH:
    case cp::Event::CACHE_FLUSH_TS:
      return;
  }
}

}  // namespace tessera::gpu
