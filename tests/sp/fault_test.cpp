// Shaders that would read outside their bindings or never finish end in a GpuFault.
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class Faults : public testing::SpFixture {
 protected:
  FaultKind faultOf(std::string_view text, bool fragment = false) {
    try {
      if (fragment) {
        auto w = fragmentWarp();
        runFs(text, *w);
      } else {
        auto w = vertexWarp();
        for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = static_cast<float>(l);
        runVs(text, *w);
      }
    } catch (const GpuFault& f) {
      EXPECT_EQ(f.client(), BusClient::ShaderFetch);
      return f.kind();
    }
    ADD_FAILURE() << "no fault";
    return FaultKind::PageFault;
  }
};

TEST_F(Faults, InfiniteLoopIsARunaway) {
  EXPECT_EQ(faultOf(".stage vertex\nloop\nendloop\nmov o0.x, r0\nend\n"), FaultKind::Runaway);
  EXPECT_LE(core.stats().instructions, kMaxWarpInstructions + 1);
  // A loop that some lanes never leave is a runaway too.
  EXPECT_EQ(faultOf(R"(.stage vertex
loop
  fge r0, i0.x, 16
  breakif r0
endloop
mov o0.x, r0
end
)"),
            FaultKind::Runaway);
}

TEST_F(Faults, ConstantsOutsideTheBinding) {
  constants.assign(16, 1.0f);
  EXPECT_EQ(faultOf(".stage vertex\nmov o0.x, c16\nend\n"), FaultKind::BadState);
  EXPECT_EQ(faultOf(R"(.stage vertex
f2i r0, i0.x
mova a0.x, r0
mov o0.x, c[a0.x + 1]     ; lane 15 reads c16
end
)"),
            FaultKind::BadState);
  EXPECT_EQ(faultOf(R"(.stage vertex
mov o0.x, c[a0.x - 1]
end
)"),
            FaultKind::BadState);
}

TEST_F(Faults, RelativeReadsOfInactiveLanesAreIgnored) {
  constants.assign(16, 2.0f);
  auto w = vertexWarp();
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = static_cast<float>(l);
  runVs(R"(.stage vertex
f2i r0, i0.x
mova a0.x, r0
flt r1, i0.x, 16
if r1
  mov o0.x, c[a0.x]
endif
end
)",
        *w);
  EXPECT_EQ(w->out[0][0][3], 2.0f);
}

TEST_F(Faults, SamplersAndVaryingsOutsideTheBinding) {
  EXPECT_EQ(faultOf(".stage vertex\n.regs 4\nsaml r0, r0, r0, r0, s0\nmov o0.x, r0\nend\n"),
            FaultKind::BadState);  // no texture unit
  GpuMemory memory;
  tex::TextureUnit unit(memory);
  textureUnit = &unit;
  EXPECT_EQ(faultOf(".stage vertex\n.regs 4\nsaml r0, r0, r0, r0, s2\nmov o0.x, r0\nend\n"),
            FaultKind::BadState);  // no textures bound
  EXPECT_EQ(faultOf(".stage fragment\n.varyings 1\nipl r0, v0.x\nmov o0.x, r0\nend\n", true),
            FaultKind::BadState);  // the rasterizer gave no varyings
}

// A cube instruction on a complete 2D texture, or a 2D one on a cube map, faults; on an unbound
// (incomplete) sampler either samples (0, 0, 0, 1).
TEST_F(Faults, CubeAndTwoDimensionalSamplersDoNotMix) {
  GpuMemory memory;
  tex::TextureUnit unit(memory);
  textureUnit = &unit;
  tex::TextureDescriptor d;
  d.width = d.height = 1;
  d.base = memory.allocate(4 * 6, "texels");
  textures = {d};
  EXPECT_EQ(faultOf(".stage vertex\n.regs 4\nsamcl r0, r0, 0, s0\nmov o0.x, r0\nend\n"),
            FaultKind::BadState);
  textures[0].cube = true;
  EXPECT_EQ(faultOf(".stage vertex\n.regs 4\nsaml r0, r0, r0, 0, s0\nmov o0.x, r0\nend\n"),
            FaultKind::BadState);
  textures[0].width = 0;  // incomplete
  auto w = vertexWarp();
  runVs(".stage vertex\n.regs 4\nsaml r0, r0, r0, 0, s0\nmov o0.x, r3\nend\n", *w);
  EXPECT_EQ(w->out[0][0][0], 1.0f);
}

TEST_F(Faults, WrongStage) {
  auto w = vertexWarp();
  program = isa::assemble(".stage fragment\nmov o0.x, 1\nend\n", "f.fs");
  EXPECT_THROW(core.runVertex(program, *w, resources()), GpuFault);
}

}  // namespace
}  // namespace tessera::gpu::sp
