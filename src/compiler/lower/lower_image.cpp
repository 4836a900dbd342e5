// Texture lookups: texture2D / texture2DProj / texture2DLod and their bias forms onto sam, samb
// and saml; textureCube / textureCubeLod onto samc, samcb and samcl. The projective forms divide
// s and t by q first (GLSL ES 1.00 §8.7).
#include "common/error.h"
#include "compiler/lower/lowering.h"

namespace tessera::compiler::lower {

using ir::Opcode;
using ir::Operand;

void Lowering::image(const spirv::Instruction& in) {
  const bool proj =
      in.op == SpvOpImageSampleProjImplicitLod || in.op == SpvOpImageSampleProjExplicitLod;
  const bool explicitLod =
      in.op == SpvOpImageSampleExplicitLod || in.op == SpvOpImageSampleProjExplicitLod;
  if (in.op != SpvOpImageSampleImplicitLod && in.op != SpvOpImageSampleExplicitLod && !proj) {
    unsupported(in,
                "this texture operation (shadow samplers, texelFetch and textureSize need "
                "GLSL ES 3.00 texture support)");
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
  if (mask & ~(SpvImageOperandsBiasMask | SpvImageOperandsLodMask)) {
    unsupported(in, "texture gradients or offsets (GLSL ES 3.00)");
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
    first = withLod                       ? b_.sample(Opcode::Saml, slot, s, t, lodOrZero)
            : bias.file != ir::File::None ? b_.sample(Opcode::Samb, slot, s, t, bias)
                                          : b_.sample(Opcode::Sam, slot, s, t);
  }
  Vals r;
  for (uint32_t k = 0; k < 4; ++k) r.push_back(ir::vreg(first + k));
  defineNew(in.result, r);
}

}  // namespace tessera::compiler::lower
