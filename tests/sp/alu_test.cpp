// ALU, FPU and SFU opcodes against the C++ library, lane by lane, including modifiers,
// saturation, relative constant addressing and masked writes; the SFU's exp2 and log2 against
// the correctly rounded results.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "gpu/sp/sfu_math.h"
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

class Alu : public testing::SpFixture {
 protected:
  // Runs "<op> o0.x, i0.x[, i0.y]" with the given per-lane operands; returns o0.x per lane.
  std::vector<float> run(const std::string& op, const std::vector<float>& a,
                         const std::vector<float>& b = {}) {
    auto w = vertexWarp();
    for (int l = 0; l < kLanes; ++l) {
      w->in[0][0][l] = a[l % a.size()];
      w->in[0][1][l] = b.empty() ? 0.0f : b[l % b.size()];
    }
    std::string text =
        ".stage vertex\n" + op + " o0.x, i0.x" + (b.empty() ? "" : ", i0.y") + "\nend\n";
    runVs(text, *w);
    return std::vector<float>(w->out[0][0], w->out[0][0] + kLanes);
  }
  std::vector<float> ints(std::initializer_list<int32_t> v) {
    std::vector<float> r;
    for (int32_t x : v) r.push_back(bits(static_cast<uint32_t>(x)));
    return r;
  }
};

const std::vector<float> kRoundingInputs = {-0.5f,
                                            0.5f,
                                            1.5f,
                                            2.5f,
                                            -2.5f,
                                            -1.5f,
                                            3.7f,
                                            -3.7f,
                                            0.49999997f,
                                            -0.0f,
                                            0.0f,
                                            1e10f,
                                            -1e10f,
                                            8388607.5f,
                                            -8388607.5f,
                                            4194303.5f,
                                            123.456f,
                                            -7.0f,
                                            1e-30f,
                                            -1e-30f,
                                            std::numeric_limits<float>::infinity(),
                                            -std::numeric_limits<float>::infinity()};

// How many floats apart two results are (0 for two NaNs; far apart when only one is NaN or
// infinite).
int64_t ulpDistance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT32_MAX;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return INT32_MAX;
  auto ordered = [](float f) {
    const int32_t i = std::bit_cast<int32_t>(f);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  return std::abs(ordered(a) - ordered(b));
}

void expectSame(float got, float want, const std::string& what) {
  EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
      << what << ": got " << got << " want " << want;
}

TEST_F(Alu, RoundingMatchesTheCLibraryBitExactly) {
  const auto& in = kRoundingInputs;
  auto floorR = run("floor", in), ceilR = run("ceil", in), truncR = run("trunc", in);
  auto rndR = run("rnd", in), fractR = run("fract", in), signR = run("sign", in);
  for (size_t k = 0; k < in.size(); ++k) {
    const float x = in[k];
    const std::string at = std::to_string(x);
    expectSame(floorR[k], std::floor(x), "floor " + at);
    expectSame(ceilR[k], std::ceil(x), "ceil " + at);
    expectSame(truncR[k], std::trunc(x), "trunc " + at);
    expectSame(rndR[k], std::nearbyint(x), "rnd " + at);
    if (std::isfinite(x)) {
      EXPECT_EQ(fractR[k], x - std::floor(x)) << at;
    }
    EXPECT_EQ(signR[k], x > 0 ? 1.0f : (x < 0 ? -1.0f : 0.0f)) << at;
  }
}

