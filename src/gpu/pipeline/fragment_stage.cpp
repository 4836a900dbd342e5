#include "gpu/pipeline/fragment_stage.h"

#include <immintrin.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

#include "common/lane_count.h"

namespace tessera::gpu {

void FragmentStage::configureCores(uint32_t cores, const tex::TexCacheConfig& cache) {
  cores = std::max(cores, 1u);
  if (cores_.size() == cores && cores_[0]->tex.cache().config() == cache) return;
  cores_.clear();
  for (uint32_t c = 0; c < cores; ++c) {
    cores_.push_back(std::make_unique<Core>(memory_));
    cores_.back()->tex.configureCache(cache);
  }
}

void FragmentStage::resetCores() {
  for (const auto& core : cores_) {
    core->sp.resetStats();
    core->tex.resetStats();
  }
}

void FragmentStage::begin(const DrawState& state, const isa::Program& fs,
                          const sp::ShaderResources& res, const RenderTarget& target,
                          const lrz::LowResZ* lrz, bool mayOverlap) {
  state_ = &state;
  lrz_ = lrz;
  fs_ = &fs;
  res_ = res;
  target_ = target;
  const auto& ds = state.depthStencil;
  depthStencilActive_ =
      state.depthFormat != rb::DepthFormat::None && (ds.depthTest || ds.stencilTest);
  // Early Z is legal when the shader cannot discard: the test's outcome and its depth/stencil
  // writes are then the same before or after shading (GLES 2.0 §4.1 order is preserved
  // because quads are tested in primitive order).
  samples_ = state.samples;
  ras_.setSamples(samples_);
  const bool ms = samples_ > 1;
  // GLES 2.0 §4.1.3: without multisample buffers the coverage operations do nothing.
  coverageMask_ = 0xffff;
  if (ms && state.blend.sampleCoverage) {
    uint8_t pattern = ras::coveragePattern(state.blend.sampleCoverageValue, samples_);
    if (state.blend.sampleCoverageInvert)
      pattern = static_cast<uint8_t>(~pattern & ras::allSamples(samples_));
    coverageMask_ = ras::quadPattern(pattern);
  }
  alphaToCoverage_ = ms && state.blend.alphaToCoverage;
#if TESSERA_AVX2_CLONES
  blockPath_ = !ms && simdPath() == SimdPath::Avx2;
#endif
  // Alpha to coverage, like a discard, decides coverage only after shading.
  earlyZ_ = depthStencilActive_ && !fs.uses(isa::kUsesKill) && !alphaToCoverage_;
  fragCoord_ = fs.uses(isa::kUsesFragCoord);
  pointCoord_ = fs.uses(isa::kUsesPointCoord);
  varyingsRead_ = fs.numVaryings > 0;
  mayOverlap_ = mayOverlap && helpers_ != nullptr;
  drawWarps_ = 0;
  for (const auto& core : cores_) {
    core->res = res;
    if (res.textureUnit) core->res.textureUnit = &core->tex;
  }
  batch().reset();
  if (state.hasColor) colorWrite_ = &rb_.colorWrite(state.blend, state.colorFormat);
}

void FragmentStage::triangle(const ras::Triangle& tri, const float* const vary[3], int numVaryings,
                             const ras::Scissor& scissor) {
  if (scissor.x1 <= scissor.x0 || scissor.y1 <= scissor.y0) return;
  // The arena is a ring: pending quads come from at most the last kQuadsPerWarp triangles that
  // produced quads, so a slot kArenaTriangles triangles old is never still referenced.
  float* block = arena_.data() + size_t(arenaNext_ % kArenaTriangles) * kArenaFloats;
  bool blockUsed = false;
  for (int v = 0; v < 3; ++v)
    std::memcpy(block + v * sp::kMaxVaryings * 4, vary[v], sizeof(float) * 4 * numVaryings);
  ras_.rasterizeBatches(
      tri, scissor,
      [&](const ras::Quad* quads, int count) { blockUsed |= addQuads(quads, count, tri, block); },
      [&](const ras::TriangleSetup& s, int bx, int by) {
#if TESSERA_AVX2_CLONES
        if (!blockPath_) return false;
        // Two halves of four pixel rows, each a warp's worth of quads, in the walk's order.
        for (int half = 0; half < 2; ++half)
          blockUsed |= addHalfBlock(s, bx, by + half * ras::kBlockSize / 2, tri, block);
        return true;
#else
        return false;
#endif
      });
  if (blockUsed) ++arenaNext_;
}

bool FragmentStage::testQuads(int count, const int* x, const int* y, const float* const* z,
                              uint8_t* pass, bool front, const float* halfBlockZ) {
  // Without an overdraw map, block table or LRZ nothing hides a quad before its depth test.
  if (overdraw_ || blocks_ || lrz_)
    for (int k = 0; k < count; ++k) pass[k] = unhidden(x[k], y[k], z[k], pass[k]);
  if (earlyZ_) {
    // The RB counts the samples it tests and those that pass (a subset of them): the rest are
    // the ones early Z rejects.
    const rb::RbStats& rb = rb_.stats();
    const uint64_t failedBefore = rb.samplesTested - rb.samplesPassed;
    if (halfBlockZ)
      rb_.depthStencilHalfBlock(state_->depthStencil, state_->depthFormat, target_.depth, x[0],
                                y[0], halfBlockZ, pass, front);
    else
      rb_.depthStencilQuads(state_->depthStencil, state_->depthFormat, target_.depth, count, x, y,
                            z, pass, front);
    stats_.earlyZRejected += rb.samplesTested - rb.samplesPassed - failedBefore;
  }
  uint8_t any = 0;
  for (int k = 0; k < count; ++k) any |= pass[k];
  return any != 0;
}

#if TESSERA_AVX2_CLONES
bool FragmentStage::addHalfBlock(const ras::TriangleSetup& s, int x, int y,
                                 const ras::Triangle& tri, const float* varyings) {
  constexpr int kQuads = ras::kHalfBlockQuads;
  ras::HalfBlock h;
  ras::interpolateHalfBlockAvx2(s, x, y, h);
  int qx[kQuads], qy[kQuads];
  const float* z[kQuads];
  uint8_t pass[kQuads];
  for (int k = 0; k < kQuads; ++k) {
    qx[k] = x + 2 * (k & 3);
    qy[k] = y + 2 * (k >> 2);
    z[k] = h.z + 4 * k;
    pass[k] = 0xf;
  }
  if (!testQuads(kQuads, qx, qy, z, pass, tri.frontFacing, h.z)) return false;
  if (!pointCoord_) {
    packHalfBlock(h, qx, qy, pass, tri.frontFacing, varyings);
    return true;
  }
  for (int k = 0; k < kQuads; ++k)
    if (pass[k] != 0)
      pack(qx[k], qy[k], pass[k], 0, {z[k], h.invW + 4 * k, h.b1 + 4 * k, h.b2 + 4 * k, nullptr},
           tri, varyings);
  return true;
}

void FragmentStage::packHalfBlock(const ras::HalfBlock& h, const int* qx, const int* qy,
                                  const uint8_t* pass, bool front, const float* varyings) {
  constexpr int kQuads = ras::kHalfBlockQuads;
  for (int k = 0; k < kQuads;) {
    if (pass[k] == 0) {
      ++k;
      continue;
    }
    Batch& b = batch();
    sp::FragmentWarp& warp = b.warp;
    const int slot = b.quadCount;
    // The run: the passing quads from k on that the open warp still has slots for. The half
    // block's lanes are in the warp's order, so the run's are consecutive on both sides.
    int n = 1;
    while (k + n < kQuads && pass[k + n] != 0 && slot + n < kQuadsPerWarp) ++n;
    const int first = 4 * slot;
    // A quad's lanes at a time: a copy of the run's length in one call would be a string move,
    // whose start-up costs more than these few 16-byte moves.
    constexpr size_t kQuadBytes = sizeof(float) * 4;
    uint32_t coverage = 0;
    for (int i = 0; i < n; ++i) {
      const int q = k + i, lane = first + 4 * i;
      PendingQuad& pq = b.quads[slot + i];
      pq.x = qx[q];
      pq.y = qy[q];
      pq.coverage = pass[q];
      pq.front = front;
      std::memcpy(pq.z, h.z + 4 * q, sizeof pq.z);
      pq.samples = 0;
      warp.varyings[slot + i] = varyings;
      coverage |= uint32_t{pass[q]} << (4 * i);
      if (fragCoord_) {
        pixelCentres(warp, lane, pq.x, pq.y);
        std::memcpy(&warp.fragCoord[2][lane], h.z + 4 * q, kQuadBytes);
        std::memcpy(&warp.fragCoord[3][lane], h.invW + 4 * q, kQuadBytes);
      }
      if (varyingsRead_) {
        std::memcpy(&warp.bary[0][lane], h.b1 + 4 * q, kQuadBytes);
        std::memcpy(&warp.bary[1][lane], h.b2 + 4 * q, kQuadBytes);
      }
    }
    const uint32_t lanes = (n == kQuadsPerWarp ? ~0u : (1u << (4 * n)) - 1u) << first;
    warp.laneMask |= lanes;
    warp.coverage |= coverage << first;
    if (front) warp.frontFacing |= lanes;
    b.quadCount += n;
    k += n;
    if (b.quadCount == kQuadsPerWarp) flush();
  }
}
#endif

bool FragmentStage::addQuads(const ras::Quad* quads, int count, const ras::Triangle& tri,
                             const float* varyings) {
  const bool front = tri.frontFacing;
  bool used = false;
  if (samples_ == 1) {
    constexpr int kMax = ras::Rasterizer::kMaxBatch;
    uint8_t pass[kMax];
    int x[kMax] = {}, y[kMax] = {};
    const float* z[kMax] = {};
    for (int k = 0; k < count; ++k) {
      pass[k] = quads[k].coverage;
      x[k] = quads[k].x;
      y[k] = quads[k].y;
      z[k] = quads[k].z;
    }
    if (!testQuads(count, x, y, z, pass, front)) return false;
    for (int k = 0; k < count; ++k) {
      const ras::Quad& q = quads[k];
      if (pass[k] != 0) pack(q.x, q.y, pass[k], 0, lanesOf(q), tri, varyings);
    }
    return true;
  }
  for (int k = 0; k < count; ++k) {
    const ras::Quad& q = quads[k];
    uint16_t samples = q.sampleCoverage & coverageMask_;
    uint8_t coverage = unhidden(q.x, q.y, q.z, ras::pixelsOf(samples));
    if (!coverage) continue;
    if (earlyZ_) {
      samples = rb_.depthStencilSamples(state_->depthStencil, state_->depthFormat, target_.depth,
                                        q.x, q.y, samples_, samples, q.sampleZ, front);
      const uint8_t pass = ras::pixelsOf(samples);
      stats_.earlyZRejected += quadLaneCount(coverage & ~pass);
      coverage = pass;
      if (!coverage) continue;
    }
    pack(q.x, q.y, coverage, samples, lanesOf(q), tri, varyings);
    used = true;
  }
  return used;
}

uint8_t FragmentStage::unhidden(int qx, int qy, const float z[4], uint8_t coverage) {
  if (coverage == 0) return 0;
  if (overdraw_) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t x = uint32_t(qx + (i & 1)), y = uint32_t(qy + (i >> 1));
      if ((coverage >> i & 1) && x < overdrawW_ && y < overdrawH_)
        ++(*overdraw_)[size_t{y} * overdrawW_ + x];
    }
  }
  if (blocks_ && blocks_->hiddenByFullCover(qx, qy, seq_)) {
    stats_.fullCoverSkipped += quadLaneCount(coverage);
    return 0;
  }
  if (lrz_ && lrz_->quadHidden(qx, qy, z, coverage)) {
    stats_.lrzRejected += quadLaneCount(coverage);
    return 0;
  }
  return coverage;
}

