// Texture unit (tex/) state: the descriptor the driver writes for one texture binding and the
// memory layout of its mip chain.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::tex {

// D16 and D24S8 are depth textures in the render backend's depth layouts (rb/rb_state.h), so a
// depth buffer can be rendered and then sampled (OES_depth_texture): they read as (d, d, d, 1),
// or, with depth comparison on, as the filtered comparison results (OpenGL ES 3.0 §3.8.16).
// The integer formats (OpenGL ES 3.0 Table 3.13, sized R/RG/RGBA 8/16/32 I/UI) read as raw
// integers: each channel's int32 or uint32 bit pattern, missing channels 0 and alpha 1.
enum class TexFormat : uint8_t {
  RGBA8,
  RGB8,
  RGB565,
  RGBA4444,
  RGBA5551,
  L8,
  A8,
  LA8,
  D16,
  D24S8,
  R8I,
  R8UI,
  RG8I,
  RG8UI,
  RGBA8I,
  RGBA8UI,
  R16I,
  R16UI,
  RGBA16I,
  RGBA16UI,
  R32I,
  R32UI,
  RGBA32I,
  RGBA32UI,
  // Block-compressed formats (docs/textures.md), decoded by the sampler from their blocks:
  // OES_compressed_ETC1_RGB8_texture, the OpenGL ES 3.0 ETC2/EAC formats (§3.8.3, Annex C) and
  // KHR_texture_compression_astc_ldr's 2D footprints (width x height texels per 16-byte block).
  ETC1_RGB8,
  ETC2_RGB8,
  ETC2_RGBA8,   // EAC alpha block, then an ETC2 colour block
  ETC2_RGB8A1,  // punch-through alpha
  EAC_R11,      // unsigned 11-bit red
  EAC_R11_SNORM,
  EAC_RG11,
  EAC_RG11_SNORM,
  ASTC_4x4,
  ASTC_5x4,
  ASTC_5x5,
  ASTC_6x5,
  ASTC_6x6,
  ASTC_8x5,
  ASTC_8x6,
  ASTC_8x8,
  ASTC_10x5,
  ASTC_10x6,
  ASTC_10x8,
  ASTC_10x10,
  ASTC_12x10,
  ASTC_12x12,
  // OES_texture_half_float and OES_texture_float: unclamped floating-point channels, 16-bit
  // (IEEE half) or 32-bit per channel, in the GLES 2.0 base formats of Table 3.3.
  RGBA16F,
  RGB16F,
  LA16F,
  L16F,
  A16F,
  RGBA32F,
  RGB32F,
  LA32F,
  L32F,
  A32F,
};
inline constexpr uint32_t kTexFormatCount = 56;
// EXT_texture_filter_anisotropic: the largest GL_TEXTURE_MAX_ANISOTROPY_EXT the unit takes.
inline constexpr uint32_t kMaxAnisotropy = 16;

enum class Wrap : uint8_t { Repeat, ClampToEdge, MirroredRepeat };
enum class Filter : uint8_t { Nearest, Linear };
enum class MipFilter : uint8_t { None, Nearest, Linear };
// Depth comparison functions (GL_TEXTURE_COMPARE_FUNC), in the GL enum order.
enum class CompareFunc : uint8_t { Never, Less, Equal, LEqual, Greater, NotEqual, GEqual, Always };

// How the layers of a level are addressed.
enum class TexTarget : uint8_t {
  Tex2D,    // one image per level
  Cube,     // six square faces per level, +X -X +Y -Y +Z -Z
  Tex3D,    // `depth` slices that halve with every level, like width and height
  Array2D,  // `depth` layers per level that never halve, filtered one layer at a time
};

