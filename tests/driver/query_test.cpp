// Occlusion queries stay exact across bins and batches: the same samples on every preset, in
// every rendering mode, with either accumulation scheme, including queries that span a
// framebuffer switch and draws that are scissored, culled or fully occluded; the count equals
// the pixels the draw left in the depth buffer; results are unavailable until their work has
// retired; misuse is an error.
#include <gtest/gtest.h>

#include "common/error.h"
#include "driver/query_fixture.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;
using namespace test::query;

TEST(Query, OcclusionCountsAreExactInEveryModeAndScheme) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::QueryId all = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
    const pipe::QueryId hidden = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
    const pipe::QueryId any = f.ctx.createQuery(pipe::QueryType::OcclusionPredicate);
    const pipe::QueryId scissored = f.ctx.createQuery(pipe::QueryType::OcclusionConservative);
    const pipe::QueryId culled = f.ctx.createQuery(pipe::QueryType::OcclusionPredicate);
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
    depthTest(f, gpu::rb::CompareFunc::Less);
    f.ctx.beginQuery(all);
    f.drawQuad();
    f.ctx.beginQuery(hidden);  // nested: the same quad again fails LESS everywhere
    f.drawQuad();
    f.ctx.endQuery(hidden);
    f.ctx.beginQuery(any);
    f.drawQuad();
    f.ctx.endQuery(any);
    // 100×50 pixels inside the quad, at the same depth, passing LEQUAL.
    depthTest(f, gpu::rb::CompareFunc::LEqual);
    pipe::RasterizerState rs;
    rs.scissor = true;
    f.ctx.setRasterizer(rs);
    f.ctx.setScissor({200, 150, 100, 50});
    f.ctx.beginQuery(scissored);
    f.drawQuad();
    f.ctx.endQuery(scissored);
    rs.scissor = false;
    rs.cull = pipe::CullMode::FrontAndBack;
    f.ctx.setRasterizer(rs);
    f.ctx.beginQuery(culled);
    f.drawQuad();
    f.ctx.endQuery(culled);
    f.ctx.endQuery(all);
    EXPECT_EQ(result(f, all), kQuadPixels + 100 * 50);
    EXPECT_EQ(result(f, hidden), 0u);
    EXPECT_EQ(result(f, any), 0u);  // equal depth fails LESS: nothing passed
    EXPECT_EQ(result(f, scissored), 1u);
    EXPECT_EQ(result(f, culled), 0u);
    // The count is the pixels the first draw set in the depth buffer.
    const std::vector<uint8_t> depth = f.ctx.readSurface(f.fb.depth);
    uint64_t drawn = 0;
    for (size_t i = 0; i + 3 < depth.size(); i += 4) {
      const uint32_t d = depth[i] | depth[i + 1] << 8 | depth[i + 2] << 16;
      drawn += d != 0xffffff;
    }
    EXPECT_EQ(drawn, kQuadPixels);
  }
}

TEST(Query, AQuerySpansBatchesAndFramebuffers) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::ResourceId other = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 320, 200);
    const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
    f.ctx.beginQuery(q);
    f.drawQuad();
    f.ctx.flush();  // a flush splits the query: stop here, restart in the next batch
    f.drawQuad();
    pipe::Framebuffer small;
    small.color = other;
    small.width = 320;
    small.height = 200;
    f.ctx.setFramebuffer(small);  // another batch, another bin layout
    f.ctx.setViewport({0, 0, 320, 200, 0, 1});
    f.drawQuad();                                        // 160×100 pixels
    EXPECT_FALSE(f.ctx.queryResult(q, true).available);  // still running
    f.ctx.endQuery(q);
    EXPECT_FALSE(f.ctx.queryResult(q, false).available);  // its last period is not submitted
    EXPECT_EQ(result(f, q), 2 * kQuadPixels + 160 * 100);
    EXPECT_TRUE(f.ctx.queryResult(q, false).available);
    // Begin again: a new result, and a period with no draw counts nothing.
    f.ctx.beginQuery(q);
    f.ctx.endQuery(q);
    EXPECT_EQ(result(f, q), 0u);
  }
}

TEST(Query, FragmentsALaterTriangleCoversStillCount) {
  // No depth test: the second quad covers the first one's blocks, so the interleaved resolve
  // would skip the first quad's fragments there; while a query counts, they are shaded.
  for (const Config& c : configs()) {
    if (c.resolveBlock == 0) continue;
    SCOPED_TRACE(label(c));
    DriverFixture f(c.mode, presetOf(c));
    const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
    f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
    f.ctx.beginQuery(q);
    f.drawQuad();
    f.ctx.endQuery(q);
    f.setColor({0, 1, 0, 1});
    f.drawQuad();
    EXPECT_EQ(result(f, q), kQuadPixels);
    // Without a query the same batch does skip them.
    f.drawQuad();
    f.setColor({0, 0, 1, 1});
    f.drawQuad();
    f.ctx.flush();
    const auto reports = f.ctx.takeReports();
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_EQ(reports[0].stats.fragment.fullCoverSkipped, 0u);
    EXPECT_GT(reports[1].stats.fragment.fullCoverSkipped, kQuadPixels / 2);
  }
}

TEST(Query, PerBinSamplesLandInOneRowPerBin) {
  gpu::Preset p = gpu::findPreset("adreno-a320");
  p.queryAccumulate = false;
  DriverFixture f(RenderMode::Binning, p);
  const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
  f.ctx.beginQuery(q);
  f.drawQuad();
  f.ctx.endQuery(q);
  f.ctx.flush();
  const auto reports = f.ctx.takeReports();
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_TRUE(reports[0].layout);
  const uint64_t bins = reports[0].layout->bins.size();
  EXPECT_GT(bins, 1u);
  // Each bin writes its start and stop sample: 2 × 8 bytes, from the render backend.
  EXPECT_EQ(reports[0].stats.bus[gpu::BusClient::RenderBackend].writeBytes, bins * 16);
  EXPECT_EQ(result(f, q), kQuadPixels);
}

TEST(Query, MisuseIsAnError) {
  DriverFixture f(RenderMode::Binning);
  const pipe::QueryId q = f.ctx.createQuery(pipe::QueryType::OcclusionCounter);
  EXPECT_THROW(f.ctx.endQuery(q), Error);            // not running
  EXPECT_THROW(f.ctx.queryResult(q, false), Error);  // never begun
  f.ctx.beginQuery(q);
  EXPECT_THROW(f.ctx.beginQuery(q), Error);    // already running
  EXPECT_THROW(f.ctx.destroyQuery(q), Error);  // running
  EXPECT_FALSE(f.ctx.queryResult(q, true).available);
  f.ctx.endQuery(q);
  f.ctx.destroyQuery(q);
  EXPECT_THROW(f.ctx.beginQuery(q), Error);  // destroyed
  EXPECT_THROW(f.ctx.beginQuery(99), Error);
  EXPECT_THROW(f.ctx.beginQuery(0), Error);
}

}  // namespace
}  // namespace tessera
