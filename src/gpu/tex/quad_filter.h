// Texture unit (tex/): the specialized lookup of the common case, 2x2 quads of a 2D level (or
// two, blended) of a GLES 2 colour format or a depth texture (kPackedLayouts), with the format and
// filter fixed at compile time. The wrap modes only place each quad's footprint, so they are
// chosen per quad at run time (one kernel per wrap pair would be nine times the code for no
// measurable gain). A call takes a warp's quads that share their levels (all of them when the draw
// has no mipmaps), so the set-up and the cache's geometry are paid once. Each quad's four pixels
// go through coordinates, wrapping, weights and texel decode side by side in SSE registers, and
// come out as one row per channel (the shader core's layout). The arithmetic is the general
// filter's (texture_unit.cpp), operation for operation (a colour format's stored integers are
// filtered then expanded, a depth texture's texels expanded then filtered), and the texels meet
// the texture cache in its order, so results and counters are the same to the bit; the texture
// tests compare the two paths.
#pragma once
#include <array>
#include <cstdint>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/texture_cache.h"
#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

// One mip level (of one face, layer or 3D texture) as a filter sees it: its texels, and the GPU
// address they start at with the cache every fetch looks up (null: no cache).
struct Level {
  const uint8_t* texels;
  int32_t width, height, depth;
  GpuAddress address;
  TextureCache* cache;
};

// Whole texels added to a level's texel coordinates before wrapping (OpenGL ES 3.0 §3.8.10, the
// offset forms of GLSL ES 3.00 lookups); the level of detail does not see it.
struct TexelOffset {
  int32_t u = 0, v = 0, w = 0;  // w: 3D textures only
};

// The quads of a warp (32 pixels).
inline constexpr int kWarpQuads = 8;

// The lookup of the quads of a warp whose bit is set in `quads`, all from the same levels: quad q
// is pixels 4q..4q+3 (TL, TR, BL, BR) of s, t and of each row out[channel]. Rows of the other
// quads are left as they are.
struct QuadLookup {
  const Level* level;  // `count` levels
  int count;           // 1, or 2 for a blend between mip levels
  // count 2: each quad's weight of level[1], indexed like the quads (quads of one call share
  // their levels, not their weights: a trilinear lookup's weight varies from quad to quad)
  const float* blend;
  const float *s, *t;
  uint32_t quads;
  TexelOffset offset;
  Wrap wrapS, wrapT;
  float* const* out;
};

// Returns the number of texels fetched.
using QuadFilterFn = uint32_t (*)(const QuadLookup&);

// The specialized lookup of `format` with `filter`, or null when there is none (formats beyond
// GLES 2's colour and depth formats, or a host without SSE2). It runs on the SIMD path active when
// it is called (common/simd.h): on AVX2 two quads at a time (quad_filter_avx2.cpp).
QuadFilterFn quadFilter(TexFormat format, Filter filter);

namespace detail {
// The formats with specialized lookups, in the order of the kernels' tables.
inline constexpr std::array<TexFormat, 10> kQuadFormats = {
    TexFormat::RGBA8, TexFormat::RGB8, TexFormat::RGB565, TexFormat::RGBA4444, TexFormat::RGBA5551,
    TexFormat::L8,    TexFormat::A8,   TexFormat::LA8,    TexFormat::D16,      TexFormat::D24S8};
// The kernel of kQuadFormats[format] for each path: SSE, a quad at a time, and AVX2, two quads
// at a time (defined only where the build has AVX2 clones, common/simd.h).
QuadFilterFn sseQuadFilter(size_t format, Filter filter);
QuadFilterFn avx2QuadFilter(size_t format, Filter filter);
// The AVX2 kernel of a whole warp (eight quads, one level, no texel offset) with REPEAT or
// CLAMP_TO_EDGE on each axis, or null for other wrap modes.
QuadFilterFn avx2WarpFilter(size_t format, Filter filter, Wrap ws, Wrap wt);
}  // namespace detail

// The kernel of a whole warp's lookup (eight quads from one level without a texel offset) of
// `format` with `filter` and the wrap modes, or null: it exists on the AVX2 path only, where
// quadFilter's kernel takes such a call to it too. Valid while the SIMD path stays AVX2.
QuadFilterFn warpFilter(TexFormat format, Filter filter, Wrap ws, Wrap wt);

}  // namespace tessera::gpu::tex
