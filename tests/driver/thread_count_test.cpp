// The bins of a render pass run on host threads (gpu/pipeline/bin_jobs.h), and so does a large
// draw's binning pass in ranges (gpu/pipeline/front_end_ranges.h); nothing a user can see may
// depend on how many. For 1, 2 and 8 threads: the same pixels, the same batch reports
// (every block's counters, bytes per client, per-bin rows and the timing model's cycles), the
// same query results (occlusion counts and predicates, time, primitives and every counter,
// both query schemes) and the same fault, on every preset, mode and bin size; and through the
// scene renderer the same for textured, blended, stencilled, multisampled and compressed-texture
// frames. The scene frames are also the same on every SIMD path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "common/simd.h"
#include "driver/query.h"
#include "driver/query_fixture.h"
#include "gpu/sp/host_code.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "report/counters_json.h"
#include "scene/scene.h"
#include "tools/frame_renderer.h"

namespace tessera {
namespace {

using driver::RenderMode;
using test::DriverFixture;
using test::kEndlessFs;
using namespace test::query;

constexpr unsigned kThreadCounts[] = {1, 2, 8};

// Everything a frame shows: its pixels, its reports as JSON and its query results.
struct Outcome {
  std::vector<std::vector<uint8_t>> surfaces;
  std::vector<nlohmann::json> reports;
  std::vector<uint64_t> values;
  std::vector<double> counters;
};

void expectSame(const Outcome& a, const Outcome& b) {
  ASSERT_EQ(a.surfaces.size(), b.surfaces.size());
  for (size_t i = 0; i < a.surfaces.size(); ++i)
    EXPECT_TRUE(a.surfaces[i] == b.surfaces[i]) << "surface " << i;
  ASSERT_EQ(a.reports.size(), b.reports.size());
  // Only what differs is printed: a JSON patch from one report to the other.
  for (size_t i = 0; i < a.reports.size(); ++i)
    EXPECT_TRUE(a.reports[i] == b.reports[i])
        << "batch " << i << ": " << nlohmann::json::diff(a.reports[i], b.reports[i]).dump();
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.counters, b.counters);
}

// Depth-tested quads, a scissored one and a fully hidden one, split by a flush and a switch to
// another framebuffer, under an occlusion counter, a predicate, time elapsed, primitives
// generated, a counters query of every counter and two timestamps.
Outcome queryFrame(const Config& c, unsigned threads, uint32_t samples) {
  DriverFixture f(c.mode, presetOf(c), threads);
  if (samples > 1) {
    f.fb.color = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, f.kW, f.kH, samples);
    f.fb.depth = f.ctx.createDepthSurface(pipe::DepthFormat::D24S8, f.kW, f.kH, samples);
    f.ctx.setFramebuffer(f.fb);
  }
  std::vector<uint32_t> all(f.ctx.counterList().size());
  std::iota(all.begin(), all.end(), 0u);
  const pipe::QueryId queries[] = {f.ctx.createQuery(pipe::QueryType::OcclusionCounter),
                                   f.ctx.createQuery(pipe::QueryType::OcclusionPredicate),
                                   f.ctx.createQuery(pipe::QueryType::TimeElapsed),
                                   f.ctx.createQuery(pipe::QueryType::PrimitivesGenerated),
                                   f.ctx.createCounterQuery(all)};
  const pipe::QueryId start = f.ctx.createQuery(pipe::QueryType::Timestamp);
  const pipe::QueryId end = f.ctx.createQuery(pipe::QueryType::Timestamp);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.recordTimestamp(start);
  for (pipe::QueryId q : queries) f.ctx.beginQuery(q);
  depthTest(f, gpu::rb::CompareFunc::Less);
  f.drawQuad();
  f.setColor({0, 1, 0, 1});
  f.drawQuad();  // hidden
  pipe::RasterizerState rs;
  rs.scissor = true;
  f.ctx.setRasterizer(rs);
  f.ctx.setScissor({200, 150, 100, 50});
  depthTest(f, gpu::rb::CompareFunc::LEqual);
  f.drawQuad();
  f.ctx.setRasterizer({});
  f.ctx.flush();
  f.drawQuad();
  const pipe::ResourceId other = f.ctx.createColorSurface(pipe::ColorFormat::RGBA8, 320, 200);
  pipe::Framebuffer small;
  small.color = other;
  small.width = 320;
  small.height = 200;
  f.ctx.setFramebuffer(small);
  f.ctx.setViewport({0, 0, 320, 200, 0, 1});
  f.ctx.clear(pipe::kClearColor, {0, 0, 1, 1}, 1.0f, 0);
  f.drawQuad();
  for (pipe::QueryId q : queries) f.ctx.endQuery(q);
  f.ctx.recordTimestamp(end);
  f.ctx.flush();

