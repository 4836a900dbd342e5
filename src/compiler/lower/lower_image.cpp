// Texture lookups: texture2D / texture2DProj / texture2DLod and their bias forms onto sam, samb
// and saml; textureCube / textureCubeLod onto samc, samcb and samcl. The projective forms divide
// s and t by q first (GLSL ES 1.00 §8.7). GLSL ES 3.00: texelFetch (and its offset form) onto
// txf, textureSize onto txs, and textureGrad onto saml with the level of detail that the
// texture unit would derive from those derivatives (GLSL ES 3.00 §8.8, the scale factor of
// OpenGL ES 3.0 §3.8.9: rho = max of the two derivative vectors' lengths in texels).
#include <bit>

#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

void Lowering::imageQuery(const spirv::Instruction& in) {
  const auto slot = static_cast<uint8_t>(samplerOf(in.operand(0)));
  if (in.op == SpvOpImageFetch) {
    const Vals& coord = value(in.operand(1));
    const uint32_t mask = in.operands.size() > 2 ? in.operand(2) : 0;
    Operand i = coord.at(0), j = coord.at(1), lod = ir::immInt(0);
    size_t next = 3;
    if (mask & SpvImageOperandsLodMask) lod = value(in.operand(next++)).at(0);
    if (mask & SpvImageOperandsConstOffsetMask) {  // texelFetchOffset: whole texels
      const Vals& off = value(in.operand(next++));
      i = b_.op(Opcode::Iadd, i, off.at(0));
      j = b_.op(Opcode::Iadd, j, off.at(1));
    }
    if (mask & ~(SpvImageOperandsLodMask | SpvImageOperandsConstOffsetMask))
      unsupported(in, "this texelFetch operand");
    const uint32_t first = b_.sample(Opcode::Txf, slot, i, j, lod);
    Vals r;
    for (uint32_t k = 0; k < 4; ++k) r.push_back(ir::vreg(first + k));
    defineNew(in.result, r);
    return;
  }
  // textureSize: (width, height) of the level; a cube map's faces are square.
  const Operand lod = in.op == SpvOpImageQuerySizeLod ? value(in.operand(1)).at(0) : ir::immInt(0);
  const uint32_t first = b_.sample(Opcode::Txs, slot, lod, Operand{}, Operand{});
  defineNew(in.result, Vals{ir::vreg(first), ir::vreg(first + 1)});
}

// The level of detail textureGrad asks for: log2 of the larger derivative length in texels.
Operand Lowering::gradientLod(uint8_t slot, const Vals& dPdx, const Vals& dPdy) {
  const uint32_t size = b_.sample(Opcode::Txs, slot, ir::immInt(0), Operand{}, Operand{});
  const Operand w = b_.op(Opcode::I2f, ir::vreg(size)), h = b_.op(Opcode::I2f, ir::vreg(size + 1));
  auto lengthSquared = [&](const Vals& d) {
    const Operand u = b_.op(Opcode::Mul, d.at(0), w), v = b_.op(Opcode::Mul, d.at(1), h);
    return b_.op(Opcode::Mad, u, u, b_.op(Opcode::Mul, v, v));
  };
  // log2(sqrt(x)) = log2(x) / 2
  const Operand rho2 = b_.op(Opcode::Max, lengthSquared(dPdx), lengthSquared(dPdy));
  return b_.op(Opcode::Mul, b_.op(Opcode::Log2, rho2), ir::immFloat(0.5f));
}

// textureGrad on a cube map: the derivatives of the face coordinates s = (sc / |ma| + 1) / 2 and
// t on the face the direction selects (GLES 2.0 Table 3.21, ties to x then y as in the texture
// unit): ds = (dsc - sc dma / ma) / (2 |ma|), and likewise dt; then the 2D rule on the face size.
Operand Lowering::cubeGradientLod(uint8_t slot, const Vals& p, const Vals& dPdx, const Vals& dPdy) {
  using ir::neg;
  const Operand ax = ir::absOf(p.at(0)), ay = ir::absOf(p.at(1)), az = ir::absOf(p.at(2));
  const Operand xMajor = b_.op(Opcode::And, b_.op(Opcode::Fge, ax, ay), b_.op(Opcode::Fge, ax, az));
  const Operand yMajor = b_.op(Opcode::Fge, ay, az);
  auto pick = [&](Operand x, Operand y, Operand z) {
    return b_.op(Opcode::Sel, xMajor, x, b_.op(Opcode::Sel, yMajor, y, z));
  };
  auto sign = [&](Operand v) {
    return b_.op(Opcode::Sel, b_.op(Opcode::Fge, v, ir::immFloat(0)), ir::immFloat(1),
                 ir::immFloat(-1));
  };
  const Operand sx = sign(p.at(0)), sy = sign(p.at(1)), sz = sign(p.at(2));
  // (sc, tc, ma) of a vector on the selected face; derivatives use the direction's signs.
  auto face = [&](const Vals& v) {
    return std::array<Operand, 3>{
        pick(neg(b_.op(Opcode::Mul, sx, v.at(2))), v.at(0), b_.op(Opcode::Mul, sz, v.at(0))),
        pick(neg(v.at(1)), b_.op(Opcode::Mul, sy, v.at(2)), neg(v.at(1))),
        pick(v.at(0), v.at(1), v.at(2))};
  };
  const auto f = face(p);
  const Operand halfInvMa =
      b_.op(Opcode::Mul, b_.op(Opcode::Rcp, ir::absOf(f[2])), ir::immFloat(0.5f));
  const Operand invMa = b_.op(Opcode::Rcp, f[2]);
  const uint32_t size = b_.sample(Opcode::Txs, slot, ir::immInt(0), Operand{}, Operand{});
  const Operand w = b_.op(Opcode::I2f, ir::vreg(size));
  auto lengthSquared = [&](const Vals& d) {
    const auto g = face(d);
    const Operand dmaOverMa = b_.op(Opcode::Mul, g[2], invMa);
    Operand sum{};
    for (int k = 0; k < 2; ++k) {
      // d(coordinate) in texels: (dc - c dma / ma) * size / (2 |ma|)
      const Operand dc = b_.op(Opcode::Mad, neg(f[k]), dmaOverMa, g[k]);
      const Operand texels = b_.op(Opcode::Mul, b_.op(Opcode::Mul, dc, halfInvMa), w);
      sum = k == 0 ? b_.op(Opcode::Mul, texels, texels) : b_.op(Opcode::Mad, texels, texels, sum);
    }
    return sum;
  };
  const Operand rho2 = b_.op(Opcode::Max, lengthSquared(dPdx), lengthSquared(dPdy));
  return b_.op(Opcode::Mul, b_.op(Opcode::Log2, rho2), ir::immFloat(0.5f));
}

