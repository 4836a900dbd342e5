#include "gpu/rb/depth_stencil.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/lane_count.h"
#include "common/lane_mask.h"
#include "common/simd.h"
#include "gpu/rb/color_format.h"
#include "gpu/rb/quad_pixels.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {
namespace {

constexpr uint32_t kDepthBytes[] = {0, 2, 4};  // None, D16, D24S8

// One draw's depth/stencil test (GLES 2.0 §4.1.5-4.1.6) of one stored value: a pixel, or a
// sample of a multisample buffer.
class SampleTest {
 public:
  SampleTest(const DepthStencilState& s, DepthFormat f, bool frontFacing)
      : s_(s),
        face_(frontFacing ? s.front : s.back),
        bytes_(bytesPerPixel(f)),
        d24_(f == DepthFormat::D24S8),
        depthOn_(s.depthTest && f != DepthFormat::None),
        stencilOn_(s.stencilTest && f == DepthFormat::D24S8),
        depthMax_(d24_ ? kD24Max : kD16Max),
        stencilRef_(static_cast<uint8_t>(face_.ref & face_.valueMask)) {}
  // Both tests off (or no buffer to test): everything passes and nothing is touched.
  bool passesAll() const { return !depthOn_ && !stencilOn_; }
  bool stencilOn() const { return stencilOn_; }

  // Tests z against the value at p and updates it; true when it passes.
  bool run(uint8_t* p, float z, RbStats& stats) const {
    const uint32_t old = loadPixel(p, bytes_);
    stats.depthBytesRead += bytes_;
    uint32_t storedZ = d24_ ? old & kD24Max : old;
    uint8_t stencil = d24_ ? static_cast<uint8_t>(old >> kStencilShift) : 0;
    bool pass = true;
    StencilOp op = StencilOp::Keep;
    if (stencilOn_ && !compare(face_.func, stencilRef_, stencil & face_.valueMask)) {
      pass = false;
      op = face_.fail;
    } else {
      const uint32_t fragZ = quantizeDepth(z, depthMax_);
      if (depthOn_ && !compare(s_.depthFunc, fragZ, storedZ)) {
        pass = false;
        op = face_.zfail;
      } else {
        op = face_.zpass;
        if (depthOn_ && s_.depthWrite) storedZ = fragZ;
      }
    }
    if (stencilOn_) {
      const uint8_t v = stencilOp(op, stencil, face_.ref);
      stencil = static_cast<uint8_t>((stencil & ~face_.writeMask) | (v & face_.writeMask));
    }
    const uint32_t now = d24_ ? (storedZ | (uint32_t{stencil} << kStencilShift)) : storedZ;
    if (now != old) {
      storePixel(p, bytes_, now);
      stats.depthBytesWritten += bytes_;
    }
    return pass;
  }
  uint32_t bytes() const { return bytes_; }

 private:
  const DepthStencilState& s_;
  const StencilFace& face_;
  uint32_t bytes_;
  bool d24_, depthOn_, stencilOn_;
  uint32_t depthMax_;
  uint8_t stencilRef_;
};

#if defined(__SSE2__)
// The depth test alone (stencil test off, or no stencil bits) of a quad's four pixels side by
// side in SSE registers. Every pixel goes through SampleTest::run's arithmetic: the same clamp,
// the same double quantization and the same comparison, so memory, the passing mask and the
// counters come out the same (tests/rb/depth_stencil_test.cpp compares the two paths). Quads
// are the bulk of the RB's work, and the per-pixel path spends most of its time in branches.
class DepthQuadTest {
 public:
  DepthQuadTest(const DepthStencilState& s, DepthFormat f)
      : write_(s.depthWrite),
        bytes_(bytesPerPixel(f)),
        depthMax_(f == DepthFormat::D16 ? kD16Max : kD24Max) {}

