// The warp interpreter: operand fetch, masked write-back, structured divergence, varyings,
// derivatives and texture sampling. Arithmetic lives in exec_alu.cpp.
#include <bit>
#include <cstring>
#include <exception>
#include <string>
#include <utility>

#include "common/lane_count.h"
#include "common/lane_mask.h"
#include "common/simd.h"
#include "gpu/sp/executor.h"
#include "gpu/sp/host_code.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace tessera::gpu::sp {
namespace {
// The varyings compiled ipl reads for a quad without lanes (HostRows::varyings).
constexpr float kNoVaryings[3 * kMaxVaryings * 4] = {};
}  // namespace

using isa::File;
using isa::Instr;
using isa::Opcode;
using isa::Operand;

void badState(const std::string& what) {
  throw GpuFault(FaultKind::BadState, 0, BusClient::ShaderFetch, what);
}

uint32_t WarpExecutor::laneTrue(const float* cond) const {
  static_assert(kLanes == 32);
  return laneMaskOf(cond) & exec_;
}

void WarpExecutor::derivative(const Instr& in) {
  // Coarse derivatives: one difference per quad, TR - TL across and BL - TL down, shared by
  // all four pixels (the texture unit's implicit LOD uses the same differences).
  const float* a = fetch(in.src[0], isa::Type::F, tmp_[0]);
  const int other = in.op == Opcode::Dsx ? 1 : 2;
  for (int q = 0; q < kLanes; q += 4) {
    const float d = a[q + other] - a[q];
    for (int i = 0; i < 4; ++i) out_[0][q + i] = d;
  }
  store(in, out_[0]);
}

#if TESSERA_AVX2_CLONES
namespace {
// A whole warp of one varying component (`slot` of each quad's vertices' values), two quads a
// register: each lane's arithmetic is interpolate's, operation for operation. The quads of a
// warp mostly share one triangle: then its three values are read once for all of them.
[[gnu::target("avx2")]] void interpolateWarp(const float* const* varyings, int slot,
                                             const float* b1, const float* b2, float* r) {
  constexpr int kVertex = kMaxVaryings * 4;  // one vertex's values
  bool shared = true;
  for (int q = 1; q < kLanes / 4; ++q) shared &= varyings[q] == varyings[0];
  for (int q = 0; q < kLanes / 4; q += 2) {
    const float *v0 = varyings[q], *v1 = varyings[q + 1];
    __m256 both[3];
    for (int k = 0; k < 3; ++k)
      both[k] = shared ? _mm256_set1_ps(v0[k * kVertex + slot])
                       : _mm256_set_m128(_mm_set1_ps(v1[k * kVertex + slot]),
                                         _mm_set1_ps(v0[k * kVertex + slot]));
    const __m256 p1 = _mm256_loadu_ps(b1 + 4 * q), p2 = _mm256_loadu_ps(b2 + 4 * q);
    const __m256 p0 = _mm256_sub_ps(_mm256_sub_ps(_mm256_set1_ps(1.0f), p1), p2);
    const __m256 sum = _mm256_add_ps(_mm256_mul_ps(both[0], p0), _mm256_mul_ps(both[1], p1));
    _mm256_storeu_ps(r + 4 * q, _mm256_add_ps(sum, _mm256_mul_ps(both[2], p2)));
  }
}
}  // namespace
#endif

