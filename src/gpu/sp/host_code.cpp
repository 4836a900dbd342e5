#include "gpu/sp/host_code.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include "common/simd.h"
#include "gpu/sp/sfu_math.h"
#include "gpu/sp/warp.h"

#if TESSERA_AVX2_CLONES
#include <xbyak/xbyak.h>
#endif

namespace tessera::gpu::sp {

using isa::File;
using isa::Instr;
using isa::Opcode;
using isa::Operand;

namespace {

// TESSERA_SHADER_JIT read once at start-up; a problem with it is reported and the default kept.
std::atomic<bool> enabled{[] {
  const char* env = std::getenv("TESSERA_SHADER_JIT");
  std::string problem;
  const bool on = hostCodeFor(env ? env : "", problem);
  if (!problem.empty()) std::fprintf(stderr, "tessera: %s\n", problem.c_str());
  return on;
}()};

// The opcodes the emitter below translates (docs/isa.md, "Compiled runs").
constexpr Opcode kCompiled[] = {
    Opcode::Nop,  Opcode::Mov,  Opcode::Add,   Opcode::Sub,  Opcode::Mul,   Opcode::Mad,
    Opcode::Min,  Opcode::Max,  Opcode::Floor, Opcode::Ceil, Opcode::Fract, Opcode::Trunc,
    Opcode::Rnd,  Opcode::Sign, Opcode::Feq,   Opcode::Fne,  Opcode::Flt,   Opcode::Fle,
    Opcode::Fgt,  Opcode::Fge,  Opcode::Ieq,   Opcode::Ine,  Opcode::Ilt,   Opcode::Ile,
    Opcode::Igt,  Opcode::Ige,  Opcode::Ult,   Opcode::Ule,  Opcode::Ugt,   Opcode::Uge,
    Opcode::Sel,  Opcode::And,  Opcode::Or,    Opcode::Xor,  Opcode::Not,   Opcode::Shl,
    Opcode::Shr,  Opcode::Ashr, Opcode::Iadd,  Opcode::Isub, Opcode::Imul,  Opcode::Imin,
    Opcode::Imax, Opcode::Umin, Opcode::Umax,  Opcode::F2i,  Opcode::I2f,   Opcode::U2f,
    Opcode::F2u,  Opcode::Rcp,  Opcode::Rsq,   Opcode::Sqrt, Opcode::Exp2,  Opcode::Log2};

bool sourceCompiles(const Operand& o, isa::Type type) {
  switch (o.file) {
    case File::Reg:
    case File::Input:
    case File::Output:
    case File::Sys:
    case File::Imm:
      break;
    case File::Const:
      if (o.rel) return false;  // per-lane indices, each checked against the bound constants
      break;
    default:
      return false;
  }
  return !(o.neg || o.abs) || type == isa::Type::F || type == isa::Type::I;
}

}  // namespace

bool compilesToHost(const Instr& in) {
  // ipl: a varying without modifiers (the interpreter reads none), into a register or output.
  if (in.op == Opcode::Ipl)
    return (in.dst.file == File::Reg || in.dst.file == File::Output) &&
           in.src[0].file == File::Varying && !in.src[0].neg && !in.src[0].abs && !in.src[0].rel;
  if (std::find(std::begin(kCompiled), std::end(kCompiled), in.op) == std::end(kCompiled))
    return false;
  if (in.op == Opcode::Nop) return true;
  if (in.dst.file != File::Reg && in.dst.file != File::Output) return false;
  const isa::OpInfo& info = isa::opInfo(in.op);
  const int n = isa::sourceCount(info.shape);
  for (int k = 0; k < n; ++k)
    if (!sourceCompiles(in.src[static_cast<size_t>(k)], info.type)) return false;
  return true;
}

HostCounts hostCounts(const isa::Program& p, uint32_t begin, uint32_t end) {
  HostCounts c;
  for (uint32_t pc = begin; pc < end; ++pc) {
    const Instr& in = p.code[pc];
    const isa::Unit unit = isa::opInfo(in.op).unit;
    ++c.instructions;
    // As the interpreter counts: ipl is issued, not counted as an FPU instruction.
    c.fpu += unit == isa::Unit::Fpu && in.op != Opcode::Ipl;
    c.sfu += unit == isa::Unit::Sfu;
    c.tex += unit == isa::Unit::Tex;
  }
  return c;
}

bool hostCodeFor(std::string_view asked, std::string& problem) {
  if (asked.empty() || asked == "on") return true;
  if (asked == "off") return false;
  problem = "TESSERA_SHADER_JIT=" + std::string(asked) + " is not on or off; using on";
  return true;
}

bool hostCodeEnabled() {
  return enabled.load(std::memory_order_relaxed);
}

void setHostCode(bool on) {
  enabled.store(on, std::memory_order_relaxed);
}

HostProgram::~HostProgram() = default;

#if TESSERA_AVX2_CLONES
namespace {

using namespace Xbyak;
using namespace Xbyak::util;

// Texture instructions: a run calls the interpreter for them (HostRows::texture).
bool callsOut(const Instr& in) {
  return isa::opInfo(in.op).unit == isa::Unit::Tex;
}

constexpr int kRowBytes = 4 * kLanes;
constexpr int kChunks = kLanes / 8;  // a ymm register holds 8 lanes
constexpr uint32_t kSign = 0x80000000u, kMagnitude = 0x7fffffffu;
constexpr uint32_t kOne = 0x3f800000u, kMinusOne = 0xbf800000u;

// vcmpps predicates, all quiet: false where a NaN is compared, except kUnordered and
// kNeqUnordered, which are true there (as C++'s x != x and x != y).
enum Predicate : uint8_t {
  kEq = 0x00,
  kUnordered = 0x03,
  kNeqUnordered = 0x04,
  kOrdered = 0x07,
  kGe = 0x1d,
  kGt = 0x1e,
  kLt = 0x11,
  kLe = 0x12
};

// The code of one program: each run twice, once per entry of HostBlock. Register use: rdi holds
// the HostRows until the row bases are loaded, then serves as a scratch (a run with ipl also
// keeps the barycentrics and varyings in rbx and r12, saved on entry, and r13 scratch; a run with
// a texture instruction keeps the HostRows in r14, saved on entry, and loads the bases again after
// each call); ymm0 is an instruction's result, ymm1-3 its sources of the current 8 lanes, ymm4-7
// scratch, ymm8-10 broadcast sources, ymm11 a constant of one operation and ymm12-15 the
// constants of the whole function (all ones, 1.0f, the magnitude mask and the sign bit).
class Emitter final : public CodeGenerator {
 public:
  Emitter() : CodeGenerator(4096, AutoGrow) {}

