// The timing model on synthetic work: each block's rate, latency hiding in the shader core, and
// the bin schedule's ordering and overlaps.
#include "gpu/perf/timing_model.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu/preset/preset.h"

namespace tessera::gpu::perf {
namespace {

double cyclesOf(const BlockCycles& c, Block b) {
  return c[static_cast<size_t>(b)];
}

Preset testPreset() {
  Preset p = findPreset("adreno-a630");
  p.busLatency = 0;
  return p;
}

TEST(BlockCycles, EachFixedFunctionBlockRunsAtItsPresetRate) {
  const Preset p = testPreset();
  BlockWork w;
  w.cpPackets = 10;
  w.attributeBytes = 6400;
  w.binnedPrimitives = 30;
  w.binHits = 70;
  w.blockUpdates = 30;
  w.triangles = 5;
  w.quads = 400;
  w.texels = 1600;
  w.ropSamples = 320;
  w.clearBytes = 640;
  w.restoreBytes = 1280;
  w.busBytes = 4200;
  const BlockCycles c = blockCycles(p, w);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Cp), 10.0 * p.cpCyclesPerPacket);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Vfd), 6400.0 / p.vfdBytesPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Vsc),
                   30.0 / p.binnerTrianglesPerCycle + 100.0 * p.binnerCyclesPerBinTouched);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Ras), 1600.0 / p.rasterPixelsPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Tex), 1600.0 / p.texelsPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Rb), 320.0 / p.ropSamplesPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Gmem), 1920.0 / p.gmemBytesPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Bus), 4200.0 / p.busBytesPerCycle);
  EXPECT_DOUBLE_EQ(cyclesOf(c, Block::Sp), 0.0);
}

TEST(BlockCycles, RasterizerIsBoundByTriangleSetupForTinyTriangles) {
  Preset p = testPreset();
  p.setupCyclesPerTriangle = 3;
  BlockWork w;
  w.triangles = 100;
  w.quads = 10;
  EXPECT_DOUBLE_EQ(cyclesOf(blockCycles(p, w), Block::Ras), 300.0);
}

BlockWork shaderWork(uint64_t warps, uint64_t fpuPerWarp, uint64_t registers) {
  BlockWork w;
  w.warps = warps;
  w.fpuInstructions = warps * fpuPerWarp;
  w.warpRegisters = warps * registers;
  return w;
}

TEST(BlockCycles, ResidentWarpsHideLatency) {
  const Preset p = testPreset();  // fpu latency 4
  // Plenty of warps with few registers: one instruction per core per cycle.
  const double issueBound = cyclesOf(blockCycles(p, shaderWork(1024, 100, 8)), Block::Sp);
  EXPECT_DOUBLE_EQ(issueBound, 1024.0 * 100 / p.shaderCores);
  // One warp: every dependent instruction waits out the latency.
  const double alone = cyclesOf(blockCycles(p, shaderWork(1, 100, 8)), Block::Sp);
  EXPECT_DOUBLE_EQ(alone, 100.0 * p.fpuLatency);
}

TEST(BlockCycles, RegisterPressureLowersOccupancy) {
  Preset p = testPreset();
  p.fpuLatency = 16;
  // 768 registers per lane: 8 registers fit the 16 warp slots, 192 fit only 4 warps.
  const double light = cyclesOf(blockCycles(p, shaderWork(1024, 50, 8)), Block::Sp);
  const double heavy = cyclesOf(blockCycles(p, shaderWork(1024, 50, 192)), Block::Sp);
  EXPECT_GT(heavy, light);
  EXPECT_DOUBLE_EQ(heavy, 1024.0 * 50 * 16 / (p.shaderCores * 4.0));
}

// `n` identical bins with the given restore, render and resolve work.
std::vector<PassWork> bins(size_t n, uint64_t restore, uint64_t renderTexels, uint64_t resolve) {
  std::vector<PassWork> passes;
  passes.push_back({PassKind::Setup, {}});
  for (size_t i = 0; i < n; ++i) {
    PassWork b{PassKind::Bin, {}};
    b.work.restoreBytes = restore;
    b.work.resolveBytes = resolve;
    b.work.texels = renderTexels;
    b.work.busBytes = restore + resolve;
    passes.push_back(b);
  }
  return passes;
}

// Every bin restores before it renders and renders before it resolves; the blit engine does one
// thing at a time; a tile buffer is not restored before its last bin's resolve is done.
void expectOrdered(const Preset& p, const SubmissionTiming& t) {
  const PassTiming* last = nullptr;
  const PassTiming* sameBuffer[2] = {nullptr, nullptr};
  size_t k = 0;
  for (const PassTiming& b : t.passes) {
    if (b.kind != PassKind::Bin) continue;
    EXPECT_LE(b.load.end(), b.render.start);
    EXPECT_LE(b.render.end(), b.store.start);
    if (last) {
      EXPECT_LE(last->render.end(), b.render.start);
      EXPECT_LE(last->store.end(), b.store.start);  // resolve FIFO order
    }
    const PassTiming*& prev = sameBuffer[k % p.tileBuffers];
    if (prev) {
      EXPECT_LE(prev->store.end(), b.load.start);
    }
    prev = &b;
    last = &b;
    ++k;
    EXPECT_LE(b.store.end(), t.cycles);
  }
}

