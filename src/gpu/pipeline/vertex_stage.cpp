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

void VertexStage::shade(const isa::Program& vs, const vfd::FetchState& fetch,
                        const sp::ShaderResources& res, std::span<const uint32_t> ids,
                        uint32_t maxId) {
  const int outputs = std::max<int>(1, vs.numOutputs);
  stride_ = 4 * outputs;
  buffer_.resize(ids.size() * size_t(stride_));
  useDense_ = maxId < kDenseLimit;
  if (useDense_) {
    if (dense_.size() < size_t{maxId} + 1) dense_.resize(size_t{maxId} + 1);
    for (size_t i = 0; i < ids.size(); ++i) dense_[ids[i]] = static_cast<int32_t>(i);
  } else {
    sorted_.assign(ids.begin(), ids.end());
    std::sort(sorted_.begin(), sorted_.end());
  }
  for (size_t first = 0; first < ids.size(); first += sp::kLanes) {
    const size_t n = std::min<size_t>(sp::kLanes, ids.size() - first);
    vfd_.fetch(fetch, ids.subspan(first, n), warp_);
    sp_.runVertex(vs, warp_, res);
    for (size_t lane = 0; lane < n; ++lane) {
      float* dst = buffer_.data() + (first + lane) * stride_;  // ids[i] lives in slot i
      for (int o = 0; o < outputs; ++o)
        for (int c = 0; c < 4; ++c) dst[o * 4 + c] = warp_.out[o][c][lane];
    }
  }
}

}  // namespace tessera::gpu