  // Emits instructions [begin, end) as one function; returns its offset in the code.
  size_t function(const isa::Program& p, uint32_t begin, uint32_t end, bool masked) {
    const size_t at = getSize();
    const auto first = p.code.begin() + begin, last = p.code.begin() + end;
    const bool interpolates =
        std::any_of(first, last, [](const Instr& in) { return in.op == Opcode::Ipl; });
    const bool calls = std::any_of(first, last, [](const Instr& in) { return callsOut(in); });
    // Saved registers: rbx, r12 and r13 hold the barycentrics, the quads' varyings and a quad's
    // (ipl); r14 the HostRows across calls. A call needs the stack 16-byte aligned: the return
    // address and an odd number of pushes leave it so.
    std::vector<Reg64> saved;
    if (interpolates) saved = {rbx, r12, r13};
    if (calls) saved.push_back(r14);
    const bool pad = calls && saved.size() % 2 == 0;
    for (const Reg64& r : saved) push(r);
    if (pad) sub(rsp, 8);
    if (interpolates) {
      mov(rbx, ptr[rdi + offsetof(HostRows, bary)]);
      mov(r12, ptr[rdi + offsetof(HostRows, varyings)]);
    }
    if (calls) mov(r14, rdi);
    bases(rdi);
    Label done;
    for (uint32_t pc = begin; pc < end; ++pc) {
      const Instr& in = p.code[pc];
      if (callsOut(in)) {
        // The interpreter's texture step; every caller-saved register is lost to it.
        vzeroupper();
        mov(rdi, ptr[r14 + offsetof(HostRows, executor)]);
        mov(esi, pc);
        call(ptr[r14 + offsetof(HostRows, texture)]);
        test(eax, eax);
        jnz(done, T_NEAR);
        bases(r14);
      } else if (in.op == Opcode::Ipl) {
        interpolate(in, masked, (p.flatVaryings >> (in.src[0].index / 4) & 1) != 0);
      } else {
        instruction(in, masked);
      }
    }
    xor_(eax, eax);
    L(done);
    vzeroupper();
    if (pad) add(rsp, 8);
    for (auto r = saved.rbegin(); r != saved.rend(); ++r) pop(*r);
    ret();
    return at;
  }

