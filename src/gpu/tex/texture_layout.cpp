#include "gpu/tex/texel_format.h"
#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

uint32_t bytesPerTexel(TexFormat f) {
  const auto i = static_cast<size_t>(f);
  return i < kBytesPerTexel.size() ? kBytesPerTexel[i] : 0;
}

uint64_t levelOffset(const TextureDescriptor& d, uint32_t level) {
  if (level == 0) return 0;  // most lookups: magnified or unmipmapped
  const uint64_t bpp = uint64_t{bytesPerTexel(d.format)} * faceCount(d);
  uint64_t offset = 0;
  const uint32_t sized = level < 32 ? level : 32;
  for (uint32_t i = 0; i < sized; ++i)
    offset += uint64_t{levelExtent(d.width, i)} * levelExtent(d.height, i) * bpp;
  // Levels from 32 on are all 1x1; a bogus level count must not loop for billions of steps.
  return offset + uint64_t{level - sized} * bpp;
}

uint64_t faceOffset(const TextureDescriptor& d, uint32_t level, uint32_t face) {
  const uint64_t faceBytes = uint64_t{levelExtent(d.width, level)} * levelExtent(d.height, level) *
                             bytesPerTexel(d.format);
  return levelOffset(d, level) + uint64_t{face} * faceBytes;
}

uint64_t totalBytes(const TextureDescriptor& d) {
  return levelOffset(d, d.levels);
}

}  // namespace tessera::gpu::tex
