// The vector samples through the shader core: samv reads its coordinate tuple rC..rC+3 (here a
// 3D texture's s, t, r and a shadow lookup's reference), samvl its LOD, txfv a slice, and txs
// reports a 3D texture's depth and an array's layers in w.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class VectorSamples : public testing::SpFixture {
 protected:
  VectorSamples() : unit(memory) {
    // A 1x1x4 L8 volume: slice z holds 50 * z + 10.
    const uint8_t slices[4] = {10, 60, 110, 160};
    tex::TextureDescriptor volume;
    volume.base = memory.allocate(sizeof slices, "volume");
    memory.write(BusClient::Host, volume.base, slices, sizeof slices);
    volume.format = tex::TexFormat::L8;
    volume.width = volume.height = 1;
    volume.depth = 4;
    volume.volume = true;
    volume.magFilter = volume.minFilter = tex::Filter::Nearest;
    // A 2x1 D16 texture: depths 0.25 and 0.75, compared with LESS.
    const uint16_t depths[2] = {16384, 49151};
    tex::TextureDescriptor shadow;
    shadow.base = memory.allocate(sizeof depths, "depth");
    memory.write(BusClient::Host, shadow.base, depths, sizeof depths);
    shadow.format = tex::TexFormat::D16;
    shadow.width = 2;
    shadow.height = 1;
    shadow.magFilter = shadow.minFilter = tex::Filter::Nearest;
    shadow.compare = true;
    shadow.compareFunc = tex::CompareFunc::Less;
    tex::TextureDescriptor layers = volume;  // the same bytes as a 1x1 array of 4 layers
    layers.volume = false;
    layers.array = true;
    textures = {volume, shadow, layers};
    textureUnit = &unit;
  }
  GpuMemory memory;
  tex::TextureUnit unit;
};

TEST_F(VectorSamples, FragmentTupleCoordinates) {
  // r = (pixel x) / 8: pixels 0..1 read slice 0, 2..3 slice 1, ...; then s = x / 8 with the
  // reference 0.5: LESS (ref < texel) fails on the left texel (0.25), passes on the right (0.75).
  auto w = fragmentWarp();
  runFs(R"(.stage fragment
.regs 12
mov r0, 0.5
mov r1, 0.5
mul r2, fc.x, 0.125
mov r3, 0
samv r4, r0, s0
mul r0, fc.x, 0.125
mov r3, 0.5
samv r8, r0, s1
mov o0.x, r4
mov o0.y, r8
mov o0.z, r11
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const float x = w->fragCoord[0][l];
    const int slice = static_cast<int>(x * 0.125f * 4);
    EXPECT_EQ(w->color[0][l], static_cast<float>(50 * slice + 10) / 255.0f) << l;
    EXPECT_EQ(w->color[1][l], x * 0.125f < 0.5f ? 0.0f : 1.0f) << l;  // 0.5 < 0.25 / 0.75
    EXPECT_EQ(w->color[2][l], 1.0f) << l;                             // alpha
  }
  EXPECT_EQ(core.stats().texInstructions, 2u);
  EXPECT_EQ(unit.stats().quads, 16u);
}

TEST_F(VectorSamples, VertexLodFetchAndSize) {
  auto w = vertexWarp(0xffu);
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = std::bit_cast<float>(l % 4);
  runVs(R"(.stage vertex
.regs 16
mov r0, 0.5
mov r1, 0.5
mov r2, 0.9
mov r3, 0
samvl r4, r0, 0, s0
mov r8, 0
mov r9, 0
mov r10, i0.x
mov r11, 0
txfv r12, r8, 0, s2
txs r8, 0, s0
mov o0.x, r4
mov o0.y, r12
mov o0.z, r11
txs r8, 0, s2
mov o0.w, r11
end
)",
        *w);
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(w->out[0][0][l], 160.0f / 255.0f) << l;                                 // slice 3
    EXPECT_EQ(w->out[0][1][l], static_cast<float>(50 * (l % 4) + 10) / 255.0f) << l;  // layer
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[0][2][l]), 4) << l;  // the volume's depth
    EXPECT_EQ(std::bit_cast<int32_t>(w->out[0][3][l]), 4) << l;  // the array's layers
  }
}

// sam and samc do not address 3D or array textures, and nothing fetches texels of a cube map.
TEST_F(VectorSamples, MismatchedTargetsFault) {
  auto w = vertexWarp(0x1u);
  EXPECT_THROW(runVs(".stage vertex\n.regs 8\nsam r4, r0, r1, s0\nmov o0.x, r4\nend\n", *w),
               GpuFault);
  EXPECT_THROW(runVs(".stage vertex\n.regs 8\nsamc r4, r0, s2\nmov o0.x, r4\nend\n", *w), GpuFault);
  textures[0].volume = false;
  textures[0].cube = true;
  EXPECT_THROW(runVs(".stage vertex\n.regs 8\ntxfv r4, r0, 0, s0\nmov o0.x, r4\nend\n", *w),
               GpuFault);
}

}  // namespace
}  // namespace tessera::gpu::sp
