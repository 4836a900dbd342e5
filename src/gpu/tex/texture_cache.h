// Texture unit (tex/): the texture cache between the filters and the memory bus. Set-associative
// with LRU replacement, over the GPU addresses of the bytes each texel fetch needs (for a
// compressed format: its whole block). A hit costs no bus traffic; a miss fills one line, which
// is what the bus is charged. The cache holds no data: texels are always read from memory, so the
// cache changes bytes and timing, never a pixel.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::tex {

// Geometry of the cache; `bytes` 0 means no cache (every fetch goes to memory).
struct TexCacheConfig {
  uint32_t bytes = 0;       // capacity
  uint32_t lineBytes = 64;  // power of two >= 16
  uint32_t ways = 4;        // lines per set; bytes / (lineBytes * ways) sets, a power of two
  bool operator==(const TexCacheConfig&) const = default;
};

// The first broken rule of a configuration, or null: lineBytes a power of two >= 16, ways >= 1,
// and for a cache (bytes > 0) a whole power-of-two number of sets.
const char* texCacheProblem(const TexCacheConfig&);

struct TexCacheStats {
  uint64_t lookups = 0;    // line lookups (a fetch that straddles lines looks up each)
  uint64_t hits = 0;       // lookups that found their line
  uint64_t misses = 0;     // lookups that filled a line from memory
  uint64_t missBytes = 0;  // misses x lineBytes: what the bus carried
};

class TextureCache final {
 public:
  // Throws std::invalid_argument when texCacheProblem() reports a problem.
  explicit TextureCache(TexCacheConfig config = {});

  const TexCacheConfig& config() const { return config_; }
  bool enabled() const { return config_.bytes != 0; }
  uint32_t sets() const { return sets_; }

  // Looks up every line [address, address + bytes) touches; returns the bytes the misses
  // fetched from memory. Without a cache, returns `bytes` and counts nothing. Neighbouring
  // texels mostly hit the line most recently used in its set (a bilinear footprint spans two or
  // three rows, each a line of its own set): such a hit changes no recency order and is counted
  // inline. A filter's loop over many fetches uses a CacheProbe instead.
  __attribute__((always_inline)) uint64_t access(GpuAddress address, uint32_t bytes) {
    if (!enabled()) return bytes;
    const uint64_t line = address >> lineShift_;
    if (bytes != 0 && frontOfSet(line) && (address + bytes - 1) >> lineShift_ == line) {
      countHits(1);
      return 0;
    }
    return accessLines(address, bytes);
  }
  // Empties every line (the contents of texture memory may have changed).
  void invalidate();

  const TexCacheStats& stats() const { return stats_; }
  void resetStats() { stats_ = {}; }

  // The line addresses set `set` holds, most recently used first (for tests and reports).
  std::vector<GpuAddress> setContents(uint32_t set) const;

 private:
  friend class CacheProbe;
  // The line is the most recently used of its set: a hit on it changes no recency order.
  bool frontOfSet(uint64_t line) const { return front_[line & (sets_ - 1)] == line; }
  uint64_t accessLines(GpuAddress address, uint32_t bytes);
  void countHits(uint64_t hits) {
    stats_.lookups += hits;
    stats_.hits += hits;
  }
  // The set is the line number's low bits (consecutive lines go to consecutive sets); within a
  // set the ways are kept in recency order, so a hit moves its tag to the front and a miss
  // shifts the least recently used tag out at the back.
  bool lookupLine(uint64_t line) {
    ++stats_.lookups;
    const uint64_t set = line & (sets_ - 1);
    uint64_t* ways = tags_.data() + set * config_.ways;
    // One pass from the front: each tag before the hit (or all but the LRU one on a miss) moves
    // back a way while the search goes on. A set has a few ways, so a loop does this faster than
    // std::find then a memmove.
    uint64_t carried = line;
    uint32_t w = 0;
    for (; w < config_.ways; ++w) {
      const uint64_t tag = ways[w];
      ways[w] = carried;
      if (tag == line) break;
      carried = tag;
    }
    const bool hit = w < config_.ways;
    if (!hit) {
      ++stats_.misses;  // the LRU way (or an empty one: empties are always at the back) left
      stats_.missBytes += config_.lineBytes;
    } else {
      ++stats_.hits;
    }
    front_[set] = line;
    if (set == 0) front_[sets_] = line;  // the mirror after the last set
    return hit;
  }

