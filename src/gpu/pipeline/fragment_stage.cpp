#include "gpu/pipeline/fragment_stage.h"
#include "common/lane_count.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace tessera::gpu {

void FragmentStage::begin(const DrawState& state, const isa::Program& fs,
                          const sp::ShaderResources& res, const RenderTarget& target,
                          const lrz::LowResZ* lrz) {
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
  // Alpha to coverage, like a discard, decides coverage only after shading.
  earlyZ_ = depthStencilActive_ && !fs.uses(isa::kUsesKill) && !alphaToCoverage_;
  fragCoord_ = fs.uses(isa::kUsesFragCoord);
  pointCoord_ = fs.uses(isa::kUsesPointCoord);
  varyingsRead_ = fs.numVaryings > 0;
  quadCount_ = 0;
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
  ras_.rasterize(tri, scissor, [&](const ras::Quad& q) { blockUsed |= addQuad(q, tri, block); });
  if (blockUsed) ++arenaNext_;
}

bool FragmentStage::addQuad(const ras::Quad& q, const ras::Triangle& tri, const float* varyings) {
  const bool front = tri.frontFacing;
  const bool ms = samples_ > 1;
  uint8_t coverage = q.coverage;
  uint16_t samples = 0;
  if (ms) {
    samples = q.sampleCoverage & coverageMask_;
    coverage = ras::pixelsOf(samples);
    if (!coverage) return false;
  }
  if (overdraw_) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t x = uint32_t(q.x + (i & 1)), y = uint32_t(q.y + (i >> 1));
      if ((coverage >> i & 1) && x < overdrawW_ && y < overdrawH_)
        ++(*overdraw_)[size_t{y} * overdrawW_ + x];
    }
  }
  if (blocks_ && blocks_->hiddenByFullCover(q.x, q.y, seq_)) {
    stats_.fullCoverSkipped += quadLaneCount(coverage);
    return false;
  }
  if (lrz_ && lrz_->quadHidden(q.x, q.y, q.z, coverage)) {
    stats_.lrzRejected += quadLaneCount(coverage);
    return false;
  }
  if (earlyZ_ && ms) {
    samples = rb_.depthStencilSamples(state_->depthStencil, state_->depthFormat, target_.depth, q.x,
                                      q.y, samples_, samples, q.sampleZ, front);
    const uint8_t pass = ras::pixelsOf(samples);
    stats_.earlyZRejected += quadLaneCount(coverage & ~pass);
    coverage = pass;
    if (!coverage) return false;
  } else if (earlyZ_) {
    const uint8_t pass = rb_.depthStencil(state_->depthStencil, state_->depthFormat, target_.depth,
                                          q.x, q.y, coverage, q.z, front);
    stats_.earlyZRejected += quadLaneCount(coverage & ~pass);
    coverage = pass;
    if (!coverage) return false;
  }
  const int slot = quadCount_++;
  PendingQuad& pq = quads_[slot];
  pq.x = q.x;
  pq.y = q.y;
  pq.coverage = coverage;
  pq.front = front;
  std::memcpy(pq.z, q.z, sizeof pq.z);
  pq.samples = samples;
  if (ms) std::memcpy(pq.sampleZ, q.sampleZ, sizeof pq.sampleZ);
  const int first = slot * 4;
  // gl_FragCoord and gl_PointCoord only for a program that reads them (isa::Program's flags).
  if (fragCoord_) {
    for (int i = 0; i < 4; ++i) {
      warp_.fragCoord[0][first + i] = static_cast<float>(q.x + (i & 1)) + 0.5f;
      warp_.fragCoord[1][first + i] = static_cast<float>(q.y + (i >> 1)) + 0.5f;
    }
    std::memcpy(&warp_.fragCoord[2][first], q.z, sizeof q.z);
    std::memcpy(&warp_.fragCoord[3][first], q.invW, sizeof q.invW);
  }
  if (varyingsRead_) {
    std::memcpy(&warp_.bary[0][first], q.b1, sizeof q.b1);
    std::memcpy(&warp_.bary[1][first], q.b2, sizeof q.b2);
  }
  if (pointCoord_) {
    for (int i = 0; i < 4; ++i) {
      // GLES 2.0 §3.3.1: s = 1/2 + (xf + 1/2 - xw) / size, t = 1/2 - (yf + 1/2 - yw) / size.
      const bool point = tri.kind == ras::PrimitiveKind::Point;
      const float xf = static_cast<float>(q.x + (i & 1)) + 0.5f;
      const float yf = static_cast<float>(q.y + (i >> 1)) + 0.5f;
      warp_.pointCoord[0][first + i] = point ? 0.5f + (xf - tri.pointX) * tri.pointInvSize : 0.0f;
      warp_.pointCoord[1][first + i] = point ? 0.5f - (yf - tri.pointY) * tri.pointInvSize : 0.0f;
    }
  }
  warp_.varyings[slot] = varyings;
  const uint32_t quadLanes = 0xfu << (slot * 4);
  warp_.laneMask |= quadLanes;
  warp_.coverage |= uint32_t{coverage} << (slot * 4);
  if (front) warp_.frontFacing |= quadLanes;
  if (quadCount_ == kQuadsPerWarp) flush();
  return true;
}

