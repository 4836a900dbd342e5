// Depth and stencil tests of the render backend: compare functions, quantization, every
// stencil operation with masks and faces, missing buffers, and byte counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "common/simd.h"
#include "gpu/rb/depth_stencil.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {
namespace {

// A 4x4 depth surface at window origin (10, 20).
struct DepthSurface {
  DepthFormat format;
  std::vector<uint8_t> bytes;
  explicit DepthSurface(DepthFormat f) : format(f), bytes(16 * 4, 0) {}
  SurfaceView view() { return {bytes.data(), 4 * bytesPerPixel(format), 10, 20}; }
  uint32_t at(int x, int y) {
    uint32_t v = 0;
    std::memcpy(&v, view().pixel(x, y, bytesPerPixel(format)), bytesPerPixel(format));
    return v;
  }
  void set(int x, int y, uint32_t v) {
    std::memcpy(view().pixel(x, y, bytesPerPixel(format)), &v, bytesPerPixel(format));
  }
};

constexpr float kZ[4] = {0.5f, 0.5f, 0.5f, 0.5f};

// The depth/stencil stage's counters of two ways of testing the same quads.
void expectSameDepthCounters(const RbStats& got, const RbStats& want) {
  EXPECT_EQ(got.quads, want.quads);
  EXPECT_EQ(got.samplesTested, want.samplesTested);
  EXPECT_EQ(got.samplesPassed, want.samplesPassed);
  EXPECT_EQ(got.depthBytesRead, want.depthBytesRead);
  EXPECT_EQ(got.depthBytesWritten, want.depthBytesWritten);
}

TEST(RbDepth, BytesPerPixel) {
  EXPECT_EQ(bytesPerPixel(DepthFormat::None), 0u);
  EXPECT_EQ(bytesPerPixel(DepthFormat::D16), 2u);
  EXPECT_EQ(bytesPerPixel(DepthFormat::D24S8), 4u);
}

TEST(RbDepth, Quantization) {
  EXPECT_EQ(quantizeDepth(0.0f, kD16Max), 0u);
  EXPECT_EQ(quantizeDepth(1.0f, kD16Max), 65535u);
  EXPECT_EQ(quantizeDepth(0.5f, kD16Max), 32768u);  // 32767.5 rounds up
  EXPECT_EQ(quantizeDepth(-0.5f, kD16Max), 0u);
  EXPECT_EQ(quantizeDepth(2.0f, kD16Max), 65535u);
  EXPECT_EQ(quantizeDepth(0.49f / 65535.0f, kD16Max), 0u);
  EXPECT_EQ(quantizeDepth(0.51f / 65535.0f, kD16Max), 1u);
  EXPECT_EQ(quantizeDepth(1.0f, kD24Max), 0xffffffu);
  EXPECT_EQ(quantizeDepth(0.25f, kD24Max), 4194304u);  // 4194303.75
  EXPECT_EQ(quantizeDepth(__builtin_nanf(""), kD24Max), 0u);
}

TEST(RbDepth, EveryCompareFunction) {
  struct Case {
    CompareFunc f;
    bool less, equal, greater;  // pass when the fragment is less / equal / greater than stored
  };
  const Case cases[] = {
      {CompareFunc::Never, false, false, false},  {CompareFunc::Less, true, false, false},
      {CompareFunc::Equal, false, true, false},   {CompareFunc::LEqual, true, true, false},
      {CompareFunc::Greater, false, false, true}, {CompareFunc::NotEqual, true, false, true},
      {CompareFunc::GEqual, false, true, true},   {CompareFunc::Always, true, true, true}};
  for (DepthFormat fmt : {DepthFormat::D16, DepthFormat::D24S8}) {
    const uint32_t max = fmt == DepthFormat::D16 ? kD16Max : kD24Max;
    for (const Case& c : cases) {
      DepthSurface d(fmt);
      // Stored depth 0.5 in pixels 0..2; fragments below, equal (within a quantum), above.
      const uint32_t stored = quantizeDepth(0.5f, max);
      for (int i = 0; i < 4; ++i) d.set(10 + (i & 1), 20 + (i >> 1), stored);
      const float z[4] = {0.25f, 0.5f + 0.3f / static_cast<float>(max), 0.75f, 0.5f};
      DepthStencilState s;
      s.depthTest = true;
      s.depthWrite = false;
      s.depthFunc = c.f;
      RenderBackend rb;
      const uint8_t got = rb.depthStencil(s, fmt, d.view(), 10, 20, 0x7, z, true);
      const uint8_t want = static_cast<uint8_t>(c.less | (c.equal << 1) | (c.greater << 2));
      EXPECT_EQ(got, want) << static_cast<int>(c.f);
      EXPECT_EQ(d.at(10, 20), stored);  // depthWrite off
      EXPECT_EQ(rb.stats().samplesTested, 3u);
      EXPECT_EQ(rb.stats().samplesPassed, static_cast<uint64_t>(std::popcount(want)));
      EXPECT_EQ(rb.stats().depthBytesRead, 3u * bytesPerPixel(fmt));
      EXPECT_EQ(rb.stats().depthBytesWritten, 0u);
    }
  }
}

TEST(RbDepth, WritesPassingFragmentsOnlyAndKeepsStencil) {
  DepthSurface d(DepthFormat::D24S8);
  for (int i = 0; i < 4; ++i) d.set(10 + (i & 1), 20 + (i >> 1), 0xAB000000u | kD24Max);
  const float z[4] = {0.25f, 1.0f, 0.5f, 0.0f};
  DepthStencilState s;
  s.depthTest = true;
  RenderBackend rb;
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::D24S8, d.view(), 10, 20, 0xb, z, true), 0x9);
  EXPECT_EQ(d.at(10, 20), 0xAB000000u | quantizeDepth(0.25f, kD24Max));
  EXPECT_EQ(d.at(11, 20), 0xAB000000u | kD24Max);  // equal, fails LESS
  EXPECT_EQ(d.at(10, 21), 0xAB000000u | kD24Max);  // not in the mask
  EXPECT_EQ(d.at(11, 21), 0xAB000000u);
  EXPECT_EQ(rb.stats().depthBytesRead, 12u);
  EXPECT_EQ(rb.stats().depthBytesWritten, 8u);
}