void WarpExecutor::interpolate(const Instr& in) {
  const int slot = in.src[0].index;  // varying i component c: i*4 + c
  const float* b1 = io_.bary;
  const float* b2 = io_.bary + kLanes;
  float* r = resultRow(in);
  // In locals: the stores to r could otherwise alias them, and each quad would load them again.
  const uint32_t exec = exec_;
  const float* const* varyings = io_.varyings;
  const bool flat = flat_ >> (slot / 4) & 1;  // the provoking (last) vertex's bits, uninterpolated
#if TESSERA_AVX2_CLONES
  // A full warp of interpolated values: two quads a register.
  if (exec == ~0u && !flat && simdPath() == SimdPath::Avx2) {
    bool all = true;
    for (int q = 0; q < kLanes / 4; ++q) all &= varyings[q] != nullptr;
    if (all) {
      interpolateWarp(varyings, slot, b1, b2, r);
      return store(in, r);
    }
  }
#endif
  for (int q = 0; q < kLanes / 4; ++q) {
    const float* v = varyings[q];
    const bool active = ((exec >> (4 * q)) & 0xfu) != 0;
    if (!active || v == nullptr) {
      if (active) badState("quad " + std::to_string(q) + " has no varyings");
      for (int i = 0; i < 4; ++i) r[4 * q + i] = 0.0f;
      continue;
    }
    const float v0 = v[slot], v1 = v[kMaxVaryings * 4 + slot], v2 = v[2 * kMaxVaryings * 4 + slot];
    if (flat) {
      for (int i = 0; i < 4; ++i) r[4 * q + i] = v2;
      continue;
    }
#if defined(__SSE2__)
    // The quad's four lanes side by side, each lane's arithmetic as below.
    const __m128 p1 = _mm_loadu_ps(b1 + 4 * q), p2 = _mm_loadu_ps(b2 + 4 * q);
    const __m128 p0 = _mm_sub_ps(_mm_sub_ps(_mm_set1_ps(1.0f), p1), p2);
    const __m128 sum = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(v0), p0), _mm_mul_ps(_mm_set1_ps(v1), p1));
    _mm_storeu_ps(r + 4 * q, _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(v2), p2)));
#else
    for (int i = 0; i < 4; ++i) {
      const int l = 4 * q + i;
      r[l] = v0 * (1.0f - b1[l] - b2[l]) + v1 * b1[l] + v2 * b2[l];
    }
#endif
  }
  store(in, r);
}

// samv, samvl, samvb: coordinates rC..rC+3 = (s, t, r, ref), read by the descriptor's target
// (tex::TexCoord); the reference is compared when the descriptor's compare mode is on.
void WarpExecutor::sampleVec(const Instr& in) {
  const tex::TextureDescriptor& desc = boundTexture(in);
  tex::TextureUnit& unit = *res_->textureUnit;
  const float* c[4];
  for (int k = 0; k < 4; ++k) c[k] = regs_[in.src[0].index + k];
  const float* arg = in.op != Opcode::Samv ? fetch(in.src[1], isa::Type::F, tmp_[1]) : nullptr;
  const bool explicitLod = in.op == Opcode::Samvl;
  const bool quadLod = prog_->stage == isa::Stage::Fragment && !explicitLod;
  const tex::TexelOffset offset{in.texelOffset[0], in.texelOffset[1], in.texelOffset[2]};
  std::memset(out_, 0, sizeof out_);
  auto coord = [&](int l) { return tex::TexCoord{c[0][l], c[1][l], c[2][l], c[3][l]}; };
  for (int q = 0; q < kLanes / 4; ++q) {
    const uint32_t quadMask = (exec_ >> (4 * q)) & 0xfu;
    if (quadMask == 0) continue;
    if (quadLod) {
      const float bias = arg ? arg[4 * q + std::countr_zero(quadMask)] : 0.0f;
      const tex::TexCoord quad[4] = {coord(4 * q), coord(4 * q + 1), coord(4 * q + 2),
                                     coord(4 * q + 3)};
      float texel[4][4];
      unit.sampleQuadVec(desc, quad, true, bias, texel, offset);
      for (int i = 0; i < 4; ++i)
        for (int ch = 0; ch < 4; ++ch) out_[ch][4 * q + i] = texel[i][ch];
      continue;
    }
    for (int i = 0; i < 4; ++i) {
      if (!((quadMask >> i) & 1u)) continue;
      const int l = 4 * q + i;
      float texel[4];
      unit.sampleLodVec(desc, coord(l), true, arg ? arg[l] : 0.0f, texel, offset);
      for (int ch = 0; ch < 4; ++ch) out_[ch][l] = texel[ch];
    }
  }
  stats_->textureSamples += static_cast<uint64_t>(laneCount(exec_));
  for (int ch = 0; ch < 4; ++ch) blend(regs_[in.dst.index + ch], out_[ch]);
}