void Lowering::image(const spirv::Instruction& in) {
  if (in.op == SpvOpImageFetch || in.op == SpvOpImageQuerySizeLod || in.op == SpvOpImageQuerySize) {
    return imageQuery(in);
  }
  const bool proj =
      in.op == SpvOpImageSampleProjImplicitLod || in.op == SpvOpImageSampleProjExplicitLod;
  const bool explicitLod =
      in.op == SpvOpImageSampleExplicitLod || in.op == SpvOpImageSampleProjExplicitLod;
  if (in.op != SpvOpImageSampleImplicitLod && in.op != SpvOpImageSampleExplicitLod && !proj) {
    unsupported(in, "this texture operation (shadow samplers)");
  }
  const spirv::Instruction& sampled = types_.type(m_.defOrThrow(in.operand(0)).type);
  bool cube = false;
  if (sampled.op == SpvOpTypeSampledImage) {
    const spirv::Instruction& imageType = types_.type(sampled.operand(0));
    const auto dim = static_cast<SpvDim>(imageType.operand(1));
    cube = dim == SpvDimCube;
    if ((dim != SpvDim2D && !cube) || imageType.operand(3) != 0) {
      unsupported(in, "sampling a 3D, array or shadow texture");
    }
  }
  const auto slot = static_cast<uint8_t>(samplerOf(in.operand(0)));
  const Vals& coord = value(in.operand(1));
  Operand s = coord.at(0), t = coord.at(1);
  if (proj) {
    const Operand q = b_.op(Opcode::Rcp, coord.back());  // (s, t, q) or (s, t, r, q)
    s = b_.op(Opcode::Mul, s, q);
    t = b_.op(Opcode::Mul, t, q);
  }
  // Image operands: a mask word, then one id per set bit in bit order.
  const uint32_t mask = in.operand(2);
  Operand bias{}, lod{};
  size_t next = 3;
  if (mask & SpvImageOperandsBiasMask) bias = value(in.operand(next++)).at(0);
  if (mask & SpvImageOperandsLodMask) lod = value(in.operand(next++)).at(0);
  if (mask & SpvImageOperandsGradMask) {
    const Vals& dPdx = value(in.operand(next++));
    const Vals& dPdy = value(in.operand(next++));
    lod = cube ? cubeGradientLod(slot, coord, dPdx, dPdy) : gradientLod(slot, dPdx, dPdy);
  }
  // textureOffset and its forms: a constant offset in whole texels that the texture unit adds
  // at each level it filters (GLSL ES 3.00 §8.8), held in the instruction.
  std::array<int8_t, 2> texelOffset{};
  if (mask & SpvImageOperandsConstOffsetMask) {
    const Vals& off = value(in.operand(next++));
    for (size_t k = 0; k < 2; ++k) {
      const int32_t v = std::bit_cast<int32_t>(off.at(k).imm);
      if (off.at(k).file != ir::File::Imm || v < isa::kMinTexelOffset || v > isa::kMaxTexelOffset)
        unsupported(in, "a texel offset that is not a constant in [-8, 7]");
      texelOffset[k] = static_cast<int8_t>(v);
    }
  }
  if (mask & ~(SpvImageOperandsBiasMask | SpvImageOperandsLodMask | SpvImageOperandsGradMask |
               SpvImageOperandsConstOffsetMask)) {
    unsupported(in, "this texture operand");
  }
  const bool withLod = explicitLod || lod.file != ir::File::None;
  const Operand lodOrZero = lod.file == ir::File::None ? ir::immFloat(0) : lod;
  uint32_t first = 0;
  if (cube) {
    const Operand r = coord.at(2);
    first = withLod                       ? b_.sampleCube(Opcode::Samcl, slot, s, t, r, lodOrZero)
            : bias.file != ir::File::None ? b_.sampleCube(Opcode::Samcb, slot, s, t, r, bias)
                                          : b_.sampleCube(Opcode::Samc, slot, s, t, r);
  } else {
    first = withLod ? b_.sample(Opcode::Saml, slot, s, t, lodOrZero, texelOffset)
            : bias.file != ir::File::None ? b_.sample(Opcode::Samb, slot, s, t, bias, texelOffset)
                                          : b_.sample(Opcode::Sam, slot, s, t, {}, texelOffset);
  }
  Vals r;
  for (uint32_t k = 0; k < 4; ++k) r.push_back(ir::vreg(first + k));
  defineNew(in.result, r);
}

}  // namespace tessera::compiler::lower
