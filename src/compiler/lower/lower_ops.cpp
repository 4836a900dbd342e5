// Arithmetic, logic, conversions, composites and matrices, one scalar component at a time.
#include <bit>

#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

namespace {

Operand negated(Operand o) {  // fp32 negation as a source modifier (immediates fold it in)
  if (o.file == ir::File::Imm) return ir::immBits(o.imm ^ 0x80000000u);
  o.neg = !o.neg;
  return o;
}

}  // namespace

void Lowering::instruction(const spirv::Instruction& in) {
  if (memoryOp(in)) return;
  auto operand = [&](size_t k) -> const Vals& { return value(in.operand(k)); };
  const uint32_t n = in.type ? types_.flatSize(in.type) : 0;
  // Component k of a value, with scalars broadcast.
  auto at = [](const Vals& v, uint32_t k) { return v.size() == 1 ? v[0] : v.at(k); };
  auto unary = [&](Opcode op) {
    const Vals& a = operand(0);
    Vals r;
    for (uint32_t k = 0; k < n; ++k) r.push_back(b_.op(op, at(a, k)));
    defineNew(in.result, r);
  };
  auto binary = [&](Opcode op, bool swap = false) {
    const Vals& a = operand(0);
    const Vals& c = operand(1);
    Vals r;
    for (uint32_t k = 0; k < n; ++k) {
      r.push_back(swap ? b_.op(op, at(c, k), at(a, k)) : b_.op(op, at(a, k), at(c, k)));
    }
    defineNew(in.result, r);
  };
  // A comparison whose result is the negation of another (unordered forms, logical equal).
  auto notBinary = [&](Opcode op) {
    const Vals& a = operand(0);
    const Vals& c = operand(1);
    Vals r;
    for (uint32_t k = 0; k < n; ++k) r.push_back(b_.op(Opcode::Not, b_.op(op, at(a, k), at(c, k))));
    defineNew(in.result, r);
  };

  switch (in.op) {
    case SpvOpNop:
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
      return;
    case SpvOpUndef:
      define(in.result, Vals(n, ir::immBits(0)));
      return;
    case SpvOpCopyObject:
      define(in.result, operand(0));
      if (samplers_.count(in.operand(0))) samplers_[in.result] = samplers_.at(in.operand(0));
      return;
    case SpvOpExtInst:
      extInst(in);
      return;

    // fp32 arithmetic
    case SpvOpFAdd:
      return binary(Opcode::Add);
    case SpvOpFSub:
      return binary(Opcode::Sub);
    case SpvOpFMul:
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar:
      return binary(Opcode::Mul);
    case SpvOpFDiv: {
      const Vals& a = operand(0);
      const Vals& c = operand(1);
      Vals r;
      for (uint32_t k = 0; k < n; ++k)
        r.push_back(b_.op(Opcode::Mul, at(a, k), b_.op(Opcode::Rcp, at(c, k))));
      defineNew(in.result, r);
      return;
    }
    case SpvOpFMod:
    case SpvOpFRem: {  // mod: x - y * floor(x / y); rem: x - y * trunc(x / y)
      const Vals& a = operand(0);
      const Vals& c = operand(1);
      Vals r;
      for (uint32_t k = 0; k < n; ++k) {
        const Operand q = b_.op(Opcode::Mul, at(a, k), b_.op(Opcode::Rcp, at(c, k)));
        const Operand whole = b_.op(in.op == SpvOpFMod ? Opcode::Floor : Opcode::Trunc, q);
        r.push_back(b_.op(Opcode::Mad, negated(whole), at(c, k), at(a, k)));
      }
      defineNew(in.result, r);
      return;
    }
    case SpvOpFNegate: {
      Vals r;
      for (const Operand& a : operand(0)) r.push_back(b_.op(Opcode::Mov, negated(a)));
      defineNew(in.result, r);
      return;
    }

    // int32 arithmetic
    case SpvOpIAdd:
      return binary(Opcode::Iadd);
    case SpvOpISub:
      return binary(Opcode::Isub);
    case SpvOpIMul:
      return binary(Opcode::Imul);
    case SpvOpSDiv:
      return binary(Opcode::Idiv);
    case SpvOpUDiv:
      return binary(Opcode::Udiv);
    case SpvOpSRem:
    case SpvOpSMod:  // GLSL leaves % of negative operands undefined
      return binary(Opcode::Irem);
    case SpvOpUMod:
      return binary(Opcode::Urem);
    case SpvOpSNegate: {
      Vals r;
      for (const Operand& a : operand(0)) r.push_back(b_.op(Opcode::Isub, ir::immInt(0), a));
      defineNew(in.result, r);
      return;
    }

    // bits and logic (booleans are all ones or zero)
    case SpvOpBitwiseAnd:
    case SpvOpLogicalAnd:
      return binary(Opcode::And);
    case SpvOpBitwiseOr:
    case SpvOpLogicalOr:
      return binary(Opcode::Or);
    case SpvOpBitwiseXor:
    case SpvOpLogicalNotEqual:
      return binary(Opcode::Xor);
    case SpvOpLogicalEqual:
      return notBinary(Opcode::Xor);
    case SpvOpNot:
    case SpvOpLogicalNot:
      return unary(Opcode::Not);
    case SpvOpShiftLeftLogical:
      return binary(Opcode::Shl);
    case SpvOpShiftRightLogical:
      return binary(Opcode::Shr);
    case SpvOpShiftRightArithmetic:
      return binary(Opcode::Ashr);
    case SpvOpSelect: {
      const Vals& c = operand(0);
      const Vals& a = operand(1);
      const Vals& d = operand(2);
      Vals r;
      for (uint32_t k = 0; k < n; ++k) r.push_back(b_.op(Opcode::Sel, at(c, k), a.at(k), d.at(k)));
      defineNew(in.result, r);
      return;
    }
    case SpvOpAny:
    case SpvOpAll: {
      const Vals& a = operand(0);
      Operand r = a.at(0);
      for (size_t k = 1; k < a.size(); ++k)
        r = b_.op(in.op == SpvOpAny ? Opcode::Or : Opcode::And, r, a[k]);
      defineNew(in.result,
                {ir::isVreg(r) && a.size() > 1 ? r : b_.op(Opcode::Ine, r, ir::immInt(0))});
      return;
    }
    case SpvOpIsNan:
      return notBinary(Opcode::Feq);  // NaN is the only value not equal to itself... of a, a
    case SpvOpIsInf: {
      Vals r;
      for (const Operand& a : operand(0)) {
        Operand absA = a;
        if (absA.file != ir::File::Imm) absA.abs = true, absA.neg = false;
        r.push_back(b_.op(Opcode::Feq, absA, ir::immBits(0x7f800000u)));
      }
      defineNew(in.result, r);
      return;
    }

    // comparisons
    case SpvOpFOrdEqual:
      return binary(Opcode::Feq);
    case SpvOpFOrdNotEqual:
    case SpvOpFUnordNotEqual:
      return binary(Opcode::Fne);
    case SpvOpFOrdLessThan:
      return binary(Opcode::Flt);
    case SpvOpFOrdLessThanEqual:
      return binary(Opcode::Fle);
    case SpvOpFOrdGreaterThan:
      return binary(Opcode::Fgt);
    case SpvOpFOrdGreaterThanEqual:
      return binary(Opcode::Fge);
    case SpvOpFUnordEqual:
      return notBinary(Opcode::Fne);
    case SpvOpFUnordLessThan:
      return notBinary(Opcode::Fge);
    case SpvOpFUnordLessThanEqual:
      return notBinary(Opcode::Fgt);
    case SpvOpFUnordGreaterThan:
      return notBinary(Opcode::Fle);
    case SpvOpFUnordGreaterThanEqual:
      return notBinary(Opcode::Flt);
    case SpvOpIEqual:
      return binary(Opcode::Ieq);
    case SpvOpINotEqual:
      return binary(Opcode::Ine);
    case SpvOpSLessThan:
      return binary(Opcode::Ilt);
    case SpvOpSLessThanEqual:
      return binary(Opcode::Ile);
    case SpvOpSGreaterThan:
      return binary(Opcode::Igt);
    case SpvOpSGreaterThanEqual:
      return binary(Opcode::Ige);
    case SpvOpULessThan:
      return binary(Opcode::Ult);
    case SpvOpULessThanEqual:
      return binary(Opcode::Ule);
    case SpvOpUGreaterThan:
      return binary(Opcode::Ugt);
    case SpvOpUGreaterThanEqual:
      return binary(Opcode::Uge);

    // conversions
    case SpvOpConvertFToS:
      return unary(Opcode::F2i);
    case SpvOpConvertFToU:
      return unary(Opcode::F2u);
    case SpvOpConvertSToF:
      return unary(Opcode::I2f);
    case SpvOpConvertUToF:
      return unary(Opcode::U2f);
    case SpvOpBitcast:
    case SpvOpSConvert:
    case SpvOpUConvert:
    case SpvOpFConvert:  // 32-bit everywhere: the bits stay
      define(in.result, operand(0));
      return;
    case SpvOpQuantizeToF16:
      unsupported(in, "quantizeToF16");

    // composites
    case SpvOpCompositeConstruct: {
      Vals r;
      for (uint32_t part : in.operands) {
        const Vals& p = value(part);
        r.insert(r.end(), p.begin(), p.end());
      }
      define(in.result, r);
      return;
    }
    case SpvOpCompositeExtract: {
      uint32_t type = m_.defOrThrow(in.operand(0)).type, flat = 0;
      for (size_t k = 1; k < in.operands.size(); ++k) {
        flat += types_.childFlatOffset(type, in.operands[k]);
        type = types_.childType(type, in.operands[k]);
      }
      const Vals& src = operand(0);
      define(in.result, Vals(src.begin() + flat, src.begin() + flat + types_.flatSize(type)));
      return;
    }
    case SpvOpCompositeInsert: {
      uint32_t type = in.type, flat = 0;
      for (size_t k = 2; k < in.operands.size(); ++k) {
        flat += types_.childFlatOffset(type, in.operands[k]);
        type = types_.childType(type, in.operands[k]);
      }
      Vals r = operand(1);
      const Vals& part = operand(0);
      std::copy(part.begin(), part.end(), r.begin() + flat);
      define(in.result, r);
      return;
    }
    case SpvOpVectorShuffle: {
      Vals both = operand(0);
      const Vals& second = operand(1);
      both.insert(both.end(), second.begin(), second.end());
      Vals r;
      for (size_t k = 2; k < in.operands.size(); ++k) {
        const uint32_t c = in.operands[k];
        r.push_back(c == 0xffffffffu ? ir::immBits(0) : both.at(c));
      }
      define(in.result, r);
      return;
    }
    case SpvOpVectorExtractDynamic: {
      const Vals& v = operand(0);
      const Operand index = operand(1).at(0);
      Operand r = v.at(0);
      for (size_t k = 1; k < v.size(); ++k) {
        r = b_.op(Opcode::Sel, b_.op(Opcode::Ieq, index, ir::immInt(static_cast<int32_t>(k))), v[k],
                  r);
      }
      defineNew(in.result, {r});
      return;
    }
    case SpvOpVectorInsertDynamic: {
      const Vals& v = operand(0);
      const Operand part = operand(1).at(0);
      const Operand index = operand(2).at(0);
      Vals r;
      for (size_t k = 0; k < v.size(); ++k) {
        r.push_back(b_.op(Opcode::Sel,
                          b_.op(Opcode::Ieq, index, ir::immInt(static_cast<int32_t>(k))), part,
                          v[k]));
      }
      defineNew(in.result, r);
      return;
    }

    // linear algebra: matrices are column-major, flattened column after column
    case SpvOpDot: {
      const Vals& a = operand(0);
      const Vals& c = operand(1);
      defineNew(in.result, {dot(a, c)});
      return;
    }
    case SpvOpMatrixTimesVector: {  // (C columns of R) * vec C -> vec R
      const Vals& m = operand(0);
      const Vals& v = operand(1);
      const auto cols = static_cast<uint32_t>(v.size()), rows = n;
      Vals r;
      for (uint32_t i = 0; i < rows; ++i) {
        Operand acc = b_.op(Opcode::Mul, m.at(i), v[0]);
        for (uint32_t j = 1; j < cols; ++j) acc = b_.op(Opcode::Mad, m.at(j * rows + i), v[j], acc);
        r.push_back(acc);
      }
      defineNew(in.result, r);
      return;
    }
    case SpvOpVectorTimesMatrix: {  // vec R * (C columns of R) -> vec C
      const Vals& v = operand(0);
      const Vals& m = operand(1);
      const auto rows = static_cast<uint32_t>(v.size());
      Vals r;
      for (uint32_t j = 0; j < n; ++j) {
        r.push_back(dot(v, Vals(m.begin() + j * rows, m.begin() + (j + 1) * rows)));
      }
      defineNew(in.result, r);
      return;
    }
    case SpvOpMatrixTimesMatrix: {  // (K columns of R) * (C columns of K) -> C columns of R
      const Vals& a = operand(0);
      const Vals& c = operand(1);
      const uint32_t cols = types_.elementCount(in.type);
      const uint32_t rows = n / cols;
      const auto inner = static_cast<uint32_t>(a.size()) / rows;
      Vals r;
      for (uint32_t j = 0; j < cols; ++j) {
        for (uint32_t i = 0; i < rows; ++i) {
          Operand acc = b_.op(Opcode::Mul, a.at(i), c.at(j * inner));
          for (uint32_t k = 1; k < inner; ++k)
            acc = b_.op(Opcode::Mad, a.at(k * rows + i), c.at(j * inner + k), acc);
          r.push_back(acc);
        }
      }
      defineNew(in.result, r);
      return;
    }
    case SpvOpOuterProduct: {  // vec R x vec C -> C columns of R
      const Vals& a = operand(0);
      const Vals& c = operand(1);
      Vals r;
      for (const Operand& cj : c) {
        for (const Operand& ai : a) r.push_back(b_.op(Opcode::Mul, ai, cj));
      }
      defineNew(in.result, r);
      return;
    }
    case SpvOpTranspose: {
      const Vals& m = operand(0);
      const uint32_t cols = types_.elementCount(in.type);
      const uint32_t rows = n / cols;  // of the result
      Vals r;
      for (uint32_t j = 0; j < cols; ++j) {
        for (uint32_t i = 0; i < rows; ++i) r.push_back(m.at(i * cols + j));
      }
      define(in.result, r);
      return;
    }

    // derivatives
    case SpvOpDPdx:
    case SpvOpDPdxCoarse:
    case SpvOpDPdxFine:
      return unary(Opcode::Dsx);
    case SpvOpDPdy:
    case SpvOpDPdyCoarse:
    case SpvOpDPdyFine:
      return unary(Opcode::Dsy);
    case SpvOpFwidth:
    case SpvOpFwidthCoarse:
    case SpvOpFwidthFine: {
      Vals r;
      for (const Operand& a : operand(0)) {
        Operand dx = b_.op(Opcode::Dsx, a), dy = b_.op(Opcode::Dsy, a);
        dx.abs = dy.abs = true;
        r.push_back(b_.op(Opcode::Add, dx, dy));
      }
      defineNew(in.result, r);
      return;
    }

    case SpvOpSampledImage:
      samplers_[in.result] = samplerOf(in.operand(0));
      define(in.result, {Operand{}});
      return;
    case SpvOpImage:
      samplers_[in.result] = samplerOf(in.operand(0));
      define(in.result, {Operand{}});
      return;
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod:
    case SpvOpImageFetch:
    case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize:
    case SpvOpImageQueryLevels:
      image(in);
      return;
    case SpvOpFunctionCall:
      unsupported(in, "a function call that could not be inlined (recursion?)");
    default:
      unsupported(in, "SPIR-V opcode " + std::to_string(static_cast<int>(in.op)));
  }
}

Operand Lowering::dot(const Vals& a, const Vals& c) {
  Operand acc = b_.op(Opcode::Mul, a.at(0), c.at(0));
  for (size_t k = 1; k < a.size(); ++k) acc = b_.op(Opcode::Mad, a[k], c.at(k), acc);
  return acc;
}

}  // namespace tessera::compiler::lower