void WarpExecutor::sample(const Instr& in) {
  // The common lookup first: fragments sampling a 2D texture from plain registers, which the
  // texture unit may hand straight to its kernel. A whole warp's results go to the destination
  // registers even when they hold the coordinates (the kernel reads a quad's coordinates before
  // it writes the quad); a partial warp's go through the masked write.
  const isa::Operand &s = in.src[0], &t = in.src[1];
  if (in.op == Opcode::Sam && prog_->stage == isa::Stage::Fragment &&
      in.sampler < res_->textures.size() && res_->textureUnit != nullptr &&
      // Byte by byte: comparing the arrays would call memcmp.
      (in.texelOffset[0] | in.texelOffset[1] | in.texelOffset[2]) == 0 &&
      s.file == isa::File::Reg && !s.neg && !s.abs && t.file == isa::File::Reg && !t.neg &&
      !t.abs) {
    const bool whole = exec_ == ~0u;
    float* const row0 = whole ? regs_[in.dst.index] : out_[0];
    float* const rows[4] = {row0, row0 + kLanes, row0 + 2 * kLanes, row0 + 3 * kLanes};
    if (res_->textureUnit->sampleWarp(res_->textures[in.sampler], regs_[s.index], regs_[t.index],
                                      whole ? 0xffu : quadsOfLanes(exec_), rows)) {
      stats_->textureSamples += whole ? kLanes : static_cast<uint64_t>(laneCount(exec_));
      if (!whole)
        for (int ch = 0; ch < 4; ++ch) blend(regs_[in.dst.index + ch], out_[ch]);
      return;
    }
  }
  const tex::TextureDescriptor& desc = boundTexture(in);
  tex::TextureUnit& unit = *res_->textureUnit;
  const bool cube = isa::samplesCube(isa::opInfo(in.op).shape);
  // sam and samc address 2D textures and cube maps; 3D and array textures need samv.
  if ((cube != desc.cube || desc.volume || desc.array) && tex::isComplete(desc)) {
    badState(std::string(isa::opInfo(in.op).name) + " on sampler s" + std::to_string(in.sampler) +
             (desc.cube     ? ", which holds a cube map"
              : desc.volume ? ", which holds a 3D texture"
              : desc.array  ? ", which holds a 2D array texture"
                            : ", which holds a 2D texture"));
  }
  // Coordinates: s and t (2D), or the direction rD..rD+2 (cube); then the bias or LOD, if any.
  // A coordinate is mostly a plain register, read in place without the general operand fetch.
  auto coord = [&](const isa::Operand& o, float* tmp) {
    return o.file == isa::File::Reg && !o.neg && !o.abs ? regs_[o.index]
                                                        : fetch(o, isa::Type::F, tmp);
  };
  const float* c0 = cube ? regs_[in.src[0].index] : coord(in.src[0], tmp_[0]);
  const float* c1 = cube ? regs_[in.src[0].index + 1] : coord(in.src[1], tmp_[1]);
  const float* c2 = cube ? regs_[in.src[0].index + 2] : nullptr;
  const bool hasArg = in.op != Opcode::Sam && in.op != Opcode::Samc;
  const float* arg = hasArg ? fetch(in.src[cube ? 1 : 2], isa::Type::F, tmp_[2]) : nullptr;
  const bool explicitLod = in.op == Opcode::Saml || in.op == Opcode::Samcl;
  const bool quadLod = prog_->stage == isa::Stage::Fragment && !explicitLod;
  const tex::TexelOffset offset{in.texelOffset[0], in.texelOffset[1], in.texelOffset[2]};
  bool direct = false;  // the results are in the destination registers already
  if (quadLod && !cube) {
    // The quads with an executing pixel, each with its first executing pixel's bias (the bias
    // is per quad in the texture unit), in one call that writes the result rows.
    const uint32_t quads = quadsOfLanes(exec_);
    float bias[kLanes / 4] = {};
    if (arg) {
      for (uint32_t m = quads; m; m &= m - 1) {
        const int q = std::countr_zero(m);
        bias[q] = arg[4 * q + std::countr_zero((exec_ >> (4 * q)) & 0xfu)];
      }
    }
    // With every lane executing, the lookup writes the destination registers itself unless they
    // hold a coordinate it reads (the biases are copied above).
    float* dst = regs_[in.dst.index];
    auto inDst = [dst](const float* p) {
      const auto at = reinterpret_cast<uintptr_t>(p), first = reinterpret_cast<uintptr_t>(dst);
      return at >= first && at < first + sizeof(float) * 4 * kLanes;
    };
    direct = exec_ == ~0u && !inDst(c0) && !inDst(c1);
    // Lanes no lookup writes are zero, so that a result never carries an earlier one's values.
    if (quads != (1u << kLanes / 4) - 1) std::memset(out_, 0, sizeof out_);
    float* const row0 = direct ? dst : out_[0];
    float* const rows[4] = {row0, row0 + kLanes, row0 + 2 * kLanes, row0 + 3 * kLanes};
    unit.sampleQuads(desc, c0, c1, bias, quads, rows, offset);
  }
  if (!quadLod || cube) std::memset(out_, 0, sizeof out_);
  for (int q = 0; q < kLanes / 4; ++q) {
    if (quadLod && !cube) break;  // sampled above
    const uint32_t quadMask = (exec_ >> (4 * q)) & 0xfu;
    if (quadMask == 0) continue;
    if (quadLod) {  // cube maps
      const float bias = arg ? arg[4 * q + std::countr_zero(quadMask)] : 0.0f;
      float texel[4][4];
      unit.sampleQuadCube(desc, c0 + 4 * q, c1 + 4 * q, c2 + 4 * q, bias, texel);
      for (int i = 0; i < 4; ++i)
        for (int ch = 0; ch < 4; ++ch) out_[ch][4 * q + i] = texel[i][ch];
    } else {
      // Explicit LOD (saml, samcl), and vertex shaders that have no quads: sam samples level 0,
      // samb uses its bias as the LOD.
      for (int i = 0; i < 4; ++i) {
        if (!((quadMask >> i) & 1u)) continue;
        const int l = 4 * q + i;
        const float lod = arg ? arg[l] : 0.0f;
        float texel[4];
        if (cube) {
          unit.sampleLodCube(desc, c0[l], c1[l], c2[l], lod, texel);
        } else {
          unit.sampleLod(desc, c0[l], c1[l], lod, texel, offset);
        }
        for (int ch = 0; ch < 4; ++ch) out_[ch][l] = texel[ch];
      }
    }
  }
  stats_->textureSamples += static_cast<uint64_t>(laneCount(exec_));
  if (!direct)
    for (int ch = 0; ch < 4; ++ch) blend(regs_[in.dst.index + ch], out_[ch]);
}

