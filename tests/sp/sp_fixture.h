// Shared set-up for shader-core tests: assemble a program, fill a warp, run it (with its
// compiled runs, host_code.h, on the AVX2 path; the portable run of the tests interprets all).
#pragma once
#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <string_view>
#include <vector>

#include "gpu/sp/host_code.h"
#include "gpu/sp/shader_core.h"
#include "isa/assembler.h"

namespace tessera::gpu::sp::testing {

class SpFixture : public ::testing::Test {
 protected:
  SpFixture() : constants(64, 0.0f) {}

  ShaderResources resources() const {
    ShaderResources r;
    r.constants = constants;
    r.textures = textures;
    r.textureUnit = textureUnit;
    return r;
  }

  static std::unique_ptr<VertexWarp> vertexWarp(uint32_t mask = ~0u) {
    auto w = std::make_unique<VertexWarp>();
    w->laneMask = mask;
    return w;
  }

  // A fragment warp of 8 quads laid out as a 4x2 grid of quads (an 8x4 pixel block): lane
  // 4q+i is pixel (2*(q%4) + (i&1), 2*(q/4) + (i>>1)).
  static std::unique_ptr<FragmentWarp> fragmentWarp(uint32_t mask = ~0u) {
    auto w = std::make_unique<FragmentWarp>();
    w->laneMask = mask;
    w->coverage = mask;
    for (int l = 0; l < kLanes; ++l) {
      const int q = l / 4, i = l % 4;
      w->fragCoord[0][l] = static_cast<float>(2 * (q % 4) + (i & 1)) + 0.5f;
      w->fragCoord[1][l] = static_cast<float>(2 * (q / 4) + (i >> 1)) + 0.5f;
      w->fragCoord[2][l] = 0.25f + static_cast<float>(l) / 64.0f;
      w->fragCoord[3][l] = 1.0f;
    }
    return w;
  }

  // Runs a vertex shader whose i0.x is the lane index and i0.y..w and i1 are given per lane.
  void runVs(std::string_view text, VertexWarp& w) {
    program = isa::assemble(text, "test.vs");
    core.runVertex(program, w, withHostCode());
  }
  void runFs(std::string_view text, FragmentWarp& w) {
    program = isa::assemble(text, "test.fs");
    core.runFragment(program, w, withHostCode());
  }

  // resources() with the compiled runs of `program`, as a pipeline binds them.
  ShaderResources withHostCode() {
    host = HostProgram::compile(program);
    ShaderResources r = resources();
    r.host = host.get();
    return r;
  }

  static float bits(uint32_t u) { return std::bit_cast<float>(u); }
  static uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }

  ShaderCore core;
  isa::Program program;
  std::unique_ptr<HostProgram> host;
  std::vector<float> constants;
  std::vector<tex::TextureDescriptor> textures;
  tex::TextureUnit* textureUnit = nullptr;
};

}  // namespace tessera::gpu::sp::testing