// Laid out without padding, so that two descriptors are equal exactly when their bytes are: a
// warp's lookup compares the descriptor with the one it last set up (texture_unit.cpp).
struct TextureDescriptor {
  GpuAddress base = 0;
  uint32_t width = 0, height = 0, levels = 1;  // level i is max(1, w>>i) x max(1, h>>i)
  uint32_t depth = 1;                          // 3D: depth of level 0; 2D array: layers
  TexFormat format = TexFormat::RGBA8;
  Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat, wrapR = Wrap::Repeat;
  Filter magFilter = Filter::Linear, minFilter = Filter::Linear;
  MipFilter mipFilter = MipFilter::None;
  bool cube = false;    // a cube map: six square faces per level, +X -X +Y -Y +Z -Z
  bool volume = false;  // a 3D texture (TexTarget::Tex3D)
  bool array = false;   // a 2D array texture (TexTarget::Array2D)
  // GL_TEXTURE_COMPARE_MODE = COMPARE_REF_TO_TEXTURE: lookups that carry a reference compare
  // it with each depth texel before filtering.
  bool compare = false;
  CompareFunc compareFunc = CompareFunc::LEqual;
  // EXT_texture_filter_anisotropic: up to this many probes (1..kMaxAnisotropy) along the major
  // axis of a minified 2D footprint; 1 is isotropic filtering.
  uint8_t maxAnisotropy = 1;
  uint8_t unused[3] = {};  // always zero: the struct has no padding
  // Word by word, inline: a warp's texture lookup compares descriptors each time, and a library
  // memcmp call costs more than the comparison.
  bool operator==(const TextureDescriptor& o) const {
    uint64_t differ = 0;
    for (size_t i = 0; i < sizeof *this; i += 8) {
      uint64_t a, b;
      std::memcpy(&a, reinterpret_cast<const char*>(this) + i, 8);
      std::memcpy(&b, reinterpret_cast<const char*>(&o) + i, 8);
      differ |= a ^ b;
    }
    return differ == 0;
  }
};
static_assert(std::has_unique_object_representations_v<TextureDescriptor>);
static_assert(sizeof(TextureDescriptor) % 8 == 0);

constexpr TexTarget targetOf(const TextureDescriptor& d) {
  return d.cube     ? TexTarget::Cube
         : d.volume ? TexTarget::Tex3D
         : d.array  ? TexTarget::Array2D
                    : TexTarget::Tex2D;
}

constexpr bool isDepthFormat(TexFormat f) {
  return f == TexFormat::D16 || f == TexFormat::D24S8;
}
constexpr bool isIntegerFormat(TexFormat f) {
  return f >= TexFormat::R8I && f <= TexFormat::RGBA32UI;
}

constexpr bool isCompressedFormat(TexFormat f) {
  return f >= TexFormat::ETC1_RGB8 && f <= TexFormat::ASTC_12x12;
}
constexpr bool isEtcFormat(TexFormat f) {
  return f >= TexFormat::ETC1_RGB8 && f <= TexFormat::EAC_RG11_SNORM;
}
constexpr bool isAstcFormat(TexFormat f) {
  return f >= TexFormat::ASTC_4x4 && f <= TexFormat::ASTC_12x12;
}
constexpr bool isFloatFormat(TexFormat f) {
  return f >= TexFormat::RGBA16F && f <= TexFormat::A32F;
}

// The unit of storage of a format: a texel (1x1) for uncompressed formats, a compressed block
// of width x height texels otherwise.
struct TexelBlock {
  uint8_t width, height, bytes;
};
TexelBlock texelBlock(TexFormat);
// Bytes per texel of an uncompressed format; 0 for compressed formats (use imageBytes).
uint32_t bytesPerTexel(TexFormat);
// Bytes of one w x h image (one level of one face, slice or layer): rows of blocks, each row
// ceil(w / block width) blocks, ceil(h / block height) rows; 0 for an unknown format.
uint64_t imageBytes(TexFormat, uint32_t width, uint32_t height);

// Size of a mip level along one axis (GLES 2.0 §3.7.7: each level halves, down to 1).
constexpr uint32_t levelExtent(uint32_t size, uint32_t level) {
  const uint32_t s = level >= 32 ? 0 : size >> level;
  return s == 0 ? 1 : s;
}

// Images of one level: cube faces, 3D slices (halving with the level) or array layers.
constexpr uint32_t layerCount(const TextureDescriptor& d, uint32_t level) {
  if (d.cube) return 6;
  if (d.volume) return levelExtent(d.depth, level);
  return d.array ? d.depth : 1;
}
// Mip levels are packed one after another, rows tightly packed (pitch = width x bytes per texel,
// or for compressed formats a row of blocks);
// a level holds its images (cube faces, 3D slices, array layers) one after another.
uint64_t levelOffset(const TextureDescriptor&, uint32_t level);
uint64_t faceOffset(const TextureDescriptor&, uint32_t level, uint32_t face);  // face = layer
uint64_t totalBytes(const TextureDescriptor&);

// GLES 2.0 §3.7.10 reduced to what the hardware checks: a texture without texels samples as
// (0,0,0,1). OpenGL ES 3.0 §3.8.13: an integer texture is complete only with NEAREST
// magnification and NEAREST or NEAREST_MIPMAP_NEAREST minification.
constexpr bool isComplete(const TextureDescriptor& d) {
  if (d.levels == 0 || d.width == 0 || d.height == 0 || d.depth == 0) return false;
  if (isIntegerFormat(d.format) &&
      (d.magFilter != Filter::Nearest || d.minFilter != Filter::Nearest ||
       d.mipFilter == MipFilter::Linear))
    return false;
  return true;
}

}  // namespace tessera::gpu::tex
