// Frame reports below the command: libEGL takes the driver's batch reports at every swap whether
// or not reports were asked for (a long-running program must not pile them up), and the report
// library's JSON adds up what the batches say.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <gtest/gtest.h>

#include "api/egl_pbuffer.h"
#include "api/gles2/gl_context.h"
#include "report/counters_json.h"
#include "report/frame_range.h"
#include "report/gl_frame_json.h"

namespace {

using nlohmann::json;

class SwapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    egl_ = tessera::test::makePbufferContext(32, 32);
    ASSERT_TRUE(egl_.error.empty()) << egl_.error;
  }
  void TearDown() override { tessera::test::destroyPbufferContext(egl_); }
  static void clearFrame() {
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glFlush();
  }
  tessera::test::PbufferContext egl_;
};

TEST_F(SwapTest, EverySwapTakesTheDriversReportsWithoutReportsRequested) {
  tessera::gles2::Context* gl = tessera::gles2::current();
  ASSERT_NE(gl, nullptr);
  // Without a swap the driver keeps a report per flushed batch...
  clearFrame();
  clearFrame();
  EXPECT_EQ(gl->pipe().takeReports().size(), 2u);
  // ...and a swap takes those of the batches that retired, frame after frame: at most the
  // frame's one batch is left, if the GPU was still running it.
  for (int frame = 0; frame < 200; ++frame) {
    clearFrame();
    ASSERT_TRUE(eglSwapBuffers(egl_.display, egl_.surface));
    ASSERT_LE(gl->pipe().takeReports().size(), 1u) << "frame " << frame;
  }
}

TEST(FrameRange, ParsesOneFrameOrARange) {
  using tessera::report::parseFrameRange;
  const auto one = parseFrameRange("5");
  ASSERT_TRUE(one);
  EXPECT_FALSE(one->contains(4));
  EXPECT_TRUE(one->contains(5));
  EXPECT_FALSE(one->contains(6));
  const auto range = parseFrameRange("1-3");
  ASSERT_TRUE(range);
  EXPECT_TRUE(range->contains(1));
  EXPECT_TRUE(range->contains(3));
  EXPECT_FALSE(range->contains(4));
  EXPECT_TRUE(tessera::report::FrameRange{}.contains(123456));
  for (const char* bad : {"", "0", "0-3", "3-2", "-3", "3-", "a", "1-2x", "1--2", " 1"})
    EXPECT_FALSE(parseFrameRange(bad)) << bad;
}

tessera::driver::BatchReport batch(uint32_t draws, uint64_t packets, uint64_t resolveBytes) {
  tessera::driver::BatchReport b;
  b.mode = tessera::driver::RenderMode::Binning;
  b.reason = "test";
  b.draws = draws;
  b.clears = 1;
  b.stats.cp.packets = packets;
  b.stats.pc.points = draws;  // every block counter reaches the report
  b.stats.sp.divergentBranches = packets / 10;
  b.stats.bus[tessera::gpu::BusClient::GmemResolve].writeBytes = resolveBytes;
  return b;
}

TEST(GlFrameJson, SumsTheBatchesOfAFrame) {
  std::vector<tessera::driver::BatchReport> batches = {batch(1, 10, 100), batch(4, 20, 1000)};
  batches[1].layout.emplace();
  batches[1].layout->binW = 32;
  batches[1].layout->binH = 16;
  batches[1].layout->nx = 2;
  batches[1].layout->ny = 3;
  tessera::report::GlFrame f;
  f.number = 7;
  f.preset = "adreno-a630";
  f.mode = "binning";
  f.width = 64;
  f.height = 48;
  const json j = tessera::report::glFrameJson(f, batches);
  EXPECT_EQ(j["frame"], 7);
  EXPECT_EQ(j["size"], json::array({64, 48}));
  EXPECT_EQ(j["draws"], 5);
  EXPECT_EQ(j["clears"], 2);
  EXPECT_EQ(j["batch_count"], 2);
  EXPECT_EQ(j["counters"]["cp"]["packets"], 30);
  EXPECT_EQ(j["counters"]["pc"]["points"], 5);
  EXPECT_EQ(j["counters"]["sp"]["divergent_branches"], 3);
  EXPECT_EQ(j["bytes"]["gmem_resolve"]["write_bytes"], 1100);
  EXPECT_EQ(j["batches"][1]["cp"]["packets"], 20);
  // The bins are those of the batch with the most draws.
  EXPECT_EQ(j["bins"]["width"], 32);
  EXPECT_EQ(j["bins"]["nx"], 2);
  EXPECT_EQ(j["batches"][1]["layout"]["ny"], 3);
  EXPECT_TRUE(tessera::report::glFrameJson(f, {})["bins"].is_null());

  tessera::report::RunTotals totals;
  totals.addFrame(batches, true);
  totals.addFrame(batches, false);
  const json t = totals.toJson("adreno-a630", "binning");
  EXPECT_EQ(t["frames"], 2);
  EXPECT_EQ(t["frames_written"], 1);
  EXPECT_EQ(t["draws"], 10);
  EXPECT_EQ(t["batches"], 4);
  EXPECT_EQ(t["bytes"]["gmem_resolve"]["write_bytes"], 2200);
}

TEST(CountersJson, AddCountersSumsNumbersFieldByField) {
  json a = {{"x", 1}, {"o", {{"y", 2.5}}}, {"s", "keep"}};
  tessera::report::addCounters(a, {{"x", 2}, {"o", {{"y", 1.0}, {"z", 3}}}, {"s", "other"}});
  EXPECT_EQ(a["x"], 3);
  EXPECT_DOUBLE_EQ(a["o"]["y"].get<double>(), 3.5);
  EXPECT_EQ(a["o"]["z"], 3);
  EXPECT_EQ(a["s"], "keep");
}

}  // namespace