 private:
  // The row bases from the HostRows at `rows` into r8-r11, rsi, rdx, rcx and rax, and the
  // function's constants into ymm12-15.
  void bases(const Reg64& rows) {
    mov(r8, ptr[rows + offsetof(HostRows, regs)]);
    mov(r9, ptr[rows + offsetof(HostRows, inputs)]);
    mov(r10, ptr[rows + offsetof(HostRows, outputs)]);
    mov(r11, ptr[rows + offsetof(HostRows, fragCoord)]);
    mov(rsi, ptr[rows + offsetof(HostRows, frontFacing)]);
    mov(rdx, ptr[rows + offsetof(HostRows, pointCoord)]);
    mov(rcx, ptr[rows + offsetof(HostRows, constants)]);
    mov(rax, ptr[rows + offsetof(HostRows, select)]);
    splat(ymm14, kMagnitude);
    splat(ymm15, kSign);
    splat(ymm13, kOne);
    vpcmpeqd(ymm12, ymm12, ymm12);  // all ones
  }

  // All lanes of `y` set to the 32-bit pattern `bits`.
  void splat(const Ymm& y, uint32_t bits) {
    mov(edi, bits);
    vmovd(Xmm(y.getIdx()), edi);
    vpbroadcastd(y, Xmm(y.getIdx()));
  }

  void splat(const Ymm& y, float f) { splat(y, std::bit_cast<uint32_t>(f)); }

  // The row chunk of a register-like operand (not Imm or Const).
  Address row(const Operand& o, int chunk) {
    const int offset = chunk * 32;
    switch (o.file) {
      case File::Reg:
        return ptr[r8 + o.index * kRowBytes + offset];
      case File::Input:
        return ptr[r9 + o.index * kRowBytes + offset];
      case File::Output:
        return ptr[r10 + o.index * kRowBytes + offset];
      default:  // Sys, in WarpExecutor::fetchLanes's order
        if (o.index < 4) return ptr[r11 + o.index * kRowBytes + offset];
        if (o.index == 4) return ptr[rsi + offset];
        return ptr[rdx + (o.index - 5) * kRowBytes + offset];
    }
  }

  static bool broadcast(const Operand& o) { return o.file == File::Imm || o.file == File::Const; }

  // The source modifiers of the interpreter's applyModifiers: abs, then neg.
  void modify(const Ymm& y, const Operand& o, isa::Type type) {
    if (type == isa::Type::I) {
      if (o.abs) vpabsd(y, y);
      if (o.neg) {
        vpxor(ymm7, ymm7, ymm7);
        vpsubd(y, ymm7, y);
      }
      return;
    }
    if (o.abs) vandps(y, y, ymm14);
    if (o.neg) vxorps(y, y, ymm15);
  }

