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
             std::span<const uint32_t> ids, uint32_t maxId) {
    prepare(vs, ids, maxId);
    shadeRange(vs, fetch, res, ids, 0, ids.size(), vfd_, sp_, warp_);
  }
  // shade() in parts: prepare() gives each of `ids` its slot, then shadeRange() shades
  // ids[first, last) in warps of 32 with the given fetch unit and core. Ranges that start on a
  // warp boundary make the same warps as one range, and write only their own slots, so the
  // binning pass shades ranges on several host threads (pipeline_binning.cpp).
  void prepare(const isa::Program& vs, std::span<const uint32_t> ids, uint32_t maxId);
  void shadeRange(const isa::Program& vs, const vfd::FetchState& fetch,
                  const sp::ShaderResources& res, std::span<const uint32_t> ids, size_t first,
                  size_t last, vfd::VertexFetch& vfd, sp::ShaderCore& sp, sp::VertexWarp& warp);
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
