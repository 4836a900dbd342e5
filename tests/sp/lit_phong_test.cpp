// The shipped lit.vs + phong.fs / phong_tex.fs on the shader core against a plain C++ float
// evaluation of the same formulas, for a few hundred random vertices and fragments; and the
// binning variant of lit.vs computes the same positions.
#include <array>
#include <cmath>
#include <random>

#include "gpu/mem/gpu_memory.h"
#include "isa/position_only.h"
#include "shaders/shaders.h"
#include "sp/sp_fixture.h"

namespace tessera::gpu::sp {
namespace {

using Vec3 = std::array<float, 3>;

float dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3 normalize(const Vec3& v) {
  const float k = 1.0f / std::sqrt(dot(v, v));
  return {v[0] * k, v[1] * k, v[2] * k};
}

void expectClose(float got, float want, const char* what, int at) {
  EXPECT_NEAR(got, want, 1e-5f * std::max(1.0f, std::fabs(want))) << what << " at " << at;
}

class LitPhong : public testing::SpFixture {
 protected:
  static constexpr int kWarps = 8;  // 256 vertices, 256 fragments

  LitPhong() : rng(1234) {
    constants.assign(64, 0.0f);
    for (int k = 0; k < 44; ++k) constants[k] = sym(2.0f);  // MVP, model-view, normal matrix
    Vec3 l = normalize({sym(1.0f), sym(1.0f), 0.5f + pos(1.0f)});
    for (int c = 0; c < 3; ++c) constants[44 + c] = l[c];
    for (int c = 0; c < 4; ++c) constants[48 + c] = pos(1.0f);  // diffuse
    for (int c = 0; c < 3; ++c) constants[52 + c] = pos(0.3f);  // ambient
    for (int c = 0; c < 3; ++c) constants[56 + c] = pos(1.0f);  // specular
    constants[59] = 1.0f + pos(63.0f);                          // shininess
  }
  float sym(float r) { return std::uniform_real_distribution<float>(-r, r)(rng); }
  float pos(float r) { return std::uniform_real_distribution<float>(0.0f, r)(rng); }
  float c(int k) const { return constants[k]; }
  // Matrix starting at constant `base`, column-major, times (x, y, z, w).
  float row(int base, int r, float x, float y, float z, float w) const {
    return c(base + r) * x + c(base + 4 + r) * y + c(base + 8 + r) * z + c(base + 12 + r) * w;
  }

  // Runs lit.vs on random vertices; checks every output; keeps them for the fragment stage.
  void shadeVertices() {
    isa::Program vs = isa::assemble(shaders::source("lit.vs"), "lit.vs");
    isa::Program posOnly = isa::positionOnly(vs);
    for (int wi = 0; wi < kWarps; ++wi) {
      auto w = vertexWarp();
      for (int a = 0; a < 3; ++a)
        for (int comp = 0; comp < 4; ++comp)
          for (int l = 0; l < kLanes; ++l) w->in[a][comp][l] = comp == 3 ? 1.0f : sym(1.0f);
      core.runVertex(vs, *w, resources());
      auto binning = vertexWarp();
      std::copy(&w->in[0][0][0], &w->in[0][0][0] + 4 * kLanes, &binning->in[0][0][0]);
      core.runVertex(posOnly, *binning, resources());
      for (int l = 0; l < kLanes; ++l) {
        const int at = wi * kLanes + l;
        const float x = w->in[0][0][l], y = w->in[0][1][l], z = w->in[0][2][l];
        const float nx = w->in[1][0][l], ny = w->in[1][1][l], nz = w->in[1][2][l];
        for (int r = 0; r < 4; ++r) {
          expectClose(w->out[0][r][l], row(0, r, x, y, z, 1.0f), "clip", at);
          // The binning variant computes bit-identical positions.
          EXPECT_EQ(binning->out[0][r][l], w->out[0][r][l]) << at;
        }
        for (int r = 0; r < 3; ++r) {
          expectClose(w->out[1][r][l], c(32 + r) * nx + c(36 + r) * ny + c(40 + r) * nz, "normal",
                      at);
          expectClose(w->out[3][r][l], row(16, r, x, y, z, 1.0f), "eye", at);
        }
        EXPECT_EQ(w->out[2][0][l], w->in[2][0][l]);
        EXPECT_EQ(w->out[2][1][l], w->in[2][1][l]);
        EXPECT_EQ(w->out[2][2][l], 0.0f);
        EXPECT_EQ(w->out[2][3][l], 1.0f);
        // Keep vertex varyings 0..2 (outputs 1..3) for the fragment stage.
        std::array<float, kMaxVaryings * 4> v{};
        for (int i = 0; i < 3; ++i)
          for (int comp = 0; comp < 4; ++comp) v[i * 4 + comp] = w->out[1 + i][comp][l];
        vertices.push_back(v);
      }
    }
  }