  void instruction(const Instr& in, bool masked) {
    if (in.op == Opcode::Nop) return;
    const isa::OpInfo& info = isa::opInfo(in.op);
    const int n = isa::sourceCount(info.shape);
    for (int k = 0; k < n; ++k) {
      const Operand& o = in.src[static_cast<size_t>(k)];
      if (!broadcast(o)) continue;
      const Ymm y(8 + k);
      if (o.file == File::Imm)
        splat(y, o.imm);
      else
        vbroadcastss(y, ptr[rcx + o.index * 4]);
      modify(y, o, info.type);
    }
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      Ymm src[3] = {ymm1, ymm2, ymm3};
      for (int k = 0; k < n; ++k) {
        const Operand& o = in.src[static_cast<size_t>(k)];
        if (broadcast(o)) {
          src[k] = Ymm(8 + k);
          continue;
        }
        vmovups(src[k], row(o, chunk));
        modify(src[k], o, info.type);
      }
      operation(in.op, src[0], src[1], src[2]);
      result(in, chunk, masked);
    }
  }

  // An instruction's result in ymm0 for one chunk: saturated if asked, then written (under the
  // exec mask for the masked entry).
  void result(const Instr& in, int chunk, bool masked) {
    if (in.sat) {
      // v >= 1 ? 1 : (v > 0 ? v : 0): max and min return their second operand for NaN.
      vxorps(ymm4, ymm4, ymm4);
      vmaxps(ymm0, ymm0, ymm4);
      vminps(ymm0, ymm0, ymm13);
    }
    const Address dst = row(in.dst, chunk);
    if (masked) {
      vmovups(ymm4, dst);
      vmovups(ymm5, ptr[rax + chunk * 32]);
      vblendvps(ymm0, ymm4, ymm0, ymm5);
    }
    vmovups(dst, ymm0);
  }

  // ipl, as WarpExecutor::interpolate: a chunk is two quads, each with its own triangle's three
  // values (vertex-major in the quad's block, warp.h) broadcast to its four lanes, combined as
  // v0 * ((1 - b1) - b2) + v1 * b1, then + v2 * b2, each product and sum rounded. A flat varying
  // is the provoking (last) vertex's value.
  void interpolate(const Instr& in, bool masked, bool flat) {
    constexpr int kVertexBytes = kMaxVaryings * 4 * 4;
    const int offset = in.src[0].index * 4;  // vN.c is index 4N + c
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      mov(rdi, ptr[r12 + (2 * chunk) * 8]);
      mov(r13, ptr[r12 + (2 * chunk + 1) * 8]);
      // Vertex k's value: quad 2 chunk's in the low four lanes, the next quad's in the high.
      auto value = [&](const Ymm& y, int k) {
        vbroadcastss(Xmm(y.getIdx()), ptr[rdi + k * kVertexBytes + offset]);
        vbroadcastss(xmm4, ptr[r13 + k * kVertexBytes + offset]);
        vinsertf128(y, y, xmm4, 1);
      };
      if (flat) {
        value(ymm0, 2);
      } else {
        value(ymm1, 0);
        value(ymm2, 1);
        value(ymm3, 2);
        vmovups(ymm5, ptr[rbx + chunk * 32]);              // b1
        vmovups(ymm6, ptr[rbx + kRowBytes + chunk * 32]);  // b2
        vsubps(ymm7, ymm13, ymm5);
        vsubps(ymm7, ymm7, ymm6);  // b0
        vmulps(ymm0, ymm1, ymm7);
        vmulps(ymm4, ymm2, ymm5);
        vaddps(ymm0, ymm0, ymm4);
        vmulps(ymm4, ymm3, ymm6);
        vaddps(ymm0, ymm0, ymm4);
      }
      result(in, chunk, masked);
    }
  }

