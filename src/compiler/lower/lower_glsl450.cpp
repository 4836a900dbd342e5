// GLSL.std.450 built-in functions: each one a short sequence of ISA instructions per component.
// Inverse trigonometry uses a minimax polynomial for atan on [0, 1] (max error about 1e-5 rad)
// with range reduction; the rest map onto the SFU's exp2/log2/sin/cos/rcp/rsq/sqrt.
#include <spirv/unified1/GLSL.std.450.h>

#include <bit>
#include <numbers>

#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::absOf;
using ir::neg;
using ir::Opcode;
using ir::Operand;

namespace {

Operand f(float v) {
  return ir::immFloat(v);
}

// Scalar math sequences on the builder.
struct Math {
  ir::Builder& b;

  Operand atanUnit(Operand t) {  // atan(t) for t in [0, 1]
    const Operand t2 = b.op(Opcode::Mul, t, t);
    Operand p = b.op(Opcode::Mad, t2, f(0.0208351f), f(-0.0851330f));
    p = b.op(Opcode::Mad, p, t2, f(0.1801410f));
    p = b.op(Opcode::Mad, p, t2, f(-0.3302995f));
    p = b.op(Opcode::Mad, p, t2, f(0.9998660f));
    return b.op(Opcode::Mul, p, t);
  }
  // atan2(y, x) in (-pi, pi]; atan2(0, 0) = 0.
  Operand atan2(Operand y, Operand x) {
    const Operand ax = absOf(x), ay = absOf(y);
    const Operand hi = b.op(Opcode::Max, ax, ay), lo = b.op(Opcode::Min, ax, ay);
    const Operand ratio = b.op(Opcode::Mul, lo, b.op(Opcode::Rcp, hi));
    const Operand t = b.op(Opcode::Sel, b.op(Opcode::Feq, hi, f(0)), f(0), ratio);
    Operand r = atanUnit(t);
    r = b.op(Opcode::Sel, b.op(Opcode::Fgt, ay, ax),
             b.op(Opcode::Sub, f(std::numbers::pi_v<float> / 2), r), r);
    r = b.op(Opcode::Sel, b.op(Opcode::Flt, x, f(0)),
             b.op(Opcode::Sub, f(std::numbers::pi_v<float>), r), r);
    return b.op(Opcode::Sel, b.op(Opcode::Flt, y, f(0)), neg(r), r);
  }
  Operand atan(Operand x) {  // odd, with atan(x) = pi/2 - atan(1/x) beyond 1
    const Operand ax = absOf(x);
    const Operand big = b.op(Opcode::Fgt, ax, f(1));
    const Operand t = b.op(Opcode::Sel, big, b.op(Opcode::Rcp, ax), ax);
    Operand r = atanUnit(t);
    r = b.op(Opcode::Sel, big, b.op(Opcode::Sub, f(std::numbers::pi_v<float> / 2), r), r);
    return b.op(Opcode::Sel, b.op(Opcode::Flt, x, f(0)), neg(r), r);
  }
  Operand asin(Operand x) {  // atan2(x, sqrt(1 - x^2))
    const Operand c = b.op(Opcode::Sqrt, b.op(Opcode::Mad, neg(x), x, f(1)));
    return atan2(x, c);
  }
  Operand acos(Operand x) {
    return atan2(b.op(Opcode::Sqrt, b.op(Opcode::Mad, neg(x), x, f(1))), x);
  }
  Operand exp(Operand x) {
    return b.op(Opcode::Exp2, b.op(Opcode::Mul, x, f(std::numbers::log2e_v<float>)));
  }
  Operand log(Operand x) {
    return b.op(Opcode::Mul, b.op(Opcode::Log2, x), f(std::numbers::ln2_v<float>));
  }
  Operand clamp(Operand x, Operand lo, Operand hi) {
    return b.op(Opcode::Min, b.op(Opcode::Max, x, lo), hi);
  }
};

}  // namespace