  TexCacheConfig config_;
  uint32_t sets_ = 0, lineShift_ = 0;
  // Per set, `ways` tags ordered most recently used first; kEmpty marks an invalid way.
  std::vector<uint64_t> tags_;
  // Per set, its first tag again: the test of nearly every lookup reads this dense copy (eight
  // sets to a host cache line) instead of one host line per set. One more entry after the last
  // set mirrors the first, so that a set and the next one are read together (CacheProbe::fronts).
  std::vector<uint64_t> front_;
  TexCacheStats stats_;
};

// A filter loop's view of the cache over many fetches, the same lookups as TextureCache::access
// in the same order: the geometry is read once into registers, and a fetch from the line of the
// previous one (the most recently used of its set, whatever happened since) is a hit without a
// tag test. Hits are counted in the probe and reach the statistics in finish(). Built on a null
// cache, it is disabled and the caller skips it.
class CacheProbe final {
 public:
  explicit CacheProbe(TextureCache* cache)
      : cache_(cache && cache->enabled() ? cache : nullptr),
        front_(cache_ ? cache_->front_.data() : nullptr),
        setMask_(cache_ ? cache_->sets_ - 1 : 0),
        lineShift_(cache_ ? cache_->lineShift_ : 0) {}
  bool enabled() const { return cache_ != nullptr; }

  // One fetch of `bytes` (> 0) at `address`.
  [[gnu::always_inline]] void access(GpuAddress address, uint32_t bytes) {
    const uint64_t line = address >> lineShift_, end = (address + bytes - 1) >> lineShift_;
    if (end != line) {
      cache_->accessLines(address, bytes);
    } else if (mostRecent(line)) {
      ++hits_;
    } else {
      cache_->lookupLine(line);  // inline: the other common hit is a line a way further back
    }
    last_ = end;
  }
  // `count` fetches of `bytes` each at consecutive addresses from `address`, in order, with one
  // test when they all fall on one most recently used line.
  [[gnu::always_inline]] void accessRun(GpuAddress address, uint32_t bytes, uint32_t count) {
    const uint64_t line = address >> lineShift_;
    if ((address + uint64_t{bytes} * count - 1) >> lineShift_ == line && mostRecent(line)) {
      hits_ += count;
      last_ = line;
      return;
    }
    for (uint32_t k = 0; k < count; ++k) access(address + uint64_t{k} * bytes, bytes);
  }
  // Hands the counted hits to the cache's statistics.
  void finish() {
    if (cache_) cache_->countHits(hits_);
    hits_ = 0;
  }

  uint32_t lineShift() const { return lineShift_; }
  // Each set's most recently used line (sets are the line numbers' low bits, setMask()), and
  // after the last set the first one's again: fronts()[s + 1] is the next set's for any set s.
  const uint64_t* fronts() const { return front_; }
  uint64_t setMask() const { return setMask_; }
  // The line is the most recently used of its set (the previous fetch's is, without a test): a
  // lookup of it is a hit that changes no recency order.
  bool mostRecent(uint64_t line) const { return line == last_ || front_[line & setMask_] == line; }
  // `count` (>= 1) lookups of `line` in a row: hits without a tag test when it is the most recent
  // of its set; otherwise the first searches the set (and fills it on a miss), which leaves the
  // line the most recent, so the others hit.
  [[gnu::always_inline]] void lookUpLine(uint64_t line, uint32_t count = 1) {
    if (mostRecent(line)) {
      hits_ += count;
    } else {
      cache_->lookupLine(line);
      hits_ += count - 1;
    }
    last_ = line;
  }
  // `count` lookups, each of a line that mostRecent() holds for, the last of them of `lastLine`:
  // hits that change nothing, so they are counted without a test each.
  void countRecentHits(uint64_t count, uint64_t lastLine) {
    hits_ += count;
    last_ = lastLine;
  }

 private:
  TextureCache* cache_;
  const uint64_t* front_;
  uint64_t setMask_;
  uint32_t lineShift_;
  uint64_t last_ = ~uint64_t{0};  // no line: line numbers are below 2^60
  uint64_t hits_ = 0;
};

}  // namespace tessera::gpu::tex
