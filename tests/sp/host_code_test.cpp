// Compiled runs (gpu/sp/host_code.h) against the interpreter: random programs of every opcode
// that compiles, with every operand file, modifier and .sat it may take, on special and random
// values, under full and partial lane masks and inside divergent control flow. Outputs and issue
// counts must be the same to the bit.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/simd.h"
#include "gpu/sp/host_code.h"
#include "gpu/sp/shader_core.h"
#include "gpu/tex/texture_unit.h"
#include "isa/assembler.h"

namespace tessera::gpu::sp {
namespace {

using isa::Opcode;

// Values where the opcodes' special cases lie, mixed with random floats and integers.
const std::vector<uint32_t> kSpecial = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u,
    0xc0200000u, 0x4b000000u, 0xcb000000u, 0x4afffffeu, 0x4affffffu, 0x4f000000u, 0xcf000000u,
    0x4f800000u, 0x4effffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
    0x7f7fffffu, 0x00000001u, 0x807fffffu, 0x00000005u, 0xfffffffbu, 0x0000001fu, 0x00000021u,
    0x7fffffffu, 0x80000001u, 0x40490fdbu, 0xc2f6e979u};

// Opcodes whose result is an fp32 number (a NaN where the operation gives one).
bool fpResult(const isa::OpInfo& info) {
  return info.type == isa::Type::F && (info.flags & isa::kSatOk) != 0;
}

// The opcodes (other than nop) that compile with register operands.
std::vector<const isa::OpInfo*> compiledOpcodes() {
  std::vector<const isa::OpInfo*> out;
  for (const isa::OpInfo& info : isa::kOpTable) {
    isa::Instr probe;
    probe.op = info.op;
    probe.dst = {isa::File::Reg};
    for (auto& src : probe.src) src = {isa::File::Reg};
    if (info.op != Opcode::Nop && compilesToHost(probe)) out.push_back(&info);
  }
  return out;
}

class HostCode : public ::testing::Test {
 protected:
  void SetUp() override {
    if (hostSimdPath() != SimdPath::Avx2) GTEST_SKIP() << "compiled runs need AVX2";
    before_ = simdPath();
    setSimdPath(SimdPath::Avx2);
  }
  void TearDown() override {
    setSimdPath(before_);
    setHostCode(true);
  }

  uint32_t value() {
    if (rng_() % 2 == 0) return kSpecial[rng_() % kSpecial.size()];
    if (rng_() % 2 == 0) return static_cast<uint32_t>(static_cast<int32_t>(rng_() % 200) - 100);
    const float f = std::uniform_real_distribution<float>(-300.0f, 300.0f)(rng_);
    return std::bit_cast<uint32_t>(f);
  }

  std::string source(const isa::OpInfo& info, bool allowImmediate) {
    const bool modifiable = info.type == isa::Type::F || info.type == isa::Type::I;
    std::string s;
    switch (rng_() % (allowImmediate ? 5 : 4)) {
      case 0:
      case 1:
        s = "r" + std::to_string(rng_() % 8);
        break;
      case 2:
        s = "i" + std::to_string(rng_() % 4) + "." + "xyzw"[rng_() % 4];
        break;
      case 3:
        s = "c" + std::to_string(rng_() % 8);
        break;
      default: {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08x", value());
        return hex;  // no modifiers on immediates
      }
    }
    if (!modifiable) return s;
    switch (rng_() % 4) {
      case 0:
        return "-" + s;
      case 1:
        return "|" + s + "|";
      case 2:
        return "-|" + s + "|";
      default:
        return s;
    }
  }

  std::string instruction(const isa::OpInfo& info) {
    std::string s(info.name);
    if ((info.flags & isa::kSatOk) && rng_() % 3 == 0) s += ".sat";
    s += " r" + std::to_string(rng_() % 8);
    for (int k = 0; k < isa::sourceCount(info.shape); ++k) s += ", " + source(info, true);
    return s + "\n";
  }