void FragmentStage::pack(int x, int y, uint8_t coverage, uint16_t samples, const QuadLanes& q,
                         const ras::Triangle& tri, const float* varyings) {
  const bool ms = samples_ > 1, front = tri.frontFacing;
  Batch& b = batch();
  sp::FragmentWarp& warp = b.warp;
  const int slot = b.quadCount++;
  PendingQuad& pq = b.quads[slot];
  pq.x = x;
  pq.y = y;
  pq.coverage = coverage;
  pq.front = front;
  std::memcpy(pq.z, q.z, sizeof pq.z);
  pq.samples = samples;
  if (ms) std::memcpy(pq.sampleZ, q.sampleZ, sizeof pq.sampleZ);
  const int first = slot * 4;
  // gl_FragCoord and gl_PointCoord only for a program that reads them (isa::Program's flags).
  if (fragCoord_) {
    pixelCentres(warp, first, x, y);
    std::memcpy(&warp.fragCoord[2][first], q.z, 4 * sizeof(float));
    std::memcpy(&warp.fragCoord[3][first], q.invW, 4 * sizeof(float));
  }
  if (varyingsRead_) {
    std::memcpy(&warp.bary[0][first], q.b1, 4 * sizeof(float));
    std::memcpy(&warp.bary[1][first], q.b2, 4 * sizeof(float));
  }
  if (pointCoord_) {
    for (int i = 0; i < 4; ++i) {
      // GLES 2.0 §3.3.1: s = 1/2 + (xf + 1/2 - xw) / size, t = 1/2 - (yf + 1/2 - yw) / size.
      const bool point = tri.kind == ras::PrimitiveKind::Point;
      const float xf = static_cast<float>(x + (i & 1)) + 0.5f;
      const float yf = static_cast<float>(y + (i >> 1)) + 0.5f;
      warp.pointCoord[0][first + i] = point ? 0.5f + (xf - tri.pointX) * tri.pointInvSize : 0.0f;
      warp.pointCoord[1][first + i] = point ? 0.5f - (yf - tri.pointY) * tri.pointInvSize : 0.0f;
    }
  }
  warp.varyings[slot] = varyings;
  const uint32_t quadLanes = 0xfu << (slot * 4);
  warp.laneMask |= quadLanes;
  warp.coverage |= uint32_t{coverage} << (slot * 4);
  if (front) warp.frontFacing |= quadLanes;
  if (b.quadCount == kQuadsPerWarp) flush();
}

