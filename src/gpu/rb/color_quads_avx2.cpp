// Render backend (rb/): a warp's colour writes of RGBA8 on the AVX2 path, two quads (eight pixels)
// at a time with each channel in a 256-bit register: the shader's channel rows are already in
// that layout, so the blend needs no transposes, and each state decision is taken once for the
// eight pixels. Every pixel goes through the operations of ColorWrite::run in the same order
// (the destination's expansion by divideUnorm8 gives divideUnorm4's quotient), so the bits are
// the same; tests/rb/color_test.cpp compares the two.
#include <immintrin.h>

#include "common/simd.h"
#include "common/unorm_divide.h"
#include "gpu/rb/color_write.h"
#include "gpu/rb/quad_pixels.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb::detail {
#if TESSERA_AVX2_CLONES
namespace {

#define TESSERA_RB_AVX2 [[gnu::target("avx2,fma"), gnu::always_inline]] inline

// color.cpp's clampColor4 for eight values: [0,1], NaN to 0.
TESSERA_RB_AVX2 __m256 clampSource(__m256 v) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 below = _mm256_cmp_ps(v, one, _CMP_LT_OQ);
  const __m256 upper = _mm256_or_ps(_mm256_and_ps(below, v), _mm256_andnot_ps(below, one));
  return _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ), upper);
}

// blendPixels' clamp: v < 0 ? 0 : (1 < v ? 1 : v), NaN staying NaN.
TESSERA_RB_AVX2 __m256 clampBlend(__m256 out) {
  const __m256 v = _mm256_andnot_ps(_mm256_cmp_ps(out, _mm256_setzero_ps(), _CMP_LT_OQ), out);
  const __m256 high = _mm256_cmp_ps(_mm256_set1_ps(1.0f), v, _CMP_LT_OQ);
  return _mm256_or_ps(_mm256_andnot_ps(high, v), _mm256_and_ps(high, _mm256_set1_ps(1.0f)));
}

// Factor f of channel c (3 = alpha) of eight pixels, blendFactor's cases.
TESSERA_RB_AVX2 __m256 factor(BlendFactor f, int c, const __m256 (&s)[4], const __m256 (&d)[4],
                              const float* k) {
  const __m256 one = _mm256_set1_ps(1.0f);
  switch (f) {
    case BlendFactor::Zero:
      return _mm256_setzero_ps();
    case BlendFactor::One:
      return one;
    case BlendFactor::SrcColor:
      return s[c];
    case BlendFactor::OneMinusSrcColor:
      return _mm256_sub_ps(one, s[c]);
    case BlendFactor::DstColor:
      return d[c];
    case BlendFactor::OneMinusDstColor:
      return _mm256_sub_ps(one, d[c]);
    case BlendFactor::SrcAlpha:
      return s[3];
    case BlendFactor::OneMinusSrcAlpha:
      return _mm256_sub_ps(one, s[3]);
    case BlendFactor::DstAlpha:
      return d[3];
    case BlendFactor::OneMinusDstAlpha:
      return _mm256_sub_ps(one, d[3]);
    case BlendFactor::ConstantColor:
      return _mm256_set1_ps(k[c]);
    case BlendFactor::OneMinusConstantColor:
      return _mm256_sub_ps(one, _mm256_set1_ps(k[c]));
    case BlendFactor::ConstantAlpha:
      return _mm256_set1_ps(k[3]);
    case BlendFactor::OneMinusConstantAlpha:
      return _mm256_sub_ps(one, _mm256_set1_ps(k[3]));
    case BlendFactor::SrcAlphaSaturate:
      // std::min(As, 1 - Ad) is (1 - Ad < As) ? 1 - Ad : As, which is vminps(1 - Ad, As).
      return c == 3 ? one : _mm256_min_ps(_mm256_sub_ps(one, d[3]), s[3]);
  }
  return _mm256_setzero_ps();
}

TESSERA_RB_AVX2 __m256 equation(BlendEquation e, __m256 s, __m256 sf, __m256 d, __m256 df) {
  const __m256 sv = _mm256_mul_ps(s, sf), dv = _mm256_mul_ps(d, df);
  switch (e) {
    case BlendEquation::Add:
      return _mm256_add_ps(sv, dv);
    case BlendEquation::Subtract:
      return _mm256_sub_ps(sv, dv);
    case BlendEquation::ReverseSubtract:
      return _mm256_sub_ps(dv, sv);
  }
  return _mm256_setzero_ps();
}

// The blend a draw's pairs share, fixed when compiled: none; the usual "over" (SRC_ALPHA,
// ONE_MINUS_SRC_ALPHA, ADD) for colour and alpha, whose factors are then computed once a pair
// instead of going through factor()'s cases for each channel; "over" for the colour channels only,
// with alpha blended as the state says (glBlendFuncSeparate keeping the destination's alpha, as
// glmark2's pulsar does); or any other.
enum class PairBlend { Off, SrcAlphaOver, SrcAlphaOverRgb, Any };

PairBlend pairBlend(const BlendState& bs) {
  if (!bs.enable) return PairBlend::Off;
  const bool overRgb = bs.srcRgb == BlendFactor::SrcAlpha &&
                       bs.dstRgb == BlendFactor::OneMinusSrcAlpha && bs.eqRgb == BlendEquation::Add;
  if (!overRgb) return PairBlend::Any;
  const bool overAlpha = bs.srcAlpha == BlendFactor::SrcAlpha &&
                         bs.dstAlpha == BlendFactor::OneMinusSrcAlpha &&
                         bs.eqAlpha == BlendEquation::Add;
  return overAlpha ? PairBlend::SrcAlphaOver : PairBlend::SrcAlphaOverRgb;
}

