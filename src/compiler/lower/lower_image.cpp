// Texture lookups: texture2D / texture2DProj / texture2DLod and their bias forms onto sam, samb
// and saml; textureCube / textureCubeLod onto samc, samcb and samcl. The projective forms divide
// s and t by q first (GLSL ES 1.00 §8.7). GLSL ES 3.00: texelFetch (and its offset form) onto
// txf (txfv for 3D and array textures), textureSize onto txs, and textureGrad onto saml with the
// level of detail that the texture unit would derive from those derivatives (GLSL ES 3.00 §8.8,
// the scale factor of OpenGL ES 3.0 §3.8.9: rho = max of the two derivative vectors' lengths in
// texels). Shadow samplers, sampler3D and sampler2DArray (and their integer forms) use the
// vector samples samv, samvb and samvl; integer samplers otherwise read like float ones (the
// texture unit returns their channels' bit patterns).
#include <bit>

#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

// The image type behind a sampled image or image value (OpTypeImage).
const spirv::Instruction& Lowering::imageTypeOf(uint32_t id) const {
  const spirv::Instruction& t = types_.type(m_.defOrThrow(id).type);
  return t.op == SpvOpTypeSampledImage ? types_.type(t.operand(0)) : t;
}

void Lowering::imageQuery(const spirv::Instruction& in) {
  const auto slot = static_cast<uint8_t>(samplerOf(in.operand(0)));
  const spirv::Instruction& imageType = imageTypeOf(in.operand(0));
  // 3D textures and 2D arrays have a third coordinate (slice or layer) and size.
  const bool layered = imageType.operand(1) == SpvDim3D || imageType.operand(3) == 1;
  if (in.op == SpvOpImageFetch) {
    const Vals& coord = value(in.operand(1));
    const uint32_t mask = in.operands.size() > 2 ? in.operand(2) : 0;
    Operand i = coord.at(0), j = coord.at(1), k = layered ? coord.at(2) : ir::immInt(0),
            lod = ir::immInt(0);
    size_t next = 3;
    if (mask & SpvImageOperandsLodMask) lod = value(in.operand(next++)).at(0);
    if (mask & SpvImageOperandsConstOffsetMask) {  // texelFetchOffset: whole texels
      const Vals& off = value(in.operand(next++));
      i = b_.op(Opcode::Iadd, i, off.at(0));
      j = b_.op(Opcode::Iadd, j, off.at(1));
      if (imageType.operand(1) == SpvDim3D) k = b_.op(Opcode::Iadd, k, off.at(2));
    }
    if (mask & ~(SpvImageOperandsLodMask | SpvImageOperandsConstOffsetMask))
      unsupported(in, "this texelFetch operand");
    const uint32_t first = layered ? b_.sampleVec(Opcode::Txfv, slot, {i, j, k, ir::immInt(0)}, lod)
                                   : b_.sample(Opcode::Txf, slot, i, j, lod);
    Vals r;
    for (uint32_t c = 0; c < 4; ++c) r.push_back(ir::vreg(first + c));
    defineNew(in.result, r);
    return;
  }
  // textureSize: (width, height) of the level, and the depth or layers of a 3D or array
  // texture (txs puts it in w); a cube map's faces are square.
  const Operand lod = in.op == SpvOpImageQuerySizeLod ? value(in.operand(1)).at(0) : ir::immInt(0);
  const uint32_t first = b_.sample(Opcode::Txs, slot, lod, Operand{}, Operand{});
  Vals size{ir::vreg(first), ir::vreg(first + 1)};
  if (layered) size.push_back(ir::vreg(first + 3));
  defineNew(in.result, size);
}

