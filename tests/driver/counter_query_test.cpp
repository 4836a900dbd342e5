// Time, primitive and counter queries stay exact across bins and batches: a counters query that
// spans a whole batch reads every block counter the batch report has, on every preset, mode and
// scheme; primitives generated counts each primitive once; time elapsed and timestamps follow
// the timing model's clock; the driver's software counters count what it did; and the
// counters agree with each other.
#include <gtest/gtest.h>

#include <numeric>

#include "common/error.h"
#include "driver/query_fixture.h"
#include "gpu/pipeline/countables.h"
#include "report/counters_json.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;
using namespace test::query;

std::vector<uint32_t> allCounters(DriverFixture& f) {
  std::vector<uint32_t> all(f.ctx.counterList().size());
  std::iota(all.begin(), all.end(), 0u);
  return all;
}

// A frame of three quads: one passing, one hidden, one scissored, in its own batch (the query
// runs from the batch's prologue to its epilogue).
void frame(DriverFixture& f) {
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  depthTest(f, gpu::rb::CompareFunc::Less);
  f.drawQuad();
  f.drawQuad();
  pipe::RasterizerState rs;
  rs.scissor = true;
  f.ctx.setRasterizer(rs);
  f.ctx.setScissor({200, 150, 100, 50});
  depthTest(f, gpu::rb::CompareFunc::LEqual);
  f.drawQuad();
  f.ctx.setRasterizer({});
}

// A counters query of every counter, running from the next batch's prologue on (its first
// batch has nothing to draw), with the reports so far taken.
pipe::QueryId countEverythingFromTheNextBatch(DriverFixture& f) {
  f.ctx.flush();
  const pipe::QueryId q = f.ctx.createCounterQuery(allCounters(f));
  f.ctx.beginQuery(q);
  f.ctx.flush();
  f.ctx.takeReports();
  return q;
}

TEST(CounterQuery, ACountersQueryOverABatchReadsWhatTheReportCounts) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::QueryId q = countEverythingFromTheNextBatch(f);
    frame(f);
    f.ctx.flush();
    f.ctx.endQuery(q);
    const pipe::QueryResult r = f.ctx.queryResult(q, true);
    ASSERT_TRUE(r.available);
    const std::vector<driver::BatchReport> reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 1u);
    const gpu::CounterSources sources = report::counterSources(reports[0].stats);
    const auto list = f.ctx.counterList();
    const auto countables = gpu::countables();
    for (size_t i = 0; i < countables.size(); ++i) {
      const gpu::Countable& k = countables[i];
      // The query's own sample packets are CP work and CP bus traffic; busy cycles are the
      // timing model's (checked below).
      if (!k.read || k.group == gpu::CounterGroup::Cp) continue;
      if (k.group == gpu::CounterGroup::Bus && k.name.starts_with("cp_")) continue;
      EXPECT_EQ(r.counters[i], static_cast<double>(k.read(sources)))
          << list[i].group << "." << list[i].name;
    }
  }
}

size_t counterIndex(DriverFixture& f, const std::string& group, const std::string& name) {
  const auto list = f.ctx.counterList();
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].group == group && list[i].name == name) return i;
  ADD_FAILURE() << "no counter " << group << "." << name;
  return 0;
}

TEST(CounterQuery, PrimitivesGeneratedCountsEachPrimitiveOnce) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::ResourceId other = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 320, 200);
    const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::PrimitivesGenerated);
    const pipe::QueryId inner = f.ctx.createQuery(pipe::QueryType::PrimitivesGenerated);
    f.ctx.beginQuery(q);
    frame(f);  // 3 quads, one scissored
    pipe::RasterizerState rs;
    rs.cull = pipe::CullMode::FrontAndBack;
    f.ctx.setRasterizer(rs);
    f.ctx.beginQuery(inner);
    f.drawQuad();  // culled: still generated
    f.ctx.endQuery(inner);
    f.ctx.setRasterizer({});
    pipe::Framebuffer fb2;
    fb2.color = other;
    fb2.width = 320;
    fb2.height = 200;
    f.ctx.setFramebuffer(fb2);  // a framebuffer switch splits the query
    f.drawQuad();
    f.ctx.endQuery(q);
    EXPECT_EQ(result(f, q), 5u * 2);
    EXPECT_EQ(result(f, inner), 2u);
  }
}

