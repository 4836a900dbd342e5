// Fragment-only behaviour: quad derivatives, varying interpolation, system values, kill in
// divergent code, and texture sampling through the real texture unit.
#include <random>
#include <string>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/texture_unit.h"
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class Fragment : public testing::SpFixture {};

TEST_F(Fragment, CoarseDerivativesUseTheQuadsTopLeft) {
  auto w = fragmentWarp();
  runFs(R"(.stage fragment
.outputs 1
mul r0, fc.x, fc.x
mul r1, fc.y, fc.y
dsx o0.x, r0
dsy o0.y, r1
dsx o0.z, r1          ; y*y does not change across a row
mad r2, fc.x, fc.y, 0
dsy o0.w, r2          ; d(x*y)/dy = x of the top-left pixel
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const int q = l / 4;
    const float x0 = static_cast<float>(2 * (q % 4)) + 0.5f;
    const float y0 = static_cast<float>(2 * (q / 4)) + 0.5f;
    EXPECT_EQ(w->color[0][l], (x0 + 1) * (x0 + 1) - x0 * x0) << l;
    EXPECT_EQ(w->color[1][l], (y0 + 1) * (y0 + 1) - y0 * y0) << l;
    EXPECT_EQ(w->color[2][l], 0.0f) << l;
    EXPECT_EQ(w->color[3][l], x0) << l;
  }
  EXPECT_TRUE(program.uses(isa::kUsesDerivatives));
}

TEST_F(Fragment, InterpolatesVaryingsWithBarycentrics) {
  auto w = fragmentWarp();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-10.0f, 10.0f), b(0.0f, 0.5f);
  std::vector<float> tri(kLanes / 4 * 3 * kMaxVaryings * 4);
  for (float& v : tri) v = u(rng);
  for (int q = 0; q < kLanes / 4; ++q) w->varyings[q] = &tri[q * 3 * kMaxVaryings * 4];
  for (int l = 0; l < kLanes; ++l) {
    w->bary[0][l] = b(rng);
    w->bary[1][l] = b(rng);
  }
  runFs(R"(.stage fragment
.varyings 16
ipl r0, v0.x
ipl r1, v15.w
ipl r2, v3.y
mov o0.x, r0
mov o0.y, r1
mov o0.z, r2
end
)",
        *w);
  auto expect = [&](int l, int slot) {
    const float* v = w->varyings[l / 4];
    const float b1 = w->bary[0][l], b2 = w->bary[1][l];
    return v[slot] * (1.0f - b1 - b2) + v[kMaxVaryings * 4 + slot] * b1 +
           v[2 * kMaxVaryings * 4 + slot] * b2;
  };
  for (int l = 0; l < kLanes; ++l) {
    EXPECT_EQ(w->color[0][l], expect(l, 0)) << l;
    EXPECT_EQ(w->color[1][l], expect(l, 15 * 4 + 3)) << l;
    EXPECT_EQ(w->color[2][l], expect(l, 3 * 4 + 1)) << l;
  }
}

TEST_F(Fragment, SystemValues) {
  auto w = fragmentWarp();
  w->frontFacing = 0x0000ffffu;
  runFs(R"(.stage fragment
mov o0.x, fc.z
mov o0.y, fc.w
sel o0.z, ff, 1, -1
mov o0.w, fc.y
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    EXPECT_EQ(w->color[0][l], w->fragCoord[2][l]);
    EXPECT_EQ(w->color[1][l], 1.0f);
    EXPECT_EQ(w->color[2][l], l < 16 ? 1.0f : -1.0f);
    EXPECT_EQ(w->color[3][l], w->fragCoord[1][l]);
  }
}

TEST_F(Fragment, KillInDivergentCodeClearsCoverage) {
  // Lanes 28..31 are helper pixels (executing, not covered).
  auto w = fragmentWarp();
  w->coverage = 0x0fffffffu;
  for (int c = 0; c < 4; ++c)
    for (int l = 0; l < kLanes; ++l) w->color[c][l] = -5.0f;
  runFs(R"(.stage fragment
fge r0, fc.x, 4          ; right half of the block
if r0
  fge r1, fc.y, 2        ; bottom right quarter: killed
  killif r1
  mov o0.y, 2
else
  flt r1, fc.y, 1        ; top row of the left half: killed
  if r1
    kill
  endif
  mov o0.y, 3
endif
mov o0.x, 1
end
)",
        *w);
  uint32_t want = 0;
  for (int l = 0; l < kLanes; ++l) {
    const float x = w->fragCoord[0][l], y = w->fragCoord[1][l];
    const bool killed = (x >= 4 && y >= 2) || (x < 4 && y < 1);
    if (!killed) want |= 1u << l;
    EXPECT_EQ(w->color[0][l], killed ? -5.0f : 1.0f) << l;
    EXPECT_EQ(w->color[1][l], killed ? -5.0f : (x >= 4 ? 2.0f : 3.0f)) << l;
  }
  EXPECT_EQ(w->coverage, want & 0x0fffffffu);
  // Killed covered pixels: bottom-right quarter is 8 pixels minus the 4 helpers (lanes 28..31
  // are quad 7, at x 6..7, y 2..3), plus the 4 top-row pixels of the left half.
  EXPECT_EQ(core.stats().killedLanes, 8u);
  EXPECT_TRUE(program.uses(isa::kUsesKill));
}

TEST_F(Fragment, KillingEveryLaneEndsTheWarp) {
  auto w = fragmentWarp();
  runFs(".stage fragment\nkill\nmov o0.x, 1\nend\n", *w);
  EXPECT_EQ(w->coverage, 0u);
  EXPECT_EQ(core.stats().instructions, 1u);
  EXPECT_EQ(core.stats().killedLanes, 32u);
}