void FragmentStage::flush() {
  Batch& b = batch();
  if (b.quadCount == 0) return;
  stats_.fragmentsShaded += laneCount(b.warp.coverage);
  stats_.helperLanes += laneCount(b.warp.laneMask & ~b.warp.coverage);
  ++stats_.warps;
  prefetchColor(b);
  b.core = coreOf(drawWarps_);
  ++drawWarps_;
  // A draw of some size asks for a helper once: tiny draws would spend more on the handover.
  constexpr uint64_t kWarpsBeforeHelper = 4;
  if (mayOverlap_ && !helper_ && drawWarps_ == kWarpsBeforeHelper) startHelper();
  // A helper that left for a queued bin is asked for again once no bin is queued: the bin it
  // left for may have been short (a bin the draw does not touch).
  if (helper_ && helper_->done.load(std::memory_order_acquire) && helpers_->queuedWork() == 0)
    callHelper();
  if (!helper_) {
    shade(b);
    retire(b);
    b.reset();
    return;
  }
  published_.store(++head_, std::memory_order_release);
  if (head_ - retired_ == kBatches) retireOldest();
  batch().reset();
}

void FragmentStage::shade(Batch& b) {
  Core& core = *cores_[b.core];
  {
    GpuMemory::BusCountingScope scope(memory_, b.bus);
    try {
      core.sp.runFragment(*fs_, b.warp, core.res);
    } catch (...) {
      b.fault = std::current_exception();
    }
  }
  b.sp = core.sp.takeStats();
  b.tex = core.tex.takeStats();
}