  // The pixels of `mask` that pass; kFunc is the draw's depth function, fixed for its loop.
  // `changed` counts the pixels whose stored value changed (the caller charges their bytes).
  template <CompareFunc kFunc>
  uint8_t run(const QuadPixels& pixels, uint8_t mask, const float z[4], uint64_t& changed) const {
    const __m128i old = pixels.load(mask);
    const __m128i depthBits = _mm_set1_epi32(static_cast<int32_t>(depthMax_));
    const __m128i frag = quantize(z);
    const __m128i pass =
        _mm_and_si128(laneMask4(mask), passes<kFunc>(frag, _mm_and_si128(old, depthBits)));
    // The stencil bits of a D24S8 pixel stay as they are.
    const __m128i now =
        write_ ? select(pass, _mm_or_si128(frag, _mm_andnot_si128(depthBits, old)), old) : old;
    const uint32_t differ =
        ~static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(now, old)))) & mask;
    if (differ != 0) {
      pixels.store(differ, now);
      changed += static_cast<uint64_t>(quadLaneCount(differ));
    }
    return static_cast<uint8_t>(_mm_movemask_ps(_mm_castsi128_ps(pass)));
  }
  uint32_t bytes() const { return bytes_; }

 private:
  static __m128i select(__m128i m, __m128i a, __m128i b) {
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
  }
  // quantizeDepth of four values: the clamp in float (max(z, 0) is 0 for NaN, as z > 0 is
  // false), then the same double product and truncation.
  __m128i quantize(const float z[4]) const {
    const __m128 c = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(z), _mm_setzero_ps()), _mm_set1_ps(1.0f));
    const __m128d max = _mm_set1_pd(static_cast<double>(depthMax_)), half = _mm_set1_pd(0.5);
    const __m128i lo = _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(c), max), half));
    const __m128i hi =
        _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(c, c)), max), half));
    return _mm_unpacklo_epi64(lo, hi);
  }
  // compare() lane by lane; both sides are below 2^24, so signed comparisons order them.
  template <CompareFunc kFunc>
  static __m128i passes(__m128i frag, __m128i stored) {
    const __m128i all = _mm_set1_epi32(-1);
    switch (kFunc) {
      case CompareFunc::Never:
        return _mm_setzero_si128();
      case CompareFunc::Less:
        return _mm_cmplt_epi32(frag, stored);
      case CompareFunc::Equal:
        return _mm_cmpeq_epi32(frag, stored);
      case CompareFunc::LEqual:
        return _mm_xor_si128(_mm_cmpgt_epi32(frag, stored), all);
      case CompareFunc::Greater:
        return _mm_cmpgt_epi32(frag, stored);
      case CompareFunc::NotEqual:
        return _mm_xor_si128(_mm_cmpeq_epi32(frag, stored), all);
      case CompareFunc::GEqual:
        return _mm_xor_si128(_mm_cmplt_epi32(frag, stored), all);
      case CompareFunc::Always:
        return all;
    }
    return _mm_setzero_si128();
  }

  bool write_;
  uint32_t bytes_, depthMax_;
};

// The depth test alone of `count` quads of one primitive (depthStencilQuads' depth-only path),
// with the depth function fixed for the loop, eight quads at a time: each quad's row address is
// computed once, for its prefetch and its test (its second row is a pitch further).
template <CompareFunc kFunc>
void depthQuads(const DepthQuadTest& test, SurfaceView depth, int count, const int* x, const int* y,
                const float* const* z, uint8_t* masks, RbStats& stats) {
  constexpr int kChunk = 8;
  const uint32_t bytes = test.bytes(), pitch = depth.pitch;
  // Counted here and charged once: the stores to the pixels could alias the counters.
  uint64_t quads = 0, tested = 0, passed = 0, changed = 0;
  for (int first = 0; first < count; first += kChunk) {
    const int n = std::min(kChunk, count - first);
    uint8_t* rows[kChunk];
    for (int k = 0; k < n; ++k) rows[k] = depth.pixel(x[first + k], y[first + k], bytes);
    // Every quad's two rows are asked for before the first is tested: a bin's depth and colour
    // outgrow the host's caches, and each test would otherwise wait for its own rows.
    if (count > 1) {
      for (int k = 0; k < n; ++k) {
        __builtin_prefetch(rows[k], 1);
        __builtin_prefetch(rows[k] + pitch, 1);
      }
    }
    for (int k = 0; k < n; ++k) {
      uint8_t& m = masks[first + k];
      const auto mask = static_cast<uint8_t>(m & 0xf);
      m = 0;
      if (mask == 0) continue;
      ++quads;
      tested += static_cast<uint64_t>(quadLaneCount(mask));
      m = test.run<kFunc>(QuadPixels(rows[k], pitch, bytes), mask, z[first + k], changed);
      passed += static_cast<uint64_t>(quadLaneCount(m));
    }
  }
  stats.quads += quads;
  stats.samplesTested += tested;
  stats.samplesPassed += passed;
  stats.depthBytesRead += uint64_t{bytes} * tested;
  stats.depthBytesWritten += uint64_t{bytes} * changed;
}