  // Runs `body` with r0..r7 loaded from i0 and i1 and stored to o0 and o1 afterwards, once
  // compiled and once interpreted, on the same inputs and constants; expects the same outputs
  // and counts.
  // `anyNan`: a NaN result matches any NaN. When two sources of an fp32 operation are NaN, which
  // one the result carries follows the host instruction's operand order, which the interpreter's
  // compiler chooses (docs/isa.md leaves it unspecified); every other result is exact.
  void compare(const std::string& body, uint32_t mask, bool anyNan) {
    std::string text = ".stage vertex\n";
    for (int r = 0; r < 8; ++r)
      text +=
          "mov r" + std::to_string(r) + ", i" + std::to_string(r / 4) + "." + "xyzw"[r % 4] + "\n";
    text += body;
    for (int r = 0; r < 8; ++r)
      text +=
          "mov o" + std::to_string(r / 4) + "." + "xyzw"[r % 4] + ", r" + std::to_string(r) + "\n";
    text += "end\n";
    const isa::Program program = isa::assemble(text, "random.vs");
    const std::unique_ptr<HostProgram> host = HostProgram::compile(program);
    ASSERT_NE(host, nullptr) << text;
    std::vector<float> constants(8);
    for (float& c : constants) c = std::bit_cast<float>(value());
    auto warp = std::make_unique<VertexWarp>();
    warp->laneMask = mask;
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 4; ++c)
        for (int l = 0; l < kLanes; ++l) warp->in[a][c][l] = std::bit_cast<float>(value());
    for (int k = 0; k < 2; ++k)
      for (int c = 0; c < 4; ++c)
        for (int l = 0; l < kLanes; ++l) warp->out[k][c][l] = std::bit_cast<float>(value());
    auto interpreted = std::make_unique<VertexWarp>(*warp);
    ShaderResources res;
    res.constants = constants;
    res.host = host.get();

    ShaderCore compiledCore, interpretedCore;
    setHostCode(true);
    compiledCore.runVertex(program, *warp, res);
    setHostCode(false);
    interpretedCore.runVertex(program, *interpreted, res);
    setHostCode(true);

    ASSERT_TRUE(sameOutputs(&warp->out[0][0][0], &interpreted->out[0][0][0], 8, anyNan)) << text;
    expectSameCounts(compiledCore.stats(), interpretedCore.stats());
  }

  // Output rows o0.x, o0.y, ... (`components` of them, 32 lanes each) of the compiled and the
  // interpreted run: the same bits, a NaN matching any NaN when `anyNan` (compare()).
  static testing::AssertionResult sameOutputs(const float* got, const float* want, int components,
                                              bool anyNan) {
    for (int k = 0; k < components; ++k)
      for (int l = 0; l < kLanes; ++l) {
        const float g = got[k * kLanes + l], w = want[k * kLanes + l];
        if (anyNan && g != g && w != w) continue;
        if (std::bit_cast<uint32_t>(g) != std::bit_cast<uint32_t>(w))
          return testing::AssertionFailure()
                 << "o" << k / 4 << "."
                 << "xyzw"[k % 4] << " lane " << l << ": compiled " << std::bit_cast<uint32_t>(g)
                 << ", interpreted " << std::bit_cast<uint32_t>(w) << " of\n";
      }
    return testing::AssertionSuccess();
  }

  static void expectSameCounts(const SpStats& a, const SpStats& b) {
    EXPECT_EQ(a.instructions, b.instructions);
    EXPECT_EQ(a.laneInstructions, b.laneInstructions);
    EXPECT_EQ(a.fpuInstructions, b.fpuInstructions);
    EXPECT_EQ(a.sfuInstructions, b.sfuInstructions);
    EXPECT_EQ(a.branchInstructions, b.branchInstructions);
    EXPECT_EQ(a.texInstructions, b.texInstructions);
    EXPECT_EQ(a.textureSamples, b.textureSamples);
  }

  std::mt19937 rng_{20261124};
  SimdPath before_ = SimdPath::Portable;
};