void FragmentStage::retire(Batch& b) {
  // The faulting warp's own counters count, as they would had it been shaded here.
  sp_.addStats(b.sp);
  if (res_.textureUnit) res_.textureUnit->addStats(b.tex);
  memory_.addStats(b.bus);
  if (b.fault) std::rethrow_exception(std::exchange(b.fault, nullptr));
  write(b);
}

void FragmentStage::write(Batch& b) {
  sp::FragmentWarp& warp = b.warp;
  const float* const channels[4] = {warp.color[0], warp.color[1], warp.color[2], warp.color[3]};
  // The quads' colour writes go to the RB together, in order, after their depth tests: a
  // test reads no colour, and a write depends only on its own test.
  rb::RenderBackend::QuadWrite writes[kQuadsPerWarp];
  int count = 0;
  // Without a depth or stencil test every sample passes: the RB counts the warp's at once.
  const bool untested = !depthStencilActive_ && samples_ == 1;
  uint64_t untestedSamples = 0;
  for (int slot = 0; slot < b.quadCount; ++slot) {
    const PendingQuad& pq = b.quads[slot];
    uint8_t mask = static_cast<uint8_t>((warp.coverage >> (slot * 4)) & 0xf);
    if (!mask) continue;
    if (samples_ > 1) {
      resolveSamples(b, pq, slot, mask);
      continue;
    }
    // Late depth/stencil; without tests every sample passes, and the RB still counts it (the
    // occlusion-query sample counter).
    if (!earlyZ_ && !untested) {
      mask = rb_.depthStencil(state_->depthStencil, state_->depthFormat, target_.depth, pq.x, pq.y,
                              mask, pq.z, pq.front);
      if (!mask) continue;
    }
    writes[count++] = {pq.x, pq.y, mask, static_cast<uint8_t>(slot)};
    untestedSamples += static_cast<uint64_t>(quadLaneCount(mask));
  }
  if (untested) rb_.passAll(static_cast<uint64_t>(count), untestedSamples);
  if (state_->hasColor && count > 0)
    rb_.colorQuads(*colorWrite_, target_.color, writes, count, channels);
}