void FragmentStage::flush() {
  if (quadCount_ > 0) {
    stats_.fragmentsShaded += laneCount(warp_.coverage);
    stats_.helperLanes += laneCount(warp_.laneMask & ~warp_.coverage);
    ++stats_.warps;
    prefetchColor();
    sp_.runFragment(*fs_, warp_, res_);
    const float* const channels[4] = {warp_.color[0], warp_.color[1], warp_.color[2],
                                      warp_.color[3]};
    // The quads' colour writes go to the RB together, in order, after their depth tests: a
    // test reads no colour, and a write depends only on its own test.
    rb::RenderBackend::QuadWrite writes[kQuadsPerWarp];
    int count = 0;
    for (int slot = 0; slot < quadCount_; ++slot) {
      const PendingQuad& pq = quads_[slot];
      uint8_t mask = static_cast<uint8_t>((warp_.coverage >> (slot * 4)) & 0xf);
      if (!mask) continue;
      if (samples_ > 1) {
        resolveSamples(pq, slot, mask);
        continue;
      }
      // Late depth/stencil; without tests every sample passes, and the RB still counts it (the
      // occlusion-query sample counter).
      if (!earlyZ_) {
        mask = rb_.depthStencil(state_->depthStencil, state_->depthFormat, target_.depth, pq.x,
                                pq.y, mask, pq.z, pq.front);
        if (!mask) continue;
      }
      writes[count++] = {pq.x, pq.y, mask, static_cast<uint8_t>(slot)};
    }
    if (state_->hasColor && count > 0)
      rb_.colorQuads(*colorWrite_, target_.color, writes, count, channels);
  }
  quadCount_ = 0;
  warp_.laneMask = warp_.coverage = warp_.frontFacing = 0;
  std::fill(std::begin(warp_.varyings), std::end(warp_.varyings), nullptr);
}

// The colour the warp's quads will be written to is fetched into the host's caches while the
// shader runs: a bin's GMEM (up to a megabyte of colour and depth) outgrows them, and blending
// reads every pixel before it writes it.
void FragmentStage::prefetchColor() const {
  if (!state_->hasColor || samples_ > 1 || target_.color.base == nullptr) return;
  const uint32_t bytes = rb::bytesPerPixel(state_->colorFormat);
  for (int slot = 0; slot < quadCount_; ++slot) {
    const PendingQuad& pq = quads_[slot];
    __builtin_prefetch(target_.color.pixel(pq.x, pq.y, bytes), 1);
    __builtin_prefetch(target_.color.pixel(pq.x, pq.y + 1, bytes), 1);
  }
}

void FragmentStage::resolveSamples(const PendingQuad& pq, int slot, uint8_t pixels) {
  // The shader's discards remove whole pixels; alpha to coverage then trims each pixel's
  // samples to the pattern of its alpha (§4.1.3).
  uint16_t samples = pq.samples & ras::expandPixels(pixels, samples_);
  if (alphaToCoverage_) {
    uint16_t keep = 0;
    for (int i = 0; i < 4; ++i)
      keep |= static_cast<uint16_t>(ras::coveragePattern(warp_.color[3][slot * 4 + i], samples_)
                                    << (4 * i));
    samples &= keep;
  }
  if (!earlyZ_)
    samples = rb_.depthStencilSamples(state_->depthStencil, state_->depthFormat, target_.depth,
                                      pq.x, pq.y, samples_, samples, pq.sampleZ, pq.front);
  if (!samples || !state_->hasColor) return;
  float rgba[4][4];
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) rgba[i][c] = warp_.color[c][slot * 4 + i];
  rb_.colorSamples(state_->blend, state_->colorFormat, target_.color, pq.x, pq.y, samples_, samples,
                   rgba);
}

}  // namespace tessera::gpu