// Every opcode that compiles, alone in its runs, over many random operand choices and masks.
TEST_F(HostCode, EveryCompiledOpcodeMatchesTheInterpreter) {
  const std::vector<const isa::OpInfo*> opcodes = compiledOpcodes();
  for (const isa::OpInfo* op : opcodes) {
    const isa::OpInfo& info = *op;
    SCOPED_TRACE(std::string(info.name));
    for (int round = 0; round < 24; ++round) {
      std::string body;
      for (int k = 0; k < 6; ++k) body += instruction(info);
      compare(body, round % 3 == 0 ? ~0u : static_cast<uint32_t>(rng_()), fpResult(info));
    }
  }
  EXPECT_GE(opcodes.size(), 45u);  // the set docs/isa.md lists
}

// Runs of mixed opcodes, split by instructions that do not compile and entered under divergent
// masks. The opcodes are those with fp32 results, which read their sources as numbers: a NaN's
// payload reaches no result that is not a NaN.
TEST_F(HostCode, RunsBetweenControlFlowMatchTheInterpreter) {
  std::vector<const isa::OpInfo*> compiled;
  for (const isa::OpInfo* info : compiledOpcodes())
    if (fpResult(*info)) compiled.push_back(info);
  for (int round = 0; round < 40; ++round) {
    auto run = [&] {
      std::string s;
      for (int k = 0; k < 1 + static_cast<int>(rng_() % 5); ++k)
        s += instruction(*compiled[rng_() % compiled.size()]);
      return s;
    };
    const std::string body = run() + "flt r8, i2.x, 0.0\nif r8\n" + run() + "sin r1, r2\n" + run() +
                             "else\n" + run() + "endif\n" + run();
    compare(body, round % 2 == 0 ? ~0u : static_cast<uint32_t>(rng_()), true);
  }
}

// ipl compiled, in runs with arithmetic, against the interpreter: quads of one triangle and of
// several, flat and smooth varyings, .sat, full and partial masks (a quad without lanes has no
// varyings), on random barycentrics and values.
TEST_F(HostCode, InterpolationMatchesTheInterpreter) {
  const char* ops[] = {"add", "mul", "mad", "max"};
  for (int round = 0; round < 60; ++round) {
    std::string text = ".stage fragment\n.varyings 4\n.flat v2\n";
    for (int k = 0; k < 12; ++k) {
      const std::string reg = "r" + std::to_string(rng_() % 4);
      if (k < 4 || rng_() % 2 == 0) {
        text += std::string(rng_() % 4 == 0 ? "ipl.sat " : "ipl ") + reg + ", v" +
                std::to_string(rng_() % 4) + "." + "xyzw"[rng_() % 4] + "\n";
      } else {
        const char* op = ops[rng_() % 4];
        text += std::string(op) + " " + reg + ", r" + std::to_string(rng_() % 4) + ", r" +
                std::to_string(rng_() % 4) + (op == std::string("mad") ? ", c0" : "") + "\n";
      }
    }
    for (int c = 0; c < 4; ++c)
      text += std::string("mov o0.") + "xyzw"[c] + ", r" + std::to_string(c) + "\n";
    text += "end\n";
    const isa::Program program = isa::assemble(text, "ipl.fs");
    const std::unique_ptr<HostProgram> host = HostProgram::compile(program);
    ASSERT_NE(host, nullptr) << text;
    ASSERT_TRUE(host->interpolates());

    // Three triangles' vertex values; quads take one of them, or all the same one.
    std::vector<float> blocks(3 * 3 * kMaxVaryings * 4);
    for (float& v : blocks) v = std::bit_cast<float>(value());
    auto warp = std::make_unique<FragmentWarp>();
    warp->laneMask = round % 3 == 0 ? ~0u : static_cast<uint32_t>(rng_()) & 0x0ff0ffffu;
    warp->coverage = warp->laneMask;
    const bool shared = round % 2 == 0;
    for (int q = 0; q < kLanes / 4; ++q)
      warp->varyings[q] = (warp->laneMask >> (4 * q) & 0xfu) == 0
                              ? nullptr
                              : blocks.data() + (shared ? 0 : rng_() % 3) * 3 * kMaxVaryings * 4;
    for (int l = 0; l < kLanes; ++l) {
      warp->bary[0][l] = std::uniform_real_distribution<float>(-0.5f, 1.5f)(rng_);
      warp->bary[1][l] = std::uniform_real_distribution<float>(-0.5f, 1.5f)(rng_);
      for (int c = 0; c < 4; ++c) warp->color[c][l] = std::bit_cast<float>(value());
    }
    auto interpreted = std::make_unique<FragmentWarp>(*warp);
    ShaderResources res;
    const float constant = std::bit_cast<float>(value());
    res.constants = {&constant, 1};
    res.host = host.get();
    ShaderCore compiledCore, interpretedCore;
    setHostCode(true);
    compiledCore.runFragment(program, *warp, res);
    setHostCode(false);
    interpretedCore.runFragment(program, *interpreted, res);
    setHostCode(true);
    ASSERT_TRUE(sameOutputs(&warp->color[0][0], &interpreted->color[0][0], 4, true)) << text;
    expectSameCounts(compiledCore.stats(), interpretedCore.stats());
  }
}

