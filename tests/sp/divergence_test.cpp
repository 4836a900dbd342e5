// Structured divergence: nested if/else, loops with per-lane break and continue, nested loops,
// early ret, each checked against a per-lane C++ model of the same program.
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class Divergence : public testing::SpFixture {
 protected:
  std::unique_ptr<VertexWarp> laneWarp(uint32_t mask = ~0u) {
    auto w = vertexWarp(mask);
    for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = static_cast<float>(l);
    return w;
  }
};

TEST_F(Divergence, NestedIfElseReconverges) {
  auto w = laneWarp();
  runVs(R"(.stage vertex
mov r0, i0.x
fge r1, r0, 16
if r1
  fge r2, r0, 24
  if r2
    mov o0.x, 1
  else
    mov o0.x, 2
  endif
else
  fge r2, r0, 8
  if r2
    mov o0.x, 3
  else
    mov o0.x, 4
  endif
endif
add o0.y, o0.x, 10
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const float want = l >= 24 ? 1.0f : l >= 16 ? 2.0f : l >= 8 ? 3.0f : 4.0f;
    EXPECT_EQ(w->out[0][0][l], want) << l;
    EXPECT_EQ(w->out[0][1][l], want + 10.0f) << l;
  }
  EXPECT_GT(core.stats().divergentBranches, 0u);
}

TEST_F(Divergence, UniformBranchesSkipTheUntakenSide) {
  auto w = laneWarp();
  runVs(R"(.stage vertex
mov o0.x, 5
flt r0, i0.x, 0      ; false on every lane
if r0
  mov o0.x, 1
  mov o0.x, 2
  mov o0.x, 3
endif
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) EXPECT_EQ(w->out[0][0][l], 5.0f);
  // mov, flt, if (jumps to endif), endif, end: the body is never issued.
  EXPECT_EQ(core.stats().instructions, 5u);
  EXPECT_EQ(core.stats().divergentBranches, 0u);
}

TEST_F(Divergence, LoopWithPerLaneBreakAndContinue) {
  auto w = laneWarp();
  runVs(R"(.stage vertex
mov r0, i0.x          ; lane
mov r1, 0             ; i
mov r2, 0             ; sum of the even i <= lane
loop
  add r1, r1, 1
  fgt r3, r1, r0
  breakif r3
  mul r4, r1, 0.5
  fract r4, r4
  fne r4, r4, 0
  continueif r4
  add r2, r2, r1
endloop
mov o0.x, r2
mov o0.y, r1
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    int i = 0, sum = 0;
    for (;;) {
      ++i;
      if (i > l) break;
      if (i % 2) continue;
      sum += i;
    }
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(sum)) << l;
    EXPECT_EQ(w->out[0][1][l], static_cast<float>(i)) << l;
  }
}

TEST_F(Divergence, NestedLoopsBreakInsideIfAndEarlyRet) {
  auto w = laneWarp(0x7fffffffu);  // lane 31 holds no vertex
  w->out[0][0][31] = 99.0f;
  runVs(R"(.stage vertex
mov r0, i0.x          ; lane
mov r6, 0             ; total
mov o0.x, -1
mov r1, 0             ; j
loop
  fge r3, r1, 3
  breakif r3
  feq r3, r0, 5       ; lane 5 returns at j == 1
  feq r4, r1, 1
  and r3, r3, r4
  if r3
    ret
  endif
  mov r2, 0           ; k
  loop
    mul r4, r0, 0.25  ; lane mod 4
    floor r4, r4
    mad r4, r4, -4, r0
    fge r3, r2, r4
    if r3
      break
    endif
    add r6, r6, 1
    add r2, r2, 1
  endloop
  add r1, r1, 1
endloop
mov o0.x, r6
mov o0.y, r1
end
)",
        *w);
  for (int l = 0; l < 31; ++l) {
    if (l == 5) {
      EXPECT_EQ(w->out[0][0][l], -1.0f);  // returned before writing
      continue;
    }
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(3 * (l % 4))) << l;
    EXPECT_EQ(w->out[0][1][l], 3.0f) << l;
  }
  EXPECT_EQ(w->out[0][0][31], 99.0f);
}

TEST_F(Divergence, UnconditionalBreakAndContinueInBranches) {
  auto w = laneWarp();
  runVs(R"(.stage vertex
mov r0, i0.x
mov r1, 0            ; iterations
mov r2, 0            ; continues taken
loop
  add r1, r1, 1
  fge r3, r1, 4
  if r3
    break
  endif
  flt r3, r0, 10
  if r3
    add r2, r2, 1
    continue
  else
    fge r4, r1, 2
    if r4
      break
    endif
  endif
  add r2, r2, 100    ; lanes >= 10 only, first iteration
endloop
mov o0.x, r1
mov o0.y, r2
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    int it = 0, acc = 0;
    for (;;) {
      ++it;
      if (it >= 4) break;
      if (l < 10) {
        ++acc;
        continue;
      }
      if (it >= 2) break;
      acc += 100;
    }
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(it)) << l;
    EXPECT_EQ(w->out[0][1][l], static_cast<float>(acc)) << l;
  }
}

TEST_F(Divergence, RetOfEveryLaneEndsTheWarp) {
  auto w = laneWarp();
  runVs(".stage vertex\nmov o0.x, 1\nret\nmov o0.x, 2\nend\n", *w);
  for (int l = 0; l < kLanes; ++l) EXPECT_EQ(w->out[0][0][l], 1.0f);
  EXPECT_EQ(core.stats().instructions, 2u);
}

// The shape a loop `continue` from inside two nested switches lowers to: the inner switch flags
// its lanes and breaks out, the outer switch passes the flag on and breaks out, and after the
// outer switch the flagged lanes run the continue construct and `continue`.
TEST_F(Divergence, ContinueFlaggedOutOfNestedSwitches) {
  auto w = laneWarp();
  runVs(R"(.stage vertex
.regs 10
f2i r0, i0.x
and r0, r0, 3
mov r1, 0
mov r2, 0
mov r3, 0
loop
  ilt r4, r3, 12
  not r4, r4
  breakif r4
  iadd r1, r1, 1
  iadd r4, r3, r0
  irem r4, r4, 4
  mov r5, 0
  loop
    ieq r4, r4, 2
    if r4
      irem r4, r3, 3
      mov r6, 0
      loop
        ieq r4, r4, 0
        if r4
          mov r7, r2
          mov r6, 0xffffffff
          break
        endif
        imul r4, 2, r3
        iadd r8, r2, r4
        break
      endloop
      if r6
        mov r5, 0xffffffff
        break
      endif
      iadd r9, r8, 1
      break
    endif
    iadd r9, r2, 3
    break
  endloop
  if r5
    iadd r3, r3, 1
    mov r2, r7
    continue
  endif
  mov r7, r9
  iadd r3, r3, 1
  mov r2, r7
endloop
i2f o0.x, r2
i2f o0.y, r1
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const int m = l & 3;
    int sum = 0, steps = 0;
    for (int i = 0; i < 12; ++i) {
      ++steps;
      if ((i + m) % 4 == 2) {
        if (i % 3 == 0) continue;
        sum += 2 * i + 1;
      } else {
        sum += 3;
      }
    }
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(sum)) << l;
    EXPECT_EQ(w->out[0][1][l], static_cast<float>(steps)) << l;
  }
}

}  // namespace
}  // namespace tessera::gpu::sp