  // truncF of exec_alu.cpp: the integer part for |x| < 2^23, x itself otherwise (and for NaN).
  // Leaves the result in `out`; uses ymm4-6 and ymm11.
  void trunc(const Ymm& out, const Ymm& x) {
    splat(ymm11, sfu::kTwo23);       // every float at least this large is an integer
    vandps(ymm4, x, ymm14);          // |x|
    vcmpps(ymm5, ymm4, ymm11, kLt);  // |x| < 2^23
    vandps(ymm6, x, ymm5);           // x, or 0 where it is not converted
    vcvttps2dq(ymm6, ymm6);
    vcvtdq2ps(ymm6, ymm6);
    vandps(ymm6, ymm6, ymm14);  // copysign(t, x)
    vandps(ymm4, x, ymm15);
    vorps(ymm6, ymm6, ymm4);
    vblendvps(out, x, ymm6, ymm5);
  }

  // sfuLog2 (sfu_math.h), step for step, into ymm0. A unary source is ymm1 or ymm8, so ymm9 and
  // ymm10 are free along with ymm4-7 and ymm11.
  void log2(const Ymm& x) {
    const Ymm &tiny = ymm4, &v = ymm5, &e = ymm6, &w = ymm7, &u = ymm9, &tail = ymm10, &k = ymm11;
    splat(k, sfu::kSmallestNormal);
    vcmpps(tiny, x, k, kLt);
    splat(k, sfu::kTwo23);
    vmulps(v, x, k);
    vblendvps(v, x, v, tiny);  // xs
    vpsrld(e, v, 23);
    splat(k, 127u);
    vpsubd(e, e, k);
    splat(k, 23u);
    vpand(w, tiny, k);
    vpsubd(e, e, w);
    splat(k, 0x007fffffu);
    vpand(v, v, k);  // the mantissa
    splat(k, sfu::kSqrtTwoMantissa);
    vpcmpgtd(w, v, k);  // high
    splat(k, 0x3f800000u);
    splat(u, 0x3f000000u);
    vblendvps(u, k, u, w);
    vpor(v, v, u);    // m
    vpsubd(e, e, w);  // e + 1 where high
    vsubps(w, v, ymm13);
    vaddps(u, v, ymm13);
    vdivps(w, w, u);  // t
    vmulps(u, w, w);  // t^2
    const float* series = sfu::kLog2Series;
    splat(k, series[3]);
    vmulps(tail, u, k);
    for (int i = 2; i >= 0; --i) {
      splat(k, series[i]);
      vaddps(tail, k, tail);
      vmulps(tail, u, tail);
    }
    splat(k, sfu::kTwoOverLn2);
    vmulps(w, k, w);  // c t
    vmulps(tail, w, tail);
    vaddps(w, w, tail);
    vcvtdq2ps(e, e);
    vaddps(e, e, w);  // r
    // The special cases, as selects in sfuLog2's order.
    vcmpps(tiny, x, x, kUnordered);
    splat(v, 0x7fc00000u);
    vblendvps(v, v, x, tiny);  // otherwise
    vxorps(w, w, w);
    vcmpps(u, x, w, kGt);
    vblendvps(v, v, e, u);  // finite
    splat(k, 0x7f800000u);
    vcmpps(u, x, k, kEq);
    vblendvps(v, v, k, u);  // nonZero
    vcmpps(u, x, w, kEq);
    splat(k, 0xff800000u);
    vblendvps(ymm0, v, k, u);
  }

  // sfuExp2 (sfu_math.h), step for step, into ymm0; the registers as log2's.
  void exp2(const Ymm& x) {
    const Ymm &xc = ymm4, &neg = ymm5, &n = ymm6, &y = ymm7, &p = ymm9, &t = ymm10, &k = ymm11;
    splat(k, -sfu::kExp2Clamp);
    vmaxps(xc, x, k);
    splat(k, sfu::kExp2Clamp);
    vminps(xc, xc, k);
    vxorps(t, t, t);
    vcmpps(neg, xc, t, kLt);
    vxorps(t, xc, ymm15);
    vblendvps(t, xc, t, neg);  // |xc|
    splat(k, sfu::kTwo23);
    vaddps(n, t, k);
    vsubps(n, n, k);  // ra
    vxorps(t, n, ymm15);
    vblendvps(n, n, t, neg);
    vsubps(y, xc, n);
    splat(k, sfu::kLn2);
    vmulps(y, y, k);
    const float* series = sfu::kExpSeries;
    splat(k, series[7]);
    vmulps(p, y, k);
    for (int i = 6; i >= 1; --i) {
      splat(k, series[i]);
      vaddps(p, k, p);
      vmulps(p, y, p);
    }
    splat(k, series[0]);
    vaddps(p, k, p);
    vcvttps2dq(n, n);
    vpsrad(t, n, 1);  // n1
    vpsubd(n, n, t);  // n2
    splat(k, 127u);
    vpaddd(t, t, k);
    vpslld(t, t, 23);
    vpaddd(n, n, k);
    vpslld(n, n, 23);
    vmulps(p, p, t);
    vmulps(p, p, n);
    vcmpps(t, x, x, kUnordered);
    vblendvps(ymm0, p, x, t);
  }

