// Asynchronous submission: flush() hands a batch to the kernel and returns, and the application
// records the next one while the GPU model has not yet run the last (its dispatcher is paused
// here, so the order is certain). Buffers the submitted batches read are renamed or kept until
// they retire, uploads and readbacks wait for the batches that use the resource, and a context
// leaves nothing behind in GPU memory.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "common/error.h"
#include "driver_fixture.h"
#include "kmd/device.h"

namespace tessera::test {
namespace {

using driver::RenderMode;

// A GPU whose dispatcher starts paused.
struct PausedGpu {
  static kmd::DeviceOptions paused() {
    kmd::DeviceOptions o;
    o.startPaused = true;
    return o;
  }
  gpu::Device gpu{gpu::findPreset("adreno-a320")};
  kmd::Device kernel{gpu, paused()};
};

// Resumes the dispatcher when the scope ends (declared after the fixture, it ends first), so a
// failed expectation never leaves a context waiting on a paused GPU.
struct ResumeAtEnd {
  kmd::Device& kernel;
  ~ResumeAtEnd() { kernel.resumeDispatcher(); }
};

// Resumes the dispatcher from another thread a little later, while this one waits.
std::thread resumeSoon(kmd::Device& kernel) {
  return std::thread([&kernel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    kernel.resumeDispatcher();
  });
}

const std::vector<float> kLeftQuad = {-1, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f,
                                      -1, -0.5f, 0.5f, -0.5f, 0.5f,  0.5f, -1,    0.5f, 0.5f};

std::span<const uint8_t> bytesOf(const std::vector<float>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(float)};
}

// A fragment shader that outputs texture unit 0 at the vertex shader's texture coordinates.
constexpr const char* kSampleFs = R"(.stage fragment
.regs 8
.outputs 1
.varyings 3
ipl r0, v1.x
ipl r1, v1.y
sam r4, r0, r1, s0
mov o0.x, r4
mov o0.y, r5
mov o0.z, r6
mov o0.w, r7
end
)";

TEST(Async, TheApplicationRecordsWhileTheGpuHasNotRun) {
  for (RenderMode mode : {RenderMode::Sysmem, RenderMode::Binning}) {
    PausedGpu g;
    DriverFixture f(mode, g.kernel);
    ResumeAtEnd resume{g.kernel};
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
    f.drawQuad();  // red, over the centre
    f.ctx.flush();
    // flush() returned although nothing ran: the batch is the kernel's.
    EXPECT_EQ(f.ctx.batchesInFlight(), 1u);
    EXPECT_EQ(g.kernel.retiredTimestamp(f.ctx.kernelContext()), 0u);
    const kmd::Fence first = f.ctx.fence();
    EXPECT_FALSE(first.signaled());

    // The next batch: the quad moves left (the submitted batch keeps the old vertices: the
    // buffer is renamed) and turns green.
    f.ctx.updateBuffer(f.quad, 0, bytesOf(kLeftQuad));
    EXPECT_EQ(f.ctx.softwareCounters().bufferRenames, 1u);
    f.setColor({0, 1, 0, 1});
    f.drawQuad();
    f.ctx.flush();
    EXPECT_EQ(f.ctx.batchesInFlight(), 2u);
    // Both batches read the buffer: destroying it frees its BOs only once they retired.
    f.ctx.destroyResource(f.quad);
    EXPECT_FALSE(first.signaled());

    g.kernel.resumeDispatcher();
    f.ctx.finish();
    EXPECT_EQ(f.ctx.batchesInFlight(), 0u);
    EXPECT_TRUE(first.signaled());
    const std::vector<driver::BatchReport> reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 2u);
    for (const driver::BatchReport& r : reports) EXPECT_FALSE(r.fault) << r.fault->describe();
    const std::vector<uint8_t> image = f.ctx.readSurface(f.fb.color);
    const uint8_t* centre = f.pixel(image, DriverFixture::kW / 2, DriverFixture::kH / 2);
    const uint8_t* left = f.pixel(image, DriverFixture::kW / 8, DriverFixture::kH / 2);
    EXPECT_EQ(centre[0], 255) << renderModeName(mode);
    EXPECT_EQ(centre[1], 0) << renderModeName(mode);
    EXPECT_EQ(left[0], 0) << renderModeName(mode);
    EXPECT_EQ(left[1], 255) << renderModeName(mode);
  }
}

TEST(Async, AReadbackWaitsForTheBatchThatWroteTheSurface) {
  PausedGpu g;
  DriverFixture f(RenderMode::Binning, g.kernel);
  ResumeAtEnd resume{g.kernel};
  f.ctx.clear(pipe::kClearColor, {0, 0, 1, 1}, 1.0f, 0);
  f.ctx.flush();
  std::thread resumer = resumeSoon(g.kernel);
  const std::vector<uint8_t> image = f.ctx.readSurface(f.fb.color);
  resumer.join();
  EXPECT_EQ(g.kernel.retiredTimestamp(f.ctx.kernelContext()), 1u);
  EXPECT_EQ(f.pixel(image, 0, 0)[2], 255);
}