  Outcome o;
  for (pipe::QueryId q : {queries[0], queries[1], queries[2], queries[3], start, end}) {
    const pipe::QueryResult r = f.ctx.queryResult(q, true);
    EXPECT_TRUE(r.available);
    o.values.push_back(r.value);
  }
  o.counters = f.ctx.queryResult(queries[4], true).counters;
  for (const driver::BatchReport& r : f.ctx.takeReports())
    o.reports.push_back(report::batchJson(r));
  if (samples == 1) o.surfaces.push_back(f.ctx.readSurface(f.fb.color));
  o.surfaces.push_back(f.ctx.readSurface(f.fb.depth));
  o.surfaces.push_back(f.ctx.readSurface(other));
  return o;
}

TEST(ThreadCount, QueriesReportsAndImagesAreTheSameForAnyThreadCount) {
  for (const Config& c : configs()) {
    SCOPED_TRACE(label(c));
    const Outcome one = queryFrame(c, 1, 1);
    EXPECT_GT(one.values[0], 0u);  // something was drawn and counted
    for (unsigned t : kThreadCounts) {
      if (t == 1) continue;
      SCOPED_TRACE(std::to_string(t) + " threads");
      expectSame(one, queryFrame(c, t, 1));
    }
  }
}

TEST(ThreadCount, MultisampledQueriesAreTheSameForAnyThreadCount) {
  for (const char* preset : {"adreno-a320", "adreno-a630"})
    for (RenderMode m : {RenderMode::Naive, RenderMode::Binning}) {
      const Config c{preset, m, false, 0};
      SCOPED_TRACE(label(c));
      const Outcome one = queryFrame(c, 1, 4);
      for (unsigned t : {2u, 8u}) expectSame(one, queryFrame(c, t, 4));
    }
}

// The fault of the batch recorded so far, known once it ran.
std::string faultOfBatch(DriverFixture& f) {
  try {
    f.ctx.finish();
  } catch (const Error& e) {
    return e.what();
  }
  return "no fault";
}

std::string faultOf(unsigned threads) {
  DriverFixture f(RenderMode::Binning, gpu::findPreset("adreno-a320"), threads);
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.bindShaders(
      f.vsId, f.ctx.createFragmentShader(isa::encode(isa::assemble(kEndlessFs, "endless.fs"))));
  f.drawQuad();
  return faultOfBatch(f);
}

TEST(ThreadCount, TheFirstFaultingBinNamesTheFault) {
  // Several bins draw the shader at once; the fault reported is the first bin's, in stream
  // order, whatever finished first.
  const std::string one = faultOf(1);
  EXPECT_NE(one.find("runaway"), std::string::npos) << one;
  for (unsigned t : {2u, 8u}) EXPECT_EQ(faultOf(t), one);
}

// A draw that faults part-way, after many warps: a warp in a band of rows never ends. With more
// than one thread a helper shades the draw's warps beside the thread that rasterizes and
// writes them (gpu/pipeline/fragment_stage.h); the fault named and the batch's report must be
// those of one thread, in sysmem mode (the draw on the CP's thread) and in a render pass (on a
// bin's thread).
constexpr const char* kBandHangFs = R"(.stage fragment
.regs 1
.outputs 1
.varyings 0
flt r0, 300.0, fc.y
if r0
flt r0, fc.y, 302.0
if r0
loop
endloop
endif
endif
mov o0.x, c48
mov o0.y, c49
mov o0.z, c50
mov o0.w, c51
end
)";

std::string midDrawFault(RenderMode mode, unsigned threads) {
  DriverFixture f(mode, gpu::findPreset("adreno-a630"), threads);
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.bindShaders(f.vsId,
                    f.ctx.createFragmentShader(isa::encode(isa::assemble(kBandHangFs, "band.fs"))));
  f.drawQuad();
  std::string outcome = faultOfBatch(f);
  for (const driver::BatchReport& r : f.ctx.takeReports()) outcome += report::batchJson(r).dump();
  return outcome;
}