// Texture instructions inside compiled runs, where the run calls the interpreter for them,
// against the interpreter alone: sam, samb, saml, txf and txs between arithmetic on their
// coordinates and on their results, on NEAREST and LINEAR textures with and without a cache,
// memory pinned (as in a GPU run, where whole warps take TextureUnit::sampleWarp) or not, under
// full and partial masks. Results, the shader's counts and the texture unit's counters must be
// the same.
TEST_F(HostCode, TextureInstructionsInRunsMatchTheInterpreter) {
  GpuMemory memory;
  std::vector<uint8_t> texels(32 * 16 * 4);
  for (uint8_t& b : texels) b = static_cast<uint8_t>(rng_());
  tex::TextureDescriptor d;
  d.base = memory.allocate(texels.size(), "texture");
  memory.write(BusClient::Host, d.base, texels.data(), texels.size());
  d.format = tex::TexFormat::RGBA8;
  d.width = 32;
  d.height = 16;
  const char* samples[] = {"sam r4, r2, r3, s0", "samb r4, r2, r3, c3, s0",
                           "saml r4, r2, r3, 0, s0", "txf r4, r5, r6, 0, s0", "txs r4, 0, s0"};
  for (int round = 0; round < 48; ++round) {
    d.minFilter = d.magFilter = round % 2 == 0 ? tex::Filter::Nearest : tex::Filter::Linear;
    const bool pinned = round % 4 < 2;
    std::string text = ".stage fragment\n.regs 12\nmul r0, fc.x, c0\nmul r1, fc.y, c1\n";
    const int taps = 2 + static_cast<int>(rng_() % 5);
    for (int k = 0; k < taps; ++k) {
      // A tap's coordinates: an offset of a few texels, also as texel indices for txf.
      text += "add r2, r0, " + std::to_string((static_cast<int>(rng_() % 7) - 3) / 32.0) +
              "\nadd r3, r1, c2\nmul r5, r2, 32.0\nf2i r5, r5\nmul r6, r3, 16.0\nf2i r6, r6\n";
      text += std::string(samples[rng_() % std::size(samples)]) + "\n";
      // The results summed, with source modifiers (which read constants the run keeps in
      // registers across the call).
      const char* forms[] = {"r%d", "-r%d", "|r%d|", "-|r%d|"};
      for (int c = 0; c < 4; ++c) {
        char result[8];
        std::snprintf(result, sizeof result, forms[rng_() % 4], 4 + c);
        text += "mad r" + std::to_string(8 + c) + ", " + result + ", c3, r" +
                std::to_string(8 + c) + "\n";
      }
    }
    for (int c = 0; c < 4; ++c)
      text += std::string("mov o0.") + "xyzw"[c] + ", r" + std::to_string(8 + c) + "\n";
    text += "end\n";
    const isa::Program program = isa::assemble(text, "taps.fs");
    const std::unique_ptr<HostProgram> host = HostProgram::compile(program);
    ASSERT_NE(host, nullptr) << text;
    ASSERT_EQ(host->blockCount(), 1u) << text;  // the samples are inside the run
    const float constants[4] = {1.0f / 64.0f, 1.0f / 32.0f,
                                (static_cast<float>(rng_() % 3) - 1.0f) / 16.0f, 0.25f};
    auto warp = std::make_unique<FragmentWarp>();
    warp->laneMask = round % 3 == 0 ? ~0u : static_cast<uint32_t>(rng_());
    warp->coverage = warp->laneMask;
    for (int l = 0; l < kLanes; ++l) {
      warp->fragCoord[0][l] = static_cast<float>(rng_() % 40) + 0.5f;
      warp->fragCoord[1][l] = static_cast<float>(rng_() % 20) + 0.5f;
    }
    auto interpreted = std::make_unique<FragmentWarp>(*warp);
    const tex::TexCacheConfig cache{round % 8 < 4 ? 1024u : 0u, 64, 4};
    tex::TextureUnit compiledUnit(memory), interpretedUnit(memory);
    compiledUnit.configureCache(cache);
    interpretedUnit.configureCache(cache);
    const tex::TextureDescriptor bound[1] = {d};
    ShaderResources res;
    res.constants = constants;
    res.textures = bound;
    res.host = host.get();
    ShaderCore compiledCore, interpretedCore;
    {
      std::optional<GpuMemory::ViewScope> view;
      if (pinned) view.emplace(memory, memory.view());
      setHostCode(true);
      res.textureUnit = &compiledUnit;
      for (int k = 0; k < 2; ++k) compiledCore.runFragment(program, *warp, res);
      setHostCode(false);
      res.textureUnit = &interpretedUnit;
      for (int k = 0; k < 2; ++k) interpretedCore.runFragment(program, *interpreted, res);
      setHostCode(true);
    }
    ASSERT_TRUE(sameOutputs(&warp->color[0][0], &interpreted->color[0][0], 4, false)) << text;
    expectSameCounts(compiledCore.stats(), interpretedCore.stats());
    const tex::TexStats a = compiledUnit.takeStats(), b = interpretedUnit.takeStats();
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << text;
  }
}