TEST_F(Alu, SpecialFunctionsMatchTheCLibrary) {
  std::vector<float> in;
  for (int l = 0; l < kLanes; ++l) in.push_back(0.1f + static_cast<float>(l) * 0.73f);
  auto rcp = run("rcp", in), rsq = run("rsq", in), sqrtR = run("sqrt", in);
  auto ex = run("exp2", in), lg = run("log2", in), sn = run("sin", in), cs = run("cos", in);
  for (int l = 0; l < kLanes; ++l) {
    const float x = in[l];
    EXPECT_FLOAT_EQ(rcp[l], 1.0f / x);
    EXPECT_FLOAT_EQ(rsq[l], 1.0f / std::sqrt(x));
    EXPECT_FLOAT_EQ(sqrtR[l], std::sqrt(x));
    EXPECT_EQ(std::bit_cast<uint32_t>(ex[l]),
              std::bit_cast<uint32_t>(sfuExp2(x)));  // the SFU's own function, lane by lane
    EXPECT_EQ(std::bit_cast<uint32_t>(lg[l]), std::bit_cast<uint32_t>(sfuLog2(x)));
    EXPECT_NEAR(sn[l], std::sin(x), 1e-6f);
    EXPECT_NEAR(cs[l], std::cos(x), 1e-6f);
  }
  EXPECT_TRUE(std::isinf(run("rcp", {0.0f})[0]));
  // exp2 and log2's special cases, through the interpreter.
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> lgIn = {-1.0f, 0.0f, -0.0f, inf, nan, 1.0f, 8.0f, 1e-45f, -inf};
  const std::vector<float> lgOut = run("log2", lgIn);
  EXPECT_TRUE(std::isnan(lgOut[0]));
  EXPECT_EQ(lgOut[1], -inf);
  EXPECT_EQ(lgOut[2], -inf);
  EXPECT_EQ(lgOut[3], inf);
  EXPECT_TRUE(std::isnan(lgOut[4]));
  EXPECT_EQ(lgOut[5], 0.0f);
  EXPECT_EQ(lgOut[6], 3.0f);
  EXPECT_EQ(lgOut[7], -149.0f);  // the smallest denormal
  EXPECT_TRUE(std::isnan(lgOut[8]));
  const std::vector<float> exIn = {-inf, inf, nan, 0.0f, 10.0f, -149.0f, -151.0f, 128.0f, 127.5f};
  const std::vector<float> exOut = run("exp2", exIn);
  EXPECT_EQ(exOut[0], 0.0f);
  EXPECT_EQ(exOut[1], inf);
  EXPECT_TRUE(std::isnan(exOut[2]));
  EXPECT_EQ(exOut[3], 1.0f);
  EXPECT_EQ(exOut[4], 1024.0f);
  EXPECT_EQ(exOut[5], std::ldexp(1.0f, -149));
  EXPECT_EQ(exOut[6], 0.0f);
  EXPECT_EQ(exOut[7], inf);
  EXPECT_EQ(ulpDistance(exOut[8], static_cast<float>(std::exp2(127.5))), 0);
}

// The SFU's exp2 and log2 (sfu_math.h) over the whole float range, every 4099th bit pattern:
// within 3 ulp of the correctly rounded result, as GLSL ES 3.00 asks, and exact at integers.
TEST(SfuMath, ExpAndLogAreWithinThreeUlpsEverywhere) {
  int64_t worstLog = 0, worstExp = 0;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    worstLog =
        std::max(worstLog, ulpDistance(sfuLog2(x), static_cast<float>(std::log2(double{x}))));
    worstExp =
        std::max(worstExp, ulpDistance(sfuExp2(x), static_cast<float>(std::exp2(double{x}))));
  }
  EXPECT_LE(worstLog, 3);
  EXPECT_LE(worstExp, 3);
  for (int n = -149; n < 128; ++n) {
    EXPECT_EQ(sfuExp2(static_cast<float>(n)), std::ldexp(1.0f, n)) << n;
    EXPECT_EQ(sfuLog2(std::ldexp(1.0f, n)), static_cast<float>(n)) << n;
  }
}

TEST_F(Alu, FloatArithmeticAndComparisons) {
  std::vector<float> a = {1.5f, -2.0f, 3.0f, 0.0f}, b = {2.0f, -2.0f, -1.0f, -0.0f};
  auto add = run("add", a, b), sub = run("sub", a, b), mul = run("mul", a, b);
  auto mn = run("min", a, b), mx = run("max", a, b);
  auto lt = run("flt", a, b), eq = run("feq", a, b), ge = run("fge", a, b), ne = run("fne", a, b);
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(add[k], a[k] + b[k]);
    EXPECT_EQ(sub[k], a[k] - b[k]);
    EXPECT_EQ(mul[k], a[k] * b[k]);
    EXPECT_EQ(mn[k], std::min(a[k], b[k]));
    EXPECT_EQ(mx[k], std::max(a[k], b[k]));
    // Booleans are all ones (true) or zero (false).
    EXPECT_EQ(bitsOf(lt[k]), a[k] < b[k] ? ~0u : 0u);
    EXPECT_EQ(bitsOf(eq[k]), a[k] == b[k] ? ~0u : 0u);  // 0 == -0
    EXPECT_EQ(bitsOf(ge[k]), a[k] >= b[k] ? ~0u : 0u);
    EXPECT_EQ(bitsOf(ne[k]), a[k] != b[k] ? ~0u : 0u);
  }
}

// mad rounds the product before adding (docs/isa.md), so the compiler may turn a mul and an
// add into one: (1 + 2^-12)^2 - 1 is 2^-11 unfused, 2^-11 + 2^-24 fused.
TEST_F(Alu, MadRoundsTheProductLikeMulThenAdd) {
  const float x = 1.0f + 0x1p-12f, y = 1.0f + 0x1p-22f;
  const std::vector<float> a = {x, y, -x, 3.0f}, b = {x, y, x, 1e-8f},
                           c = {-1.0f, -1.0f, 1.0f, 7.0f};
  auto w = vertexWarp();
  for (int l = 0; l < kLanes; ++l) {
    w->in[0][0][l] = a[l % a.size()];
    w->in[0][1][l] = b[l % b.size()];
    w->in[0][2][l] = c[l % c.size()];
  }
  runVs(".stage vertex\nmad o0.x, i0.x, i0.y, i0.z\nend\n", *w);
  for (size_t k = 0; k < a.size(); ++k) {
    volatile float product = a[k] * b[k];  // rounded to fp32 here
    expectSame(w->out[0][0][k], product + c[k], "mad lane " + std::to_string(k));
  }
  EXPECT_NE(w->out[0][0][0], std::fma(x, x, -1.0f));
}