// Two quads: lanes 0-3 quad `a`, 4-7 quad `b`, each reads and writes only its pixels of `mask`.
template <PairBlend B>
TESSERA_RB_AVX2 void writePair(const ColorWrite& write, SurfaceView surface,
                               const RenderBackend::QuadWrite& a, const RenderBackend::QuadWrite& b,
                               const float* const channels[4]) {
  const QuadPixels pa(surface, a.x, a.y, 4), pb(surface, b.x, b.y, 4);
  const __m256i old = write.readsDst() ? _mm256_set_m128i(pb.load(b.mask), pa.load(a.mask))
                                       : _mm256_setzero_si256();
  __m256 src[4];
  for (int c = 0; c < 4; ++c)
    src[c] = clampSource(_mm256_loadu2_m128(channels[c] + 4 * b.slot, channels[c] + 4 * a.slot));
  __m256 out[4];
  if constexpr (B == PairBlend::Off) {
    for (int c = 0; c < 4; ++c) out[c] = src[c];
  } else {
    const __m256i byte = _mm256_set1_epi32(0xff);
    __m256 dst[4];
    for (int c = 0; c < 4; ++c)
      dst[c] = divideUnorm8(
          _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(old, 8 * c), byte)), 255.0f);
    // The channels the "over" blend covers take factor()'s SrcAlpha and OneMinusSrcAlpha (the
    // same operations) computed once; the others go through the state's factors and equations.
    constexpr int kOver = B == PairBlend::SrcAlphaOver      ? 4
                          : B == PairBlend::SrcAlphaOverRgb ? 3
                                                            : 0;
    if constexpr (kOver > 0) {
      const __m256 sf = src[3], df = _mm256_sub_ps(_mm256_set1_ps(1.0f), src[3]);
      for (int c = 0; c < kOver; ++c)
        out[c] = clampBlend(equation(BlendEquation::Add, src[c], sf, dst[c], df));
    }
    const BlendState& bs = write.blend();
    const float* k = write.constant();
    for (int c = kOver; c < 4; ++c) {
      const bool alpha = c == 3;
      const __m256 sf = factor(alpha ? bs.srcAlpha : bs.srcRgb, c, src, dst, k);
      const __m256 df = factor(alpha ? bs.dstAlpha : bs.dstRgb, c, src, dst, k);
      out[c] = clampBlend(equation(alpha ? bs.eqAlpha : bs.eqRgb, src[c], sf, dst[c], df));
    }
  }
  // PixelCodec::quantize4: the value times 255, plus 1/2, truncated (0 where not above 0).
  __m256i packed = _mm256_setzero_si256();
  for (int c = 0; c < 4; ++c) {
    const __m256 scaled =
        _mm256_add_ps(_mm256_mul_ps(out[c], _mm256_set1_ps(255.0f)), _mm256_set1_ps(0.5f));
    const __m256i v = _mm256_and_si256(
        _mm256_cvttps_epi32(scaled),
        _mm256_castps_si256(_mm256_cmp_ps(scaled, _mm256_setzero_ps(), _CMP_GT_OQ)));
    packed = _mm256_or_si256(packed, _mm256_slli_epi32(v, 8 * c));
  }
  if (write.partial()) {
    const __m256i bits = _mm256_set1_epi32(static_cast<int32_t>(write.writeBits()));
    packed = _mm256_or_si256(_mm256_andnot_si256(bits, old), _mm256_and_si256(bits, packed));
  }
  pa.store(a.mask, _mm256_castsi256_si128(packed));
  pb.store(b.mask, _mm256_extracti128_si256(packed, 1));
}

template <PairBlend B>
[[gnu::target("avx2,fma")]] void writePairs(const ColorWrite& write, SurfaceView surface,
                                            const RenderBackend::QuadWrite* quads, int count,
                                            const float* const channels[4]) {
  // Quads lie on even coordinates, so two either are one quad or share no pixel; a quad that
  // repeats the one before it waits for its write: it goes alone, beside a quad of no pixels.
  int i = 0;
  while (i < count) {
    const RenderBackend::QuadWrite& a = quads[i];
    const bool pair = i + 1 < count && (quads[i + 1].x != a.x || quads[i + 1].y != a.y);
    writePair<B>(write, surface, a,
                 pair ? quads[i + 1] : RenderBackend::QuadWrite{a.x, a.y, 0, a.slot}, channels);
    i += pair ? 2 : 1;
  }
}

}  // namespace

void colorQuadsAvx2(const ColorWrite& write, SurfaceView surface,
                    const RenderBackend::QuadWrite* quads, int count,
                    const float* const channels[4]) {
  switch (pairBlend(write.blend())) {
    case PairBlend::Off:
      return writePairs<PairBlend::Off>(write, surface, quads, count, channels);
    case PairBlend::SrcAlphaOver:
      return writePairs<PairBlend::SrcAlphaOver>(write, surface, quads, count, channels);
    case PairBlend::SrcAlphaOverRgb:
      return writePairs<PairBlend::SrcAlphaOverRgb>(write, surface, quads, count, channels);
    case PairBlend::Any:
      return writePairs<PairBlend::Any>(write, surface, quads, count, channels);
  }
}
#endif

}  // namespace tessera::gpu::rb::detail