TEST(ThreadCount, ADrawFaultingPartWayIsTheSameForAnyThreadCount) {
  for (RenderMode mode : {RenderMode::Sysmem, RenderMode::Binning}) {
    SCOPED_TRACE(mode == RenderMode::Sysmem ? "sysmem" : "binning");
    const std::string one = midDrawFault(mode, 1);
    EXPECT_NE(one.find("runaway"), std::string::npos) << one;
    for (unsigned t : {2u, 8u}) EXPECT_EQ(midDrawFault(mode, t), one);
  }
}

// A fragment shader that spills: each pixel's window position goes through private memory, of
// which the driver binds one warp's worth; bins on other threads must not use it at once.
constexpr const char* kSpillingFs = R"(.stage fragment
.regs 1
.outputs 1
.varyings 0
.private 2
mov p0, fc.x
mov p1, fc.y
mov r0, p0
mul o0.x, r0, 0.001953125
mov r0, p1
mul o0.y, r0, 0.001953125
mov o0.z, c50
mov o0.w, c51
end
)";

std::vector<uint8_t> spillingFrame(unsigned threads) {
  DriverFixture f(RenderMode::Binning, gpu::findPreset("adreno-a630"), threads);
  f.ctx.clear(pipe::kClearColor, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.bindShaders(
      f.vsId, f.ctx.createFragmentShader(isa::encode(isa::assemble(kSpillingFs, "spill.fs"))));
  f.drawQuad();
  f.ctx.flush();
  return f.ctx.readSurface(f.fb.color);
}

TEST(ThreadCount, ASpillingShaderIsTheSameForAnyThreadCount) {
  const std::vector<uint8_t> one = spillingFrame(1);
  ASSERT_EQ(one.size(), size_t{DriverFixture::kW} * DriverFixture::kH * 4);
  // Red is x / 512 at the pixel's centre: 320.5 / 512 * 255 rounds to 160.
  EXPECT_EQ(one[(size_t{240} * DriverFixture::kW + 320) * 4], 160);
  for (unsigned t : {2u, 8u}) EXPECT_EQ(spillingFrame(t), one) << t << " threads";
}

// A binning pass splits a large draw's vertex shading and primitive setup into ranges on the
// pool's threads (gpu/pipeline/front_end_ranges.h): two 48,000-triangle grids, partly beyond the
// far plane (clipped), the second behind the first in places (LRZ culls in the binning pass),
// with the interleaved resolve's block table.
Outcome largeDrawFrame(unsigned threads) {
  gpu::Preset p = gpu::findPreset("adreno-a630");
  p.lrz = true;
  p.resolveBlock = 8;
  DriverFixture f(RenderMode::Binning, p, threads);
  constexpr int kColumns = 240, kRows = 100;
  std::vector<float> grid;
  auto vertex = [&](int i, int j, float dz) {
    const float x = -1.2f + 2.4f * float(i) / kColumns, y = -1.2f + 2.4f * float(j) / kRows;
    grid.insert(grid.end(), {x, y, 0.3f + 0.9f * std::sin(7 * x) * std::cos(5 * y) + dz});
  };
  auto drawGrid = [&](float dz) {
    grid.clear();
    for (int j = 0; j < kRows; ++j)
      for (int i = 0; i < kColumns; ++i)
        for (auto [di, dj] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}})
          vertex(i + di, j + dj, dz);
    f.ctx.setVertexBuffer(0, f.ctx.createBuffer({reinterpret_cast<const uint8_t*>(grid.data()),
                                                 grid.size() * sizeof(float)}));
    f.ctx.draw({pipe::Primitive::Triangles, uint32_t(grid.size() / 3)});
  };
  std::vector<uint32_t> all(f.ctx.counterList().size());
  std::iota(all.begin(), all.end(), 0u);
  const pipe::QueryId counters = f.ctx.createCounterQuery(all);
  f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  f.ctx.beginQuery(counters);
  depthTest(f, gpu::rb::CompareFunc::Less);
  drawGrid(0.0f);
  f.setColor({0, 1, 0, 1});
  drawGrid(0.05f);
  f.ctx.endQuery(counters);
  f.ctx.flush();
  Outcome o;
  o.counters = f.ctx.queryResult(counters, true).counters;
  for (const driver::BatchReport& r : f.ctx.takeReports())
    o.reports.push_back(report::batchJson(r));
  o.surfaces.push_back(f.ctx.readSurface(f.fb.color));
  o.surfaces.push_back(f.ctx.readSurface(f.fb.depth));
  return o;
}