TEST(CounterQuery, TimeElapsedFollowsTheTimingModel) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const double mhz = f.device.preset().clockMHz;
    const pipe::QueryId one = f.ctx.createQuery(pipe::QueryType::TimeElapsed);
    const pipe::QueryId both = f.ctx.createQuery(pipe::QueryType::TimeElapsed);
    const pipe::QueryId whole = f.ctx.createQuery(pipe::QueryType::TimeElapsed);
    f.ctx.flush();
    f.ctx.takeReports();
    f.ctx.beginQuery(both);
    f.ctx.beginQuery(one);
    f.drawQuad();
    f.ctx.endQuery(one);
    f.ctx.flush();
    frame(f);
    frame(f);
    f.ctx.endQuery(both);
    f.ctx.flush();
    // A query running over a whole batch: from its first pass's prologue to its last
    // pass's epilogue.
    f.ctx.beginQuery(whole);
    f.ctx.flush();
    frame(f);
    f.ctx.flush();
    f.ctx.endQuery(whole);
    f.ctx.flush();
    const uint64_t t1 = result(f, one), t2 = result(f, both), t3 = result(f, whole);
    const std::vector<driver::BatchReport> reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 3u);
    EXPECT_GT(t1, 0u);
    EXPECT_GT(t2, t1);  // more work takes longer
    // Samples lie inside their batches' schedules.
    EXPECT_LE(t1, reports[0].timing.cycles * 1e3 / mhz + 1);
    EXPECT_LE(t2, (reports[0].timing.cycles + reports[1].timing.cycles) * 1e3 / mhz + 2);
    EXPECT_LE(t3, reports[2].timing.cycles * 1e3 / mhz + 1);
    if (c.mode == RenderMode::Sysmem) {
      // One pass: the prologue (after the pass's first packets) and the epilogue bracket its
      // cycles.
      const double pass = reports[2].timing.passes.back().render.cycles * 1e3 / mhz;
      EXPECT_LE(static_cast<double>(t3), pass + 1);
      EXPECT_GE(static_cast<double>(t3), pass * 0.999);
    }
  }
}

TEST(CounterQuery, TimestampsFollowTheGpuClock) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::QueryId t0 = f.ctx.createQuery(pipe::QueryType::Timestamp);
    const pipe::QueryId t1 = f.ctx.createQuery(pipe::QueryType::Timestamp);
    f.drawQuad();
    f.ctx.flush();
    f.ctx.recordTimestamp(t0);  // nothing pending: the clock now
    EXPECT_TRUE(f.ctx.queryResult(t0, false).available);
    EXPECT_EQ(f.ctx.queryResult(t0, false).value, f.ctx.gpuTimeNs());
    f.ctx.takeReports();
    frame(f);
    f.ctx.recordTimestamp(t1);                             // after the batch's last pass
    EXPECT_FALSE(f.ctx.queryResult(t1, false).available);  // not before its work retired
    const uint64_t a = result(f, t0), b = result(f, t1);
    const std::vector<driver::BatchReport> reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_GT(b, a);
    EXPECT_LE(b - a, reports[0].timing.cycles * 1e3 / f.device.preset().clockMHz + 1);
    EXPECT_GE(f.ctx.gpuTimeNs(), b);
    // A timestamp in a batch with nothing to draw is the clock when it is dropped.
    f.ctx.setScissor({0, 0, 1, 1});
    f.ctx.recordTimestamp(t1);
    f.ctx.flush();
    EXPECT_EQ(result(f, t1), f.ctx.gpuTimeNs());
  }
}

TEST(CounterQuery, SoftwareCountersCountWhatTheDriverDid) {
  for (RenderMode mode : {RenderMode::Sysmem, RenderMode::Binning}) {
    DriverFixture f(mode, "adreno-a630");
    const std::vector<uint32_t> chosen = {
        static_cast<uint32_t>(counterIndex(f, "driver", "draw_calls")),
        static_cast<uint32_t>(counterIndex(f, "driver", "batches")),
        static_cast<uint32_t>(counterIndex(f, "driver", "batches_sysmem")),
        static_cast<uint32_t>(counterIndex(f, "driver", "batches_gmem")),
        static_cast<uint32_t>(counterIndex(f, "driver", "batches_nondraw")),
        static_cast<uint32_t>(counterIndex(f, "driver", "uploads")),
        static_cast<uint32_t>(counterIndex(f, "driver", "buffer_renames")),
        static_cast<uint32_t>(counterIndex(f, "driver", "vs_registers")),
        static_cast<uint32_t>(counterIndex(f, "driver", "fs_registers"))};
    const pipe::QueryId q = f.ctx.createCounterQuery(chosen);
    f.ctx.beginQuery(q);
    frame(f);
    f.ctx.flush();
    f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
    f.ctx.flush();  // a batch with only a clear
    const std::vector<uint8_t> bytes(16, 0);
    const pipe::ResourceId buffer = f.ctx.createBuffer(bytes);
    f.ctx.updateBuffer(buffer, 0, bytes);  // no pending work: in place
    f.drawQuad();
    f.ctx.updateBuffer(buffer, 0, bytes);  // the batch recorded does not read it: in place
    const std::vector<uint8_t> quad(12, 0);
    f.ctx.updateBuffer(f.quad, 0, quad);  // the batch recorded draws from it: renamed
    f.ctx.endQuery(q);
    f.ctx.flush();
    const pipe::QueryResult r = f.ctx.queryResult(q, true);
    ASSERT_TRUE(r.available);
    const bool sysmem = mode == RenderMode::Sysmem;
    // Registers per thread, averaged over the draw calls (all with the same shaders).
    const double vsRegs = isa::assemble(shaders::source("lit.vs"), "lit.vs").regCount;
    const double fsRegs = isa::assemble(shaders::source("constant.fs"), "constant.fs").regCount;
    EXPECT_GT(vsRegs, 0.0);
    EXPECT_EQ(r.counters, (std::vector<double>{4, 2, sysmem ? 2.0 : 0.0, sysmem ? 0.0 : 2.0, 1, 3,
                                               1, vsRegs, fsRegs}));
  }
}

