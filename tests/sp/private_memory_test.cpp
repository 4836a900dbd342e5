// Private memory (the pN file): register spills and fills as masked 128-byte lines in GPU memory,
// counted on the bus, and a fault when the bound buffer is smaller than the program needs.
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class PrivateMemory : public testing::SpFixture {
 protected:
  GpuMemory memory;

  ShaderResources withPrivate(uint64_t bytes) {
    ShaderResources r = resources();
    r.memory = &memory;
    r.privateBytes = bytes;
    r.privateBase = bytes ? memory.allocate(bytes, "private") : 0;
    return r;
  }
};

TEST_F(PrivateMemory, SpillsAndFillsAreMaskedPerLane) {
  auto w = vertexWarp();
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = static_cast<float>(l);
  program = isa::assemble(R"(.stage vertex
.private 2
mov p1, i0.x        ; every lane stores its index
flt r0, i0.x, 8
if r0
  add r1, i0.x, 100
  mov p1, r1        ; lanes 0..7 overwrite theirs
endif
mov r2, 0
mov r2, p1
mov o0.x, r2
end
)",
                          "spill.vs");
  const ShaderResources r = withPrivate(2 * kPrivateLineBytes);
  const uint64_t readBefore = memory.stats()[BusClient::ShaderPrivate].readBytes;
  core.runVertex(program, *w, r);
  for (int l = 0; l < kLanes; ++l)
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(l < 8 ? l + 100 : l)) << l;
  // Dword 1 of lane l sits at byte 128 + 4 l: the warp's lanes share one line per dword.
  float line[kLanes];
  memory.read(BusClient::Host, r.privateBase + kPrivateLineBytes, line, sizeof line);
  EXPECT_EQ(line[3], 103.0f);
  EXPECT_EQ(line[20], 20.0f);
  // Two stores (each a read-modify-write of the line) and one fill: 3 lines read, 2 written.
  const BusTraffic t = memory.stats()[BusClient::ShaderPrivate];
  EXPECT_EQ(t.readBytes - readBefore, 3 * kPrivateLineBytes);
  EXPECT_EQ(t.writeBytes, 2 * kPrivateLineBytes);
}

TEST_F(PrivateMemory, TooLittleBoundIsAFault) {
  auto w = vertexWarp();
  program = isa::assemble(".stage vertex\n.private 3\nmov p2, i0.x\nmov o0.x, p2\nend\n", "s.vs");
  for (uint64_t bytes : {uint64_t{0}, 2 * kPrivateLineBytes}) {
    try {
      core.runVertex(program, *w, withPrivate(bytes));
      ADD_FAILURE() << "no fault with " << bytes << " bytes";
    } catch (const GpuFault& f) {
      EXPECT_EQ(f.kind(), FaultKind::BadState);
      EXPECT_NE(std::string(f.what()).find("needs 384 bytes of private memory"), std::string::npos)
          << f.what();
    }
  }
}

}  // namespace
}  // namespace tessera::gpu::sp