// The depth test of whole quads (the RB's vector path when the stencil test is off) against a
// pixel-by-pixel reference built from quantizeDepth and compare: random stored values with
// stencil bits, depths in and out of [0,1] (NaN included), every function, mask and format.
TEST(RbDepth, QuadTestMatchesThePixelByPixelReference) {
  std::mt19937 rng(7);
  const float specials[] = {-1.0f, -0.0f, 0.0f, 1.0f, 2.0f, __builtin_nanf(""), 0.5f};
  for (DepthFormat fmt : {DepthFormat::D16, DepthFormat::D24S8}) {
    const uint32_t max = fmt == DepthFormat::D16 ? kD16Max : kD24Max;
    const uint32_t bytes = bytesPerPixel(fmt);
    for (int round = 0; round < 4000; ++round) {
      DepthStencilState s;
      s.depthTest = true;
      s.depthWrite = (rng() & 1) != 0;
      s.depthFunc = static_cast<CompareFunc>(rng() % 8);
      // A stencil test on a D16 buffer does nothing (no stencil bits): still this path.
      s.stencilTest = fmt == DepthFormat::D16 && (rng() & 1) != 0;
      const auto mask = static_cast<uint8_t>(rng() % 16);
      DepthSurface d(fmt);
      float z[4];
      uint32_t before[4];
      for (int i = 0; i < 4; ++i) {
        // Stored values near the fragment's make equality likely.
        z[i] = rng() % 5 == 0 ? specials[rng() % 7] : static_cast<float>(rng() % 1000) / 999.0f;
        const uint32_t near = quantizeDepth(z[i], max) + rng() % 3 - 1;
        before[i] = ((rng() & 1) ? near : static_cast<uint32_t>(rng())) & max;
        if (fmt == DepthFormat::D24S8) before[i] |= static_cast<uint32_t>(rng()) << kStencilShift;
        d.set(11 + (i & 1), 21 + (i >> 1), before[i]);
      }
      RenderBackend rb;
      const uint8_t got = rb.depthStencil(s, fmt, d.view(), 11, 21, mask, z, round % 2 == 0);
      uint8_t want = 0;
      uint64_t written = 0;
      for (int i = 0; i < 4; ++i) {
        uint32_t after = before[i];
        if ((mask >> i) & 1) {
          const uint32_t frag = quantizeDepth(z[i], max);
          if (compare(s.depthFunc, frag, before[i] & max)) {
            want |= static_cast<uint8_t>(1u << i);
            if (s.depthWrite) after = frag | (before[i] & ~max);
          }
        }
        written += after != before[i] ? bytes : 0;
        ASSERT_EQ(d.at(11 + (i & 1), 21 + (i >> 1)), after) << round << " pixel " << i;
      }
      ASSERT_EQ(got, want) << round;
      EXPECT_EQ(rb.stats().samplesPassed, static_cast<uint64_t>(std::popcount(want)));
      EXPECT_EQ(rb.stats().depthBytesRead, std::popcount(mask) * uint64_t{bytes});
      EXPECT_EQ(rb.stats().depthBytesWritten, written);
    }
  }
}