TEST(ThreadCount, ALargeDrawBinnedInRangesIsTheSameForAnyThreadCount) {
  const Outcome one = largeDrawFrame(1);
  ASSERT_FALSE(one.reports.empty());
  // The frame has what the ranges must keep: clipped triangles, and LRZ culling in the binning
  // pass.
  EXPECT_GT(one.reports[0]["pc"]["clipped"].get<uint64_t>(), 0u);
  const auto list = driver::QueryTable::counterList();
  const auto culled = std::find_if(list.begin(), list.end(), [](const pipe::CounterInfo& c) {
    return c.group == "lrz" && c.name == "triangles_culled";
  });
  ASSERT_NE(culled, list.end());
  EXPECT_GT(one.counters[size_t(culled - list.begin())], 0.0);
  for (unsigned t : {2u, 8u}) {
    SCOPED_TRACE(std::to_string(t) + " threads");
    expectSame(one, largeDrawFrame(t));
  }
}

// A large draw whose vertex buffer ends early: the fault is the first range's in order to reach
// the buffer's end, whichever range ran first.
std::string largeDrawFault(unsigned threads) {
  DriverFixture f(RenderMode::Binning, gpu::findPreset("adreno-a630"), threads);
  const std::vector<float> vertices(3 * 40000, 0.25f);
  f.ctx.setVertexBuffer(0, f.ctx.createBuffer({reinterpret_cast<const uint8_t*>(vertices.data()),
                                               vertices.size() * sizeof(float)}));
  f.ctx.draw({pipe::Primitive::Triangles, 120000});
  return faultOfBatch(f);
}

TEST(ThreadCount, ALargeDrawsFaultIsTheSameForAnyThreadCount) {
  const std::string one = largeDrawFault(1);
  EXPECT_NE(one.find("lies outside its 480000-byte buffer"), std::string::npos) << one;
  for (unsigned t : {2u, 8u}) EXPECT_EQ(largeDrawFault(t), one);
}

// The scene renderer's frames: textures (with mipmaps and the texture cache), blending,
// stencil, LRZ and the interleaved resolve, multisampling and compressed textures.
struct SceneCase {
  const char* scene;
  const char* preset;
  RenderMode mode;
  uint32_t samples;
  tools::TextureFormat format;
  bool lrzAndBlocks;
};
constexpr SceneCase kSceneCases[] = {
    {"default", "adreno-a630", RenderMode::Binning, 1, tools::TextureFormat::Rgba8, true},
    {"default", "adreno-a320", RenderMode::Naive, 1, tools::TextureFormat::Astc4x4, false},
    {"default", "milo832-kv260", RenderMode::Binning, 1, tools::TextureFormat::Etc2, false},
    {"blend", "adreno-a630", RenderMode::Binning, 4, tools::TextureFormat::Rgba8, false},
    {"stencil", "adreno-a320", RenderMode::Binning, 1, tools::TextureFormat::Rgba8, true},
    {"compositor", "adreno-a630", RenderMode::Naive, 1, tools::TextureFormat::Rgba8, false},
};

Outcome renderScene(const SceneCase& k, unsigned threads) {
  const scene::Scene s = scene::sceneByName(k.scene, 320, 240);
  gpu::Preset p = gpu::findPreset(k.preset);
  if (k.lrzAndBlocks) {
    p.lrz = true;
    p.resolveBlock = 8;
  }
  tools::FrameOptions o;
  o.mode = k.mode;
  o.samples = k.samples;
  o.textureFormat = k.format;
  o.threads = threads;
  o.warmupFrames = 1;
  const tools::FrameResult r = tools::renderFrame(s, p, o);
  Outcome out;
  out.surfaces.push_back(r.image.rgba);
  for (const driver::BatchReport& b : r.batches) out.reports.push_back(report::batchJson(b));
  return out;
}

TEST(ThreadCount, SceneFramesAreTheSameForAnyThreadCount) {
  for (const SceneCase& k : kSceneCases) {
    SCOPED_TRACE(std::string(k.scene) + " " + k.preset);
    const Outcome one = renderScene(k, 1);
    ASSERT_FALSE(one.reports.empty());
    for (unsigned t : {2u, 8u}) {
      SCOPED_TRACE(std::to_string(t) + " threads");
      expectSame(one, renderScene(k, t));
    }
  }
}

