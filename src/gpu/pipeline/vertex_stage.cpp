#include "gpu/pipeline/vertex_stage.h"

#include <algorithm>

namespace tessera::gpu {
namespace {
constexpr uint32_t kDenseLimit = 1u << 24;
}

int32_t VertexStage::slotOf(uint32_t id) const {
  if (useDense_) return dense_[id];
  return static_cast<int32_t>(std::lower_bound(sorted_.begin(), sorted_.end(), id) -
                              sorted_.begin());
}

void VertexStage::prepare(const isa::Program& vs, std::span<const uint32_t> ids, uint32_t maxId) {
  stride_ = 4 * std::max<int>(1, vs.numOutputs);
  buffer_.resize(ids.size() * size_t(stride_));
  useDense_ = maxId < kDenseLimit;
  if (useDense_) {
    if (dense_.size() < size_t{maxId} + 1) dense_.resize(size_t{maxId} + 1);
    for (size_t i = 0; i < ids.size(); ++i) dense_[ids[i]] = static_cast<int32_t>(i);
  } else {
    sorted_.assign(ids.begin(), ids.end());
    std::sort(sorted_.begin(), sorted_.end());
  }
}

void VertexStage::shadeRange(const isa::Program& vs, const vfd::FetchState& fetch,
                             const sp::ShaderResources& res, std::span<const uint32_t> ids,
                             size_t first, size_t last, vfd::VertexFetch& vfd, sp::ShaderCore& sp,
                             sp::VertexWarp& warp) {
  const int outputs = stride_ / 4;
  for (size_t at = first; at < last; at += sp::kLanes) {
    const size_t n = std::min<size_t>(sp::kLanes, last - at);
    vfd.fetch(fetch, ids.subspan(at, n), warp);
    sp.runVertex(vs, warp, res);
    for (size_t lane = 0; lane < n; ++lane) {
      float* dst = buffer_.data() + (at + lane) * stride_;  // ids[i] lives in slot i
      for (int o = 0; o < outputs; ++o)
        for (int c = 0; c < 4; ++c) dst[o * 4 + c] = warp.out[o][c][lane];
    }
  }
}

}  // namespace tessera::gpu