void WarpExecutor::texture(const Instr& in) {
  switch (in.op) {
    case Opcode::Samv:
    case Opcode::Samvl:
    case Opcode::Samvb:
      return sampleVec(in);
    case Opcode::Txf:
    case Opcode::Txfv:
      return fetchTexels(in);
    case Opcode::Txs:
      return querySize(in);
    default:  // sam, saml, samb, samc, samcl, samcb
      return sample(in);
  }
}

uint32_t WarpExecutor::hostTexture(void* executor, uint32_t pc) noexcept {
  auto& self = *static_cast<WarpExecutor*>(executor);
  try {
    self.texture(self.prog_->code[pc]);
    return 0;
  } catch (...) {
    self.fault_ = std::current_exception();
    self.faultPc_ = pc;
    return 1;
  }
}

const tex::TextureDescriptor& WarpExecutor::boundTexture(const Instr& in) const {
  if (res_->textureUnit == nullptr) badState("texture instruction without a texture unit");
  if (in.sampler >= res_->textures.size())
    badState("sampler s" + std::to_string(in.sampler) + " beyond the " +
             std::to_string(res_->textures.size()) + " textures bound");
  return res_->textures[in.sampler];
}

// txf: (i, j) in two sources; txfv: (i, j, k) in rC..rC+2 (k: the 3D slice or array layer).
void WarpExecutor::fetchTexels(const Instr& in) {
  const tex::TextureDescriptor& desc = boundTexture(in);
  if (desc.cube && tex::isComplete(desc))
    badState(std::string(isa::opInfo(in.op).name) + " on sampler s" + std::to_string(in.sampler) +
             ", which holds a cube map");
  const bool vec = in.op == Opcode::Txfv;
  const float* i = vec ? regs_[in.src[0].index] : fetch(in.src[0], isa::Type::I, tmp_[0]);
  const float* j = vec ? regs_[in.src[0].index + 1] : fetch(in.src[1], isa::Type::I, tmp_[1]);
  const float* k = vec ? regs_[in.src[0].index + 2] : nullptr;
  const float* lod = fetch(in.src[vec ? 1 : 2], isa::Type::I, tmp_[2]);
  std::memset(out_, 0, sizeof out_);
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec_ >> l) & 1u)) continue;
    float texel[4];
    res_->textureUnit->fetch(desc, std::bit_cast<int32_t>(i[l]), std::bit_cast<int32_t>(j[l]),
                             k ? std::bit_cast<int32_t>(k[l]) : 0, std::bit_cast<int32_t>(lod[l]),
                             texel);
    for (int ch = 0; ch < 4; ++ch) out_[ch][l] = texel[ch];
  }
  stats_->textureSamples += static_cast<uint64_t>(laneCount(exec_));
  for (int ch = 0; ch < 4; ++ch) blend(regs_[in.dst.index + ch], out_[ch]);
}