// A primitive's quads tested together (depthStencilQuads) against a call per quad: the same
// memory, masks and counters, with the depth test alone, with stencil, and with both off.
TEST(RbDepth, QuadsOfAPrimitiveTestAsOneQuadAtATime) {
  std::mt19937 rng(11);
  constexpr int kW = 16, kH = 8;
  for (DepthFormat fmt : {DepthFormat::D16, DepthFormat::D24S8}) {
    const uint32_t bytes = bytesPerPixel(fmt);
    for (int round = 0; round < 500; ++round) {
      DepthStencilState s;
      s.depthTest = round % 5 != 0;
      s.depthWrite = (rng() & 1) != 0;
      s.depthFunc = static_cast<CompareFunc>(rng() % 8);
      s.stencilTest = round % 3 == 0;
      s.front.func = static_cast<CompareFunc>(rng() % 8);
      s.front.zpass = StencilOp::Incr;
      s.front.ref = static_cast<uint8_t>(rng());
      std::vector<uint8_t> a(kW * kH * bytes), b;
      for (uint8_t& v : a) v = static_cast<uint8_t>(rng());
      b = a;
      const SurfaceView va{a.data(), kW * bytes, 0, 0}, vb{b.data(), kW * bytes, 0, 0};
      // Up to eight distinct quads of the 8x4 quad grid, in a random order.
      const int count = 1 + static_cast<int>(rng() % 8);
      int x[8], y[8];
      float zs[8][4];
      const float* z[8];
      uint8_t masks[8], want[8];
      std::vector<int> cells(32);
      for (int i = 0; i < 32; ++i) cells[i] = i;
      std::shuffle(cells.begin(), cells.end(), rng);
      for (int k = 0; k < count; ++k) {
        x[k] = 2 * (cells[k] % 8);
        y[k] = 2 * (cells[k] / 8);
        for (float& v : zs[k]) v = static_cast<float>(rng() % 1000) / 999.0f;
        z[k] = zs[k];
        masks[k] = static_cast<uint8_t>(rng() % 16);
      }
      RenderBackend one, batch;
      for (int k = 0; k < count; ++k)
        want[k] = one.depthStencil(s, fmt, va, x[k], y[k], masks[k], z[k], true);
      batch.depthStencilQuads(s, fmt, vb, count, x, y, z, masks, true);
      for (int k = 0; k < count; ++k) ASSERT_EQ(masks[k], want[k]) << round << " quad " << k;
      ASSERT_EQ(a, b) << round;
      expectSameDepthCounters(batch.stats(), one.stats());
    }
  }
}