void Lowering::extInst(const spirv::Instruction& in) {
  if (in.operand(0) != m_.glslStd450())
    unsupported(in, "an extended instruction set other than GLSL.std.450");
  const auto fn = static_cast<GLSLstd450>(in.operand(1));
  auto arg = [&](size_t k) -> const Vals& { return value(in.operand(2 + k)); };
  const uint32_t n = types_.flatSize(in.type);
  auto at = [](const Vals& v, uint32_t k) { return v.size() == 1 ? v[0] : v.at(k); };
  Math math{b_};
  Vals r;
  // Componentwise forms: f(k) builds component k.
  auto each = [&](auto&& f1) {
    for (uint32_t k = 0; k < n; ++k) r.push_back(f1(k));
    defineNew(in.result, r);
  };
  auto op1 = [&](Opcode op) { each([&](uint32_t k) { return b_.op(op, at(arg(0), k)); }); };
  auto op2 = [&](Opcode op) {
    each([&](uint32_t k) { return b_.op(op, at(arg(0), k), at(arg(1), k)); });
  };

  switch (fn) {
    case GLSLstd450Round:
    case GLSLstd450RoundEven:
      return op1(Opcode::Rnd);
    case GLSLstd450Trunc:
      return op1(Opcode::Trunc);
    case GLSLstd450FAbs:
      return each([&](uint32_t k) { return b_.op(Opcode::Mov, absOf(at(arg(0), k))); });
    case GLSLstd450SAbs:
      return each([&](uint32_t k) {
        const Operand a = at(arg(0), k);
        return b_.op(Opcode::Imax, a, b_.op(Opcode::Isub, ir::immInt(0), a));
      });
    case GLSLstd450FSign:
      return op1(Opcode::Sign);
    case GLSLstd450SSign:
      return each([&](uint32_t k) {
        return b_.op(Opcode::Imin, b_.op(Opcode::Imax, at(arg(0), k), ir::immInt(-1)),
                     ir::immInt(1));
      });
    case GLSLstd450Floor:
      return op1(Opcode::Floor);
    case GLSLstd450Ceil:
      return op1(Opcode::Ceil);
    case GLSLstd450Fract:
      return op1(Opcode::Fract);
    case GLSLstd450Radians:
      return each([&](uint32_t k) {
        return b_.op(Opcode::Mul, at(arg(0), k), f(std::numbers::pi_v<float> / 180));
      });
    case GLSLstd450Degrees:
      return each([&](uint32_t k) {
        return b_.op(Opcode::Mul, at(arg(0), k), f(180 / std::numbers::pi_v<float>));
      });
    case GLSLstd450Sin:
      return op1(Opcode::Sin);
    case GLSLstd450Cos:
      return op1(Opcode::Cos);
    case GLSLstd450Tan:
      return each([&](uint32_t k) {
        const Operand a = at(arg(0), k);
        return b_.op(Opcode::Mul, b_.op(Opcode::Sin, a), b_.op(Opcode::Rcp, b_.op(Opcode::Cos, a)));
      });
    case GLSLstd450Asin:
      return each([&](uint32_t k) { return math.asin(at(arg(0), k)); });
    case GLSLstd450Acos:
      return each([&](uint32_t k) { return math.acos(at(arg(0), k)); });
    case GLSLstd450Atan:
      return each([&](uint32_t k) { return math.atan(at(arg(0), k)); });
    case GLSLstd450Atan2:
      return each([&](uint32_t k) { return math.atan2(at(arg(0), k), at(arg(1), k)); });
    case GLSLstd450Sinh:
    case GLSLstd450Cosh:
      return each([&](uint32_t k) {  // (e^x -+ e^-x) / 2
        const Operand a = at(arg(0), k);
        const Operand e = math.exp(a), ei = math.exp(neg(a));
        return b_.op(Opcode::Mul, b_.op(fn == GLSLstd450Sinh ? Opcode::Sub : Opcode::Add, e, ei),
                     f(0.5f));
      });
    case GLSLstd450Tanh:
      return each([&](uint32_t k) {  // 1 - 2 / (e^2x + 1), saturating for large |x|
        const Operand e2 = math.exp(b_.op(Opcode::Mul, at(arg(0), k), f(2)));
        return b_.op(Opcode::Mad, f(-2), b_.op(Opcode::Rcp, b_.op(Opcode::Add, e2, f(1))), f(1));
      });
    case GLSLstd450Asinh:
      return each([&](uint32_t k) {  // sign(x) log(|x| + sqrt(x^2 + 1))
        const Operand a = at(arg(0), k);
        const Operand s = b_.op(Opcode::Sqrt, b_.op(Opcode::Mad, a, a, f(1)));
        const Operand l = math.log(b_.op(Opcode::Add, absOf(a), s));
        return b_.op(Opcode::Sel, b_.op(Opcode::Flt, a, f(0)), neg(l), l);
      });
    case GLSLstd450Acosh:
      return each([&](uint32_t k) {  // log(x + sqrt(x^2 - 1))
        const Operand a = at(arg(0), k);
        return math.log(
            b_.op(Opcode::Add, a, b_.op(Opcode::Sqrt, b_.op(Opcode::Mad, a, a, f(-1)))));
      });
    case GLSLstd450Atanh:
      return each([&](uint32_t k) {  // log((1 + x) / (1 - x)) / 2
        const Operand a = at(arg(0), k);
        const Operand q = b_.op(Opcode::Mul, b_.op(Opcode::Add, f(1), a),
                                b_.op(Opcode::Rcp, b_.op(Opcode::Sub, f(1), a)));
        return b_.op(Opcode::Mul, math.log(q), f(0.5f));
      });
    case GLSLstd450Pow:
      return each([&](uint32_t k) {
        const Operand x = at(arg(0), k), y = at(arg(1), k);
        // Small whole exponents are multiplications, as drivers commonly emit them: exact, and
        // defined for x < 0, where exp2(y log2 x) is NaN (GLSL leaves pow(x < 0) undefined).
        if (y.file == ir::File::Imm) {
          const float e = std::bit_cast<float>(y.imm);
          if (e == 1.0f) return b_.op(Opcode::Mov, x);
          if (e == 2.0f) return b_.op(Opcode::Mul, x, x);
          if (e == 3.0f) return b_.op(Opcode::Mul, b_.op(Opcode::Mul, x, x), x);
          if (e == 4.0f) {
            const Operand x2 = b_.op(Opcode::Mul, x, x);
            return b_.op(Opcode::Mul, x2, x2);
          }
        }
        return b_.op(Opcode::Exp2, b_.op(Opcode::Mul, y, b_.op(Opcode::Log2, x)));
      });
    case GLSLstd450Exp:
      return each([&](uint32_t k) { return math.exp(at(arg(0), k)); });
    case GLSLstd450Log:
      return each([&](uint32_t k) { return math.log(at(arg(0), k)); });
    case GLSLstd450Exp2:
      return op1(Opcode::Exp2);
    case GLSLstd450Log2:
      return op1(Opcode::Log2);
    case GLSLstd450Sqrt:
      return op1(Opcode::Sqrt);
    case GLSLstd450InverseSqrt:
      return op1(Opcode::Rsq);
    case GLSLstd450FMin:
    case GLSLstd450NMin:
      return op2(Opcode::Min);
    case GLSLstd450FMax:
    case GLSLstd450NMax:
      return op2(Opcode::Max);
    case GLSLstd450UMin:
      return op2(Opcode::Umin);
    case GLSLstd450SMin:
      return op2(Opcode::Imin);
    case GLSLstd450UMax:
      return op2(Opcode::Umax);
    case GLSLstd450SMax:
      return op2(Opcode::Imax);
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
      return each(
          [&](uint32_t k) { return math.clamp(at(arg(0), k), at(arg(1), k), at(arg(2), k)); });
    case GLSLstd450UClamp:
    case GLSLstd450SClamp: {
      const Opcode mx = fn == GLSLstd450UClamp ? Opcode::Umax : Opcode::Imax;
      const Opcode mn = fn == GLSLstd450UClamp ? Opcode::Umin : Opcode::Imin;
      return each([&](uint32_t k) {
        return b_.op(mn, b_.op(mx, at(arg(0), k), at(arg(1), k)), at(arg(2), k));
      });
    }
    case GLSLstd450FMix:  // x + (y - x) * a
      return each([&](uint32_t k) {
        const Operand x = at(arg(0), k);
        return b_.op(Opcode::Mad, b_.op(Opcode::Sub, at(arg(1), k), x), at(arg(2), k), x);
      });
    case GLSLstd450Step:  // x < edge ? 0 : 1
      return each([&](uint32_t k) {
        return b_.op(Opcode::Sel, b_.op(Opcode::Flt, at(arg(1), k), at(arg(0), k)), f(0), f(1));
      });
    case GLSLstd450SmoothStep:
      return each([&](uint32_t k) {
        const Operand e0 = at(arg(0), k);
        const Operand span = b_.op(Opcode::Rcp, b_.op(Opcode::Sub, at(arg(1), k), e0));
        const Operand t = b_.op(Opcode::Mul, b_.op(Opcode::Sub, at(arg(2), k), e0), span, {}, true);
        return b_.op(Opcode::Mul, b_.op(Opcode::Mul, t, t), b_.op(Opcode::Mad, t, f(-2), f(3)));
      });
    case GLSLstd450Fma:
      return each([&](uint32_t k) {
        return b_.op(Opcode::Mad, at(arg(0), k), at(arg(1), k), at(arg(2), k));
      });
    case GLSLstd450Length:
      defineNew(in.result, {b_.op(Opcode::Sqrt, dot(arg(0), arg(0)))});
      return;
    case GLSLstd450Distance: {
      Vals d;
      for (size_t k = 0; k < arg(0).size(); ++k)
        d.push_back(b_.op(Opcode::Sub, arg(0)[k], arg(1).at(k)));
      defineNew(in.result, {b_.op(Opcode::Sqrt, dot(d, d))});
      return;
    }
    case GLSLstd450Cross: {
      const Vals& a = arg(0);
      const Vals& c = arg(1);
      for (int k = 0; k < 3; ++k) {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        r.push_back(
            b_.op(Opcode::Mad, a.at(i), c.at(j), neg(b_.op(Opcode::Mul, a.at(j), c.at(i)))));
      }
      defineNew(in.result, r);
      return;
    }
    case GLSLstd450Normalize: {
      const Operand inv = b_.op(Opcode::Rsq, dot(arg(0), arg(0)));
      return each([&](uint32_t k) { return b_.op(Opcode::Mul, arg(0).at(k), inv); });
    }
    case GLSLstd450FaceForward: {  // dot(Nref, I) < 0 ? N : -N
      const Operand front = b_.op(Opcode::Flt, dot(arg(2), arg(1)), f(0));
      return each([&](uint32_t k) {
        const Operand nk = arg(0).at(k);
        return b_.op(Opcode::Sel, front, nk, neg(nk));
      });
    }
    case GLSLstd450Reflect: {  // I - 2 dot(N, I) N
      const Operand d2 = b_.op(Opcode::Mul, dot(arg(1), arg(0)), f(-2));
      return each([&](uint32_t k) { return b_.op(Opcode::Mad, d2, arg(1).at(k), arg(0).at(k)); });
    }
    case GLSLstd450Refract: {
      // k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N
      const Operand eta = arg(2).at(0);
      const Operand d = dot(arg(1), arg(0));
      const Operand e2 = b_.op(Opcode::Mul, eta, eta);
      const Operand kk = b_.op(Opcode::Mad, neg(e2), b_.op(Opcode::Mad, neg(d), d, f(1)), f(1));
      const Operand s =
          b_.op(Opcode::Mad, eta, d, b_.op(Opcode::Sqrt, b_.op(Opcode::Max, kk, f(0))));
      const Operand none = b_.op(Opcode::Flt, kk, f(0));
      return each([&](uint32_t k) {
        const Operand v =
            b_.op(Opcode::Mad, eta, arg(0).at(k), neg(b_.op(Opcode::Mul, s, arg(1).at(k))));
        return b_.op(Opcode::Sel, none, f(0), v);
      });
    }
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct: {  // whole = trunc(x), fraction = x - whole, both signed as x
      Vals whole, fraction;
      for (const Operand& x : arg(0)) {
        whole.push_back(b_.op(Opcode::Trunc, x));
        fraction.push_back(b_.op(Opcode::Sub, x, whole.back()));
      }
      if (fn == GLSLstd450Modf) {
        store(pointer(in.operand(3)), whole);
        defineNew(in.result, fraction);
      } else {
        Vals both = fraction;
        both.insert(both.end(), whole.begin(), whole.end());
        defineNew(in.result, both);
      }
      return;
    }
    case GLSLstd450Determinant:
      defineNew(in.result, {determinant(arg(0))});
      return;
    case GLSLstd450MatrixInverse:
      defineNew(in.result, inverse(arg(0)));
      return;
    case GLSLstd450PackHalf2x16:
    case GLSLstd450UnpackHalf2x16:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450UnpackSnorm2x16:
      defineNew(in.result, packing(fn, arg(0)));
      return;
    default:
      unsupported(in, "GLSL.std.450 function " + std::to_string(static_cast<int>(fn)));
  }
}