// (width, height, levels, depth) of level `lod` as integers (GLSL ES 3.00 textureSize): depth is
// the level's depth of a 3D texture, the layers of an array, 1 otherwise; a level beyond the
// chain or an incomplete texture reads 0 (levels: 0 only when incomplete).
void WarpExecutor::querySize(const Instr& in) {
  const tex::TextureDescriptor& desc = boundTexture(in);
  const float* lod = fetch(in.src[0], isa::Type::I, tmp_[0]);
  for (int l = 0; l < kLanes; ++l) {
    const int32_t level = std::bit_cast<int32_t>(lod[l]);
    const bool ok =
        tex::isComplete(desc) && level >= 0 && static_cast<uint32_t>(level) < desc.levels;
    const uint32_t v[4] = {
        ok ? tex::levelExtent(desc.width, static_cast<uint32_t>(level)) : 0,
        ok ? tex::levelExtent(desc.height, static_cast<uint32_t>(level)) : 0,
        tex::isComplete(desc) ? desc.levels : 0,
        ok ? tex::layerCount(desc, static_cast<uint32_t>(level)) / (desc.cube ? 6u : 1u) : 0};
    for (int ch = 0; ch < 4; ++ch) out_[ch][l] = std::bit_cast<float>(v[ch]);
  }
  for (int ch = 0; ch < 4; ++ch) blend(regs_[in.dst.index + ch], out_[ch]);
}

uint32_t WarpExecutor::gone() const {
  uint32_t g = retired_;
  if (loop_ >= 0) g |= stack_[loop_].broken | stack_[loop_].other;
  return g;
}

bool WarpExecutor::maskEmptied(uint32_t& pc) {
  if (depth_ == 0) return false;  // every lane has returned or been killed
  pc = stack_[depth_ - 1].jump;
  return true;
}

