#include "gpu/tex/texel_format.h"
#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

TexelBlock texelBlock(TexFormat f) {
  const auto i = static_cast<size_t>(f);
  return i < kTexelBlocks.size() ? kTexelBlocks[i] : TexelBlock{1, 1, 0};
}

uint32_t bytesPerTexel(TexFormat f) {
  return isCompressedFormat(f) ? 0 : texelBlock(f).bytes;
}

uint64_t imageBytes(TexFormat f, uint32_t width, uint32_t height) {
  const TexelBlock b = texelBlock(f);
  return uint64_t{(width + b.width - 1u) / b.width} * ((height + b.height - 1u) / b.height) *
         b.bytes;
}

namespace {
uint64_t imageBytes(const TextureDescriptor& d, uint32_t level) {
  return imageBytes(d.format, levelExtent(d.width, level), levelExtent(d.height, level));
}
}  // namespace

uint64_t levelOffset(const TextureDescriptor& d, uint32_t level) {
  if (level == 0) return 0;  // most lookups: magnified or unmipmapped
  uint64_t offset = 0;
  const uint32_t sized = level < 32 ? level : 32;
  for (uint32_t i = 0; i < sized; ++i) offset += imageBytes(d, i) * layerCount(d, i);
  // Levels from 32 on are all 1x1(x1); a bogus level count must not loop for billions of steps.
  return offset + uint64_t{level - sized} * imageBytes(d.format, 1, 1) * layerCount(d, 32);
}

uint64_t faceOffset(const TextureDescriptor& d, uint32_t level, uint32_t face) {
  return levelOffset(d, level) + uint64_t{face} * imageBytes(d, level);
}

uint64_t totalBytes(const TextureDescriptor& d) {
  return levelOffset(d, d.levels);
}

}  // namespace tessera::gpu::tex
