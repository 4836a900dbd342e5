// Texture unit (tex/): the texture cache between the filters and the memory bus. Set-associative
// with LRU replacement, over the GPU addresses of the bytes each texel fetch needs (for a
// compressed format: its whole block). A hit costs no bus traffic; a miss fills one line, which
// is what the bus is charged. The cache holds no data: texels are always read from memory, so the
// cache changes bytes and timing, never a pixel.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "common/simd.h"
#include "gpu/mem/gpu_memory.h"
#if TESSERA_AVX2_CLONES
#include <immintrin.h>
#endif

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
    settle(set, line, hit);
    return hit;
  }
#if TESSERA_AVX2_CLONES
  // lookupLine on the AVX2 path, for a set of four or eight ways (others take lookupLine). The
  // second way, where a line looked up just before the front one mostly waits, is tested alone
  // first; otherwise every tag is compared at once, and the tags before the hit (or all but the
  // least recently used one on a miss) move back a way in one blend per four ways, without the
  // loop's unpredictable exit: a miss costs no more than a hit.
  [[gnu::target("avx2"), gnu::always_inline]] bool lookupLineAvx2(uint64_t line) {
    const uint32_t ways = config_.ways;
    if (ways != 4 && ways != 8) return lookupLine(line);
    ++stats_.lookups;
    const uint64_t set = line & (sets_ - 1);
    uint64_t* tags = tags_.data() + set * ways;
    bool hit = true;
    if (tags[1] == line) {
      tags[1] = tags[0];
      tags[0] = line;
    } else {
      auto* four = reinterpret_cast<__m256i*>(tags);
      const __m256i wanted = _mm256_set1_epi64x(static_cast<long long>(line));
      const __m256i a = _mm256_loadu_si256(four);
      const __m256i b = ways == 8 ? _mm256_loadu_si256(four + 1) : a;
      const auto inA = static_cast<uint32_t>(
          _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a, wanted))));
      const auto inB = static_cast<uint32_t>(
          _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(b, wanted))));
      const uint32_t at = inA | (ways == 8 ? inB << 4 : 0u);
      hit = at != 0;
      // Ways 0 to `moved` - 1 take the tag a way ahead of them (way 0 the line).
      const __m256i moved = _mm256_set1_epi64x(hit ? std::countr_zero(at) + 1 : ways);
      const __m256i behindA = _mm256_blend_epi32(_mm256_permute4x64_epi64(a, 0x90), wanted, 0x03);
      _mm256_storeu_si256(
          four, _mm256_blendv_epi8(a, behindA,
                                   _mm256_cmpgt_epi64(moved, _mm256_setr_epi64x(0, 1, 2, 3))));
      if (ways == 8) {
        const __m256i behindB = _mm256_blend_epi32(_mm256_permute4x64_epi64(b, 0x90),
                                                   _mm256_permute4x64_epi64(a, 0xff), 0x03);
        _mm256_storeu_si256(
            four + 1, _mm256_blendv_epi8(
                          b, behindB, _mm256_cmpgt_epi64(moved, _mm256_setr_epi64x(4, 5, 6, 7))));
      }
    }
    settle(set, line, hit);
    return hit;
  }
#endif
  // The statistics of a lookup of `line` in `set`, which it now leads.
  void settle(uint64_t set, uint64_t line, bool hit) {
    if (!hit) {
      ++stats_.misses;  // the LRU way (or an empty one: empties are always at the back) left
      stats_.missBytes += config_.lineBytes;
    } else {
      ++stats_.hits;
    }
    front_[set] = line;
    if (set == 0) front_[sets_] = line;  // the mirror after the last set
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
#if TESSERA_AVX2_CLONES
  // `count` (>= 1) lookups of `line` in a row: hits without a tag test when it is the most recent
  // of its set; otherwise the first searches the set (and fills it on a miss), which leaves the
  // line the most recent, so the others hit. On the AVX2 path (TextureCache::lookupLineAvx2).
  [[gnu::target("avx2"), gnu::always_inline]] void lookUpLineAvx2(uint64_t line,
                                                                  uint32_t count = 1) {
    if (!mostRecent(line)) {
      cache_->lookupLineAvx2(line);
      --count;
    }
    hits_ += count;
    last_ = line;
  }
  // `lookups` lookups (at least one per line) of the lines base + k for each set bit k of
  // `lines`, in any order, when no two of those lines share a set: each set then sees one line,
  // so whatever the order its first lookup finds the line (or fills it) and every later one hits
  // it at the front of its set. On the AVX2 path.
  [[gnu::target("avx2"), gnu::always_inline]] void lookUpDistinctAvx2(uint64_t base, uint64_t lines,
                                                                      uint64_t lookups) {
    for (uint64_t rest = lines; rest; rest &= rest - 1) {
      const uint64_t line = base + static_cast<uint64_t>(std::countr_zero(rest));
      if (front_[line & setMask_] != line) {
        cache_->lookupLineAvx2(line);
        --lookups;
      }
    }
    hits_ += lookups;
    last_ = base + static_cast<uint64_t>(std::countr_zero(lines));
  }
#endif
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
