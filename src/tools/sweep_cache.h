// The results of `tessera sweep`'s points, each kept in a cache folder under a hash of
// everything that decides it (scene or trace contents, the preset after overrides, mode, size and
// the Tessera build itself), so that an interrupted sweep resumes where it stopped and a point is
// never rendered twice.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "gpu/mem/gpu_memory.h"
#include "gpu/perf/timing_model.h"

namespace tessera::tools {

// What a sweep row shows of one point: the bins of its frame (the main batch's) and what the
// timing model and the bus counters say it cost.
struct PointResult {
  uint32_t bins = 0, binsX = 0, binsY = 0, binW = 0, binH = 0;
  gpu::perf::SubmissionTiming timing;  // cycles, busy per block, bound, clock (no passes)
  gpu::BusStats bus;
};

// Exact both ways: doubles are written in shortest round-trip form.
nlohmann::json pointJson(const PointResult& p);
// Throws tessera::Error if a field is missing or of the wrong kind.
PointResult pointFromJson(const nlohmann::json& j);

// A 128-bit FNV-1a style hash over the bytes fed to it, printed as 32 hex digits.
class InputHash final {
 public:
  InputHash& add(std::string_view bytes);
  // A file's contents; throws tessera::Error if it cannot be read.
  InputHash& addFile(const std::string& path);
  std::string hex() const;

 private:
  uint64_t a_ = 0xcbf29ce484222325ull, b_ = 0x84222325cbf29ce4ull;
};

// The Tessera build that renders: the contents of the running executable and, for replays, of
// libEGL.so.1 and libGLESv2.so.2 in `libDir`, hashed. Throws tessera::Error if one is unreadable.
std::string buildIdentity(const std::string& libDir = "");

// The default cache folder: $XDG_CACHE_HOME/tessera/sweep, else $HOME/.cache/tessera/sweep, else
// "" (no place to keep results).
std::string defaultSweepCacheDir();

class PointCache final {
 public:
  explicit PointCache(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }
  std::string pathOf(const std::string& key) const;
  // The cached result, or nothing if there is none (or it is unreadable: it is then rendered
  // again and overwritten).
  std::optional<PointResult> load(const std::string& key) const;
  // Written to a temporary file and renamed, so a killed sweep never leaves half a result.
  void store(const std::string& key, const std::string& inputs, const PointResult& p) const;

 private:
  std::string dir_;
};

}  // namespace tessera::tools