// textureGrad on a 3D texture: the derivative vectors' lengths in texels of all three axes.
Operand Lowering::volumeGradientLod(uint8_t slot, const Vals& dPdx, const Vals& dPdy) {
  const uint32_t size = b_.sample(Opcode::Txs, slot, ir::immInt(0), Operand{}, Operand{});
  const Operand extent[3] = {b_.op(Opcode::I2f, ir::vreg(size)),
                             b_.op(Opcode::I2f, ir::vreg(size + 1)),
                             b_.op(Opcode::I2f, ir::vreg(size + 3))};
  auto lengthSquared = [&](const Vals& d) {
    Operand sum{};
    for (size_t k = 0; k < 3; ++k) {
      const Operand texels = b_.op(Opcode::Mul, d.at(k), extent[k]);
      sum = k == 0 ? b_.op(Opcode::Mul, texels, texels) : b_.op(Opcode::Mad, texels, texels, sum);
    }
    return sum;
  };
  const Operand rho2 = b_.op(Opcode::Max, lengthSquared(dPdx), lengthSquared(dPdy));
  return b_.op(Opcode::Mul, b_.op(Opcode::Log2, rho2), ir::immFloat(0.5f));
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
      in.op == SpvOpImageSampleProjImplicitLod || in.op == SpvOpImageSampleProjExplicitLod ||
      in.op == SpvOpImageSampleProjDrefImplicitLod || in.op == SpvOpImageSampleProjDrefExplicitLod;
  const bool explicitLod =
      in.op == SpvOpImageSampleExplicitLod || in.op == SpvOpImageSampleProjExplicitLod ||
      in.op == SpvOpImageSampleDrefExplicitLod || in.op == SpvOpImageSampleProjDrefExplicitLod;
  const bool dref =
      in.op == SpvOpImageSampleDrefImplicitLod || in.op == SpvOpImageSampleDrefExplicitLod ||
      in.op == SpvOpImageSampleProjDrefImplicitLod || in.op == SpvOpImageSampleProjDrefExplicitLod;
  if (in.op != SpvOpImageSampleImplicitLod && !explicitLod && !proj && !dref) {
    unsupported(in, "this texture operation");
  }
  const spirv::Instruction& imageType = imageTypeOf(in.operand(0));
  const auto dim = static_cast<SpvDim>(imageType.operand(1));
  const bool cube = dim == SpvDimCube, volume = dim == SpvDim3D;
  const bool arrayed = imageType.operand(3) == 1;
  if ((dim != SpvDim2D && !cube && !volume) || (arrayed && dim != SpvDim2D)) {
    unsupported(in, "sampling this texture type");
  }
  const auto slot = static_cast<uint8_t>(samplerOf(in.operand(0)));
  const Vals& coord = value(in.operand(1));
  // (s, t), (s, t, r), (s, t, layer) or a cube direction; then the depth reference.
  const size_t n = cube || volume || arrayed ? 3 : 2;
  std::array<Operand, 4> c{ir::immFloat(0), ir::immFloat(0), ir::immFloat(0), ir::immFloat(0)};
  for (size_t k = 0; k < n; ++k) c[k] = coord.at(k);
  size_t next = 2;
  if (dref) c[3] = value(in.operand(next++)).at(0);
  if (proj) {
    // The coordinates and the reference are divided by q, the last component (GLSL ES 3.00
    // §8.8 textureProj; arrays and cube maps have no projective forms).
    const Operand q = b_.op(Opcode::Rcp, coord.back());
    for (size_t k = 0; k < n; ++k) c[k] = b_.op(Opcode::Mul, c[k], q);
    if (dref) c[3] = b_.op(Opcode::Mul, c[3], q);
  }
  // Image operands: a mask word, then one id per set bit in bit order.
  const uint32_t mask = in.operand(next++);
  Operand bias{}, lod{};
  if (mask & SpvImageOperandsBiasMask) bias = value(in.operand(next++)).at(0);
  if (mask & SpvImageOperandsLodMask) lod = value(in.operand(next++)).at(0);
  if (mask & SpvImageOperandsGradMask) {
    const Vals& dPdx = value(in.operand(next++));
    const Vals& dPdy = value(in.operand(next++));
    lod = cube     ? cubeGradientLod(slot, coord, dPdx, dPdy)
          : volume ? volumeGradientLod(slot, dPdx, dPdy)
                   : gradientLod(slot, dPdx, dPdy);
  }
  // textureOffset and its forms: a constant offset in whole texels that the texture unit adds
  // at each level it filters (GLSL ES 3.00 §8.8), held in the instruction (a 3D texture's w in
  // the vector samples).
  std::array<int8_t, 3> texelOffset{};
  if (mask & SpvImageOperandsConstOffsetMask) {
    const Vals& off = value(in.operand(next++));
    for (size_t k = 0; k < off.size(); ++k) {
      const int32_t v = std::bit_cast<int32_t>(off.at(k).imm);
      if (off.at(k).file != ir::File::Imm || v < isa::kMinTexelOffset || v > isa::kMaxTexelOffset)
        unsupported(in, "a texel offset that is not a constant in [-8, 7]");
      if (k < 3) texelOffset[k] = static_cast<int8_t>(v);
    }
  }
  if (mask & ~(SpvImageOperandsBiasMask | SpvImageOperandsLodMask | SpvImageOperandsGradMask |
               SpvImageOperandsConstOffsetMask)) {
    unsupported(in, "this texture operand");
  }
  const bool withLod = explicitLod || lod.file != ir::File::None;
  const bool withBias = bias.file != ir::File::None;
  const Operand lodOrZero = lod.file == ir::File::None ? ir::immFloat(0) : lod;
  uint32_t first = 0;
  if (dref || volume || arrayed) {
    // Shadow lookups, 3D textures and arrays: the coordinate tuple of samv (s, t, r, ref).
    first = withLod    ? b_.sampleVec(Opcode::Samvl, slot, c, lodOrZero, texelOffset)
            : withBias ? b_.sampleVec(Opcode::Samvb, slot, c, bias, texelOffset)
                       : b_.sampleVec(Opcode::Samv, slot, c, {}, texelOffset);
  } else if (cube) {
    first = withLod    ? b_.sampleCube(Opcode::Samcl, slot, c[0], c[1], c[2], lodOrZero)
            : withBias ? b_.sampleCube(Opcode::Samcb, slot, c[0], c[1], c[2], bias)
                       : b_.sampleCube(Opcode::Samc, slot, c[0], c[1], c[2]);
  } else {
    first = withLod    ? b_.sample(Opcode::Saml, slot, c[0], c[1], lodOrZero, texelOffset)
            : withBias ? b_.sample(Opcode::Samb, slot, c[0], c[1], bias, texelOffset)
                       : b_.sample(Opcode::Sam, slot, c[0], c[1], {}, texelOffset);
  }
  // A shadow lookup returns one float: the filtered comparison result.
  Vals r;
  for (uint32_t k = 0; k < (dref ? 1u : 4u); ++k) r.push_back(ir::vreg(first + k));
  defineNew(in.result, r);
}

}  // namespace tessera::compiler::lower
