// A small least-recently-used cache for state the driver derives from a plain key (bin layouts,
// state variants). Keys need operator== and a hash; a lookup that hits makes the entry the most
// recent, and inserting into a full cache drops the least recent one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

namespace tessera::driver {

template <typename Key, typename Value, size_t N, typename Hash = std::hash<Key>>
class LruCache final {
  static_assert(N > 0, "an LRU cache needs room for at least one entry");

 public:
  struct Stats {
    uint64_t hits = 0;       // lookups that found their key
    uint64_t misses = 0;     // lookups that did not
    uint64_t evictions = 0;  // entries dropped to make room
  };

  static constexpr size_t capacity() { return N; }
  size_t size() const { return order_.size(); }
  const Stats& stats() const { return stats_; }

  // The value for `key`, now the most recent entry, or nullptr (counts a hit or a miss).
  Value* find(const Key& key) {
    auto it = index_.find(key);
    if (it == index_.end()) {
      ++stats_.misses;
      return nullptr;
    }
    ++stats_.hits;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->second;
  }

  // Whether `key` is cached, without touching recency or statistics.
  bool contains(const Key& key) const { return index_.count(key) != 0; }

  // Stores `value` under `key` as the most recent entry, replacing an existing value or
  // evicting the least recent entry when full.
  Value& insert(const Key& key, Value value) {
    if (auto it = index_.find(key); it != index_.end()) {
      it->second->second = std::move(value);
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    if (order_.size() == N) {
      index_.erase(order_.back().first);
      order_.pop_back();
      ++stats_.evictions;
    }
    order_.emplace_front(key, std::move(value));
    index_.emplace(key, order_.begin());
    return order_.front().second;
  }

  // The cached value for `key`, or the one `make()` builds and inserts.
  template <typename Make>
  Value& findOrInsert(const Key& key, Make&& make) {
    if (Value* v = find(key)) return *v;
    return insert(key, std::forward<Make>(make)());
  }

  void clear() {
    order_.clear();
    index_.clear();
  }

 private:
  using Entry = std::pair<Key, Value>;
  std::list<Entry> order_;  // most recent first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
  Stats stats_;
};

}  // namespace tessera::driver
