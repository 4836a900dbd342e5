#include "gpu/tex/texture_cache.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tessera::gpu::tex {
namespace {

constexpr uint64_t kEmpty = ~uint64_t{0};

}  // namespace

const char* texCacheProblem(const TexCacheConfig& c) {
  if (c.lineBytes < 16 || !std::has_single_bit(c.lineBytes))
    return "texCacheLineBytes must be a power of two >= 16";
  if (c.ways == 0) return "texCacheWays must be >= 1";
  if (c.bytes == 0) return nullptr;
  const uint64_t setBytes = uint64_t{c.lineBytes} * c.ways;
  if (c.bytes % setBytes != 0 || !std::has_single_bit(c.bytes / setBytes))
    return "texCacheBytes must be texCacheLineBytes x texCacheWays x a power of two (or 0)";
  return nullptr;
}

TextureCache::TextureCache(TexCacheConfig config) : config_(config) {
  if (const char* problem = texCacheProblem(config)) throw std::invalid_argument(problem);
  lineShift_ = static_cast<uint32_t>(std::countr_zero(config.lineBytes));
  sets_ = enabled() ? config.bytes / (config.lineBytes * config.ways) : 0;
  tags_.assign(size_t{sets_} * config.ways, kEmpty);
  front_.assign(size_t{sets_} + 1, kEmpty);
}

void TextureCache::invalidate() {
  std::fill(tags_.begin(), tags_.end(), kEmpty);
  std::fill(front_.begin(), front_.end(), kEmpty);
}

uint64_t TextureCache::accessLines(GpuAddress address, uint32_t bytes) {
  if (bytes == 0) return 0;
  const uint64_t misses = stats_.misses;
  const uint64_t first = address >> lineShift_, last = (address + bytes - 1) >> lineShift_;
  for (uint64_t line = first; line <= last; ++line) lookupLine(line);
  return (stats_.misses - misses) * config_.lineBytes;
}

std::vector<GpuAddress> TextureCache::setContents(uint32_t set) const {
  std::vector<GpuAddress> lines;
  if (set >= sets_) return lines;
  for (uint32_t w = 0; w < config_.ways; ++w) {
    const uint64_t tag = tags_[size_t{set} * config_.ways + w];
    if (tag != kEmpty) lines.push_back(tag << lineShift_);
  }
  return lines;
}

}  // namespace tessera::gpu::tex
