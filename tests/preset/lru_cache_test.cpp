#include "driver/lru_cache.h"

#include <gtest/gtest.h>

#include <string>

#include "driver/bin_layout.h"

namespace tessera::driver {
namespace {

TEST(LruCache, EvictsTheLeastRecentlyUsed) {
  LruCache<int, std::string, 3> cache;
  EXPECT_EQ(cache.capacity(), 3u);
  cache.insert(1, "one");
  cache.insert(2, "two");
  cache.insert(3, "three");
  ASSERT_NE(cache.find(1), nullptr);  // 1 becomes the most recent; 2 is now the oldest
  cache.insert(4, "four");
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_FALSE(cache.contains(2));
  EXPECT_TRUE(cache.contains(1));
  EXPECT_TRUE(cache.contains(3));
  EXPECT_EQ(*cache.find(4), "four");
  EXPECT_EQ(cache.find(2), nullptr);
  EXPECT_EQ(cache.stats().hits, 2u);
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.stats().evictions, 1u);
  cache.insert(5, "five");  // oldest is now 3 (contains() does not refresh)
  EXPECT_FALSE(cache.contains(3));
  EXPECT_TRUE(cache.contains(1));
}

TEST(LruCache, InsertingAnExistingKeyReplacesWithoutEvicting) {
  LruCache<int, int, 2> cache;
  cache.insert(1, 10);
  cache.insert(2, 20);
  cache.insert(1, 11);  // 1 is refreshed, so 2 is the oldest
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.stats().evictions, 0u);
  cache.insert(3, 30);
  EXPECT_FALSE(cache.contains(2));
  EXPECT_EQ(*cache.find(1), 11);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_FALSE(cache.contains(1));
}

TEST(LruCache, FindOrInsertBuildsOnlyOnAMiss) {
  LruCache<int, int, 4> cache;
  int builds = 0;
  auto make = [&] { return ++builds * 100; };
  EXPECT_EQ(cache.findOrInsert(7, make), 100);
  EXPECT_EQ(cache.findOrInsert(7, make), 100);
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(cache.findOrInsert(8, make), 200);
  EXPECT_EQ(builds, 2);
}

BinLayoutInput screen(uint32_t width) {
  return {0, 0, width, 480, {4, 4}};
}

TEST(BinLayoutCache, HitsShareOneLayout) {
  BinLayoutCache cache;
  const gpu::Preset& a320 = gpu::findPreset("adreno-a320");
  auto first = cache.get(a320, screen(640));
  auto second = cache.get(a320, screen(640));
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
  auto other = cache.get(gpu::findPreset("adreno-a330"), screen(640));
  EXPECT_NE(other.get(), first.get());
  EXPECT_EQ(cache.size(), 2u);
}

TEST(BinLayoutCache, KeepsTwentyAndEvictedLayoutsStayValid) {
  BinLayoutCache cache;
  const gpu::Preset& a630 = gpu::findPreset("adreno-a630");
  auto oldest = cache.get(a630, screen(100));
  for (uint32_t w = 101; w < 120; ++w) cache.get(a630, screen(w));
  EXPECT_EQ(cache.size(), 20u);
  EXPECT_EQ(cache.stats().evictions, 0u);
  cache.get(a630, screen(120));
  EXPECT_EQ(cache.size(), 20u);
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_EQ(oldest->width, 100u);  // still readable after eviction
  auto again = cache.get(a630, screen(100));
  EXPECT_NE(again.get(), oldest.get()) << "the evicted layout was rebuilt";
  EXPECT_EQ(again->binW, oldest->binW);
}

TEST(BinLayoutCache, OverriddenPresetGetsItsOwnLayout) {
  BinLayoutCache cache;
  gpu::Preset small = gpu::findPreset("adreno-a320");
  auto normal = cache.get(small, {0, 0, 1920, 1080, {4, 4}});
  small.gmemBytes /= 2;  // same name, less GMEM
  auto halved = cache.get(small, {0, 0, 1920, 1080, {4, 4}});
  EXPECT_GT(halved->bins.size(), normal->bins.size());
}

TEST(BinLayoutCache, KeyDistinguishesEveryInputField) {
  const gpu::Preset& a320 = gpu::findPreset("adreno-a320");
  BinLayoutInput base{1, 2, 3, 4, {4, 4}};
  BinLayoutKey key = BinLayoutKey::make(a320, base);
  EXPECT_EQ(key, BinLayoutKey::make(a320, base));
  EXPECT_EQ(BinLayoutKeyHash{}(key), BinLayoutKeyHash{}(BinLayoutKey::make(a320, base)));
  auto differs = [&](BinLayoutInput in) { return !(BinLayoutKey::make(a320, in) == key); };
  EXPECT_TRUE(differs({0, 2, 3, 4, {4, 4}}));
  EXPECT_TRUE(differs({1, 0, 3, 4, {4, 4}}));
  EXPECT_TRUE(differs({1, 2, 0, 4, {4, 4}}));
  EXPECT_TRUE(differs({1, 2, 3, 0, {4, 4}}));
  EXPECT_TRUE(differs({1, 2, 3, 4, {4}}));
  EXPECT_TRUE(differs({1, 2, 3, 4, {4, 4, 0}}));
  EXPECT_TRUE(differs({1, 2, 3, 4, {4, 2}}));
  EXPECT_FALSE(BinLayoutKey::make(gpu::findPreset("adreno-a330"), base) == key);
}

TEST(BinLayoutCache, ManyBuffersAreComputedUncached) {
  BinLayoutCache cache;
  std::vector<uint32_t> nine(9, 4);
  auto layout = cache.get(gpu::findPreset("adreno-a630"), {0, 0, 64, 64, nine});
  EXPECT_EQ(layout->gmemBase.size(), 9u);
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace tessera::driver
