// The lanes' data path: operand fetch, the ALU, FPU and SFU opcodes and the masked write-back.
// Each opcode is one branch-free loop over the 32 lanes of a warp. Rounding helpers, exp2 and
// log2 (sfu_math.h) avoid libm calls so the loops vectorize; sin and cos call libm per lane.
// arithmetic() runs on the active SIMD path (common/simd.h): its AVX2 clone inlines everything in
// this file.
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "common/lane_mask.h"
#include "common/simd.h"
#include "gpu/sp/executor.h"
#include "gpu/sp/sfu_math.h"

namespace tessera::gpu::sp {

using isa::File;
using isa::Instr;
using isa::Opcode;
using isa::Operand;

namespace {

constexpr float kExact = 8388608.0f;  // 2^23: every float at least this large is an integer

// Integer part toward zero; |x| >= 2^23, infinities and NaN are returned unchanged.
inline float truncF(float x) {
  const float t = static_cast<float>(static_cast<int32_t>(std::fabs(x) < kExact ? x : 0.0f));
  return std::fabs(x) < kExact ? std::copysign(t, x) : x;
}
inline float floorF(float x) {
  const float t = truncF(x);
  return t > x ? t - 1.0f : t;
}
inline float ceilF(float x) {
  const float t = truncF(x);
  return t < x ? t + 1.0f : t;
}
// Round half to even: adding and removing 2^23 rounds in the default rounding mode.
inline float rndF(float x) {
  const float a = std::fabs(x);
  const float r = (a + kExact) - kExact;
  return a < kExact ? std::copysign(r, x) : x;
}
// Saturating conversions (NaN -> 0), as GLSL leaves out-of-range conversions undefined.
inline int32_t f2i(float x) {
  if (!(x == x)) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x <= -2147483648.0f) return INT32_MIN;
  return static_cast<int32_t>(x);
}
inline uint32_t f2u(float x) {
  if (!(x > 0.0f)) return 0;
  if (x >= 4294967296.0f) return UINT32_MAX;
  return static_cast<uint32_t>(x);
}

inline uint32_t u(float f) {
  return std::bit_cast<uint32_t>(f);
}
inline int32_t i(float f) {
  return std::bit_cast<int32_t>(f);
}
inline float fu(uint32_t v) {
  return std::bit_cast<float>(v);
}
inline float fi(int32_t v) {
  return std::bit_cast<float>(v);
}
inline float boolBits(bool b) {
  return std::bit_cast<float>(0u - static_cast<uint32_t>(b));
}

template <class F>
inline void map1(float* r, const float* a, F f) {
  for (int l = 0; l < kLanes; ++l) r[l] = f(a[l]);
}
template <class F>
inline void map2(float* r, const float* a, const float* b, F f) {
  for (int l = 0; l < kLanes; ++l) r[l] = f(a[l], b[l]);
}
template <class F>
inline void map3(float* r, const float* a, const float* b, const float* c, F f) {
  for (int l = 0; l < kLanes; ++l) r[l] = f(a[l], b[l], c[l]);
}

void broadcast(float* dst, float v) {
  for (int l = 0; l < kLanes; ++l) dst[l] = v;
}

void applyModifiers(const float* src, float* dst, isa::Type type, bool neg, bool abs) {
  if (type == isa::Type::I) {
    for (int l = 0; l < kLanes; ++l) {
      uint32_t u = std::bit_cast<uint32_t>(src[l]);
      // Two's-complement on the unsigned pattern keeps INT_MIN well defined.
      if (abs && static_cast<int32_t>(u) < 0) u = 0u - u;
      if (neg) u = 0u - u;
      dst[l] = std::bit_cast<float>(u);
    }
    return;
  }
  const uint32_t clear = abs ? 0x7fffffffu : 0xffffffffu;
  const uint32_t flip = neg ? 0x80000000u : 0u;
  for (int l = 0; l < kLanes; ++l)
    dst[l] = std::bit_cast<float>((std::bit_cast<uint32_t>(src[l]) & clear) ^ flip);
}

}  // namespace

void WarpExecutor::updateSelect() {
  if (selFor_ == exec_) return;
  laneRowOf(exec_, sel_);
  selFor_ = exec_;
}

