// The vertex half of a draw: fetch and shade each vertex a draw's primitives reference, once per
// pass (once per bin in naive mode — the cost binning saves), in warps of 32, into a buffer of
// clip-space vertices (position + varyings) for primitive setup. DESIGN.md: "process vertices".
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/sp/shader_core.h"
#include "gpu/vfd/vertex_fetch.h"
#include "isa/program.h"

namespace tessera::gpu {

class VertexStage final {
 public:
  VertexStage(vfd::VertexFetch& vfd, sp::ShaderCore& sp) : vfd_(vfd), sp_(sp) {}

  // Shades the vertices `ids` (unique; maxId bounds them). Afterwards vertex(id) is valid.
  void shade(const isa::Program& vs, const vfd::FetchState& fetch, const sp::ShaderResources& res,
             std::span<const uint32_t> ids, uint32_t maxId);
  const float* vertex(uint32_t id) const { return buffer_.data() + size_t(slotOf(id)) * stride_; }
  int floatsPerVertex() const { return stride_; }
  int varyings() const { return (stride_ - 4) / 4; }

 private:
  int32_t slotOf(uint32_t id) const;

  vfd::VertexFetch& vfd_;
  sp::ShaderCore& sp_;
  sp::VertexWarp warp_{};
  std::vector<float> buffer_;
  int stride_ = 4;
  // id → slot: a dense table for the usual index ranges, sorted ids otherwise.
  std::vector<int32_t> dense_;
  std::vector<uint32_t> sorted_;
  bool useDense_ = true;
};

}  // namespace tessera::gpu
