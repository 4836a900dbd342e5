// GLSL ES 3.00 packing functions (§8.4): two 16-bit values in one uint, the first component in
// the low half. The normalized forms round to nearest even (roundEven); the half-float forms
// convert as OpenGL ES 3.0 §2.1.1 describes: round to nearest even, half denormals kept,
// overflow to infinity, NaN stays NaN. All of it is integer and float ALU work.
#include <spirv/unified1/GLSL.std.450.h>

#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

namespace {

struct Pack {
  ir::Builder& b;

  Operand op(Opcode o, Operand x, Operand y = {}, Operand z = {}) { return b.op(o, x, y, z); }
  Operand bits(uint32_t v) { return ir::immBits(v); }

  // A float as the 16-bit pattern of the nearest half (round to nearest even).
  Operand toHalf(Operand x) {
    const Operand sign = op(Opcode::And, op(Opcode::Shr, x, bits(16)), bits(0x8000));
    const Operand a = op(Opcode::And, x, bits(0x7fffffff));
    // Normal halves: drop 13 mantissa bits with round-to-nearest-even (a carry may step the
    // exponent, which is the right result), then rebias the exponent from 127 to 15.
    const Operand odd = op(Opcode::And, op(Opcode::Shr, a, bits(13)), bits(1));
    const Operand rounded = op(Opcode::Iadd, op(Opcode::Iadd, a, bits(0xfff)), odd);
    const Operand normal = op(Opcode::Isub, op(Opcode::Shr, rounded, bits(13)), bits(112 << 10));
    // Denormal halves (below 2^-14): the value in units of 2^-24, rounded to nearest even.
    const Operand small =
        op(Opcode::F2u, op(Opcode::Rnd, op(Opcode::Mul, a, ir::immFloat(16777216.0f))));  // 2^24
    Operand h = op(Opcode::Sel, op(Opcode::Ult, a, bits(0x38800000)), small, normal);
    // From 65520 up the nearest half is infinity; NaN keeps a quiet NaN.
    h = op(Opcode::Sel, op(Opcode::Uge, a, bits(0x477ff000)), bits(0x7c00), h);
    h = op(Opcode::Sel, op(Opcode::Ugt, a, bits(0x7f800000)), bits(0x7e00), h);
    return op(Opcode::Or, sign, h);
  }

  // The 16-bit half pattern in the low bits of h as a float (exact).
  Operand fromHalf(Operand h) {
    const Operand sign = op(Opcode::Shl, op(Opcode::And, h, bits(0x8000)), bits(16));
    const Operand e = op(Opcode::And, h, bits(0x7c00));
    const Operand m = op(Opcode::And, h, bits(0x3ff));
    const Operand normal =
        op(Opcode::Iadd, op(Opcode::Shl, op(Opcode::And, h, bits(0x7fff)), bits(13)),
           bits(112u << 23));
    const Operand denormal = op(Opcode::Mul, op(Opcode::U2f, m), ir::immFloat(1.0f / 16777216.0f));
    const Operand special = op(Opcode::Or, bits(0x7f800000), op(Opcode::Shl, m, bits(13)));
    Operand v = op(Opcode::Sel, op(Opcode::Ieq, e, bits(0)), denormal, normal);
    v = op(Opcode::Sel, op(Opcode::Ieq, e, bits(0x7c00)), special, v);
    return op(Opcode::Or, sign, v);
  }

  // round(clamp(x, lo, 1) * scale) as a 16-bit pattern.
  Operand toNorm(Operand x, float lo, float scale) {
    const Operand c = op(Opcode::Min, op(Opcode::Max, x, ir::immFloat(lo)), ir::immFloat(1));
    const Operand n = op(Opcode::F2i, op(Opcode::Rnd, op(Opcode::Mul, c, ir::immFloat(scale))));
    return op(Opcode::And, n, bits(0xffff));
  }

  Operand low(Operand p) { return op(Opcode::And, p, bits(0xffff)); }
  Operand high(Operand p) { return op(Opcode::Shr, p, bits(16)); }
  Operand join(Operand lo, Operand hi) { return op(Opcode::Or, lo, op(Opcode::Shl, hi, bits(16))); }
};

}  // namespace

Vals Lowering::packing(int fn, const Vals& arg) {
  Pack p{b_};
  switch (fn) {
    case GLSLstd450PackHalf2x16:
      return {p.join(p.toHalf(arg.at(0)), p.toHalf(arg.at(1)))};
    case GLSLstd450UnpackHalf2x16:
      return {p.fromHalf(p.low(arg.at(0))), p.fromHalf(p.high(arg.at(0)))};
    case GLSLstd450PackUnorm2x16:
      return {p.join(p.toNorm(arg.at(0), 0, 65535), p.toNorm(arg.at(1), 0, 65535))};
    case GLSLstd450UnpackUnorm2x16: {
      const Operand scale = ir::immFloat(1.0f / 65535.0f);
      return {p.op(Opcode::Mul, p.op(Opcode::U2f, p.low(arg.at(0))), scale),
              p.op(Opcode::Mul, p.op(Opcode::U2f, p.high(arg.at(0))), scale)};
    }
    case GLSLstd450PackSnorm2x16:
      return {p.join(p.toNorm(arg.at(0), -1, 32767), p.toNorm(arg.at(1), -1, 32767))};
    case GLSLstd450UnpackSnorm2x16: {
      // Sign-extend each half, then clamp(f / 32767, -1, 1) (-32768 would be below -1).
      const Operand lo = p.op(Opcode::Ashr, p.op(Opcode::Shl, arg.at(0), p.bits(16)), p.bits(16));
      const Operand hi = p.op(Opcode::Ashr, arg.at(0), p.bits(16));
      Vals r;
      for (const Operand& v : {lo, hi}) {
        const Operand f = p.op(Opcode::Mul, p.op(Opcode::I2f, v), ir::immFloat(1.0f / 32767.0f));
        r.push_back(p.op(Opcode::Max, f, ir::immFloat(-1)));
      }
      return r;
    }
    default:
      return {};
  }
}

}  // namespace tessera::compiler::lower
