; phong_tex.fs: phong.fs with the albedo modulated by texture unit 0 at v1.st:
; albedo = texture(s0, v1.st) * diffuse (slot 12), component-wise.
.stage fragment
.regs 20
.outputs 1
.varyings 3

; albedo = texture(s0, v1.st) * c48..c51: r16..r19 (sampled first, in uniform control flow)
ipl r13, v1.x
ipl r14, v1.y
sam r16, r13, r14, s0
mul r16, r16, c48
mul r17, r17, c49
mul r18, r18, c50
mul r19, r19, c51

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
mul r12, c52, r16
mad r12, r4, r16, r12
mad.sat o0.x, r9, c56, r12
mul r12, c53, r17
mad r12, r4, r17, r12
mad.sat o0.y, r9, c57, r12
mul r12, c54, r18
mad r12, r4, r18, r12
mad.sat o0.z, r9, c58, r12
mov o0.w, r19
end
