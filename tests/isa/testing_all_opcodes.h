// Test programs that between them use every opcode, every operand file and every modifier.
#pragma once
#include <string_view>

namespace tessera::isa::testing {

inline constexpr std::string_view kAllVertexOps = R"(.stage vertex
.regs 12
.inputs 2
.outputs 3
nop
mov r0, i0.x
mov.sat r1, -|i1.w|
add r2, r0, c1
sub r2, r2, 0.5
mul r2, r2, -r1
mad r3, r2, c[a0.x + 4], 1e-5
min r3, r3, |r2|
max r3, r3, c[a0.x - 2]
floor r4, r3
ceil r4, r4
fract r4, r4
trunc r4, r4
rnd r4, r4
sign r4, r4
feq r5, r4, 1
fne r5, r4, r3
flt r5, r4, r3
fle r5, r4, r3
fgt r5, r4, r3
fge r5, r4, r3
ieq r5, r4, -7
ine r5, r4, r3
ilt r5, -r4, |r3|
ile r5, r4, 2147483647
igt r5, r4, -2147483648
ige r5, r4, r3
ult r5, r4, 4294967295
ule r5, r4, r3
ugt r5, r4, r3
uge r5, r4, r3
sel r6, r5, r4, -0
and r6, r6, 0x3f800000
or r6, r6, r5
xor r6, r6, r5
not r6, r6
shl r6, r6, 0x00000003
shr r6, r6, r5
ashr r6, r6, r5
iadd r7, r6, 1
isub r7, r7, r6
imul r7, r7, -3
imin r7, r7, r6
imax r7, r7, r6
umin r7, r7, r6
umax r7, r7, r6
idiv r7, r7, r6
irem r7, r7, r6
udiv r7, r7, r6
urem r7, r7, r6
f2i r7, r2
i2f r7, r7
u2f r7, r6
f2u r7, r2
rcp r8, r2
rsq r8, r8
sqrt r8, r8
exp2 r8, r8
log2 r8, r8
sin r8, r8
cos r8, r8
mova a0.x, r7
saml r8, r0, r1, 0.25, s3, offset(-8, 7)
samb r8, r0, r1, r2, s15, offset(3, 0)
sam r8, r0, r1, s0
samc r8, r0, s1
samcl r8, r1, 0.5, s2
samcb r8, r2, r0, s4
txf r8, r6, r7, 1, s5
txs r8, r6, s5
samv r8, r4, s6, offset(-1, 2)
samvl r8, r4, 2.5, s7
samvb r8, r0, r2, s8, offset(7, -8)
txfv r8, r4, r7, s9
if r5
  mov o1.x, 16777216
else
  mov o1.x, 0x7fc00000
  ret
endif
loop
  breakif r5
  continueif r6
  if r6
    break
  endif
  continue
endloop
mov o0.x, o1.x
mov o2.w, 1.40129846e-45
end
)";

inline constexpr std::string_view kAllFragmentOps = R"(.stage fragment
.regs 8
.outputs 1
.varyings 2
ipl r0, v0.x
ipl.sat r1, v1.w
dsx r2, r0
dsy.sat r3, -fc.x
add r4, fc.w, pc.y
mul r4, r4, pc.x
sel r5, ff, r4, fc.y
killif r5
if r4
  kill
endif
sam r4, r0, r1, s1
mov o0.x, r4
end
)";

}  // namespace tessera::isa::testing