bool WarpExecutor::control(const Instr& in, uint32_t& pc) {
  const uint32_t before = exec_;
  auto split = [&](uint32_t taken) {
    if (taken != 0 && taken != before) ++stats_->divergentBranches;
  };
  switch (in.op) {
    case Opcode::If: {
      const uint32_t cond = laneTrue(fetch(in.src[0], isa::Type::B, tmp_[0]));
      split(cond);
      stack_[depth_++] = {Kind::If, in.target, exec_, exec_ & ~cond, 0, -1};
      exec_ = cond;
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Else: {
      Entry& e = stack_[depth_ - 1];
      e.kind = Kind::Else;
      e.jump = in.target;
      exec_ = e.other & ~gone();
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Endif: {
      const uint32_t mask = stack_[--depth_].mask;
      exec_ = mask & ~gone();
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Loop:
      stack_[depth_] = {Kind::Loop, in.target, exec_, 0, 0, loop_};
      loop_ = depth_++;
      break;
    case Opcode::Endloop: {
      Entry& e = stack_[depth_ - 1];
      const uint32_t again = (exec_ | e.other) & ~(retired_ | e.broken);
      e.other = 0;
      if (again != 0) {
        exec_ = again;
        pc = in.target + 1;
        return true;
      }
      exec_ = e.mask & ~retired_;
      loop_ = e.outerLoop;
      --depth_;
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Break:
    case Opcode::Breakif:
    case Opcode::Continue:
    case Opcode::Continueif: {
      uint32_t leave = exec_;
      if (in.op == Opcode::Breakif || in.op == Opcode::Continueif) {
        leave = laneTrue(fetch(in.src[0], isa::Type::B, tmp_[0]));
        split(leave);
      }
      Entry& loop = stack_[loop_];
      (in.op == Opcode::Break || in.op == Opcode::Breakif ? loop.broken : loop.other) |= leave;
      exec_ &= ~leave;
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Kill:
    case Opcode::Killif: {
      // GLES 2.0 (GLSL ES 1.00 §6.4) discard: the fragment is dropped and its lane stops.
      uint32_t kill = exec_;
      if (in.op == Opcode::Killif) {
        kill = laneTrue(fetch(in.src[0], isa::Type::B, tmp_[0]));
        split(kill);
      }
      stats_->killedLanes += static_cast<uint64_t>(laneCount(kill & *io_.coverage));
      *io_.coverage &= ~kill;
      retired_ |= kill;
      exec_ &= ~kill;
      if (exec_ == 0) return maskEmptied(pc);
      break;
    }
    case Opcode::Ret:
      retired_ |= exec_;
      exec_ = 0;
      return maskEmptied(pc);
    case Opcode::End:
      return false;
    default:
      break;
  }
  ++pc;
  return true;
}

void WarpExecutor::run(const isa::Program& prog, const WarpIo& io, uint32_t laneMask,
                       const ShaderResources& res, SpStats& stats) {
  prog_ = &prog;
  io_ = io;
  res_ = &res;
  stats_ = &stats;
  exec_ = laneMask;
  retired_ = 0;
  selFor_ = ~exec_;  // force a rebuild
  loop_ = -1;
  depth_ = 0;
  if (laneMask == 0) return;
  // Registers that may be read before they are written start at zero, so such a read is
  // deterministic (isa::finalize finds them).
  for (uint64_t z = prog.zeroRegisters &
                    (prog.regCount >= 64 ? ~uint64_t{0} : (uint64_t{1} << prog.regCount) - 1);
       z; z &= z - 1)
    std::memset(regs_[std::countr_zero(z)], 0, sizeof regs_[0]);
  std::memset(a0_, 0, sizeof a0_);
  laneRowOf(io.frontFacing, ff_);
  flat_ = prog.flatVaryings;

  // Issue counts are kept in registers and added to the statistics when the warp ends, by
  // return or by fault; a lane count is recomputed only when the exec mask changes.
  struct Issued {
    SpStats& stats;
    uint64_t instructions = 0, lanes = 0, branch = 0, tex = 0, sfu = 0, fpu = 0;
    ~Issued() {
      stats.instructions += instructions;
      stats.laneInstructions += lanes;
      stats.branchInstructions += branch;
      stats.texInstructions += tex;
      stats.sfuInstructions += sfu;
      stats.fpuInstructions += fpu;
    }
  } n{stats};
  uint32_t countedMask = exec_;
  uint64_t countedLanes = static_cast<uint64_t>(laneCount(exec_));
  auto recount = [&] {
    if (exec_ == countedMask) return;
    countedMask = exec_;
    countedLanes = static_cast<uint64_t>(laneCount(exec_));
  };
  const Instr* code = prog.code.data();
  // Compiled runs (host_code.h) on the AVX2 path, where the bound constants cover every
  // statically addressed one (bind checks that; a test may bind fewer and expects the fault).
  const HostProgram* host = res.host && res.host->source() == &prog && hostCodeEnabled() &&
                                    simdPath() == SimdPath::Avx2 &&
                                    res.constants.size() >= prog.constSpan
                                ? res.host
                                : nullptr;
  // Compiled ipl reads every quad's varyings: a quad without lanes reads zeros. A warp with a
  // lane that has no varyings or barycentrics is interpreted, which reports it at its first ipl.
  const float* varyings[kLanes / 4] = {};
  if (host && host->interpolates()) {
    if (io.bary == nullptr) host = nullptr;
    for (int q = 0; q < kLanes / 4; ++q) {
      const bool active = (laneMask >> (4 * q) & 0xfu) != 0;
      const float* v = io.varyings ? io.varyings[q] : nullptr;
      if (active && v == nullptr) host = nullptr;
      varyings[q] = active ? v : kNoVaryings;
    }
  }
  const HostRows rows{
      regs_[0], io.inputs, io.outputs, io.fragCoord, ff_, io.pointCoord, res.constants.data(), sel_,
      io.bary,  varyings,  this,       &hostTexture};
  uint32_t pc = 0;
  for (;;) {
    if (const HostBlock* b = host ? host->at(pc) : nullptr;
        b && n.instructions + b->counts.instructions <= kMaxWarpInstructions) {
      recount();
      if (exec_ != ~0u) updateSelect();
      const bool faulted = callHost(exec_ == ~0u ? b->full : b->masked, &rows) != 0;
      // A texture instruction that faulted ends the run's counts, as it would the interpreter's.
      const HostCounts c = faulted ? hostCounts(prog, pc, faultPc_ + 1) : b->counts;
      n.instructions += c.instructions;
      n.lanes += countedLanes * c.instructions;
      n.fpu += c.fpu;
      n.sfu += c.sfu;
      n.tex += c.tex;
      if (faulted) std::rethrow_exception(std::exchange(fault_, nullptr));
      pc = b->end;
      continue;
    }
    const Instr& in = code[pc];
    if (++n.instructions > kMaxWarpInstructions)
      throw GpuFault(FaultKind::Runaway, 0, BusClient::ShaderFetch,
                     "shader warp exceeded " + std::to_string(kMaxWarpInstructions) +
                         " instructions (at instruction " + std::to_string(pc) + ")");
    recount();
    n.lanes += countedLanes;
    const isa::Unit unit = isa::opInfo(in.op).unit;
    if (unit == isa::Unit::Cf) {
      ++n.branch;
      if (!control(in, pc)) return;
      continue;
    }
    if (unit == isa::Unit::Tex) {
      ++n.tex;
      texture(in);
      ++pc;
      continue;
    }
    switch (in.op) {
      case Opcode::Dsx:
      case Opcode::Dsy:
        derivative(in);
        break;
      case Opcode::Ipl:
        interpolate(in);
        break;
      case Opcode::Mova: {
        const float* a = fetch(in.src[0], isa::Type::I, tmp_[0]);
        updateSelect();
        for (int l = 0; l < kLanes; ++l)
          a0_[l] = static_cast<int32_t>((std::bit_cast<uint32_t>(a[l]) & sel_[l]) |
                                        (static_cast<uint32_t>(a0_[l]) & ~sel_[l]));
        break;
      }
      default:
        n.sfu += unit == isa::Unit::Sfu;
        n.fpu += unit == isa::Unit::Fpu;
        arithmetic(in);
        break;
    }
    ++pc;
  }
}

}  // namespace tessera::gpu::sp
