// Shader processor (sp/) I/O: the warp of 32 lanes that vertex fetch / the rasterizer fill and
// the shader core runs. Every per-lane array is structure-of-arrays (component-major, then lane)
// so one shader instruction is a loop over 32 contiguous floats.
#pragma once
#include <cstdint>

namespace tessera::gpu::sp {

inline constexpr int kLanes = 32;
inline constexpr int kMaxAttributes = 16;  // VS vec4 inputs
inline constexpr int kMaxVaryings = 16;    // vec4 varyings (VS outputs after position, FS inputs)

struct VertexWarp {
  uint32_t laneMask = 0;                            // lanes that hold a vertex
  alignas(32) float in[kMaxAttributes][4][kLanes];  // attribute a, component c, lane l
  alignas(
      32) float out[1 + kMaxVaryings][4][kLanes];  // out[0] = clip position, out[1+i] = varying i
};

struct FragmentWarp {
  uint32_t laneMask = 0;  // lanes that execute: covered pixels AND quad helper pixels
  uint32_t coverage =
      0;  // lanes whose pixel is covered (subset of laneMask); kill clears bits here
  uint32_t frontFacing = 0;  // bit per lane
  // Lane 4q+i is pixel i of quad q: i = 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
  alignas(32) float fragCoord[4][kLanes];  // x+0.5, y+0.5, window z, 1/w_clip
  alignas(32) float bary[2][kLanes];       // perspective-correct barycentrics b1, b2 (b0 = 1-b1-b2)
  alignas(32) float pointCoord[2][kLanes];  // gl_PointCoord s, t (point sprites; else 0)
  // Per quad: the triangle's 3 vertices' varyings, vertex-major:
  //   varyings[q][(v * kMaxVaryings + i) * 4 + c]   v in 0..2, varying i, component c
  const float* varyings[kLanes / 4] = {};
  alignas(32) float color[4][kLanes];  // output 0 (gl_FragColor) per component, lane
};

}  // namespace tessera::gpu::sp