TEST_F(Alu, IntegerOpsWrapAndShift) {
  auto a = ints({INT32_MAX, -7, 5, INT32_MIN, 100});
  auto b = ints({1, 2, -3, -1, 33});
  auto u = [&](const std::vector<float>& v, size_t k) { return bitsOf(v[k]); };
  auto add = run("iadd", a, b), sub = run("isub", a, b), mul = run("imul", a, b);
  auto mn = run("imin", a, b), umx = run("umax", a, b), shl = run("shl", a, b);
  auto shr = run("shr", a, b), ashr = run("ashr", a, b), ilt = run("ilt", a, b);
  auto ult = run("ult", a, b), x = run("xor", a, b), nt = run("not", a);
  for (size_t k = 0; k < 5; ++k) {
    const uint32_t ua = bitsOf(a[k]), ub = bitsOf(b[k]);
    const int32_t ia = static_cast<int32_t>(ua), ib = static_cast<int32_t>(ub);
    EXPECT_EQ(u(add, k), ua + ub);
    EXPECT_EQ(u(sub, k), ua - ub);
    EXPECT_EQ(u(mul, k), ua * ub);
    EXPECT_EQ(u(mn, k), static_cast<uint32_t>(std::min(ia, ib)));
    EXPECT_EQ(u(umx, k), std::max(ua, ub));
    EXPECT_EQ(u(shl, k), ua << (ub & 31));
    EXPECT_EQ(u(shr, k), ua >> (ub & 31));
    EXPECT_EQ(u(ashr, k), static_cast<uint32_t>(ia >> (ub & 31)));
    EXPECT_EQ(u(ilt, k), ia < ib ? ~0u : 0u);
    EXPECT_EQ(u(ult, k), ua < ub ? ~0u : 0u);
    EXPECT_EQ(u(x, k), ua ^ ub);
    EXPECT_EQ(u(nt, k), ~ua);
  }
}

// Division has one defined result for every input: x / 0 is all ones, x % 0 is x, and
// INT_MIN / -1 wraps.
TEST_F(Alu, IntegerDivisionNeverTraps) {
  auto a = ints({7, -7, 7, -7, INT32_MIN, 5, -5});
  auto b = ints({2, 2, -2, -2, -1, 0, 0});
  auto q = run("idiv", a, b), r = run("irem", a, b), uq = run("udiv", a, b), ur = run("urem", a, b);
  const int32_t iq[] = {3, -3, -3, 3, INT32_MIN, -1, -1};
  const int32_t ir[] = {1, -1, 1, -1, 0, 5, -5};
  for (size_t k = 0; k < 7; ++k) {
    const uint32_t ua = bitsOf(a[k]), ub = bitsOf(b[k]);
    EXPECT_EQ(static_cast<int32_t>(bitsOf(q[k])), iq[k]) << k;
    EXPECT_EQ(static_cast<int32_t>(bitsOf(r[k])), ir[k]) << k;
    EXPECT_EQ(bitsOf(uq[k]), ub ? ua / ub : 0xffffffffu) << k;
    EXPECT_EQ(bitsOf(ur[k]), ub ? ua % ub : ua) << k;
  }
}

TEST_F(Alu, ConversionsSaturate) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto f2i = run("f2i", {2.9f, -2.9f, 3e9f, -3e9f, nan});
  EXPECT_EQ(static_cast<int32_t>(bitsOf(f2i[0])), 2);
  EXPECT_EQ(static_cast<int32_t>(bitsOf(f2i[1])), -2);
  EXPECT_EQ(static_cast<int32_t>(bitsOf(f2i[2])), INT32_MAX);
  EXPECT_EQ(static_cast<int32_t>(bitsOf(f2i[3])), INT32_MIN);
  EXPECT_EQ(bitsOf(f2i[4]), 0u);
  auto f2u = run("f2u", {2.9f, -2.9f, 5e9f, nan});
  EXPECT_EQ(bitsOf(f2u[0]), 2u);
  EXPECT_EQ(bitsOf(f2u[1]), 0u);
  EXPECT_EQ(bitsOf(f2u[2]), UINT32_MAX);
  EXPECT_EQ(bitsOf(f2u[3]), 0u);
  EXPECT_EQ(run("i2f", ints({-5}))[0], -5.0f);
  EXPECT_EQ(run("u2f", ints({-1}))[0], 4294967296.0f);
}

