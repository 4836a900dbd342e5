// Texture unit (tex/) state: the descriptor the driver writes for one texture binding and the
// memory layout of its mip chain.
#pragma once
#include <cstdint>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::tex {

// D16 and D24S8 are depth textures in the render backend's depth layouts (rb/rb_state.h), so a
// depth buffer can be rendered and then sampled (OES_depth_texture): they read as (d, d, d, 1).
enum class TexFormat : uint8_t { RGBA8, RGB8, RGB565, RGBA4444, RGBA5551, L8, A8, LA8, D16, D24S8 };
enum class Wrap : uint8_t { Repeat, ClampToEdge, MirroredRepeat };
enum class Filter : uint8_t { Nearest, Linear };
enum class MipFilter : uint8_t { None, Nearest, Linear };

struct TextureDescriptor {
  GpuAddress base = 0;
  TexFormat format = TexFormat::RGBA8;
  uint32_t width = 0, height = 0, levels = 1;  // level i is max(1, w>>i) x max(1, h>>i)
  Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat;
  Filter magFilter = Filter::Linear, minFilter = Filter::Linear;
  MipFilter mipFilter = MipFilter::None;
  bool cube = false;  // a cube map: six square faces per level, +X -X +Y -Y +Z -Z
};

constexpr uint32_t faceCount(const TextureDescriptor& d) {
  return d.cube ? 6 : 1;
}

uint32_t bytesPerTexel(TexFormat);

// Size of a mip level along one axis (GLES 2.0 §3.7.7: each level halves, down to 1).
constexpr uint32_t levelExtent(uint32_t size, uint32_t level) {
  const uint32_t s = level >= 32 ? 0 : size >> level;
  return s == 0 ? 1 : s;
}

// Mip levels are packed one after another, rows tightly packed (pitch = width x bytes per texel);
// a cube map's level holds its six faces one after another.
uint64_t levelOffset(const TextureDescriptor&, uint32_t level);
uint64_t faceOffset(const TextureDescriptor&, uint32_t level, uint32_t face);
uint64_t totalBytes(const TextureDescriptor&);

// GLES 2.0 §3.7.10 reduced to what the hardware checks: a texture without texels samples as
// (0,0,0,1).
constexpr bool isComplete(const TextureDescriptor& d) {
  return d.levels != 0 && d.width != 0 && d.height != 0;
}

}  // namespace tessera::gpu::tex
