; constant.fs: every fragment gets the material diffuse colour (constant slot 12 = c48..c51).
.stage fragment
.regs 0
.outputs 1
.varyings 0
mov o0.x, c48
mov o0.y, c49
mov o0.z, c50
mov o0.w, c51
end
