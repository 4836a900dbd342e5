// tex-decode-bench: the cost of sampling a compressed texture against RGBA8 — bilinear
// sampleLod calls over a 256x256 texture (one level), walking it in pixel order at slightly
// under one texel per pixel so neighbouring samples share blocks as a magnified draw does.
//   tex-decode-bench [samples]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/texture_unit.h"
#include "texdecode/block_gen.h"

namespace {

using namespace tessera;
using gpu::tex::TexFormat;

double nsPerSample(TexFormat f, gpu::tex::Filter filter, uint32_t samples) {
  gpu::GpuMemory memory;
  gpu::tex::TextureUnit unit(memory);
  gpu::tex::TextureDescriptor d;
  d.format = f, d.width = 256, d.height = 256;
  d.magFilter = d.minFilter = filter;
  std::mt19937 rng(1);
  std::vector<uint8_t> bytes;
  const gpu::tex::TexelBlock tb = gpu::tex::texelBlock(f);
  const uint64_t total = gpu::tex::totalBytes(d);
  while (bytes.size() < total) {
    if (gpu::tex::isAstcFormat(f)) {
      const auto b =
          texdecode::makeAstcBlock(rng, texdecode::randomAstcParams(rng, tb.width, tb.height));
      bytes.insert(bytes.end(), b.begin(), b.end());
    } else {
      bytes.push_back(static_cast<uint8_t>(rng()));
    }
  }
  bytes.resize(total);
  d.base = memory.allocate(bytes.size(), "texture");
  memory.write(gpu::BusClient::Host, d.base, bytes.data(), bytes.size());
  float out[4], sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < samples; ++i) {
    const float s = static_cast<float>(i % 300) / 300.0f,
                t = static_cast<float>(i / 300 % 300) / 300.0f;
    unit.sampleLod(d, s, t, 0.0f, out);
    sink += out[0];
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (sink < 0) std::puts("");
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / samples;
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t samples = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 2000000;
  const struct {
    const char* name;
    TexFormat f;
  } formats[] = {{"RGBA8", TexFormat::RGBA8},           {"ETC2_RGB8", TexFormat::ETC2_RGB8},
                 {"ETC2_RGBA8", TexFormat::ETC2_RGBA8}, {"EAC_RG11", TexFormat::EAC_RG11},
                 {"ASTC_4x4", TexFormat::ASTC_4x4},     {"ASTC_8x8", TexFormat::ASTC_8x8},
                 {"ASTC_12x12", TexFormat::ASTC_12x12}};
  std::printf("%-12s %14s %14s\n", "format", "nearest ns", "bilinear ns");
  for (const auto& f : formats) {
    std::printf("%-12s %14.1f %14.1f\n", f.name,
                nsPerSample(f.f, gpu::tex::Filter::Nearest, samples),
                nsPerSample(f.f, gpu::tex::Filter::Linear, samples));
  }
  return 0;
}
