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
  std::string preset;
  RenderMode mode;
  bool accumulate;
  uint32_t resolveBlock;
  uint32_t maxBin = 0;  // maxBinW = maxBinH, 0: the preset's
};

// Every preset in every mode it has, with both schemes; bin sizes from 32 pixels up; the
// interleaved resolve.
inline std::vector<Config> configs() {
  std::vector<Config> c;
  for (const gpu::Preset& p : gpu::allPresets())
    for (RenderMode m : {RenderMode::Sysmem, RenderMode::Naive, RenderMode::Binning}) {
      if (p.sysmemOnly && m != RenderMode::Sysmem) continue;
      for (bool acc : {false, true}) c.push_back({std::string(p.name), m, acc, 0});
    }
  for (uint32_t bin : {32u, 96u})
    for (RenderMode m : {RenderMode::Naive, RenderMode::Binning})
      c.push_back({"adreno-a320", m, false, 0, bin});
  c.push_back({"adreno-a320", RenderMode::Binning, false, 8});  // interleaved resolve
  c.push_back({"adreno-a630", RenderMode::Binning, true, 16});
  return c;
}

inline std::string label(const Config& c) {
  return c.preset + " " + std::string(driver::renderModeName(c.mode)) +
         (c.accumulate ? " accumulate" : " per-bin") + " block " + std::to_string(c.resolveBlock) +
         " bin " + std::to_string(c.maxBin);
}

inline gpu::Preset presetOf(const Config& c) {
  gpu::Preset p = gpu::findPreset(c.preset);
  p.queryAccumulate = c.accumulate;
  p.resolveBlock = c.resolveBlock;
  if (c.maxBin) p.maxBinW = p.maxBinH = c.maxBin;
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