TEST(Schedule, SingleTileBufferRunsRestoreRenderResolveInTurn) {
  Preset p = testPreset();
  p.tileBuffers = 1;
  const auto work = bins(6, 4200, 1600, 4200);
  const SubmissionTiming t = timeSubmission(p, work);
  expectOrdered(p, t);
  const PassTiming& b = t.passes[1];
  const double perBin = b.load.cycles + b.render.cycles + b.store.cycles;
  EXPECT_DOUBLE_EQ(t.cycles, 6 * perBin);
}

TEST(Schedule, ResolveBoundBinsGetFasterWithTwoTileBuffers) {
  Preset single = testPreset();
  single.tileBuffers = 1;
  Preset twin = single;
  twin.tileBuffers = 2;
  const auto work = bins(16, 0, 800, 8400);  // resolve 200 cycles, render 50
  const SubmissionTiming a = timeSubmission(single, work);
  const SubmissionTiming b = timeSubmission(twin, work);
  expectOrdered(single, a);
  expectOrdered(twin, b);
  EXPECT_LT(b.cycles, a.cycles);
  // Overlapped, the blit engine is the bottleneck: the frame is about the resolves back to back.
  EXPECT_NEAR(b.cycles, 16 * 200.0 + 50.0, 1e-9);
}

TEST(Schedule, ResolveBoundBinsGetFasterWithInterleaving) {
  Preset p = testPreset();
  p.tileBuffers = 1;
  const auto plain = bins(8, 0, 800, 8400);  // resolve 200 cycles, render 50
  auto interleaved = plain;
  for (PassWork& b : interleaved) {
    if (b.kind != PassKind::Bin) continue;
    // Four fifths of the blocks leave at a quarter, half, three quarters and the end of the
    // bin's rasterization; the last fifth after its last fragment.
    b.work.quads = 100;
    for (uint64_t q : {25u, 50u, 75u, 100u}) b.earlyResolves.push_back({q, 1680});
  }
  const SubmissionTiming a = timeSubmission(p, plain), c = timeSubmission(p, interleaved);
  EXPECT_LT(c.cycles, a.cycles);
  const PassTiming* last = nullptr;
  for (const PassTiming& b : c.passes) {
    if (b.kind != PassKind::Bin) continue;
    EXPECT_LE(b.load.end(), b.render.start);
    EXPECT_GE(b.store.start, b.render.start);  // early blocks leave while the bin renders
    EXPECT_LT(b.store.start, b.render.end());
    EXPECT_GE(b.store.end(), b.render.end());  // the last ones after its last fragment
    if (last) {
      EXPECT_LE(last->store.end(), b.load.start);  // one tile buffer
    }
    last = &b;
  }
  // Without early blocks the slices change nothing.
  auto none = plain;
  for (PassWork& b : none) b.earlyResolves.clear();
  EXPECT_DOUBLE_EQ(timeSubmission(p, none).cycles, a.cycles);
}

TEST(Schedule, PassesOtherThanBinsRunInOrderOnTheEngine) {
  const Preset p = testPreset();
  std::vector<PassWork> work = {{PassKind::Setup, {}}, {PassKind::Binning, {}}};
  work[0].work.cpPackets = 100;
  work[1].work.binnedPrimitives = 1000;
  const SubmissionTiming t = timeSubmission(p, work);
  ASSERT_EQ(t.passes.size(), 2u);
  EXPECT_DOUBLE_EQ(t.passes[1].render.start, t.passes[0].render.end());
  EXPECT_EQ(t.passes[1].bound, Block::Vsc);
  EXPECT_DOUBLE_EQ(t.cycles, t.passes[1].render.end());
  EXPECT_EQ(t.bound, Block::Vsc);
}

TEST(Schedule, WiderBusNeverSlowsRandomWork) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<uint64_t> amount(0, 5000);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<PassWork> work;
    work.push_back({PassKind::Setup, {}});
    work.push_back({PassKind::Binning, {}});
    for (int i = 0; i < 12; ++i) work.push_back({PassKind::Bin, {}});
    for (PassWork& pw : work)
      for (const WorkField& f : kWorkFields) pw.work.*f.member = amount(rng);
    for (PassWork& pw : work) {
      pw.work.busBytes += pw.work.restoreBytes + pw.work.resolveBytes;
      pw.work.warpRegisters = pw.work.warps * 16;
    }
    for (const char* name : {"adreno-a320", "milo832-kv260", "milo832-de2-115"}) {
      Preset narrow = findPreset(name);
      Preset wide = narrow;
      wide.busBytesPerCycle *= 2;
      EXPECT_LE(timeSubmission(wide, work).cycles, timeSubmission(narrow, work).cycles)
          << name << " trial " << trial;
    }
  }
}

TEST(Schedule, AppendPutsSubmissionsBackToBack) {
  const Preset p = testPreset();
  const auto work = bins(3, 100, 100, 100);
  const SubmissionTiming one = timeSubmission(p, work);
  SubmissionTiming two;
  append(two, one);
  append(two, one);
  EXPECT_DOUBLE_EQ(two.cycles, 2 * one.cycles);
  ASSERT_EQ(two.passes.size(), 2 * one.passes.size());
  EXPECT_DOUBLE_EQ(two.passes[one.passes.size() + 1].render.start,
                   one.cycles + one.passes[1].render.start);
  EXPECT_DOUBLE_EQ(two.milliseconds(), 2 * one.milliseconds());
}

}  // namespace
}  // namespace tessera::gpu::perf
