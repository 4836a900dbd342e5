// Builds textures in GPU memory for the texture unit tests.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/texture_unit.h"

namespace tessera::gpu::tex::testing {

struct TexFixture {
  GpuMemory memory;
  TextureUnit unit{memory};

  // Allocates a BO holding `bytes` and returns a descriptor pointing at it.
  TextureDescriptor make(TexFormat f, uint32_t w, uint32_t h, uint32_t levels,
                         const std::vector<uint8_t>& bytes) {
    TextureDescriptor d;
    d.format = f;
    d.width = w;
    d.height = h;
    d.levels = levels;
    d.base = memory.allocate(bytes.size(), "texture");
    memory.write(BusClient::Host, d.base, bytes.data(), bytes.size());
    return d;
  }

  std::vector<float> lod(const TextureDescriptor& d, float s, float t, float lambda) {
    float out[4];
    unit.sampleLod(d, s, t, lambda, out);
    return {out[0], out[1], out[2], out[3]};
  }
};

}  // namespace tessera::gpu::tex::testing