// A texture instruction that faults inside a compiled run faults the warp as the interpreter
// does: the same fault, and issue counts that end with the faulting instruction.
TEST_F(HostCode, ATextureFaultInARunIsTheInterpretersFault) {
  const isa::Program program = isa::assemble(
      ".stage fragment\n.regs 8\nmul r0, fc.x, 0.125\nsam r4, r0, r0, s0\nadd r1, r4, 1.0\n"
      "sam r4, r1, r0, s2\nadd r3, r1, r0\nsin r2, r3\nmul o0.x, r2, r4\nend\n",
      "fault.fs");
  const std::unique_ptr<HostProgram> host = HostProgram::compile(program);
  ASSERT_NE(host, nullptr);
  ASSERT_NE(host->at(0), nullptr);
  ASSERT_EQ(host->at(0)->end, 5u);  // sin does not compile; the faulting sam is inside the run
  GpuMemory memory;
  const uint8_t texel[4] = {255, 0, 0, 255};
  tex::TextureDescriptor d;
  d.base = memory.allocate(sizeof texel, "texel");
  memory.write(BusClient::Host, d.base, texel, sizeof texel);
  d.width = d.height = 1;
  const tex::TextureDescriptor bound[1] = {d};
  tex::TextureUnit unit(memory);
  ShaderResources res;
  res.textures = bound;
  res.textureUnit = &unit;
  res.host = host.get();
  std::string faults[2];
  SpStats stats[2];
  for (int compiled = 0; compiled < 2; ++compiled) {
    setHostCode(compiled == 1);
    auto warp = std::make_unique<FragmentWarp>();
    warp->laneMask = warp->coverage = ~0u;
    ShaderCore core;
    try {
      core.runFragment(program, *warp, res);
    } catch (const GpuFault& f) {
      faults[compiled] = f.what();
    }
    stats[compiled] = core.stats();
  }
  setHostCode(true);
  EXPECT_NE(faults[1].find("sampler s2 beyond the 1 textures bound"), std::string::npos)
      << faults[1];
  EXPECT_EQ(faults[1], faults[0]);
  expectSameCounts(stats[1], stats[0]);
  EXPECT_EQ(stats[1].instructions, 4u);
  EXPECT_EQ(stats[1].texInstructions, 2u);
}