// depthQuads for each depth function, in CompareFunc's order (its 3-bit register field names
// all eight).
using DepthQuadsLoop = void (*)(const DepthQuadTest&, SurfaceView, int, const int*, const int*,
                                const float* const*, uint8_t*, RbStats&);
constexpr DepthQuadsLoop kDepthQuads[] = {
    depthQuads<CompareFunc::Never>,   depthQuads<CompareFunc::Less>,
    depthQuads<CompareFunc::Equal>,   depthQuads<CompareFunc::LEqual>,
    depthQuads<CompareFunc::Greater>, depthQuads<CompareFunc::NotEqual>,
    depthQuads<CompareFunc::GEqual>,  depthQuads<CompareFunc::Always>};
static_assert(std::size(kDepthQuads) == static_cast<size_t>(CompareFunc::Always) + 1);
#endif

}  // namespace

uint32_t bytesPerPixel(DepthFormat f) {
  return kDepthBytes[static_cast<size_t>(f)];
}

uint8_t RenderBackend::depthStencil(const DepthStencilState& s, DepthFormat f, SurfaceView depth,
                                    int x, int y, uint8_t mask, const float z[4],
                                    bool frontFacing) {
  depthStencilQuads(s, f, depth, 1, &x, &y, &z, &mask, frontFacing);
  return mask;
}

void RenderBackend::depthStencilQuads(const DepthStencilState& s, DepthFormat f, SurfaceView depth,
                                      int count, const int* x, const int* y, const float* const* z,
                                      uint8_t* masks, bool frontFacing) {
  // §4.1.5/4.1.6: without a depth (stencil) buffer the depth (stencil) test always passes and
  // nothing is written.
  const SampleTest test(s, f, frontFacing);
  const bool tests = !test.passesAll();
#if defined(__SSE2__)
  // The depth test alone goes four pixels at a time.
  if (tests && !test.stencilOn()) {
    return kDepthQuads[static_cast<size_t>(s.depthFunc)](DepthQuadTest(s, f), depth, count, x, y, z,
                                                         masks, stats_);
  }
#endif
  uint64_t quads = 0, tested = 0, passed = 0;
  for (int k = 0; k < count; ++k) {
    const auto mask = static_cast<uint8_t>(masks[k] & 0xf);
    masks[k] = 0;
    if (mask == 0) continue;
    ++quads;
    tested += static_cast<uint64_t>(quadLaneCount(mask));
    uint8_t pass = mask;
    if (tests) {
      pass = 0;
      for (int i = 0; i < 4; ++i) {
        if (!((mask >> i) & 1)) continue;
        if (test.run(depth.pixel(x[k] + (i & 1), y[k] + (i >> 1), test.bytes()), z[k][i], stats_))
          pass |= static_cast<uint8_t>(1u << i);
      }
    }
    masks[k] = pass;
    passed += static_cast<uint64_t>(quadLaneCount(pass));
  }
  stats_.quads += quads;
  stats_.samplesTested += tested;
  stats_.samplesPassed += passed;
}