class Texturing : public testing::SpFixture {
 protected:
  Texturing() : unit(memory) {
    // A 2x1 RGBA8 texture: red on the left, blue on the right; nearest filtering.
    const uint8_t texels[8] = {255, 0, 0, 255, 0, 0, 255, 128};
    tex::TextureDescriptor d;
    d.base = memory.allocate(sizeof texels, "texture");
    memory.write(BusClient::Host, d.base, texels, sizeof texels);
    d.width = 2;
    d.height = 1;
    d.minFilter = d.magFilter = tex::Filter::Nearest;
    textures = {d};
    textureUnit = &unit;
  }
  GpuMemory memory;
  tex::TextureUnit unit;
};

TEST_F(Texturing, FragmentSampleWritesFourRegisters) {
  auto w = fragmentWarp();
  runFs(R"(.stage fragment
.regs 6
mul r0, fc.x, 0.125      ; s in (0, 1) across the 8-pixel-wide block
mov r1, 0.5
sam r2, r0, r1, s0
mov o0.x, r2
mov o0.y, r3
mov o0.z, r4
mov o0.w, r5
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const bool left = w->fragCoord[0][l] * 0.125f < 0.5f;
    EXPECT_EQ(w->color[0][l], left ? 1.0f : 0.0f) << l;
    EXPECT_EQ(w->color[2][l], left ? 0.0f : 1.0f) << l;
    EXPECT_EQ(w->color[3][l], left ? 1.0f : 128.0f / 255.0f) << l;
  }
  EXPECT_EQ(core.stats().textureSamples, 32u);
  EXPECT_EQ(unit.stats().quads, 8u);
}

// A full warp's lookup writes its destination registers directly, a partial one through the
// masked write; either way a destination that holds the coordinates gets the texels. With the
// memory pinned, as in a GPU run, the texture unit keeps the first lookup's set-up and the second
// run's goes straight to the kernel (TextureUnit::sampleWarp).
TEST_F(Texturing, ASampleIntoItsOwnCoordinatesOrIntoFreeRegistersGivesTheTexels) {
  const GpuMemory::ViewScope pinned(memory, memory.view());
  // The texels go to r0..r3, over the coordinates r0 and r1, or to the free r4..r7.
  auto text = [](int dst) {
    auto r = [dst](int k) { return "r" + std::to_string(dst + k); };
    return ".stage fragment\n.regs 8\nmul r0, fc.x, 0.125\nmov r1, 0.5\nsam " + r(0) +
           ", r0, r1, s0\nmov o0.x, " + r(0) + "\nmov o0.y, " + r(1) + "\nmov o0.z, " + r(2) +
           "\nmov o0.w, " + r(3) + "\nend\n";
  };
  const std::string intoCoordinates = text(0), intoFree = text(4);
  for (const uint32_t mask : {~0u, 0x0ff0fff0u, ~0u, 0x0ff0fff0u}) {
    for (const std::string& fs : {intoCoordinates, intoFree}) {
      auto w = fragmentWarp(mask);
      runFs(fs, *w);
      for (int l = 0; l < kLanes; ++l) {
        if (!((mask >> l) & 1)) continue;
        const bool left = w->fragCoord[0][l] * 0.125f < 0.5f;
        EXPECT_EQ(w->color[0][l], left ? 1.0f : 0.0f) << l;
        EXPECT_EQ(w->color[1][l], 0.0f) << l;
        EXPECT_EQ(w->color[2][l], left ? 0.0f : 1.0f) << l;
        EXPECT_EQ(w->color[3][l], left ? 1.0f : 128.0f / 255.0f) << l;
      }
    }
  }
}

TEST_F(Texturing, VertexShaderSamplesAtExplicitLod) {
  auto w = vertexWarp(0xffu);
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = (l % 2) ? 0.75f : 0.25f;
  runVs(R"(.stage vertex
.regs 4
saml r0, i0.x, 0.5, 0, s0
mov o0.x, r0
mov o0.y, r2
end
)",
        *w);
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(w->out[0][0][l], (l % 2) ? 0.0f : 1.0f) << l;
    EXPECT_EQ(w->out[0][1][l], (l % 2) ? 1.0f : 0.0f) << l;
  }
  EXPECT_EQ(core.stats().textureSamples, 8u);
}

TEST_F(Texturing, TexelFetchAndSizeQuery) {
  // Lane l fetches texel (l % 4 - 1, 0): -1 and 2 lie outside the 2x1 level and read zero;
  // txs reports (2, 1, 1 level) for level 0 and a zero size for level 1, beyond the chain.
  auto w = vertexWarp(0xffu);
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = std::bit_cast<float>(l % 4 - 1);
  runVs(R"(.stage vertex
.regs 12
txf r0, i0.x, 0, 0, s0
txs r4, 0, s0
txs r8, 1, s0
mov o0.x, r0
mov o0.y, r3
mov o0.z, r4
mov o0.w, r5
mov o1.x, r6
mov o1.y, r8
end
)",
        *w);
  for (int l = 0; l < 8; ++l) {
    const int i = l % 4 - 1;
    EXPECT_EQ(w->out[0][0][l], i == 0 ? 1.0f : 0.0f) << l;  // red of texel 0
    EXPECT_EQ(w->out[0][1][l], i == 0 ? 1.0f : i == 1 ? 128.0f / 255.0f : 0.0f) << l;
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[0][2][l]), 2);  // width
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[0][3][l]), 1);  // height
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[1][0][l]), 1);  // levels
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[1][1][l]), 0);  // level 1: beyond the chain
  }
}

}  // namespace
}  // namespace tessera::gpu::sp
