; lit.vs: transform and lighting inputs for phong.fs / phong_tex.fs.
; Constants (vec4 slot k = c[4k..4k+3], matrices column-major, slot = column):
;   slots 0-3 MVP (c0..c15), slots 4-7 model-view (c16..c31), slots 8-10 normal matrix (c32..c43)
; Inputs: i0 = position (w = 1), i1 = normal, i2 = texcoord.
; Outputs: o0 = clip position, o1 = eye-space normal (not normalized), o2 = (s, t, 0, 1),
;          o3 = eye-space position.
.stage vertex
.regs 1
.inputs 3
.outputs 4

; o0 = MVP * (x, y, z, 1)
mad r0, c0, i0.x, c12
mad r0, c4, i0.y, r0
mad o0.x, c8, i0.z, r0
mad r0, c1, i0.x, c13
mad r0, c5, i0.y, r0
mad o0.y, c9, i0.z, r0
mad r0, c2, i0.x, c14
mad r0, c6, i0.y, r0
mad o0.z, c10, i0.z, r0
mad r0, c3, i0.x, c15
mad r0, c7, i0.y, r0
mad o0.w, c11, i0.z, r0

; o1 = normal matrix * normal
mul r0, c32, i1.x
mad r0, c36, i1.y, r0
mad o1.x, c40, i1.z, r0
mul r0, c33, i1.x
mad r0, c37, i1.y, r0
mad o1.y, c41, i1.z, r0
mul r0, c34, i1.x
mad r0, c38, i1.y, r0
mad o1.z, c42, i1.z, r0
mov o1.w, 0

; o2 = texcoord
mov o2.x, i2.x
mov o2.y, i2.y
mov o2.z, 0
mov o2.w, 1

; o3 = model-view * (x, y, z, 1)
mad r0, c16, i0.x, c28
mad r0, c20, i0.y, r0
mad o3.x, c24, i0.z, r0
mad r0, c17, i0.x, c29
mad r0, c21, i0.y, r0
mad o3.y, c25, i0.z, r0
mad r0, c18, i0.x, c30
mad r0, c22, i0.y, r0
mad o3.z, c26, i0.z, r0
mov o3.w, 1
end