TEST(CounterQuery, CountersAgreeWithEachOther) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::QueryId q = countEverythingFromTheNextBatch(f);
    frame(f);
    f.ctx.flush();
    frame(f);  // restores what the first frame resolved
    f.ctx.flush();
    f.ctx.endQuery(q);
    const pipe::QueryResult r = f.ctx.queryResult(q, true);
    ASSERT_TRUE(r.available);
    auto v = [&](const char* group, const char* name) {
      return r.counters[counterIndex(f, group, name)];
    };
    // Every covered pixel is shaded or dropped before shading by one test.
    EXPECT_EQ(v("ras", "pixels_covered"),
              v("fragment", "fragments_shaded") + v("fragment", "early_z_rejected") +
                  v("fragment", "lrz_rejected") + v("fragment", "full_cover_skipped"));
    EXPECT_EQ(v("rb", "samples_passed"), 2.0 * (320 * 240 + 100 * 50));
    EXPECT_LE(v("rb", "samples_passed"), v("rb", "samples_tested"));
    // Blits and texture fetches are what their bus clients moved.
    EXPECT_EQ(v("gmem", "restore_bytes"), v("bus", "gmem_restore_read_bytes"));
    EXPECT_EQ(v("gmem", "resolve_bytes"), v("bus", "gmem_resolve_write_bytes"));
    EXPECT_EQ(v("tex", "bytes_fetched"), v("bus", "texture_read_bytes"));
    // The clients' bytes add up to the bus total the batch reports give.
    double bus = 0;
    const auto list = f.ctx.counterList();
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i].group == "bus" && !list[i].name.starts_with("cp_")) bus += r.counters[i];
    uint64_t total = 0;
    for (const auto& batch : f.ctx.takeReports())
      total += batch.stats.bus.totalGpuBytes() -
               batch.stats.bus[gpu::BusClient::CommandProcessor].readBytes -
               batch.stats.bus[gpu::BusClient::CommandProcessor].writeBytes;
    EXPECT_EQ(bus, static_cast<double>(total));
    // Busy cycles: every block's are at most the clock's, and something was busy.
    double busy = 0;
    for (std::string_view b : gpu::perf::kBlockNames) busy += v("busy", std::string(b).c_str());
    EXPECT_GT(busy, 0.0);
  }
}

TEST(CounterQuery, MisuseIsAnError) {
  DriverFixture f(RenderMode::Binning);
  EXPECT_THROW(f.ctx.createCounterQuery({}), Error);
  const uint32_t past = static_cast<uint32_t>(f.ctx.counterList().size());
  EXPECT_THROW(f.ctx.createCounterQuery(std::vector<uint32_t>{past}), Error);
  EXPECT_THROW(f.ctx.createQuery(pipe::QueryType::Counters), Error);
  const pipe::QueryId ts = f.ctx.createQuery(pipe::QueryType::Timestamp);
  const pipe::QueryId te = f.ctx.createQuery(pipe::QueryType::TimeElapsed);
  EXPECT_THROW(f.ctx.beginQuery(ts), Error);
  EXPECT_THROW(f.ctx.recordTimestamp(te), Error);
  EXPECT_THROW(f.ctx.recordTimestamp(999), Error);
  EXPECT_THROW(f.ctx.queryResult(ts, false), Error);  // never taken
}

}  // namespace
}  // namespace tessera