// Half of a fully covered block (depthStencilHalfBlock, depths in a warp's lane order) against a
// call per quad, on every SIMD path: the same memory, masks and counters, with every depth
// function, with and without writes, on both formats, with stencil, and with depths outside
// [0, 1], NaN and ones equal to the stored value.
TEST(RbDepth, HalfBlockTestsAsItsQuads) {
  std::mt19937 rng(17);
  constexpr int kW = 24, kH = 12;
  constexpr float kLevels[] = {0.0f, 0.25f, 0.5f, 1.0f};
  const SimdPath before = simdPath();
  for (SimdPath path : {SimdPath::Portable, SimdPath::Avx2}) {
    if (!setSimdPath(path)) continue;
    SCOPED_TRACE(simdPathName(path));
    for (DepthFormat fmt : {DepthFormat::D16, DepthFormat::D24S8}) {
      const uint32_t bytes = bytesPerPixel(fmt);
      const uint32_t max = fmt == DepthFormat::D16 ? kD16Max : kD24Max;
      for (int round = 0; round < 400; ++round) {
        DepthStencilState s;
        s.depthTest = round % 7 != 0;
        s.depthWrite = (rng() & 1) != 0;
        s.depthFunc = static_cast<CompareFunc>(round % 8);
        s.stencilTest = round % 5 == 0;
        s.front.func = static_cast<CompareFunc>(rng() % 8);
        s.front.zpass = StencilOp::Incr;
        std::vector<uint8_t> a(kW * kH * bytes), b;
        for (uint8_t& v : a) v = static_cast<uint8_t>(rng());
        // A third of the stored depths are levels a fragment may meet exactly.
        for (int i = 0; i < kW * kH; ++i) {
          if (rng() % 3 != 0) continue;
          const uint32_t stencil = fmt == DepthFormat::D24S8 ? uint32_t(rng() & 0xff) << 24 : 0;
          const uint32_t v = quantizeDepth(kLevels[rng() % 4], max) | stencil;
          std::memcpy(a.data() + size_t(i) * bytes, &v, bytes);
        }
        b = a;
        const SurfaceView va{a.data(), kW * bytes, 0, 0}, vb{b.data(), kW * bytes, 0, 0};
        const int x = 2 * static_cast<int>(rng() % 9), y = 2 * static_cast<int>(rng() % 5);
        float z[32];
        for (float& v : z) {
          const uint32_t pick = rng() % 8;
          v = pick < 3    ? kLevels[rng() % 4]
              : pick == 3 ? std::nanf("")
              : pick == 4 ? -0.5f + static_cast<float>(rng() % 3)
                          : static_cast<float>(rng() % 1000) / 999.0f;
        }
        uint8_t masks[8], want[8];
        for (int k = 0; k < 8; ++k)
          masks[k] = rng() % 4 == 0 ? 0xf : static_cast<uint8_t>(rng() % 16);
        RenderBackend one, half;
        for (int k = 0; k < 8; ++k)
          want[k] = one.depthStencil(s, fmt, va, x + 2 * (k & 3), y + 2 * (k >> 2), masks[k],
                                     z + 4 * k, true);
        half.depthStencilHalfBlock(s, fmt, vb, x, y, z, masks, true);
        for (int k = 0; k < 8; ++k) ASSERT_EQ(masks[k], want[k]) << round << " quad " << k;
        ASSERT_EQ(a, b) << round;
        expectSameDepthCounters(half.stats(), one.stats());
      }
    }
  }
  setSimdPath(before);
}

TEST(RbDepth, DisabledOrMissingBuffersTouchNoMemory) {
  RenderBackend rb;
  const SurfaceView none{};  // a null base would crash on any access
  DepthStencilState s;
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::D24S8, none, 0, 0, 0x6, kZ, true), 0x6);
  s.depthTest = true;
  s.depthFunc = CompareFunc::Never;
  s.stencilTest = true;
  s.front.func = CompareFunc::Never;
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::None, none, 0, 0, 0xf, kZ, true), 0xf);
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::D24S8, none, 0, 0, 0x0, kZ, true), 0x0);
  EXPECT_EQ(rb.stats().quads, 2u);
  EXPECT_EQ(rb.stats().samplesTested, 6u);
  EXPECT_EQ(rb.stats().samplesPassed, 6u);
  EXPECT_EQ(rb.stats().depthBytesRead, 0u);
  rb.resetStats();
  EXPECT_EQ(rb.stats().samplesTested, 0u);
}