// Out of line, so that the loops' bodies stay small where fetchLanes is inlined.
[[noreturn, gnu::noinline, gnu::cold]] void constantOutOfRange(int64_t at, size_t bound,
                                                               bool relative) {
  badState((relative ? "relative constant read c[" + std::to_string(at) + "]"
                     : "shader reads c" + std::to_string(at)) +
           " beyond the " + std::to_string(bound) + " constants bound");
}

const float* WarpExecutor::fetch(const Operand& o, isa::Type type, float* tmp) {
  return fetchLanes(o, type, tmp);
}

const float* WarpExecutor::fetchLanes(const Operand& o, isa::Type type, float* tmp) {
  const float* p = tmp;
  switch (o.file) {
    case File::Reg:
      p = regs_[o.index];
      break;
    case File::Input:
      p = io_.inputs + o.index * kLanes;
      break;
    case File::Output:
      p = io_.outputs + o.index * kLanes;
      break;
    case File::Sys:
      p = o.index < 4    ? io_.fragCoord + o.index * kLanes
          : o.index == 4 ? ff_
                         : io_.pointCoord + (o.index - 5) * kLanes;
      break;
    case File::Imm:
      broadcast(tmp, std::bit_cast<float>(o.imm));
      break;
    case File::Const: {
      const std::span<const float> c = res_->constants;
      if (!o.rel) {
        if (static_cast<size_t>(o.index) >= c.size()) constantOutOfRange(o.index, c.size(), false);
        broadcast(tmp, c[o.index]);
        break;
      }
      for (int l = 0; l < kLanes; ++l) {
        const int64_t at = int64_t{a0_[l]} + o.index;
        if (!((exec_ >> l) & 1u)) {
          tmp[l] = 0.0f;
        } else if (at < 0 || static_cast<uint64_t>(at) >= c.size()) {
          constantOutOfRange(at, c.size(), true);
        } else {
          tmp[l] = c[at];
        }
      }
      break;
    }
    case File::Private:
      res_->memory->read(BusClient::ShaderPrivate, privateLine(o.index), tmp, kPrivateLineBytes);
      break;
    default:
      badState("operand file cannot be read");
  }
  if (o.neg || o.abs) {
    applyModifiers(p, tmp, type, o.neg, o.abs);
    p = tmp;
  }
  return p;
}

float* WarpExecutor::destination(const Operand& o) {
  return o.file == File::Output ? io_.outputs + o.index * kLanes : regs_[o.index];
}

void WarpExecutor::blend(float* dst, const float* result) {
  blendLanes(dst, result);
}

void WarpExecutor::blendLanes(float* dst, const float* result) {
  if (exec_ == ~0u) {
    std::memcpy(dst, result, sizeof(float) * kLanes);
    return;
  }
  updateSelect();
  for (int l = 0; l < kLanes; ++l) {
    const uint32_t r = std::bit_cast<uint32_t>(result[l]);
    const uint32_t d = std::bit_cast<uint32_t>(dst[l]);
    dst[l] = std::bit_cast<float>((r & sel_[l]) | (d & ~sel_[l]));
  }
}

float* WarpExecutor::resultRow(const Instr& in) {
  const bool direct =
      exec_ == ~0u && !in.sat && (in.dst.file == File::Reg || in.dst.file == File::Output);
  return direct ? destination(in.dst) : out_[0];
}

void WarpExecutor::store(const Instr& in, float* result) {
  storeLanes(in, result);
}

void WarpExecutor::storeLanes(const Instr& in, float* result) {
  if (result != out_[0]) return;  // computed in place (resultRow)
  if (in.sat) {
    // NaN fails both comparisons and becomes 0.
    for (int l = 0; l < kLanes; ++l) {
      const float v = result[l];
      result[l] = v >= 1.0f ? 1.0f : (v > 0.0f ? v : 0.0f);
    }
  }
  if (in.dst.file == File::Private) {
    // A masked store of one line: lanes outside the exec mask keep their dwords.
    const GpuAddress at = privateLine(in.dst.index);
    float line[kLanes];
    res_->memory->read(BusClient::ShaderPrivate, at, line, kPrivateLineBytes);
    blendLanes(line, result);
    res_->memory->write(BusClient::ShaderPrivate, at, line, kPrivateLineBytes);
    return;
  }
  blendLanes(destination(in.dst), result);
}