void RenderBackend::depthStencilHalfBlock(const DepthStencilState& s, DepthFormat f,
                                          SurfaceView depth, int x, int y, const float z[32],
                                          uint8_t masks[8], bool frontFacing) {
#if TESSERA_AVX2_CLONES
  // depthStencilQuads' depth-only path, for a D24S8 buffer with the stencil test off.
  if (simdPath() == SimdPath::Avx2 && f == DepthFormat::D24S8 && s.depthTest && !s.stencilTest)
    return detail::depthHalfBlockAvx2(s, depth, x, y, z, masks, stats_);
#endif
  constexpr int kQuads = 8;
  int xs[kQuads], ys[kQuads];
  const float* zs[kQuads];
  for (int k = 0; k < kQuads; ++k) {
    xs[k] = x + 2 * (k & 3);
    ys[k] = y + 2 * (k >> 2);
    zs[k] = z + 4 * k;
  }
  depthStencilQuads(s, f, depth, kQuads, xs, ys, zs, masks, frontFacing);
}

uint16_t RenderBackend::depthStencilSamples(const DepthStencilState& s, DepthFormat f,
                                            SurfaceView depth, int x, int y, uint32_t samples,
                                            uint16_t mask, const float z[4][4], bool frontFacing) {
  if (mask == 0) return 0;
  const uint64_t live = static_cast<uint64_t>(laneCount(mask));
  ++stats_.quads;
  stats_.samplesTested += live;
  const SampleTest test(s, f, frontFacing);
  if (test.passesAll()) {
    stats_.samplesPassed += live;
    return mask;
  }
  uint16_t passed = 0;
  for (int i = 0; i < 4; ++i) {
    const int px = x + (i & 1), py = y + (i >> 1);
    for (uint32_t j = 0; j < samples; ++j) {
      const uint32_t bit = 4u * uint32_t(i) + j;
      if (!((mask >> bit) & 1)) continue;
      uint8_t* p = depth.pixel(px * int(samples) + int(j), py, test.bytes());
      if (test.run(p, z[i][j], stats_)) passed |= static_cast<uint16_t>(1u << bit);
    }
  }
  stats_.samplesPassed += static_cast<uint64_t>(laneCount(passed));
  return passed;
}

void RenderBackend::clearDepthStencil(DepthFormat f, SurfaceView v, int x0, int y0, int x1, int y1,
                                      float depth, uint8_t stencil, bool clearDepth,
                                      bool clearStencil, uint8_t stencilWriteMask) {
  if (f == DepthFormat::None || x0 >= x1 || y0 >= y1) return;
  const uint32_t bytes = bytesPerPixel(f);
  if (f == DepthFormat::D16) {
    if (!clearDepth) return;  // no stencil bits to clear
    return fillRect(v, x0, y0, x1, y1, bytes, quantizeDepth(depth, kD16Max));
  }
  // GLES 2.0 §4.2.3: the stencil clear writes only the bits of the stencil write mask.
  const uint32_t stencilBits = clearStencil ? uint32_t{stencilWriteMask} << kStencilShift : 0u;
  if (!clearDepth && stencilBits == 0) return;
  // Clear only the selected part of each D24S8 word; both parts is a plain fill.
  const uint32_t keep = (clearDepth ? 0u : kD24Max) | (0xffu << kStencilShift & ~stencilBits);
  const uint32_t value = (clearDepth ? quantizeDepth(depth, kD24Max) : 0u) |
                         (uint32_t{stencil} << kStencilShift & stencilBits);
  if (keep == 0) return fillRect(v, x0, y0, x1, y1, bytes, value);
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = v.pixel(x0, y, bytes);
    for (int x = 0; x < x1 - x0; ++x) {
      uint8_t* p = row + 4 * x;
      storePixel(p, 4, keep == 0 ? value : (loadPixel(p, 4) & keep) | value);
    }
  }
}

}  // namespace tessera::gpu::rb