TEST(RbStencil, NoStencilBufferPassesAndWritesNothing) {
  DepthSurface d(DepthFormat::D16);
  d.set(10, 20, 0x1234);
  DepthStencilState s;
  s.stencilTest = true;
  s.front.func = CompareFunc::Never;
  s.front.fail = StencilOp::Zero;
  RenderBackend rb;
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::D16, d.view(), 10, 20, 0x1, kZ, true), 0x1);
  EXPECT_EQ(d.at(10, 20), 0x1234u);
  EXPECT_EQ(rb.stats().depthBytesRead, 0u);
}

// Runs one pixel with stencil value `stored` through `op` taken on the given path.
uint8_t runOp(StencilOp op, uint8_t stored, uint8_t ref, uint8_t writeMask) {
  DepthSurface d(DepthFormat::D24S8);
  d.set(10, 20, uint32_t{stored} << 24 | 0x123456u);
  DepthStencilState s;
  s.stencilTest = true;
  s.front.func = CompareFunc::Always;
  s.front.ref = ref;
  s.front.writeMask = writeMask;
  s.front.zpass = op;
  RenderBackend rb;
  rb.depthStencil(s, DepthFormat::D24S8, d.view(), 10, 20, 0x1, kZ, true);
  EXPECT_EQ(d.at(10, 20) & kD24Max, 0x123456u);  // depth untouched (depth test off)
  return static_cast<uint8_t>(d.at(10, 20) >> 24);
}

TEST(RbStencil, EveryOperation) {
  EXPECT_EQ(runOp(StencilOp::Keep, 77, 5, 0xff), 77);
  EXPECT_EQ(runOp(StencilOp::Zero, 77, 5, 0xff), 0);
  EXPECT_EQ(runOp(StencilOp::Replace, 77, 5, 0xff), 5);
  EXPECT_EQ(runOp(StencilOp::Incr, 77, 5, 0xff), 78);
  EXPECT_EQ(runOp(StencilOp::Incr, 255, 5, 0xff), 255);  // saturates
  EXPECT_EQ(runOp(StencilOp::Decr, 77, 5, 0xff), 76);
  EXPECT_EQ(runOp(StencilOp::Decr, 0, 5, 0xff), 0);  // saturates
  EXPECT_EQ(runOp(StencilOp::Invert, 0x5a, 5, 0xff), 0xa5);
  EXPECT_EQ(runOp(StencilOp::IncrWrap, 255, 5, 0xff), 0);
  EXPECT_EQ(runOp(StencilOp::IncrWrap, 7, 5, 0xff), 8);
  EXPECT_EQ(runOp(StencilOp::DecrWrap, 0, 5, 0xff), 255);
  EXPECT_EQ(runOp(StencilOp::DecrWrap, 7, 5, 0xff), 6);
}

TEST(RbStencil, WriteMaskKeepsUnmaskedBits) {
  EXPECT_EQ(runOp(StencilOp::Replace, 0xf0, 0x0f, 0x0c), 0xfc);
  EXPECT_EQ(runOp(StencilOp::Invert, 0xf0, 0, 0x0f), 0xff);
  EXPECT_EQ(runOp(StencilOp::Zero, 0xff, 0, 0x00), 0xff);
  EXPECT_EQ(runOp(StencilOp::IncrWrap, 0x0f, 0, 0x0f), 0x00);  // 0x10 masked to the low bits
}

TEST(RbStencil, FailZfailZpassPathsAndValueMask) {
  DepthSurface d(DepthFormat::D24S8);
  // Pixel 0: stencil fails; pixel 1: stencil passes, depth fails; pixel 2: both pass.
  d.set(10, 20, 0x01000000u | kD24Max);
  d.set(11, 20, 0x13000000u | 0);
  d.set(10, 21, 0x23000000u | kD24Max);
  DepthStencilState s;
  s.depthTest = true;
  s.stencilTest = true;
  s.front.func = CompareFunc::Equal;
  s.front.ref = 0x43;  // (ref & 0x0f) == (stored & 0x0f) for pixels 1 and 2 only
  s.front.valueMask = 0x0f;
  s.front.fail = StencilOp::Invert;
  s.front.zfail = StencilOp::Incr;
  s.front.zpass = StencilOp::Replace;
  RenderBackend rb;
  EXPECT_EQ(rb.depthStencil(s, DepthFormat::D24S8, d.view(), 10, 20, 0x7, kZ, true), 0x4);
  EXPECT_EQ(d.at(10, 20), 0xFE000000u | kD24Max);
  EXPECT_EQ(d.at(11, 20), 0x14000000u);
  EXPECT_EQ(d.at(10, 21), 0x43000000u | quantizeDepth(0.5f, kD24Max));
  EXPECT_EQ(rb.stats().samplesPassed, 1u);
  EXPECT_EQ(rb.stats().depthBytesWritten, 12u);
}

