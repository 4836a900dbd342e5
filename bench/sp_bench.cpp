// Shader processor issue rate: full 32-lane warps through gpu::sp::ShaderCore, reported as lanes
// (threads) per second. The vertex side runs the shipped lit.vs and its position-only binning
// variant (the two vertex programs a tiled frame issues per draw); the fragment side runs the
// shipped phong.fs (straight-line ALU) and a lit shader whose specular term sits behind an `if`
// on N.L, with normals spread so that lanes of one warp take both sides of the branch.
#include <benchmark/benchmark.h>

#include <memory>
#include <string_view>
#include <vector>

#include "bench_random.h"
#include "gpu/sp/shader_core.h"
#include "isa/assembler.h"
#include "isa/position_only.h"
#include "shaders/shaders.h"

namespace tessera::gpu::sp {
namespace {

// Blinn-Phong with the specular highlight computed only where the surface faces the light:
// the divergent `if` makes the core run both the masked body and the reconvergence. Constant
// layout as the shipped shaders (docs/isa.md).
constexpr std::string_view kLitBranchFs = R"(.stage fragment
.regs 12
.outputs 1
.varyings 3
ipl r0, v0.x
ipl r1, v0.y
ipl r2, v0.z
mul r3, r0, r0
mad r3, r1, r1, r3
mad r3, r2, r2, r3
rsq r3, r3
mul r0, r0, r3
mul r1, r1, r3
mul r2, r2, r3
mul r4, r0, c44
mad r4, r1, c45, r4
mad r4, r2, c46, r4
mul o0.x, c52, c48
mul o0.y, c53, c49
mul o0.z, c54, c50
mov o0.w, c51
fgt r5, r4, 0
if r5
  ipl r6, v2.x
  ipl r7, v2.y
  ipl r8, v2.z
  mul r9, r6, r6
  mad r9, r7, r7, r9
  mad r9, r8, r8, r9
  rsq r9, r9
  mad r6, -r6, r9, c44
  mad r7, -r7, r9, c45
  mad r8, -r8, r9, c46
  mul r9, r6, r6
  mad r9, r7, r7, r9
  mad r9, r8, r8, r9
  rsq r9, r9
  mul r10, r0, r6
  mad r10, r1, r7, r10
  mad r10, r2, r8, r10
  mul r10, r10, r9
  max r10, r10, 0
  log2 r10, r10
  mul r10, r10, c59
  exp2 r10, r10
  mad r11, r4, c48, o0.x
  mad.sat o0.x, r10, c56, r11
  mad r11, r4, c49, o0.y
  mad.sat o0.y, r10, c57, r11
  mad r11, r4, c50, o0.z
  mad.sat o0.z, r10, c58, r11
endif
end
)";

// Matrices, light and material in the shipped shaders' constant layout.
std::vector<float> litConstants() {
  bench::BenchRandom rng(11);
  std::vector<float> c(64, 0.0f);
  for (int k = 0; k < 44; ++k) c[k] = rng.uniform(-2.0f, 2.0f);
  constexpr float kLight[3] = {0.48f, 0.6f, 0.64f};  // direction toward the light, unit length
  for (int k = 0; k < 3; ++k) c[44 + k] = kLight[k];
  for (int k = 48; k < 52; ++k) c[k] = rng.uniform(0.2f, 1.0f);  // diffuse
  for (int k = 52; k < 55; ++k) c[k] = 0.1f;                     // ambient
  for (int k = 56; k < 59; ++k) c[k] = 0.8f;                     // specular
  c[59] = 32.0f;                                                 // shininess
  return c;
}

struct Core {
  ShaderCore core;
  std::vector<float> constants = litConstants();
  ShaderResources resources() const {
    ShaderResources r;
    r.constants = constants;
    return r;
  }
};

// One warp of 32 vertices with position (w = 1), normal and texcoord attributes.
std::unique_ptr<VertexWarp> vertexWarp() {
  bench::BenchRandom rng(12);
  auto w = std::make_unique<VertexWarp>();
  w->laneMask = ~0u;
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l < kLanes; ++l) w->in[a][c][l] = c == 3 ? 1.0f : rng.uniform(-1.0f, 1.0f);
  return w;
}

