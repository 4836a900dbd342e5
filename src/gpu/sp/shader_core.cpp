// ShaderCore: binds a warp's arrays to the interpreter and counts per-warp statistics.
#include "gpu/sp/shader_core.h"

#include "gpu/sp/executor.h"

namespace tessera::gpu::sp {
namespace {

// The private memory's lock for a warp of `prog`, if it spills and one is given.
std::unique_lock<std::mutex> lockPrivate(const isa::Program& prog, const ShaderResources& res) {
  if (prog.privateDwords == 0 || res.privateLock == nullptr) return {};
  return std::unique_lock(*res.privateLock);
}

}  // namespace

static_assert(kLanes == 32, "exec masks are uint32_t");
static_assert(kMaxAttributes == isa::kMaxInputs);
static_assert(kMaxVaryings == isa::kMaxVaryings);
static_assert(1 + kMaxVaryings == isa::kMaxVsOutputs);

ShaderCore::ShaderCore() : exec_(std::make_unique<WarpExecutor>()) {}
ShaderCore::~ShaderCore() = default;
ShaderCore::ShaderCore(ShaderCore&&) noexcept = default;
ShaderCore& ShaderCore::operator=(ShaderCore&&) noexcept = default;

void ShaderCore::runVertex(const isa::Program& prog, VertexWarp& warp, const ShaderResources& res) {
  if (prog.stage != isa::Stage::Vertex)
    throw GpuFault(FaultKind::BadState, 0, BusClient::ShaderFetch,
                   "runVertex given a fragment shader");
  ++stats_.vertexWarps;
  stats_.warpRegisters += prog.regCount;
  WarpIo io;
  io.inputs = &warp.in[0][0][0];
  io.outputs = &warp.out[0][0][0];
  const auto lock = lockPrivate(prog, res);
  exec_->run(prog, io, warp.laneMask, res, stats_);
}

void ShaderCore::runFragment(const isa::Program& prog, FragmentWarp& warp,
                             const ShaderResources& res) {
  if (prog.stage != isa::Stage::Fragment)
    throw GpuFault(FaultKind::BadState, 0, BusClient::ShaderFetch,
                   "runFragment given a vertex shader");
  ++stats_.fragmentWarps;
  stats_.warpRegisters += prog.regCount;
  WarpIo io;
  io.outputs = &warp.color[0][0];
  io.fragCoord = &warp.fragCoord[0][0];
  io.pointCoord = &warp.pointCoord[0][0];
  io.bary = &warp.bary[0][0];
  io.varyings = warp.varyings;
  io.coverage = &warp.coverage;
  io.frontFacing = warp.frontFacing;
  const auto lock = lockPrivate(prog, res);
  exec_->run(prog, io, warp.laneMask, res, stats_);
}

}  // namespace tessera::gpu::sp