TEST(RbStencil, FrontAndBackFaces) {
  DepthStencilState s;
  s.stencilTest = true;
  s.front.func = CompareFunc::Always;
  s.front.zpass = StencilOp::Replace;
  s.front.ref = 1;
  s.back.func = CompareFunc::Never;
  s.back.fail = StencilOp::Replace;
  s.back.ref = 2;
  for (bool front : {true, false}) {
    DepthSurface d(DepthFormat::D24S8);
    RenderBackend rb;
    const uint8_t passed = rb.depthStencil(s, DepthFormat::D24S8, d.view(), 10, 20, 0xf, kZ, front);
    EXPECT_EQ(passed, front ? 0xf : 0x0);
    EXPECT_EQ(d.at(11, 21) >> 24, front ? 1u : 2u);
  }
}

// GLES 2.0 §4.2.3: the stencil clear writes only the bits of the stencil write mask.
TEST(RbClear, StencilWriteMask) {
  DepthSurface d(DepthFormat::D24S8);
  d.set(10, 20, 0xA5123456u);  // the fixture surface spans (10,20)..(13,23)
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 10, 20, 11, 21, 0.0f, 0x0f, false,
                                   true, 0x3c);
  EXPECT_EQ(d.at(10, 20), 0x8D123456u);  // bits 2..5 from 0x0f, the rest of 0xA5 kept
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 10, 20, 11, 21, 1.0f, 0xff, true,
                                   true, 0x00);
  EXPECT_EQ(d.at(10, 20), 0x8Dffffffu);  // depth cleared, stencil untouched
}

TEST(RbClear, DepthStencilRectangles) {
  DepthSurface d(DepthFormat::D24S8);
  for (int y = 20; y < 24; ++y)
    for (int x = 10; x < 14; ++x) d.set(x, y, 0x55123456u);
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 11, 21, 13, 23, 1.0f, 0, true,
                                   false);
  EXPECT_EQ(d.at(11, 21), 0x55ffffffu);  // stencil kept
  EXPECT_EQ(d.at(10, 21), 0x55123456u);  // outside the rectangle
  EXPECT_EQ(d.at(13, 22), 0x55123456u);
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 10, 20, 12, 21, 0.0f, 0x7e, false,
                                   true);
  EXPECT_EQ(d.at(11, 20), 0x7e123456u);  // depth kept
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 10, 20, 14, 24, 0.25f, 9, true,
                                   true);
  EXPECT_EQ(d.at(13, 23), 0x09000000u | quantizeDepth(0.25f, kD24Max));
  RenderBackend::clearDepthStencil(DepthFormat::D24S8, d.view(), 10, 20, 14, 24, 0.5f, 9, false,
                                   false);
  EXPECT_EQ(d.at(13, 23), 0x09000000u | quantizeDepth(0.25f, kD24Max));

  DepthSurface d16(DepthFormat::D16);
  RenderBackend::clearDepthStencil(DepthFormat::D16, d16.view(), 12, 20, 14, 24, 1.0f, 0, true,
                                   true);
  EXPECT_EQ(d16.at(12, 23), 0xffffu);
  EXPECT_EQ(d16.at(11, 23), 0u);
  RenderBackend::clearDepthStencil(DepthFormat::D16, d16.view(), 10, 20, 14, 24, 0.0f, 3, false,
                                   true);
  EXPECT_EQ(d16.at(12, 23), 0xffffu);  // no stencil bits in D16
  RenderBackend::clearDepthStencil(DepthFormat::None, SurfaceView{}, 0, 0, 100, 100, 0, 0, true,
                                   true);
}

}  // namespace
}  // namespace tessera::gpu::rb