GpuAddress WarpExecutor::privateLine(int dword) const {
  const uint64_t need = uint64_t{prog_->privateDwords} * kPrivateLineBytes;
  if (res_->memory == nullptr || res_->privateBytes < need)
    badState("the shader needs " + std::to_string(need) + " bytes of private memory, " +
             std::to_string(res_->memory ? res_->privateBytes : 0) + " are bound");
  return res_->privateBase + static_cast<uint64_t>(dword) * kPrivateLineBytes;
}

void WarpExecutor::arithmetic(const isa::Instr& in) {
  withSimdPath([&] { arithmeticLanes(in); });
}

void WarpExecutor::arithmeticLanes(const isa::Instr& in) {
  const isa::OpInfo& info = isa::opInfo(in.op);
  const int n = isa::sourceCount(info.shape);
  const float* a = fetchLanes(in.src[0], info.type, tmp_[0]);
  const float* b = n > 1 ? fetchLanes(in.src[1], info.type, tmp_[1]) : a;
  const float* c = n > 2 ? fetchLanes(in.src[2], info.type, tmp_[2]) : a;
  // r may be a source's own row (resultRow): each lane is read before it is written.
  float* r = resultRow(in);
  switch (in.op) {
    case Opcode::Nop:
      return;
    case Opcode::Mov:
      if (r != a) std::memcpy(r, a, sizeof(float) * kLanes);
      break;
    case Opcode::Add:
      map2(r, a, b, [](float x, float y) { return x + y; });
      break;
    case Opcode::Sub:
      map2(r, a, b, [](float x, float y) { return x - y; });
      break;
    case Opcode::Mul:
      map2(r, a, b, [](float x, float y) { return x * y; });
      break;
    // Unfused: the product is rounded before the add (see docs/isa.md).
    case Opcode::Mad:
      map3(r, a, b, c, [](float x, float y, float z) { return x * y + z; });
      break;
    case Opcode::Min:
      map2(r, a, b, [](float x, float y) { return x < y ? x : y; });
      break;
    case Opcode::Max:
      map2(r, a, b, [](float x, float y) { return x > y ? x : y; });
      break;
    case Opcode::Floor:
      map1(r, a, floorF);
      break;
    case Opcode::Ceil:
      map1(r, a, ceilF);
      break;
    case Opcode::Fract:
      map1(r, a, [](float x) { return x - floorF(x); });
      break;
    case Opcode::Trunc:
      map1(r, a, truncF);
      break;
    case Opcode::Rnd:
      map1(r, a, rndF);
      break;
    case Opcode::Sign:
      map1(r, a, [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); });
      break;
    case Opcode::Feq:
      map2(r, a, b, [](float x, float y) { return boolBits(x == y); });
      break;
    case Opcode::Fne:
      map2(r, a, b, [](float x, float y) { return boolBits(x != y); });
      break;
    case Opcode::Flt:
      map2(r, a, b, [](float x, float y) { return boolBits(x < y); });
      break;
    case Opcode::Fle:
      map2(r, a, b, [](float x, float y) { return boolBits(x <= y); });
      break;
    case Opcode::Fgt:
      map2(r, a, b, [](float x, float y) { return boolBits(x > y); });
      break;
    case Opcode::Fge:
      map2(r, a, b, [](float x, float y) { return boolBits(x >= y); });
      break;
    case Opcode::Ieq:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) == i(y)); });
      break;
    case Opcode::Ine:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) != i(y)); });
      break;
    case Opcode::Ilt:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) < i(y)); });
      break;
    case Opcode::Ile:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) <= i(y)); });
      break;
    case Opcode::Igt:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) > i(y)); });
      break;
    case Opcode::Ige:
      map2(r, a, b, [](float x, float y) { return boolBits(i(x) >= i(y)); });
      break;
    case Opcode::Ult:
      map2(r, a, b, [](float x, float y) { return boolBits(u(x) < u(y)); });
      break;
    case Opcode::Ule:
      map2(r, a, b, [](float x, float y) { return boolBits(u(x) <= u(y)); });
      break;
    case Opcode::Ugt:
      map2(r, a, b, [](float x, float y) { return boolBits(u(x) > u(y)); });
      break;
    case Opcode::Uge:
      map2(r, a, b, [](float x, float y) { return boolBits(u(x) >= u(y)); });
      break;
    case Opcode::Sel:
      map3(r, a, b, c, [](float k, float x, float y) { return u(k) != 0 ? x : y; });
      break;
    case Opcode::And:
      map2(r, a, b, [](float x, float y) { return fu(u(x) & u(y)); });
      break;
    case Opcode::Or:
      map2(r, a, b, [](float x, float y) { return fu(u(x) | u(y)); });
      break;
    case Opcode::Xor:
      map2(r, a, b, [](float x, float y) { return fu(u(x) ^ u(y)); });
      break;
    case Opcode::Not:
      map1(r, a, [](float x) { return fu(~u(x)); });
      break;
    case Opcode::Shl:
      map2(r, a, b, [](float x, float y) { return fu(u(x) << (u(y) & 31)); });
      break;
    case Opcode::Shr:
      map2(r, a, b, [](float x, float y) { return fu(u(x) >> (u(y) & 31)); });
      break;
    case Opcode::Ashr:
      // Arithmetic shift of the signed value (defined for negatives since C++20).
      map2(r, a, b, [](float x, float y) { return fi(i(x) >> (u(y) & 31)); });
      break;
    // Integer add/sub/mul wrap modulo 2^32: computed on unsigned patterns to stay defined.
    case Opcode::Iadd:
      map2(r, a, b, [](float x, float y) { return fu(u(x) + u(y)); });
      break;
    case Opcode::Isub:
      map2(r, a, b, [](float x, float y) { return fu(u(x) - u(y)); });
      break;
    case Opcode::Imul:
      map2(r, a, b, [](float x, float y) { return fu(u(x) * u(y)); });
      break;
    case Opcode::Imin:
      map2(r, a, b, [](float x, float y) { return i(x) < i(y) ? x : y; });
      break;
    case Opcode::Imax:
      map2(r, a, b, [](float x, float y) { return i(x) > i(y) ? x : y; });
      break;
    case Opcode::Umin:
      map2(r, a, b, [](float x, float y) { return u(x) < u(y) ? x : y; });
      break;
    case Opcode::Umax:
      map2(r, a, b, [](float x, float y) { return u(x) > u(y) ? x : y; });
      break;
    // Division never traps: x / 0 is all ones and x % 0 is x; INT_MIN / -1 wraps to INT_MIN
    // with remainder 0 (the RISC-V M-extension rules, so every input has one defined result).
    case Opcode::Idiv:
      map2(r, a, b, [](float x, float y) {
        const int32_t num = i(x), d = i(y);
        if (d == 0) return fi(-1);
        if (d == -1) return fu(0u - u(x));
        return fi(num / d);
      });
      break;
    case Opcode::Irem:
      map2(r, a, b, [](float x, float y) {
        const int32_t num = i(x), d = i(y);
        if (d == 0) return x;
        if (d == -1) return fi(0);
        return fi(num % d);
      });
      break;
    case Opcode::Udiv:
      map2(r, a, b, [](float x, float y) { return u(y) == 0 ? fu(0xffffffffu) : fu(u(x) / u(y)); });
      break;
    case Opcode::Urem:
      map2(r, a, b, [](float x, float y) { return u(y) == 0 ? x : fu(u(x) % u(y)); });
      break;
    case Opcode::F2i:
      map1(r, a, [](float x) { return fi(f2i(x)); });
      break;
    case Opcode::I2f:
      map1(r, a, [](float x) { return static_cast<float>(i(x)); });
      break;
    case Opcode::U2f:
      map1(r, a, [](float x) { return static_cast<float>(u(x)); });
      break;
    case Opcode::F2u:
      map1(r, a, [](float x) { return fu(f2u(x)); });
      break;
    case Opcode::Rcp:
      map1(r, a, [](float x) { return 1.0f / x; });
      break;
    case Opcode::Rsq:
      map1(r, a, [](float x) { return 1.0f / std::sqrt(x); });
      break;
    case Opcode::Sqrt:
      map1(r, a, [](float x) { return std::sqrt(x); });
      break;
    case Opcode::Exp2:
      map1(r, a, sfuExp2);
      break;
    case Opcode::Log2:
      map1(r, a, sfuLog2);
      break;
    case Opcode::Sin:
      map1(r, a, [](float x) { return std::sin(x); });
      break;
    case Opcode::Cos:
      map1(r, a, [](float x) { return std::cos(x); });
      break;
    default:
      return;  // other units are dispatched by WarpExecutor::run
  }
  storeLanes(in, r);
}

}  // namespace tessera::gpu::sp
