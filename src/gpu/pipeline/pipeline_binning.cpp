// The binning pass of a draw (the seed on Adreno tiling; DESIGN.md "Bins, blocks and the seeds'
// optimisations"): position-only vertex shading and primitive setup, then the binner — LRZ
// occlusion, the visibility stream and the block table — over the window triangles in primitive
// order. A large draw's front end runs in ranges on the pool's threads while the command
// processor's thread bins the ranges already set up (front_end_ranges.h).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gpu/pipeline/pipeline.h"

namespace tessera::gpu {
namespace {

// Pixels a window triangle can cover, conservatively (snapping moves vertices by < 1/256 px).
ras::Scissor bounds(const ras::Triangle& t) {
  float x0 = t.v[0].x, x1 = t.v[0].x, y0 = t.v[0].y, y1 = t.v[0].y;
  for (int i = 1; i < 3; ++i) {
    x0 = std::min(x0, t.v[i].x);
    x1 = std::max(x1, t.v[i].x);
    y0 = std::min(y0, t.v[i].y);
    y1 = std::max(y1, t.v[i].y);
  }
  auto lo = [](float v) { return static_cast<int>(std::floor(std::max(v, -1e6f))) - 1; };
  auto hi = [](float v) { return static_cast<int>(std::ceil(std::min(v, 1e6f))) + 1; };
  return {lo(x0), lo(y0), hi(x1), hi(y1)};
}

// The binner waits on the ranges: they go ahead of anything else queued.
constexpr uint64_t kRangeCost = UINT64_MAX;

}  // namespace

void Pipeline::binningDraw(const DrawState& s, const cp::RegisterFile& regs) {
  bind(s.bs, isa::Stage::Vertex, vs_);
  ++stats_.binningDraws;
  collectVertices(allPrims_);
  const isa::Program& vs = *vs_.program;
  const sp::ShaderResources res = vs_.resources(tex_);
  // Ranges read this frame's locals: whatever leaves it (a range's fault included), every range
  // has finished first.
  struct Drain {
    Pipeline& p;
    ~Drain() { p.drainRanges(); }
  } drain{*this};
  // With one thread, or for a small draw, the front end runs on this thread as a whole.
  const size_t shadeStep = rangeStep(ids_.size(), kShadeRangeVertices);
  if (shadeStep && shadeInRanges()) {
    vertices_.prepare(vs, ids_, maxId_);
    startRanges(ids_.size(), shadeStep, [&](FrontEndUnits& u, FrontEndRange& r) {
      vertices_.shadeRange(vs, s.fetch, res, ids_, r.first, r.last, u.vfd, u.sp, u.warp);
    });
    for (size_t i = 0; i < ranges_.size(); ++i) finishRange(i);
  } else {
    vertices_.shade(vs, s.fetch, res, ids_, maxId_);
  }
  stats_.binningVerticesShaded += ids_.size();
  stats_.binningPrimitives += allPrims_.size();
  configureSetup(s, vs, 0);
  // The binning pass runs no fragment shader: whether it discards is the driver's to check
  // before it enables LRZ for the batch (GRAS_LRZ_CNTL).
  const bool lrz = lrzDraw(s, false);
  const bool occluder = lrz && s.depthStencil.depthWrite;
  const bool opaque = fullCoverDraw(s, regs);
  writer_.beginDraw();
  auto bin = [&](uint32_t t, const ras::Triangle& tri, const ras::Scissor& b) {
    // A triangle behind the LRZ of the occluders binned before it never reaches a stream.
    if (lrz && lrz_.hidden(tri, s.screenScissor)) {
      ++lrz_.stats().trianglesCulled;
      return;
    }
    writer_.addPrimitive(t, b.x0, b.y0, b.x1, b.y1);
    blocks_.triangle(passTriangles_ + t, tri, b, s.screenScissor, opaque);
    if (occluder) lrz_.occlude(tri, s.screenScissor);
  };
  if (const size_t setupStep = rangeStep(allPrims_.size(), kSetupRangePrimitives)) {
    // Ranges copy the configuration, not setup_, whose counters the merges change meanwhile.
    pc::PrimitiveSetup configured = setup_;
    configured.resetStats();
    startRanges(allPrims_.size(), setupStep, [&](FrontEndUnits& u, FrontEndRange& r) {
      u.setup = configured;
      const std::span<const uint32_t> prims(allPrims_.data() + r.first, r.last - r.first);
      forEachPrimitive(prims, 4, u.setup,
                       [&](uint32_t t, const ras::Triangle& tri, const float* const*) {
                         r.triangles.push_back({t, intersect(bounds(tri), s.screenScissor), tri});
                       });
    });
    for (size_t i = 0; i < ranges_.size(); ++i) {
      finishRange(i);
      for (const SetUpTriangle& t : ranges_[i].triangles) bin(t.primitive, t.triangle, t.bounds);
    }
  } else {
    forEachPrimitive(allPrims_, 4, setup_,
                     [&](uint32_t t, const ras::Triangle& tri, const float* const*) {
                       bin(t, tri, intersect(bounds(tri), s.screenScissor));
                     });
  }
  writer_.endDraw(memory_);
  passTriangles_ += uint32_t(allPrims_.size());
}

size_t Pipeline::rangeStep(size_t count, size_t least) const {
  if (threads_ == 1 || count < kMinRangesToSplit * least) return 0;
  const size_t ranges = std::min(count / least, size_t{kRangesPerThread} * threads_);
  return ((count + ranges - 1) / ranges + sp::kLanes - 1) / sp::kLanes * sp::kLanes;
}

bool Pipeline::shadeInRanges() const {
  const isa::Program& vs = *vs_.program;
  return !vs.uses(isa::kUsesTexture) && vs.privateDwords == 0;
}

void Pipeline::startRanges(size_t count, size_t step, const RangeWork& work) {
  // Sized before the first is queued: a running range's slot never moves.
  ranges_.resize((count + step - 1) / step);
  for (size_t i = 0; i < ranges_.size(); ++i) {
    FrontEndRange& r = ranges_[i];
    r.first = i * step;
    r.last = std::min(count, r.first + step);
    r.error = nullptr;
    r.bus = {};
    r.triangles.clear();
    r.done = submitTask(
        [this, &r, work] {
          std::unique_ptr<FrontEndUnits> u;
          {
            const std::lock_guard lock(unitsMutex_);
            if (!idleUnits_.empty()) {
              u = std::move(idleUnits_.back());
              idleUnits_.pop_back();
            }
          }
          if (!u) u = std::make_unique<FrontEndUnits>(memory_);
          u->vfd.resetStats();
          u->sp.resetStats();
          u->setup.resetStats();
          {
            // Like a bin worker, the range sees the submission's buffer objects and counts its
            // own traffic.
            GpuMemory::ViewScope pin(memory_, runView_ ? runView_ : memory_.view());
            GpuMemory::BusCountingScope scope(memory_, r.bus);
            try {
              work(*u, r);
            } catch (...) {
              r.error = std::current_exception();
            }
          }
          r.vfd = u->vfd.stats();
          r.sp = u->sp.stats();
          r.setup = u->setup.stats();
          const std::lock_guard lock(unitsMutex_);
          idleUnits_.push_back(std::move(u));
        },
        kRangeCost);
  }
}

void Pipeline::finishRange(size_t i) {
  FrontEndRange& r = ranges_[i];
  awaitOnPool(r.done);
  // The ranges before it have been merged: counters and traffic add up as on one thread, up to
  // a fault, which stops the draw there.
  vfd_.addStats(r.vfd);
  sp_.addStats(r.sp);
  setup_.addStats(r.setup);
  memory_.addStats(r.bus);
  if (r.error) std::rethrow_exception(r.error);
}

void Pipeline::drainRanges() noexcept {
  for (FrontEndRange& r : ranges_)
    if (r.done.valid()) awaitOnPool(r.done);
}

}  // namespace tessera::gpu