bool FragmentStage::shadeNext() {
  // The core whose next warp is oldest first: the drawing thread waits for the oldest.
  uint32_t first = 0;
  for (uint32_t c = 1; c < cores(); ++c)
    if (cores_[c]->next.load(std::memory_order_relaxed) <
        cores_[first]->next.load(std::memory_order_relaxed))
      first = c;
  for (uint32_t i = 0; i < cores(); ++i) {
    Core& core = *cores_[(first + i) % cores()];
    // Read before taking the core: a thread waiting for work writes no shared line.
    const uint64_t next = core.next.load(std::memory_order_relaxed);
    if (next >= published_.load(std::memory_order_relaxed) ||
        core.busy.load(std::memory_order_relaxed) ||
        core.busy.exchange(true, std::memory_order_acquire))
      continue;
    const uint64_t k = core.next.load(std::memory_order_relaxed);
    // After a faulting warp nothing later is shaded: the draw ends at it, as on one thread.
    const bool ready = k < published_.load(std::memory_order_acquire) &&
                       k < faultAt_.load(std::memory_order_relaxed);
    if (ready) {
      Batch& b = batches_[k % kBatches];
      shade(b);
      if (b.fault) {
        uint64_t at = faultAt_.load(std::memory_order_relaxed);
        while (k < at && !faultAt_.compare_exchange_weak(at, k, std::memory_order_relaxed)) {
        }
      }
      core.next.store(nextOfCore(k + dealBase_) - dealBase_, std::memory_order_relaxed);
      b.shaded.store(true, std::memory_order_release);
    }
    core.busy.store(false, std::memory_order_release);
    if (ready) return true;
  }
  return false;
}

void FragmentStage::awaitShaded(uint64_t k) {
  // Whichever thread is free shades the next warp; this one never waits for a helper that has
  // not started (the pool may be busy with bins).
  const Batch& b = batches_[k % kBatches];
  while (!b.shaded.load(std::memory_order_acquire))
    if (!shadeNext()) _mm_pause();
}

void FragmentStage::retireOldest() {
  Batch& b = batches_[retired_ % kBatches];
  awaitShaded(retired_);
  retire(b);
  b.reset();
  ++retired_;
}

void FragmentStage::startHelper() {
  published_.store(head_, std::memory_order_relaxed);
  faultAt_.store(UINT64_MAX, std::memory_order_relaxed);
  retired_ = head_;
  // Warp head_ is the draw's warp drawWarps_ - 1; each core's next is its first from there.
  dealBase_ = drawWarps_ - 1 - head_;
  for (uint32_t c = 0; c < cores(); ++c) {
    uint64_t d = drawWarps_ - 1;
    while (coreOf(d) != c) ++d;
    cores_[c]->next.store(d - dealBase_, std::memory_order_relaxed);
  }
  callHelper();
}