// The same frames on the portable loops and on the host's widest SIMD path (common/simd.h).
TEST(SimdPath, SceneFramesAreTheSameOnEveryPath) {
  if (hostSimdPath() == SimdPath::Portable)
    GTEST_SKIP() << "this processor has only the portable path";
  const SimdPath before = simdPath();
  for (const SceneCase& k : kSceneCases) {
    SCOPED_TRACE(std::string(k.scene) + " " + k.preset);
    ASSERT_TRUE(setSimdPath(SimdPath::Portable));
    const Outcome portable = renderScene(k, 2);
    ASSERT_TRUE(setSimdPath(hostSimdPath()));
    expectSame(portable, renderScene(k, 2));
  }
  setSimdPath(before);
}

// The query frame on both paths: on the AVX2 path its quads' fully covered blocks take the
// fragment stage's block path, with the RB's row-wise depth test, LRZ and block tables.
TEST(SimdPath, QueriesReportsAndImagesAreTheSameOnEveryPath) {
  if (hostSimdPath() == SimdPath::Portable)
    GTEST_SKIP() << "this processor has only the portable path";
  const SimdPath before = simdPath();
  for (const Config& c : configs()) {
    // The block path is the same in either query scheme and in naive mode: fewer frames.
    if ((c.accumulate || c.mode == RenderMode::Naive) && c.resolveBlock == 0) continue;
    SCOPED_TRACE(label(c));
    ASSERT_TRUE(setSimdPath(SimdPath::Portable));
    const Outcome portable = queryFrame(c, 2, 1);
    ASSERT_TRUE(setSimdPath(hostSimdPath()));
    expectSame(portable, queryFrame(c, 2, 1));
  }
  setSimdPath(before);
}

// gl_FragCoord (x, y scaled into colour, window z, 1/w) of depth-tested quads on both paths: the
// block path packs each fully covered block's pixel positions itself.
TEST(SimdPath, FragCoordIsTheSameOnEveryPath) {
  if (hostSimdPath() == SimdPath::Portable)
    GTEST_SKIP() << "this processor has only the portable path";
  constexpr const char* kFragCoordFs = R"(.stage fragment
.regs 0
.outputs 1
.varyings 0
mul o0.x, fc.x, c48
mul o0.y, fc.y, c49
mov o0.z, fc.z
mov o0.w, fc.w
end
)";
  const SimdPath before = simdPath();
  std::vector<uint8_t> images[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(setSimdPath(i == 0 ? SimdPath::Portable : hostSimdPath()));
    DriverFixture f(RenderMode::Binning, gpu::findPreset("adreno-a630"), 2);
    f.ctx.bindShaders(f.vsId, f.ctx.createFragmentShader(
                                  isa::encode(isa::assemble(kFragCoordFs, "fragcoord.fs"))));
    f.setColor({1.0f / 512, 1.0f / 512, 0, 0});
    f.ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
    depthTest(f, gpu::rb::CompareFunc::Less);
    f.drawQuad();
    f.ctx.flush();
    images[i] = f.ctx.readSurface(f.fb.color);
  }
  setSimdPath(before);
  // The quad's pixels differ in x and y, so a pixel given another's position shows.
  auto at = [&](uint32_t x, uint32_t y, int c) {
    return images[0][4 * (y * DriverFixture::kW + x) + c];
  };
  EXPECT_NE(at(200, 200, 0), at(300, 200, 0));
  EXPECT_NE(at(200, 200, 1), at(200, 300, 1));
  EXPECT_TRUE(images[0] == images[1]);
}

// The same frames with the shaders' compiled runs and with the interpreter alone
// (gpu/sp/host_code.h).
TEST(ShaderJit, SceneFramesAreTheSameCompiledAndInterpreted) {
  if (hostSimdPath() != SimdPath::Avx2) GTEST_SKIP() << "compiled runs need AVX2";
  const SimdPath before = simdPath();
  ASSERT_TRUE(setSimdPath(SimdPath::Avx2));
  for (const SceneCase& k : kSceneCases) {
    SCOPED_TRACE(std::string(k.scene) + " " + k.preset);
    gpu::sp::setHostCode(false);
    const Outcome interpreted = renderScene(k, 2);
    gpu::sp::setHostCode(true);
    expectSame(interpreted, renderScene(k, 2));
  }
  setSimdPath(before);
}

}  // namespace
}  // namespace tessera