// A lane whose quad has no varyings is the interpreter's to report, compiled code or not.
TEST_F(HostCode, AQuadWithoutVaryingsIsReported) {
  const isa::Program program =
      isa::assemble(".stage fragment\n.varyings 1\nipl o0.x, v0.x\nend\n", "ipl.fs");
  const std::unique_ptr<HostProgram> host = HostProgram::compile(program);
  ASSERT_NE(host, nullptr);
  auto warp = std::make_unique<FragmentWarp>();
  warp->laneMask = warp->coverage = 0xffu;  // quads 0 and 1; quad 1 has no varyings
  const std::vector<float> block(3 * kMaxVaryings * 4, 1.0f);
  warp->varyings[0] = block.data();
  ShaderResources res;
  res.host = host.get();
  ShaderCore core;
  try {
    core.runFragment(program, *warp, res);
    FAIL() << "no fault";
  } catch (const GpuFault& f) {
    EXPECT_NE(std::string(f.what()).find("quad 1 has no varyings"), std::string::npos) << f.what();
  }
}

TEST_F(HostCode, ProgramsWithoutCompiledInstructionsHaveNone) {
  const isa::Program p = isa::assemble(".stage vertex\nsin o0.x, i0.x\nend\n", "none.vs");
  EXPECT_EQ(HostProgram::compile(p), nullptr);
  isa::Instr relative;
  relative.op = Opcode::Add;
  relative.dst = {isa::File::Reg};
  relative.src[0] = {isa::File::Const, false, false, true};
  relative.src[1] = {isa::File::Reg};
  EXPECT_FALSE(compilesToHost(relative));
}

// Compiled code of another program is not used: a program's runs are tied to it.
TEST_F(HostCode, AnotherProgramsCodeIsIgnored) {
  const isa::Program a = isa::assemble(".stage vertex\nadd o0.x, i0.x, 1.0\nend\n", "a.vs");
  const isa::Program b = isa::assemble(".stage vertex\nmul o0.x, i0.x, 3.0\nend\n", "b.vs");
  const std::unique_ptr<HostProgram> host = HostProgram::compile(a);
  ASSERT_NE(host, nullptr);
  auto warp = std::make_unique<VertexWarp>();
  warp->laneMask = ~0u;
  for (int l = 0; l < kLanes; ++l) warp->in[0][0][l] = 2.0f;
  ShaderResources res;
  res.host = host.get();
  ShaderCore core;
  core.runVertex(b, *warp, res);
  EXPECT_EQ(warp->out[0][0][0], 6.0f);
}

TEST(HostCodeSetting, EnvironmentValues) {
  std::string problem;
  EXPECT_TRUE(hostCodeFor("", problem));
  EXPECT_TRUE(hostCodeFor("on", problem));
  EXPECT_FALSE(hostCodeFor("off", problem));
  EXPECT_TRUE(problem.empty());
  EXPECT_TRUE(hostCodeFor("fast", problem));
  EXPECT_EQ(problem, "TESSERA_SHADER_JIT=fast is not on or off; using on");
}

}  // namespace
}  // namespace tessera::gpu::sp
