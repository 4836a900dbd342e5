// Render backend (rb/): the early depth test of half of a fully covered block (8 x 4 pixels, the
// fragment stage's block path) on the AVX2 path, a row of eight D24S8 pixels per 256-bit
// register: one load and at most one store per row instead of two of each per quad. Every pixel
// goes through DepthQuadTest's arithmetic (depth_stencil.cpp): the same clamp, the same double
// quantization and the same comparison, so memory, masks and counters are the same;
// tests/rb/depth_stencil_test.cpp compares the two.
#include <immintrin.h>

#include <bit>
#include <iterator>

#include "common/lane_count.h"
#include "common/simd.h"
#include "gpu/rb/depth_stencil.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb::detail {
#if TESSERA_AVX2_CLONES
namespace {

#define TESSERA_RB_AVX2 [[gnu::target("avx2"), gnu::always_inline]] inline

// DepthQuadTest::passes for eight lanes; both sides are below 2^24, so signed comparisons
// order them.
template <CompareFunc kFunc>
TESSERA_RB_AVX2 __m256i passes(__m256i frag, __m256i stored) {
  const __m256i all = _mm256_set1_epi32(-1);
  switch (kFunc) {
    case CompareFunc::Never:
      return _mm256_setzero_si256();
    case CompareFunc::Less:
      return _mm256_cmpgt_epi32(stored, frag);
    case CompareFunc::Equal:
      return _mm256_cmpeq_epi32(frag, stored);
    case CompareFunc::LEqual:
      return _mm256_xor_si256(_mm256_cmpgt_epi32(frag, stored), all);
    case CompareFunc::Greater:
      return _mm256_cmpgt_epi32(frag, stored);
    case CompareFunc::NotEqual:
      return _mm256_xor_si256(_mm256_cmpeq_epi32(frag, stored), all);
    case CompareFunc::GEqual:
      return _mm256_xor_si256(_mm256_cmpgt_epi32(stored, frag), all);
    case CompareFunc::Always:
      return all;
  }
  return _mm256_setzero_si256();
}

// DepthQuadTest::quantize of eight values: the clamp in float (max(z, 0) is 0 for NaN), then the
// same double product and truncation.
TESSERA_RB_AVX2 __m128i quantize24(__m128 c) {
  const __m256d max = _mm256_set1_pd(static_cast<double>(kD24Max)), half = _mm256_set1_pd(0.5);
  return _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(c), max), half));
}
TESSERA_RB_AVX2 __m256i quantize24(__m256 z) {
  const __m256 c = _mm256_min_ps(_mm256_max_ps(z, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
  return _mm256_set_m128i(quantize24(_mm256_extractf128_ps(c, 1)),
                          quantize24(_mm256_castps256_ps128(c)));
}

// Pixel row r (0-3) of the half block from depths in lane order: quads 4 (r / 2) .. +3 hold
// it, two pixels each (pixels 0 and 1 of a quad for an even row, 2 and 3 for an odd one).
TESSERA_RB_AVX2 __m256 rowOf(const float* z, int r) {
  const __m256 a = _mm256_loadu_ps(z + 16 * (r >> 1)), b = _mm256_loadu_ps(z + 16 * (r >> 1) + 8);
  // Lanes (q0 q0 q2 q2 | q1 q1 q3 q3), then the 64-bit pairs into quad order.
  const __m256 pairs = (r & 1) ? _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 2, 3, 2))
                               : _mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 1, 0));
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(pairs), _MM_SHUFFLE(3, 1, 2, 0)));
}

template <CompareFunc kFunc>
[[gnu::target("avx2")]] void depthRows(bool write, SurfaceView depth, int x, int y, const float* z,
                                       uint8_t* masks, RbStats& stats) {
  constexpr int kQuads = 8;
  const __m256i depthBits = _mm256_set1_epi32(static_cast<int32_t>(kD24Max));
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  // The four rows are asked for before the first is tested, as depthQuads asks for its quads'
  // rows: a bin's depth and colour outgrow the host's caches.
  for (int r = 0; r < 4; ++r) __builtin_prefetch(depth.pixel(x, y + r, 4), 1);
  uint64_t quads = 0, tested = 0, passed = 0, changed = 0;
  uint8_t out[kQuads] = {};
  for (int k = 0; k < kQuads; ++k) {
    const auto mask = static_cast<uint32_t>(masks[k] & 0xf);
    quads += mask != 0;
    tested += static_cast<uint64_t>(quadLaneCount(mask));
  }
  for (int r = 0; r < 4; ++r) {
    const uint8_t* rowQuads = masks + 4 * (r >> 1);
    const int shift = 2 * (r & 1);
    // The row's live pixels: quad j's two pixels are bits 2j and 2j+1.
    uint32_t live = 0;
    for (int j = 0; j < 4; ++j) live |= (uint32_t{rowQuads[j]} >> shift & 3u) << (2 * j);
    if (live == 0) continue;
    uint8_t* row = depth.pixel(x, y + r, 4);
    const __m256i old = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row));
    const __m256i frag = quantize24(rowOf(z, r));
    const __m256i liveLanes = _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32(static_cast<int32_t>(live)), bit), bit);
    const __m256i pass =
        _mm256_and_si256(liveLanes, passes<kFunc>(frag, _mm256_and_si256(old, depthBits)));
    // The stencil bits of a D24S8 pixel stay as they are.
    const __m256i now =
        write ? _mm256_blendv_epi8(old, _mm256_or_si256(frag, _mm256_andnot_si256(depthBits, old)),
                                   pass)
              : old;
    const uint32_t differ = ~static_cast<uint32_t>(_mm256_movemask_ps(
                                _mm256_castsi256_ps(_mm256_cmpeq_epi32(now, old)))) &
                            live;
    if (differ != 0) {
      // Pixels that do not change are stored as they were: the row is this primitive's.
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row), now);
      changed += static_cast<uint64_t>(std::popcount(differ));
    }
    const auto rowPass = static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(pass)));
    for (int j = 0; j < 4; ++j)
      out[4 * (r >> 1) + j] |= static_cast<uint8_t>((rowPass >> (2 * j) & 3u) << shift);
  }
  for (int k = 0; k < kQuads; ++k) {
    masks[k] = out[k];
    passed += static_cast<uint64_t>(quadLaneCount(out[k]));
  }
  stats.quads += quads;
  stats.samplesTested += tested;
  stats.samplesPassed += passed;
  stats.depthBytesRead += 4 * tested;
  stats.depthBytesWritten += 4 * changed;
}

using DepthRowsLoop = void (*)(bool, SurfaceView, int, int, const float*, uint8_t*, RbStats&);
// depthRows for each depth function, in CompareFunc's order.
constexpr DepthRowsLoop kDepthRows[] = {
    depthRows<CompareFunc::Never>,   depthRows<CompareFunc::Less>,
    depthRows<CompareFunc::Equal>,   depthRows<CompareFunc::LEqual>,
    depthRows<CompareFunc::Greater>, depthRows<CompareFunc::NotEqual>,
    depthRows<CompareFunc::GEqual>,  depthRows<CompareFunc::Always>};
static_assert(std::size(kDepthRows) == static_cast<size_t>(CompareFunc::Always) + 1);

}  // namespace

void depthHalfBlockAvx2(const DepthStencilState& s, SurfaceView depth, int x, int y, const float* z,
                        uint8_t* masks, RbStats& stats) {
  kDepthRows[static_cast<size_t>(s.depthFunc)](s.depthWrite, depth, x, y, z, masks, stats);
}
#endif
}  // namespace tessera::gpu::rb::detail