TEST_F(Alu, ModifiersSaturateAndSelect) {
  auto w = vertexWarp();
  for (int l = 0; l < kLanes; ++l) {
    w->in[0][0][l] = static_cast<float>(l) - 16.0f;  // -16..15
    w->in[0][1][l] = bits(static_cast<uint32_t>(l - 16));
  }
  runVs(R"(.stage vertex
.outputs 2
mov o0.x, -|i0.x|
add.sat o0.y, i0.x, 0.5
iadd o0.z, -i0.y, |i0.y|      ; -v + |v|: 0 for v >= 0, -2v below
flt r0, i0.x, 0
sel o0.w, r0, 100, i0.x
mul.sat o1.x, i0.x, 0x7fc00000   ; NaN saturates to 0
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    const float x = static_cast<float>(l) - 16.0f;
    EXPECT_EQ(w->out[0][0][l], -std::fabs(x));
    EXPECT_EQ(w->out[0][1][l], std::clamp(x + 0.5f, 0.0f, 1.0f));
    EXPECT_EQ(static_cast<int32_t>(bitsOf(w->out[0][2][l])), l < 16 ? -2 * (l - 16) : 0);
    EXPECT_EQ(w->out[0][3][l], x < 0 ? 100.0f : x);
    EXPECT_EQ(w->out[1][0][l], 0.0f);
  }
}

TEST_F(Alu, RelativeConstantsIndexPerLane) {
  for (int k = 0; k < 64; ++k) constants[k] = static_cast<float>(k) * 10.0f;
  auto w = vertexWarp();
  for (int l = 0; l < kLanes; ++l) w->in[0][0][l] = static_cast<float>(l);
  runVs(R"(.stage vertex
f2i r0, i0.x
mova a0.x, r0
mov o0.x, c[a0.x + 5]
mov o0.y, -c[a0.x]
mov o0.z, c3
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    EXPECT_EQ(w->out[0][0][l], static_cast<float>(l + 5) * 10.0f);
    EXPECT_EQ(w->out[0][1][l], -static_cast<float>(l) * 10.0f);
    EXPECT_EQ(w->out[0][2][l], 30.0f);
  }
}

TEST_F(Alu, WritesOnlyLanesInTheMask) {
  auto w = vertexWarp(0x0000ff0fu);
  for (int l = 0; l < kLanes; ++l) w->out[0][0][l] = -1.0f;
  runVs(".stage vertex\nmov o0.x, 7\nend\n", *w);
  for (int l = 0; l < kLanes; ++l)
    EXPECT_EQ(w->out[0][0][l], ((0x0000ff0fu >> l) & 1) ? 7.0f : -1.0f) << l;
  EXPECT_EQ(core.stats().vertexWarps, 1u);
  EXPECT_EQ(core.stats().instructions, 2u);
  EXPECT_EQ(core.stats().laneInstructions, 24u);
  // A warp with no lanes runs nothing.
  auto empty = vertexWarp(0);
  runVs(".stage vertex\nmov o0.x, 7\nend\n", *empty);
  EXPECT_EQ(core.stats().instructions, 2u);
  core.resetStats();
  EXPECT_EQ(core.stats().vertexWarps, 0u);
}

// Registers read as zero at the start of a warp whatever the warp before left in them: read
// before any write, and in killed lanes after the kill (a derivative still reads those).
TEST_F(Alu, RegistersReadAsZeroWhateverTheWarpBeforeLeft) {
  auto dirty = fragmentWarp();
  runFs(".stage fragment\nmov r0, 99\nmov r1, 99\nmov r2, 99\nmov o0.x, r0\nend\n", *dirty);
  auto w = fragmentWarp();
  // Kill the left column of every quad (fc.x is 0.5, 2.5, ...: x mod 2 == 0), then write r2 in
  // the surviving lanes: dsx reads r2 of the killed top-left pixel.
  runFs(R"(.stage fragment
mov o0.y, r1
mul r0, fc.x, 0.5
fract r0, r0
flt r0, r0, 0.5
killif r0
mov r2, 5
dsx o0.x, r2
end
)",
        *w);
  for (int l = 0; l < kLanes; ++l) {
    EXPECT_EQ(w->color[1][l], 0.0f) << l;  // r1, never written
    if ((w->coverage >> l) & 1) {
      EXPECT_EQ(w->color[0][l], 5.0f) << l;  // 5 - 0, not 5 - 99
    }
  }
  EXPECT_EQ(w->coverage, 0xaaaaaaaau);
}

}  // namespace
}  // namespace tessera::gpu::sp
