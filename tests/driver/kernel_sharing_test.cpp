// Several driver contexts share one GPU through the kernel-mode layer (seed on Adreno's driver
// stack): two good contexts render the same images whether or not a third context, between
// their batches, submits an endless shader loop, an IB that calls itself, an IB outside memory
// and random packets; the bad one is recovered, then found guilty, and its later submissions
// fail cleanly.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "common/error.h"
#include "driver/driver_fixture.h"
#include "gpu/cp/command_writer.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;
using test::kEndlessFs;

// Draw objects a buggy or hostile user-mode driver could hand the kernel.
std::vector<kmd::DrawObject> badObjects(gpu::GpuMemory& memory, std::mt19937& rng) {
  std::vector<kmd::DrawObject> out;
  auto ib = [&](const std::vector<uint32_t>& words) {
    const gpu::GpuAddress a = memory.allocate(words.size() * 4 + 4, "bad ib");
    memory.write(gpu::BusClient::Host, a, words.data(), words.size() * 4);
    kmd::DrawObject o;
    o.ibs = {{a, static_cast<uint32_t>(words.size())}};
    o.flags = kmd::DrawFlags::EndOfFrame;
    return o;
  };
  // An IB that calls itself.
  const gpu::GpuAddress self = memory.allocate(16, "self ib");
  const std::vector<uint32_t> call = {gpu::cp::type7Header(0x3f, 3), static_cast<uint32_t>(self),
                                      static_cast<uint32_t>(self >> 32), 4};
  memory.write(gpu::BusClient::Host, self, call.data(), 16);
  kmd::DrawObject loop;
  loop.ibs = {{self, 4}};
  loop.flags = kmd::DrawFlags::EndOfFrame;
  out.push_back(std::move(loop));
  // An IB pointing outside memory.
  kmd::DrawObject outside;
  outside.ibs = {{0x7fff'0000'0000ull, 16}};
  outside.flags = kmd::DrawFlags::EndOfFrame;
  out.push_back(std::move(outside));
  // Random packets.
  std::vector<uint32_t> random(64);
  for (uint32_t& w : random) w = rng();
  out.push_back(ib(random));
  return out;
}

struct Images {
  std::vector<uint8_t> a, b;
};

Images run(bool withBad) {
  gpu::Device gpu(gpu::findPreset("adreno-a320"));
  kmd::Device kernel(gpu);
  DriverFixture a(RenderMode::Binning, kernel, 4), b(RenderMode::Sysmem, kernel, 12);
  b.setColor({0, 1, 0, 1});
  std::unique_ptr<DriverFixture> bad;
  kmd::ContextId raw = 0;
  std::mt19937 rng(7);
  if (withBad) {
    bad = std::make_unique<DriverFixture>(RenderMode::Binning, kernel, 8);
    bad->ctx.bindShaders(bad->vsId, bad->ctx.createFragmentShader(
                                        isa::encode(isa::assemble(kEndlessFs, "endless.fs"))));
    raw = kernel.createContext(0, "raw");
  }
  for (int frame = 0; frame < 4; ++frame) {
    a.ctx.clear(pipe::kClearColor, {0, 0, 0.2f * frame, 1}, 1.0f, 0);
    a.drawQuad();
    if (bad) {
      bad->drawQuad();
      // The hang faults its batch (reported once it ran), until the context is guilty and
      // refused.
      EXPECT_THROW(
          {
            bad->ctx.flushFrame();
            bad->ctx.finish();
          },
          Error);
      for (kmd::DrawObject& o : badObjects(gpu.memory(), rng)) {
        if (kernel.resetStatus(raw) == kmd::ResetStatus::Guilty) break;
        const kmd::Timestamp ts = kernel.submit(raw, std::move(o));
        kernel.waitTimestamp(raw, ts, std::chrono::seconds(60));
      }
    }
    b.ctx.clear(pipe::kClearColor, {0.1f * frame, 0, 0, 1}, 1.0f, 0);
    b.drawQuad();
    a.ctx.flushFrame();
    b.ctx.flushFrame();
  }
  if (withBad) {
    // Recovery ran out of steps: both bad contexts are guilty, the good ones untouched.
    EXPECT_EQ(kernel.resetStatus(raw), kmd::ResetStatus::Guilty);
    EXPECT_EQ(bad->ctx.resetStatus(), kmd::ResetStatus::Guilty);
    EXPECT_NE(a.ctx.resetStatus(), kmd::ResetStatus::Guilty);
    EXPECT_NE(b.ctx.resetStatus(), kmd::ResetStatus::Guilty);
    bool hang = false;
    for (const kmd::FaultRecord& f : kernel.faults())
      hang |= f.fault.kind == gpu::FaultKind::Runaway;  // the endless shader
    EXPECT_TRUE(hang);
    EXPECT_THROW(kernel.submit(raw, badObjects(gpu.memory(), rng)[0]), Error);
    bad->drawQuad();
    EXPECT_THROW(bad->ctx.flushFrame(), Error);
    EXPECT_FALSE(kernel.faults().empty());
  }
  return {a.ctx.readSurface(a.fb.color), b.ctx.readSurface(b.fb.color)};
}

TEST(KernelSharing, AFaultLeavesASnapshotTheErrorNames) {
  const std::string dir = ::testing::TempDir() + "/tessera-kernel-snapshots";
  gpu::Device gpu(gpu::findPreset("adreno-a320"));
  kmd::DeviceOptions options;
  options.snapshotFolder = dir;
  kmd::Device kernel(gpu, options);
  DriverFixture bad(RenderMode::Binning, kernel);
  bad.ctx.bindShaders(
      bad.vsId, bad.ctx.createFragmentShader(isa::encode(isa::assemble(kEndlessFs, "endless.fs"))));
  bad.drawQuad();
  try {
    bad.ctx.flushFrame();
    bad.ctx.finish();
    FAIL() << "the endless shader must fault";
  } catch (const Error& e) {
    const std::string what = e.what();
    const size_t at = what.find("(snapshot: ");
    ASSERT_NE(at, std::string::npos) << what;
    const std::string path = what.substr(at + 11, what.size() - at - 12);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("CP_"), std::string::npos) << path;  // the decoded ring and IBs
  }
}

TEST(KernelSharing, GoodContextsRenderTheSameWithABadOneBesideThem) {
  const Images alone = run(false), beside = run(true);
  EXPECT_TRUE(alone.a == beside.a);
  EXPECT_TRUE(alone.b == beside.b);
  EXPECT_NE(alone.a, alone.b);
}

}  // namespace
}  // namespace tessera
