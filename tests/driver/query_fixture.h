// Query tests' shared set-up: the presets, modes and schemes every query must be exact on.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/driver_fixture.h"

namespace tessera::test::query {

using driver::RenderMode;

constexpr uint64_t kQuadPixels = 320 * 240;  // [-0.5, 0.5]² of 640×480

struct Config {
  const char* preset;
  RenderMode mode;
  bool accumulate;
  uint32_t resolveBlock;
};

inline std::vector<Config> configs() {
  std::vector<Config> c;
  for (const char* p : {"adreno-a320", "adreno-a630", "milo832-kv260"})
    for (RenderMode m : {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning})
      for (bool acc : {false, true}) c.push_back({p, m, acc, 0});
  c.push_back({"adreno-a320", RenderMode::Binning, false, 8});  // interleaved resolve
  c.push_back({"adreno-a630", RenderMode::Binning, true, 16});
  return c;
}

inline std::string label(const Config& c) {
  return std::string(c.preset) + " " + std::string(driver::renderModeName(c.mode)) +
         (c.accumulate ? " accumulate" : " per-bin") + " block " + std::to_string(c.resolveBlock);
}

inline gpu::Preset presetOf(const Config& c) {
  gpu::Preset p = gpu::findPreset(c.preset);
  p.queryAccumulate = c.accumulate;
  p.resolveBlock = c.resolveBlock;
  return p;
}

inline void depthTest(DriverFixture& f, gpu::rb::CompareFunc func) {
  pipe::DepthStencilAlphaState ds;
  ds.depthTest = true;
  ds.depthWrite = true;
  ds.depthFunc = func;
  f.ctx.setDepthStencilAlpha(ds);
}

inline uint64_t result(DriverFixture& f, pipe::QueryId q) {
  const pipe::QueryResult r = f.ctx.queryResult(q, true);
  EXPECT_TRUE(r.available);
  return r.value;
}

}  // namespace tessera::test::query