  // Runs a Phong fragment shader over random triangles/barycentrics and checks it against the
  // reference; `albedo` gives the reference albedo of a pixel from its texcoord.
  template <class Albedo>
  void shadeFragments(const char* name, Albedo albedo) {
    isa::Program fs = isa::assemble(shaders::source(name), name);
    std::vector<float> tris(kLanes / 4 * 3 * kMaxVaryings * 4);
    std::uniform_int_distribution<size_t> pick(0, vertices.size() - 1);
    for (int wi = 0; wi < kWarps; ++wi) {
      auto w = fragmentWarp();
      for (int q = 0; q < kLanes / 4; ++q) {
        float* t = &tris[q * 3 * kMaxVaryings * 4];
        for (int v = 0; v < 3; ++v) {
          const auto& src = vertices[pick(rng)];
          std::copy(src.begin(), src.end(), t + v * kMaxVaryings * 4);
        }
        w->varyings[q] = t;
      }
      for (int l = 0; l < kLanes; ++l) {
        w->bary[0][l] = pos(0.5f);
        w->bary[1][l] = pos(0.5f);
      }
      core.runFragment(fs, *w, resources());
      for (int l = 0; l < kLanes; ++l) {
        const float* t = w->varyings[l / 4];
        const float b1 = w->bary[0][l], b2 = w->bary[1][l], b0 = 1.0f - b1 - b2;
        auto ipl = [&](int slot) {
          return t[slot] * b0 + t[kMaxVaryings * 4 + slot] * b1 +
                 t[2 * kMaxVaryings * 4 + slot] * b2;
        };
        const Vec3 n = normalize({ipl(0), ipl(1), ipl(2)});
        const Vec3 light = {c(44), c(45), c(46)};
        const float diff = std::max(dot(n, light), 0.0f);
        const Vec3 vdir = normalize({-ipl(8), -ipl(9), -ipl(10)});
        const Vec3 h = normalize({light[0] + vdir[0], light[1] + vdir[1], light[2] + vdir[2]});
        const float ndoth = std::max(dot(n, h), 0.0f);
        const float spec = diff > 0.0f && ndoth > 0.0f ? std::pow(ndoth, c(59)) : 0.0f;
        const std::array<float, 4> alb = albedo(ipl(4), ipl(5));
        for (int ch = 0; ch < 3; ++ch) {
          const float want =
              std::clamp(c(52 + ch) * alb[ch] + diff * alb[ch] + spec * c(56 + ch), 0.0f, 1.0f);
          expectClose(w->color[ch][l], want, name, wi * kLanes + l);
        }
        expectClose(w->color[3][l], alb[3], name, wi * kLanes + l);
      }
    }
  }

  std::mt19937 rng;
  std::vector<std::array<float, kMaxVaryings * 4>> vertices;
};

TEST_F(LitPhong, MatchesTheReference) {
  shadeVertices();
  shadeFragments("phong.fs", [&](float, float) {
    return std::array<float, 4>{c(48), c(49), c(50), c(51)};
  });
  EXPECT_EQ(core.stats().vertexWarps, 2u * kWarps);
  EXPECT_EQ(core.stats().fragmentWarps, static_cast<uint64_t>(kWarps));
}

TEST_F(LitPhong, TexturedMatchesTheReference) {
  // A 1x1 texture samples the same texel at any coordinate and LOD.
  GpuMemory memory;
  tex::TextureUnit unit(memory);
  const uint8_t texel[4] = {200, 100, 50, 128};
  tex::TextureDescriptor d;
  d.base = memory.allocate(4, "texel");
  memory.write(BusClient::Host, d.base, texel, 4);
  d.width = d.height = 1;
  textures = {d};
  textureUnit = &unit;
  shadeVertices();
  shadeFragments("phong_tex.fs", [&](float, float) {
    std::array<float, 4> a;
    for (int ch = 0; ch < 4; ++ch) a[ch] = static_cast<float>(texel[ch]) / 255.0f * c(48 + ch);
    return a;
  });
  EXPECT_EQ(core.stats().textureSamples, static_cast<uint64_t>(kWarps * kLanes));
}

TEST_F(LitPhong, ConstantShaderOutputsTheDiffuseColour) {
  auto w = fragmentWarp();
  runFs(shaders::source("constant.fs"), *w);
  for (int ch = 0; ch < 4; ++ch)
    for (int l = 0; l < kLanes; ++l) EXPECT_EQ(w->color[ch][l], c(48 + ch));
}

}  // namespace
}  // namespace tessera::gpu::sp
