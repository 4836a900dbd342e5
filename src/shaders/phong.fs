; phong.fs: Blinn-Phong lighting of the interpolated eye-space normal (v0) and position (v2)
; with a directional light. Constants: slot 11 light direction toward the light (c44..c46),
; slot 12 diffuse albedo rgba (c48..c51), slot 13 ambient rgb (c52..c54), slot 14 specular rgb
; and shininess in w (c56..c59).
.stage fragment
.regs 13
.outputs 1
.varyings 3

; n = normalize(v0.xyz): r0..r2
ipl r0, v0.x
ipl r1, v0.y
ipl r2, v0.z
mul r3, r0, r0
mad r3, r1, r1, r3
mad r3, r2, r2, r3
rsq r3, r3
mul r0, r0, r3
mul r1, r1, r3
mul r2, r2, r3

; diff = max(dot(n, l), 0): r4, with l = c44..c46
mul r4, r0, c44
mad r4, r1, c45, r4
mad r4, r2, c46, r4
max r4, r4, 0

; vdir = normalize(-v2.xyz): r5..r7
ipl r5, v2.x
ipl r6, v2.y
ipl r7, v2.z
mul r8, r5, r5
mad r8, r6, r6, r8
mad r8, r7, r7, r8
rsq r8, r8
mul r5, -r5, r8
mul r6, -r6, r8
mul r7, -r7, r8

; h = normalize(l + vdir): r5..r7
add r5, r5, c44
add r6, r6, c45
add r7, r7, c46
mul r8, r5, r5
mad r8, r6, r6, r8
mad r8, r7, r7, r8
rsq r8, r8
mul r5, r5, r8
mul r6, r6, r8
mul r7, r7, r8

; spec = diff > 0 ? pow(max(dot(n, h), 0), shininess) : 0, pow(0, s) = 0: r9
mul r9, r0, r5
mad r9, r1, r6, r9
mad r9, r2, r7, r9
max r9, r9, 0
fgt r10, r9, 0
fgt r11, r4, 0
and r10, r10, r11
log2 r9, r9
mul r9, r9, c59
exp2 r9, r9
sel r9, r10, r9, 0

; rgb = clamp(ambient * albedo + diff * albedo + spec * specular, 0, 1)
mul r12, c52, c48
mad r12, r4, c48, r12
mad.sat o0.x, r9, c56, r12
mul r12, c53, c49
mad r12, r4, c49, r12
mad.sat o0.y, r9, c57, r12
mul r12, c54, c50
mad r12, r4, c50, r12
mad.sat o0.z, r9, c58, r12
mov o0.w, c51
end