TEST(Async, AnUploadWaitsForTheBatchesThatSampleTheTexture) {
  PausedGpu g;
  DriverFixture f(RenderMode::Binning, g.kernel);
  ResumeAtEnd resume{g.kernel};
  f.ctx.bindShaders(f.vsId,
                    f.ctx.createFragmentShader(isa::encode(isa::assemble(kSampleFs, "sample.fs"))));
  const pipe::ResourceId tex = f.ctx.createTexture({pipe::TexFormat::RGBA8, 1, 1, 1});
  f.ctx.uploadTexture(tex, 0, 0, std::vector<uint8_t>{255, 0, 0, 255});
  f.ctx.setTexture(pipe::ShaderStage::Fragment, 0, tex, {});
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.drawQuad();  // red texel, over the centre
  // Recorded but not flushed: the upload submits the batch, then waits until it ran.
  std::thread resumer = resumeSoon(g.kernel);
  f.ctx.uploadTexture(tex, 0, 0, std::vector<uint8_t>{0, 0, 255, 255});
  resumer.join();
  EXPECT_EQ(f.ctx.batchesInFlight(), 0u);
  f.ctx.updateBuffer(f.quad, 0, bytesOf(kLeftQuad));
  f.drawQuad();  // blue texel, at the left
  f.ctx.finish();
  const std::vector<uint8_t> image = f.ctx.readSurface(f.fb.color);
  EXPECT_EQ(f.pixel(image, DriverFixture::kW / 2, DriverFixture::kH / 2)[0], 255);
  EXPECT_EQ(f.pixel(image, DriverFixture::kW / 8, DriverFixture::kH / 2)[2], 255);
  EXPECT_EQ(f.pixel(image, DriverFixture::kW / 8, DriverFixture::kH / 2)[0], 0);
}

// A cleared frame with the quad drawn under an occlusion query, flushed.
pipe::QueryId flushQueriedQuad(DriverFixture& f) {
  const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.beginQuery(q);
  f.drawQuad();
  f.ctx.endQuery(q);
  f.ctx.flush();
  return q;
}

TEST(Async, AQueryResultComesWhenItsBatchRetired) {
  PausedGpu g;
  DriverFixture f(RenderMode::Binning, g.kernel);
  ResumeAtEnd resume{g.kernel};
  const pipe::QueryId q = flushQueriedQuad(f);
  EXPECT_FALSE(f.ctx.queryResult(q, false).available);
  std::thread resumer = resumeSoon(g.kernel);
  const pipe::QueryResult r = f.ctx.queryResult(q, true);
  resumer.join();
  ASSERT_TRUE(r.available);
  // The quad covers half the width and half the height.
  EXPECT_EQ(r.value, uint64_t{DriverFixture::kW / 2} * (DriverFixture::kH / 2));
}

TEST(Async, AContextLeavesNothingInGpuMemory) {
  gpu::Device gpu(gpu::findPreset("adreno-a630"));
  kmd::Device kernel(gpu);
  const size_t before = gpu.memory().view()->size();
  {
    DriverFixture f(RenderMode::Binning, kernel);
    flushQueriedQuad(f);
    f.ctx.updateBuffer(f.quad, 0, bytesOf(kLeftQuad));  // renamed under the submitted batch
    f.drawQuad();
    f.ctx.flush();
    // Destroyed with its batches possibly still queued: it waits for them, then frees all.
  }
  EXPECT_EQ(gpu.memory().view()->size(), before);
}

// What a batch's report says about its visibility streams and its traffic.
std::vector<uint64_t> streamFigures(const std::vector<driver::BatchReport>& reports) {
  std::vector<uint64_t> v;
  for (const driver::BatchReport& r : reports) {
    v.push_back(r.visibilityOverflow);
    v.push_back(r.stats.vsc.overflowedPipes);
    v.push_back(r.stats.vsc.bytesRead);
    v.push_back(r.stats.bus.totalGpuBytes());
  }
  return v;
}

// Frames of many small quads on visibility streams far too small: the driver grows them from
// the sizes the GPU reported. With `waitEachFrame` the program finishes every frame; with
// `stallGpu` the GPU starts late, so the program runs as far ahead as it can.
std::vector<uint64_t> overflowingFrames(bool waitEachFrame, bool stallGpu) {
  gpu::Preset preset = gpu::findPreset("adreno-a320");
  preset.vscPipeBytes = 16;
  gpu::Device gpu(preset);
  kmd::DeviceOptions options;
  options.startPaused = stallGpu;
  kmd::Device kernel(gpu, options);
  std::thread resumer = resumeSoon(kernel);
  {
    DriverFixture f(RenderMode::Binning, kernel);
    for (int frame = 0; frame < 5; ++frame) {
      f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
      for (int k = 0; k < 40; ++k) f.drawQuad();
      f.ctx.flushFrame();
      if (waitEachFrame) f.ctx.finish();
    }
    f.ctx.finish();
    resumer.join();
    return streamFigures(f.ctx.takeReports());
  }
}

TEST(Async, StreamGrowthDependsOnTheProgramNotOnTheGpusProgress) {
  // A program that waits for every frame: the frame after an overflow fits.
  const std::vector<uint64_t> waited = overflowingFrames(true, false);
  ASSERT_EQ(waited.size(), 5u * 4u);
  EXPECT_EQ(waited[0], 1u);  // the first frame overflowed
  EXPECT_EQ(waited[4], 0u);  // the second fits
  EXPECT_EQ(overflowingFrames(true, true), waited);
  // One that runs ahead: the GPU may still run the last frame while the next is built, so the
  // growth reaches the frame after next, however early or late the GPU runs.
  const std::vector<uint64_t> ahead = overflowingFrames(false, false);
  EXPECT_EQ(ahead[4], 1u);
  EXPECT_EQ(ahead[16], 0u);
  for (int run = 0; run < 2; ++run) EXPECT_EQ(overflowingFrames(false, run == 0), ahead);
}

}  // namespace
}  // namespace tessera::test
