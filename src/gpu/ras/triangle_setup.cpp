#include "gpu/ras/triangle_setup.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

namespace tessera::gpu::ras {
namespace {

struct FixedVertex {
  int64_t x, y;
};

// Round-to-nearest snap to the sub-pixel grid after clamping into the supported range.
int64_t snap(float c) {
  const double clamped = std::clamp(static_cast<double>(c), -kMaxCoordinate, kMaxCoordinate);
  return std::llround(clamped * static_cast<double>(kSubpixelScale));
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

bool setupTriangle(const Triangle& tri, const Scissor& scissor, TriangleSetup& out) {
  FixedVertex v[3];
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(tri.v[i].x) || !std::isfinite(tri.v[i].y)) return false;
    v[i] = {snap(tri.v[i].x), snap(tri.v[i].y)};
    out.z[i] = tri.v[i].z;
    out.invW[i] = tri.v[i].invW;
  }
  const int64_t area2 =
      (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
  if (area2 == 0) return false;
  const int64_t sign = area2 > 0 ? 1 : -1;

  for (int i = 0; i < 3; ++i) {
    const FixedVertex& a = v[(i + 1) % 3];
    const FixedVertex& b = v[(i + 2) % 3];
    // Gradient (ex, ey) of the edge function points into the triangle.
    const int64_t ex = -sign * (b.y - a.y);
    const int64_t ey = sign * (b.x - a.x);
    // Top-left rule (GLES 2.0 §3.5.1 leaves ties to the implementation but requires that a
    // shared edge covers each sample once): with y growing downwards a left edge has the
    // interior to its right (ex > 0), a top edge is horizontal with the interior below it.
    const bool topLeft = ex > 0 || (ex == 0 && ey > 0);
    // Evaluate at pixel centres: X = px*256 + 128.
    const int64_t half = kSubpixelScale / 2;
    EdgeFunction& e = out.edge[i];
    e.stepX = ex * kSubpixelScale;
    e.stepY = ey * kSubpixelScale;
    e.origin = ex * (half - a.x) + ey * (half - a.y);
    e.threshold = topLeft ? 0 : 1;
  }
  // Barycentric planes over pixel indices (centre at +0.5), from the unsnapped positions; a
  // triangle that snapping kept but whose float area vanishes falls back to the snapped ones.
  double px[3], py[3];
  for (int i = 0; i < 3; ++i) {
    px[i] = static_cast<double>(tri.v[i].x) - 0.5;
    py[i] = static_cast<double>(tri.v[i].y) - 0.5;
  }
  double det = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
  if (!(std::fabs(det) > 0.0)) {
    for (int i = 0; i < 3; ++i) {
      px[i] = static_cast<double>(v[i].x - kSubpixelScale / 2) / kSubpixelScale;
      py[i] = static_cast<double>(v[i].y - kSubpixelScale / 2) / kSubpixelScale;
    }
    det = static_cast<double>(area2) / static_cast<double>(kSubpixelScale * kSubpixelScale);
  }
  for (int i = 0; i < 3; ++i) {
    // l_i is the area of the triangle (p, v[i+1], v[i+2]) over the whole area.
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    out.a[i] = (py[j] - py[k]) / det;
    out.b[i] = (px[k] - px[j]) / det;
    out.c[i] = (px[j] * py[k] - px[k] * py[j]) / det;
  }

  // Conservative pixel bounding box: every pixel that [minX, maxX] touches (so also every pixel
  // with a sample inside it: samples lie inside their pixel).
  const int64_t minX = std::min({v[0].x, v[1].x, v[2].x});
  const int64_t maxX = std::max({v[0].x, v[1].x, v[2].x});
  const int64_t minY = std::min({v[0].y, v[1].y, v[2].y});
  const int64_t maxY = std::max({v[0].y, v[1].y, v[2].y});
  const int64_t bx0 = std::max<int64_t>(floorDiv(minX, kSubpixelScale), scissor.x0);
  const int64_t by0 = std::max<int64_t>(floorDiv(minY, kSubpixelScale), scissor.y0);
  const int64_t bx1 = std::min<int64_t>(floorDiv(maxX, kSubpixelScale) + 1, scissor.x1);
  const int64_t by1 = std::min<int64_t>(floorDiv(maxY, kSubpixelScale) + 1, scissor.y1);
  if (bx0 >= bx1 || by0 >= by1) return false;
  out.x0 = static_cast<int>(bx0);
  out.y0 = static_cast<int>(by0);
  out.x1 = static_cast<int>(bx1);
  out.y1 = static_cast<int>(by1);
  return true;
}

#if TESSERA_AVX2_CLONES
namespace {
#define TESSERA_RAS_AVX2 [[gnu::target("avx2"), gnu::always_inline]] inline

// A plane at four pixels from its products a x and b y there: (a x + b y) + c in double, rounded
// to float.
TESSERA_RAS_AVX2 __m128 planeFrom(__m256d ax, __m256d by, double c) {
  return _mm256_cvtpd_ps(_mm256_add_pd(_mm256_add_pd(ax, by), _mm256_set1_pd(c)));
}
// Plane i at the four pixels at (xs, ys).
TESSERA_RAS_AVX2 __m128 planeAvx2(const TriangleSetup& s, int i, __m256d xs, __m256d ys) {
  return planeFrom(_mm256_mul_pd(_mm256_set1_pd(s.a[i]), xs),
                   _mm256_mul_pd(_mm256_set1_pd(s.b[i]), ys), s.c[i]);
}

TESSERA_RAS_AVX2 __m256 times(__m256 l, float v) {
  return _mm256_mul_ps(l, _mm256_set1_ps(v));
}
// The first quad's four lanes, then the second's.
TESSERA_RAS_AVX2 void storePair(float (&first)[4], float (&second)[4], __m256 v) {
  _mm_storeu_ps(first, _mm256_castps256_ps128(v));
  _mm_storeu_ps(second, _mm256_extractf128_ps(v, 1));
}
// A quad's pixel columns and rows, in doubles, for the quad at (x, y).
TESSERA_RAS_AVX2 __m256d pixelsX(int x) {
  const double d = x;
  return _mm256_setr_pd(d, d + 1.0, d, d + 1.0);
}
TESSERA_RAS_AVX2 __m256d pixelsY(int y) {
  const double d = y;
  return _mm256_setr_pd(d, d, d + 1.0, d + 1.0);
}

// interpolateFromPlanes' float steps for two quads side by side in eight lanes.
struct Lanes8 {
  __m256 z, invW, b1, b2;
};
// interpolateFromPlanes' float steps from the three planes of two quads (the first quad's four
// lanes, then the second's): the same operations in the same order on each pixel, so the same
// bits.
TESSERA_RAS_AVX2 Lanes8 interpolatePlanes(const TriangleSetup& s, const __m256 (&l)[3]) {
  Lanes8 out;
  out.z =
      _mm256_add_ps(_mm256_add_ps(times(l[0], s.z[0]), times(l[1], s.z[1])), times(l[2], s.z[2]));
  const __m256 w1 = times(l[1], s.invW[1]), w2 = times(l[2], s.invW[2]);
  out.invW = _mm256_add_ps(_mm256_add_ps(times(l[0], s.invW[0]), w1), w2);
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 ok = _mm256_cmp_ps(out.invW, _mm256_setzero_ps(), _CMP_NEQ_UQ);
  const __m256 r = _mm256_div_ps(one, _mm256_blendv_ps(one, out.invW, ok));
  out.b1 = _mm256_blendv_ps(l[1], _mm256_mul_ps(w1, r), ok);
  out.b2 = _mm256_blendv_ps(l[2], _mm256_mul_ps(w2, r), ok);
  return out;
}
// The two quads at (xa, ya) and (xb, yb).
TESSERA_RAS_AVX2 Lanes8 interpolatePair(const TriangleSetup& s, int xa, int ya, int xb, int yb) {
  __m256 l[3];
  for (int i = 0; i < 3; ++i)
    l[i] = _mm256_set_m128(planeAvx2(s, i, pixelsX(xb), pixelsY(yb)),
                           planeAvx2(s, i, pixelsX(xa), pixelsY(ya)));
  return interpolatePlanes(s, l);
}
}  // namespace

void interpolateQuadsAvx2(const TriangleSetup& s, Quad* quads, int count) {
  int k = 0;
  // Two quads at a time: the float steps run eight lanes wide, and the two quads' chains (the
  // division above all) overlap.
  for (; k + 1 < count; k += 2) {
    Quad &first = quads[k], &second = quads[k + 1];
    const Lanes8 v = interpolatePair(s, first.x, first.y, second.x, second.y);
    storePair(first.z, second.z, v.z);
    storePair(first.invW, second.invW, v.invW);
    storePair(first.b1, second.b1, v.b1);
    storePair(first.b2, second.b2, v.b2);
  }
  if (k < count) {
    Quad& q = quads[k];
    const __m256d xs = pixelsX(q.x), ys = pixelsY(q.y);
    interpolateFromPlanes(s, planeAvx2(s, 0, xs, ys), planeAvx2(s, 1, xs, ys),
                          planeAvx2(s, 2, xs, ys), q);
  }
}

void interpolateHalfBlockAvx2(const TriangleSetup& s, int x, int y, HalfBlock& out) {
  // Each plane's a x for the four columns of quads and b y for the two rows, once: a pixel's
  // plane is then (a x + b y) + c from them, the products planeAvx2 forms, so the same bits.
  __m256d ax[3][4], by[3][2];
  for (int i = 0; i < 3; ++i) {
    const __m256d a = _mm256_set1_pd(s.a[i]), b = _mm256_set1_pd(s.b[i]);
    for (int c = 0; c < 4; ++c) ax[i][c] = _mm256_mul_pd(a, pixelsX(x + 2 * c));
    for (int r = 0; r < 2; ++r) by[i][r] = _mm256_mul_pd(b, pixelsY(y + 2 * r));
  }
  // Quads 2j and 2j+1 share a row of quads: the left and right halves of a row of four.
  for (int j = 0; j < kHalfBlockQuads / 2; ++j) {
    const int c = 2 * (j & 1), r = j >> 1;
    __m256 l[3];
    for (int i = 0; i < 3; ++i)
      l[i] = _mm256_set_m128(planeFrom(ax[i][c + 1], by[i][r], s.c[i]),
                             planeFrom(ax[i][c], by[i][r], s.c[i]));
    const Lanes8 v = interpolatePlanes(s, l);
    _mm256_store_ps(out.z + 8 * j, v.z);
    _mm256_store_ps(out.invW + 8 * j, v.invW);
    _mm256_store_ps(out.b1 + 8 * j, v.b1);
    _mm256_store_ps(out.b2 + 8 * j, v.b2);
  }
}
#endif

}  // namespace tessera::gpu::ras