void FragmentStage::callHelper() {
  helper_ = std::make_shared<Helper>();
  // The helper pins the memory this thread pinned. Queued bins go first, since a whole bin is
  // worth more to a free thread than half of a draw.
  helpers_->submitHelper([this, h = helper_, view = memory_.pinnedView()] { runHelper(h, view); });
}

void FragmentStage::runHelper(const std::shared_ptr<Helper>& h, GpuMemory::View view) {
  int idle = 0;
  if (!h->state.compare_exchange_strong(idle, 1)) return;  // the draw ended before it started
  {
    GpuMemory::ViewScope pin(memory_, view);
    // It leaves when a bin is queued: that bin would otherwise wait for this draw to end. The
    // helpers of draws that ended before theirs started may still be queued: they are not work.
    for (int idleSpins = 0;
         !h->stop.load(std::memory_order_acquire) && helpers_->queuedWork() == 0;) {
      if (shadeNext()) {
        idleSpins = 0;
      } else if (++idleSpins < 256) {
        _mm_pause();
      } else {
        std::this_thread::yield();
      }
    }
  }
  h->done.store(true, std::memory_order_release);
}

void FragmentStage::stopHelper() {
  if (!helper_) return;
  helper_->stop.store(true, std::memory_order_release);
  int state = 0;
  if (!helper_->state.compare_exchange_strong(state, 2) && state == 1)
    while (!helper_->done.load(std::memory_order_acquire)) _mm_pause();
  helper_.reset();
}

void FragmentStage::end() {
  flush();
  if (!helper_) return;
  try {
    while (retired_ < head_) retireOldest();
  } catch (...) {
    abandon();
    throw;
  }
  stopHelper();
}

void FragmentStage::abandon() noexcept {
  // Without a helper a faulting warp is raised at once and begin() clears what it left.
  if (!helper_) return;
  stopHelper();
  retired_ = head_;
  for (Batch& b : batches_) b.reset();
}

// The colour the warp's quads will be written to is fetched into the host's caches while the
// shader runs: a bin's GMEM (up to a megabyte of colour and depth) outgrows them, and blending
// reads every pixel before it writes it.
void FragmentStage::prefetchColor(const Batch& b) const {
  if (!state_->hasColor || samples_ > 1 || target_.color.base == nullptr) return;
  const uint32_t bytes = rb::bytesPerPixel(state_->colorFormat);
  for (int slot = 0; slot < b.quadCount; ++slot) {
    const PendingQuad& pq = b.quads[slot];
    const uint8_t* row = target_.color.pixel(pq.x, pq.y, bytes);
    __builtin_prefetch(row, 1);
    __builtin_prefetch(row + target_.color.pitch, 1);
  }
}

void FragmentStage::resolveSamples(const Batch& b, const PendingQuad& pq, int slot,
                                   uint8_t pixels) {
  // The shader's discards remove whole pixels; alpha to coverage then trims each pixel's
  // samples to the pattern of its alpha (§4.1.3).
  uint16_t samples = pq.samples & ras::expandPixels(pixels, samples_);
  if (alphaToCoverage_) {
    uint16_t keep = 0;
    for (int i = 0; i < 4; ++i)
      keep |= static_cast<uint16_t>(ras::coveragePattern(b.warp.color[3][slot * 4 + i], samples_)
                                    << (4 * i));
    samples &= keep;
  }
  if (!earlyZ_)
    samples = rb_.depthStencilSamples(state_->depthStencil, state_->depthFormat, target_.depth,
                                      pq.x, pq.y, samples_, samples, pq.sampleZ, pq.front);
  if (!samples || !state_->hasColor) return;
  float rgba[4][4];
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) rgba[i][c] = b.warp.color[c][slot * 4 + i];
  rb_.colorSamples(state_->blend, state_->colorFormat, target_.color, pq.x, pq.y, samples_, samples,
                   rgba);
}

}  // namespace tessera::gpu