void vertexWarps(benchmark::State& state, bool positionOnly) {
  Core sp;
  const isa::Program lit = isa::assemble(shaders::source("lit.vs"), "lit.vs");
  const isa::Program program = positionOnly ? isa::positionOnly(lit) : lit;
  auto warp = vertexWarp();
  const ShaderResources res = sp.resources();
  for (auto _ : state) {
    sp.core.runVertex(program, *warp, res);
    benchmark::DoNotOptimize(warp->out);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kLanes);
}

void BM_VertexWarpLit(benchmark::State& state) {
  vertexWarps(state, false);
}
void BM_VertexWarpLitBinning(benchmark::State& state) {
  vertexWarps(state, true);
}

// Fragment warps as the rasterizer hands them over: 8 quads of a 4x2-quad block, every pixel
// covered, each quad with its own triangle's eye-space normals and positions (varyings 0 and
// 2) and per-lane barycentrics.
struct FragmentInput {
  std::vector<float> triangles = std::vector<float>(kLanes / 4 * 3 * kMaxVaryings * 4);
  std::unique_ptr<FragmentWarp> warp = std::make_unique<FragmentWarp>();

  FragmentInput() {
    bench::BenchRandom rng(13);
    for (int q = 0; q < kLanes / 4; ++q) {
      float* t = &triangles[q * 3 * kMaxVaryings * 4];
      for (int v = 0; v < 3; ++v) {
        float* varyings = t + v * kMaxVaryings * 4;
        for (int c = 0; c < 3; ++c) varyings[c] = rng.uniform(-1.0f, 1.0f);       // normal
        for (int c = 0; c < 2; ++c) varyings[4 + c] = rng.uniform(0.0f, 1.0f);    // texcoord
        for (int c = 0; c < 3; ++c) varyings[8 + c] = rng.uniform(-4.0f, -1.0f);  // eye pos
      }
      warp->varyings[q] = t;
    }
    warp->laneMask = warp->coverage = warp->frontFacing = ~0u;
    for (int l = 0; l < kLanes; ++l) {
      const int q = l / 4, i = l % 4;
      warp->fragCoord[0][l] = static_cast<float>(2 * (q % 4) + (i & 1)) + 0.5f;
      warp->fragCoord[1][l] = static_cast<float>(2 * (q / 4) + (i >> 1)) + 0.5f;
      warp->fragCoord[2][l] = 0.5f;
      warp->fragCoord[3][l] = 1.0f;
      warp->bary[0][l] = rng.uniform(0.0f, 0.5f);
      warp->bary[1][l] = rng.uniform(0.0f, 0.5f);
    }
  }
};

void fragmentWarps(benchmark::State& state, const isa::Program& program) {
  Core sp;
  FragmentInput input;
  const ShaderResources res = sp.resources();
  for (auto _ : state) {
    sp.core.runFragment(program, *input.warp, res);
    benchmark::DoNotOptimize(input.warp->color);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kLanes);
  const SpStats& s = sp.core.stats();
  state.counters["divergent/warp"] =
      static_cast<double>(s.divergentBranches) / static_cast<double>(s.fragmentWarps);
}

void BM_FragmentWarpPhong(benchmark::State& state) {
  fragmentWarps(state, isa::assemble(shaders::source("phong.fs"), "phong.fs"));
}
void BM_FragmentWarpLitBranch(benchmark::State& state) {
  fragmentWarps(state, isa::assemble(kLitBranchFs, "lit_branch.fs"));
}

BENCHMARK(BM_VertexWarpLit);
BENCHMARK(BM_VertexWarpLitBinning);
BENCHMARK(BM_FragmentWarpPhong);
BENCHMARK(BM_FragmentWarpLitBranch);

}  // namespace
}  // namespace tessera::gpu::sp
