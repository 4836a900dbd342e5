// Triangle setup for the rasterizer (ras/): snaps a window-space triangle to fixed point and
// builds its three edge functions, the bounding box clipped to the scissor and the data the
// quad walk needs to interpolate z, 1/w and barycentrics.
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstdint>

#include "common/simd.h"
#include "gpu/ras/ras_types.h"
#include "gpu/ras/sample_positions.h"

namespace tessera::gpu::ras {

// E(px,py) = stepX*px + stepY*py + origin, evaluated at the centre of pixel (px,py), in units
// of (1/256 pixel)^2. The edge opposite vertex i is positive inside the triangle whatever the
// winding, and E_i / (2*area) is the screen-space barycentric of vertex i.
struct EdgeFunction {
  int64_t stepX, stepY, origin;
  // A pixel is inside the edge when E >= threshold: 0 for top and left edges (ties belong to
  // the triangle), 1 for the others (ties belong to the neighbour sharing the edge).
  int64_t threshold;

  int64_t at(int64_t px, int64_t py) const { return stepX * px + stepY * py + origin; }
};

struct TriangleSetup {
  EdgeFunction edge[3];  // edge[i] is opposite vertex i
  // Screen-space barycentric l_i at the centre of pixel (px, py): a[i]*px + b[i]*py + c[i].
  // The planes come from the unsnapped window positions: snapping decides coverage only, so
  // attributes stay true to the geometry (as other rasterizers interpolate them).
  double a[3], b[3], c[3];
  int x0, y0, x1, y1;  // pixel bounding box intersected with the scissor, half-open
  float z[3], invW[3];
};

// Returns false when the triangle cannot cover a pixel: zero area, a non-finite coordinate, or a
// bounding box that misses the scissor.
bool setupTriangle(const Triangle& tri, const Scissor& scissor, TriangleSetup& out);

// Fills z, invW, b1 and b2 of all four pixels of the quad at (quad.x, quad.y) from the
// barycentric planes. With SSE2 the pixels go side by side through registers (two doubles, then
// four floats, per operation): each pixel's arithmetic is the scalar one, so the bits are the
// same (the rasterizer tests compare the two).
inline void interpolateQuadScalar(const TriangleSetup& s, Quad& quad) {
  constexpr double kDx[4] = {0, 1, 0, 1}, kDy[4] = {0, 0, 1, 1};
  const double x = quad.x, y = quad.y;
  float l0[4], l1[4], l2[4];
  for (int k = 0; k < 4; ++k) {
    l0[k] = static_cast<float>(s.a[0] * (x + kDx[k]) + s.b[0] * (y + kDy[k]) + s.c[0]);
    l1[k] = static_cast<float>(s.a[1] * (x + kDx[k]) + s.b[1] * (y + kDy[k]) + s.c[1]);
    l2[k] = static_cast<float>(s.a[2] * (x + kDx[k]) + s.b[2] * (y + kDy[k]) + s.c[2]);
  }
  for (int k = 0; k < 4; ++k) {
    // z and 1/w are affine in window space; other attributes are affine in clip space, so their
    // barycentrics are weighted by 1/w and renormalised (GLES 2.0 §3.5.1, eq. 3.4).
    quad.z[k] = l0[k] * s.z[0] + l1[k] * s.z[1] + l2[k] * s.z[2];
    const float w1 = l1[k] * s.invW[1], w2 = l2[k] * s.invW[2];
    const float invW = l0[k] * s.invW[0] + w1 + w2;
    quad.invW[k] = invW;
    // A helper extrapolated onto the w = 0 plane falls back to the linear weights.
    const bool ok = invW != 0.0f;
    const float r = 1.0f / (ok ? invW : 1.0f);
    quad.b1[k] = ok ? w1 * r : l1[k];
    quad.b2[k] = ok ? w2 * r : l2[k];
  }
}

#if defined(__SSE2__)
// interpolateQuad's float steps from the barycentric planes at the quad's four pixels.
[[gnu::always_inline]] inline void interpolateFromPlanes(const TriangleSetup& s, __m128 l0,
                                                         __m128 l1, __m128 l2, Quad& quad) {
  auto mul = [](__m128 l, float v) { return _mm_mul_ps(l, _mm_set1_ps(v)); };
  _mm_storeu_ps(quad.z, _mm_add_ps(_mm_add_ps(mul(l0, s.z[0]), mul(l1, s.z[1])), mul(l2, s.z[2])));
  const __m128 w1 = mul(l1, s.invW[1]), w2 = mul(l2, s.invW[2]);
  const __m128 invW = _mm_add_ps(_mm_add_ps(mul(l0, s.invW[0]), w1), w2);
  _mm_storeu_ps(quad.invW, invW);
  const __m128 ok = _mm_cmpneq_ps(invW, _mm_setzero_ps());
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 r = _mm_div_ps(one, _mm_or_ps(_mm_and_ps(ok, invW), _mm_andnot_ps(ok, one)));
  auto pick = [&](__m128 yes, __m128 no) {
    return _mm_or_ps(_mm_and_ps(ok, yes), _mm_andnot_ps(ok, no));
  };
  _mm_storeu_ps(quad.b1, pick(_mm_mul_ps(w1, r), l1));
  _mm_storeu_ps(quad.b2, pick(_mm_mul_ps(w2, r), l2));
}

inline void interpolateQuad(const TriangleSetup& s, Quad& quad) {
  const __m128d x = _mm_setr_pd(quad.x, quad.x + 1.0), y0 = _mm_set1_pd(quad.y),
                y1 = _mm_set1_pd(quad.y + 1.0);
  // Plane i at the four pixels: (a x + b y) + c in double, rounded to float.
  auto plane = [&](int i) {
    const __m128d a = _mm_set1_pd(s.a[i]), b = _mm_set1_pd(s.b[i]), c = _mm_set1_pd(s.c[i]);
    const __m128d ax = _mm_mul_pd(a, x);
    const __m128 top = _mm_cvtpd_ps(_mm_add_pd(_mm_add_pd(ax, _mm_mul_pd(b, y0)), c));
    const __m128 bottom = _mm_cvtpd_ps(_mm_add_pd(_mm_add_pd(ax, _mm_mul_pd(b, y1)), c));
    return _mm_movelh_ps(top, bottom);
  };
  interpolateFromPlanes(s, plane(0), plane(1), plane(2), quad);
}
#else
inline void interpolateQuad(const TriangleSetup& s, Quad& quad) {
  interpolateQuadScalar(s, quad);
}
#endif

#if TESSERA_AVX2_CLONES
// interpolateQuad of `count` quads on the AVX2 path: a plane's four pixels in one register of four
// doubles, two quads' float steps in one register of eight, each pixel's arithmetic the same.
[[gnu::target("avx2")]] void interpolateQuadsAvx2(const TriangleSetup& s, Quad* quads, int count);

// The quads of half of a fully covered block (the fragment stage's block path): two rows of four
// quads, 8 x 4 pixels, which fill one fragment warp. Quad k is at (x + 2 (k & 3), y + 2 (k >> 2))
// and pixel i of quad k is lane 4 k + i, the order of the warp's lanes.
inline constexpr int kHalfBlockQuads = 8;
static_assert(kHalfBlockQuads * 2 == (kBlockSize / 2) * (kBlockSize / 2));
struct HalfBlock {
  alignas(32) float z[4 * kHalfBlockQuads];
  alignas(32) float invW[4 * kHalfBlockQuads];
  alignas(32) float b1[4 * kHalfBlockQuads];
  alignas(32) float b2[4 * kHalfBlockQuads];
};
// interpolateQuad of the half block whose top-left pixel is (x, y), every pixel's arithmetic the
// same, so the same bits.
[[gnu::target("avx2")]] void interpolateHalfBlockAvx2(const TriangleSetup& s, int x, int y,
                                                      HalfBlock& out);
#endif

// Window z at every sample of the quad, from the same planes as interpolateQuad.
inline void interpolateSampleZ(const TriangleSetup& s, uint32_t samples, Quad& quad) {
  const SampleOffset* offsets = sampleOffsets(samples);
  for (int k = 0; k < 4; ++k) {
    for (uint32_t j = 0; j < samples; ++j) {
      const double x = quad.x + (k & 1) + double(offsets[j].dx) / kSampleGrid;
      const double y = quad.y + (k >> 1) + double(offsets[j].dy) / kSampleGrid;
      const float l0 = static_cast<float>(s.a[0] * x + s.b[0] * y + s.c[0]);
      const float l1 = static_cast<float>(s.a[1] * x + s.b[1] * y + s.c[1]);
      const float l2 = static_cast<float>(s.a[2] * x + s.b[2] * y + s.c[2]);
      quad.sampleZ[k][j] = l0 * s.z[0] + l1 * s.z[1] + l2 * s.z[2];
    }
  }
}

}  // namespace tessera::gpu::ras