namespace {

// Determinant of the n x n matrix whose element (column c, row r) is m[c * n + r], with the
// given columns and rows kept (cofactor expansion along the first kept column).
Operand minorDeterminant(ir::Builder& b, const Vals& m, uint32_t n, std::vector<uint32_t> cols,
                         const std::vector<uint32_t>& rows) {
  if (cols.size() == 1) return m.at(cols[0] * n + rows[0]);
  if (cols.size() == 2) {
    const Operand ad = b.op(Opcode::Mul, m.at(cols[0] * n + rows[0]), m.at(cols[1] * n + rows[1]));
    return b.op(Opcode::Mad, neg(m.at(cols[1] * n + rows[0])), m.at(cols[0] * n + rows[1]), ad);
  }
  const uint32_t c0 = cols[0];
  cols.erase(cols.begin());
  Operand sum{};
  for (size_t k = 0; k < rows.size(); ++k) {
    std::vector<uint32_t> rest = rows;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
    const Operand sub = minorDeterminant(b, m, n, cols, rest);
    const Operand term = k % 2 ? neg(m.at(c0 * n + rows[k])) : m.at(c0 * n + rows[k]);
    sum = k == 0 ? b.op(Opcode::Mul, term, sub) : b.op(Opcode::Mad, term, sub, sum);
  }
  return sum;
}

std::vector<uint32_t> iota(uint32_t n, uint32_t skip = UINT32_MAX) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < n; ++i) {
    if (i != skip) v.push_back(i);
  }
  return v;
}

uint32_t sideOf(const Vals& m) {
  uint32_t n = 1;
  while (n * n < m.size()) ++n;
  return n;
}

}  // namespace

Operand Lowering::determinant(const Vals& m) {
  const uint32_t n = sideOf(m);
  return minorDeterminant(b_, m, n, iota(n), iota(n));
}

// inverse(M) = adjugate(M) / det(M): element (column c, row r) is the cofactor of (column r,
// row c) over the determinant.
Vals Lowering::inverse(const Vals& m) {
  const uint32_t n = sideOf(m);
  const Operand invDet = b_.op(Opcode::Rcp, determinant(m));
  Vals out(m.size());
  for (uint32_t c = 0; c < n; ++c) {
    for (uint32_t r = 0; r < n; ++r) {
      const Operand minor =
          n == 1 ? ir::immFloat(1) : minorDeterminant(b_, m, n, iota(n, r), iota(n, c));
      out[c * n + r] = b_.op(Opcode::Mul, (r + c) % 2 ? neg(minor) : minor, invDet);
    }
  }
  return out;
}

}  // namespace tessera::compiler::lower