  // The result of one opcode into ymm0 from sources a, b, c (the interpreter's lambdas).
  void operation(Opcode op, const Ymm& a, const Ymm& b, const Ymm& c) {
    const Ymm& d = ymm0;
    switch (op) {
      case Opcode::Mov:
        vmovaps(d, a);
        break;
      case Opcode::Add:
        vaddps(d, a, b);
        break;
      case Opcode::Sub:
        vsubps(d, a, b);
        break;
      case Opcode::Mul:
        vmulps(d, a, b);
        break;
      case Opcode::Mad:  // unfused: the product is rounded before the add
        vmulps(d, a, b);
        vaddps(d, d, c);
        break;
      case Opcode::Min:
        vminps(d, a, b);
        break;  // a < b ? a : b
      case Opcode::Max:
        vmaxps(d, a, b);
        break;  // a > b ? a : b
      case Opcode::Trunc:
        trunc(d, a);
        break;
      case Opcode::Floor:
      case Opcode::Ceil:
      case Opcode::Fract: {
        // floor: t > x ? t - 1 : t; ceil: t < x ? t + 1 : t; fract: x - floor(x).
        trunc(ymm7, a);
        vcmpps(ymm4, op == Opcode::Ceil ? a : ymm7, op == Opcode::Ceil ? ymm7 : a, kGt);
        if (op == Opcode::Ceil)
          vaddps(ymm5, ymm7, ymm13);
        else
          vsubps(ymm5, ymm7, ymm13);
        vblendvps(d, ymm7, ymm5, ymm4);
        if (op == Opcode::Fract) vsubps(d, a, d);
        break;
      }
      case Opcode::Rnd: {
        // |x| < 2^23 ? copysign((|x| + 2^23) - 2^23, x) : x
        splat(ymm11, sfu::kTwo23);  // every float at least this large is an integer
        vandps(ymm4, a, ymm14);
        vaddps(ymm5, ymm4, ymm11);
        vsubps(ymm5, ymm5, ymm11);
        vandps(ymm6, a, ymm15);
        vorps(ymm5, ymm5, ymm6);
        vcmpps(ymm4, ymm4, ymm11, kLt);
        vblendvps(d, a, ymm5, ymm4);
        break;
      }
      case Opcode::Sign:
        // x > 0 ? 1 : (x < 0 ? -1 : 0); NaN gives 0.
        vxorps(ymm4, ymm4, ymm4);
        vcmpps(ymm5, a, ymm4, kGt);
        vcmpps(ymm6, a, ymm4, kLt);
        vandps(ymm5, ymm5, ymm13);
        splat(ymm11, kMinusOne);
        vandps(ymm6, ymm6, ymm11);
        vorps(d, ymm5, ymm6);
        break;
      case Opcode::Feq:
        vcmpps(d, a, b, kEq);
        break;
      case Opcode::Fne:
        vcmpps(d, a, b, kNeqUnordered);
        break;
      case Opcode::Flt:
        vcmpps(d, a, b, kLt);
        break;
      case Opcode::Fle:
        vcmpps(d, a, b, kLe);
        break;
      case Opcode::Fgt:
        vcmpps(d, a, b, kGt);
        break;
      case Opcode::Fge:
        vcmpps(d, a, b, kGe);
        break;
      case Opcode::Ieq:
        vpcmpeqd(d, a, b);
        break;
      case Opcode::Ine:
        vpcmpeqd(d, a, b);
        vpxor(d, d, ymm12);
        break;
      case Opcode::Igt:
        vpcmpgtd(d, a, b);
        break;
      case Opcode::Ilt:
        vpcmpgtd(d, b, a);
        break;
      case Opcode::Ile:
        vpcmpgtd(d, a, b);
        vpxor(d, d, ymm12);
        break;
      case Opcode::Ige:
        vpcmpgtd(d, b, a);
        vpxor(d, d, ymm12);
        break;
      case Opcode::Ult:
      case Opcode::Ule:
      case Opcode::Ugt:
      case Opcode::Uge: {
        // Unsigned order is the signed order of the patterns with their top bits flipped.
        vpxor(ymm4, a, ymm15);
        vpxor(ymm5, b, ymm15);
        const bool greater = op == Opcode::Ugt || op == Opcode::Ule;
        vpcmpgtd(d, greater ? ymm4 : ymm5, greater ? ymm5 : ymm4);
        if (op == Opcode::Ule || op == Opcode::Uge) vpxor(d, d, ymm12);
        break;
      }
      case Opcode::Sel:
        // a != 0 ? b : c, on the whole pattern.
        vpxor(ymm4, ymm4, ymm4);
        vpcmpeqd(ymm4, a, ymm4);
        vblendvps(d, b, c, ymm4);
        break;
      case Opcode::And:
        vpand(d, a, b);
        break;
      case Opcode::Or:
        vpor(d, a, b);
        break;
      case Opcode::Xor:
        vpxor(d, a, b);
        break;
      case Opcode::Not:
        vpxor(d, a, ymm12);
        break;
      case Opcode::Shl:
      case Opcode::Shr:
      case Opcode::Ashr:
        splat(ymm11, 31u);
        vpand(ymm4, b, ymm11);
        if (op == Opcode::Shl)
          vpsllvd(d, a, ymm4);
        else if (op == Opcode::Shr)
          vpsrlvd(d, a, ymm4);
        else
          vpsravd(d, a, ymm4);
        break;
      case Opcode::Iadd:
        vpaddd(d, a, b);
        break;
      case Opcode::Isub:
        vpsubd(d, a, b);
        break;
      case Opcode::Imul:
        vpmulld(d, a, b);
        break;
      case Opcode::Imin:
        vpminsd(d, a, b);
        break;
      case Opcode::Imax:
        vpmaxsd(d, a, b);
        break;
      case Opcode::Umin:
        vpminud(d, a, b);
        break;
      case Opcode::Umax:
        vpmaxud(d, a, b);
        break;
      case Opcode::I2f:
        vcvtdq2ps(d, a);
        break;
      case Opcode::U2f:
        // float(hi 16 bits) * 2^16 + float(low 16 bits): both exact, one rounding in the add.
        vpsrld(ymm4, a, 16);
        vpslld(ymm5, a, 16);
        vpsrld(ymm5, ymm5, 16);
        vcvtdq2ps(ymm4, ymm4);
        vcvtdq2ps(ymm5, ymm5);
        splat(ymm11, 0x47800000u);  // 65536.0f
        vmulps(ymm4, ymm4, ymm11);
        vaddps(d, ymm4, ymm5);
        break;
      case Opcode::F2i:
        // Saturating: NaN -> 0, >= 2^31 -> INT32_MAX; the conversion gives INT32_MIN below.
        vcvttps2dq(ymm4, a);
        splat(ymm11, 0x4f000000u);  // 2^31
        vcmpps(ymm5, a, ymm11, kGe);
        splat(ymm11, 0x7fffffffu);
        vblendvps(ymm4, ymm4, ymm11, ymm5);
        vcmpps(ymm5, a, a, kOrdered);
        vandps(d, ymm4, ymm5);
        break;
      case Opcode::F2u:
        // !(x > 0) -> 0, x >= 2^32 -> UINT32_MAX; from 2^31 on, convert x - 2^31 and set the
        // top bit.
        splat(ymm11, 0x4f000000u);  // 2^31
        vcmpps(ymm4, a, ymm11, kGe);
        vandps(ymm5, ymm4, ymm11);
        vsubps(ymm5, a, ymm5);
        vcvttps2dq(ymm5, ymm5);
        vandps(ymm6, ymm4, ymm15);
        vpor(ymm5, ymm5, ymm6);
        splat(ymm11, 0x4f800000u);  // 2^32
        vcmpps(ymm6, a, ymm11, kGe);
        vpor(ymm5, ymm5, ymm6);
        vxorps(ymm6, ymm6, ymm6);
        vcmpps(ymm6, a, ymm6, kGt);
        vandps(d, ymm5, ymm6);
        break;
      case Opcode::Log2:
        log2(a);
        break;
      case Opcode::Exp2:
        exp2(a);
        break;
      case Opcode::Rcp:
        vdivps(d, ymm13, a);
        break;
      case Opcode::Sqrt:
        vsqrtps(d, a);
        break;
      case Opcode::Rsq:
        vsqrtps(ymm4, a);
        vdivps(d, ymm13, ymm4);
        break;
      default:
        break;  // compilesToHost admits no other opcode
    }
  }
};

// The function at `offset` in finished code.
HostFn entry(const CodeGenerator& code, size_t offset) {
  return reinterpret_cast<HostFn>(reinterpret_cast<uintptr_t>(code.getCode() + offset));
}

}  // namespace

std::unique_ptr<HostProgram> HostProgram::compile(const isa::Program& p) {
  if (hostSimdPath() != SimdPath::Avx2) return nullptr;
  std::unique_ptr<HostProgram> host(new HostProgram);
  host->source_ = &p;
  host->start_.assign(p.code.size(), -1);
  struct Run {
    uint32_t begin, end;
    size_t full, masked;
  };
  std::vector<Run> runs;
  // A run: instructions that compile, and texture instructions between them, which it calls the
  // interpreter for; it holds at least one instruction that compiles.
  auto joinsRun = [](const Instr& in) { return compilesToHost(in) || callsOut(in); };
  try {
    auto code = std::make_unique<Emitter>();
    for (uint32_t pc = 0; pc < p.code.size();) {
      uint32_t end = pc;
      while (end < p.code.size() && joinsRun(p.code[end])) ++end;
      // Texture instructions alone are left to the interpreter: there is nothing to compile.
      if (std::none_of(p.code.begin() + pc, p.code.begin() + end, compilesToHost)) {
        pc = std::max(end, pc + 1);
        continue;
      }
      const size_t full = code->function(p, pc, end, false);
      runs.push_back({pc, end, full, code->function(p, pc, end, true)});
      pc = end;
    }
    if (runs.empty()) return nullptr;
    code->ready(CodeArray::PROTECT_RE);
    for (const Run& r : runs) {
      HostBlock b;
      b.end = r.end;
      b.counts = hostCounts(p, r.begin, r.end);
      for (uint32_t pc = r.begin; pc < r.end; ++pc)
        host->interpolates_ |= p.code[pc].op == Opcode::Ipl;
      b.full = entry(*code, r.full);
      b.masked = entry(*code, r.masked);
      host->start_[r.begin] = static_cast<int32_t>(host->blocks_.size());
      host->blocks_.push_back(b);
    }
    host->code_ = std::move(code);
  } catch (const Xbyak::Error&) {
    return nullptr;  // no executable memory: the interpreter runs the program
  }
  return host;
}
#else
std::unique_ptr<HostProgram> HostProgram::compile(const isa::Program&) {
  return nullptr;
}
#endif

}  // namespace tessera::gpu::sp
