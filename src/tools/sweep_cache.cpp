#include "tools/sweep_cache.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/text_file.h"

namespace tessera::tools {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr uint64_t kFnvPrime = 0x100000001b3ull;

template <typename T>
T field(const json& j, const char* key) {
  if (!j.contains(key)) throw Error(std::string("cached point has no '") + key + "'");
  return j.at(key).get<T>();
}

}  // namespace

json pointJson(const PointResult& p) {
  json busy = json::array(), bytes = json::array();
  for (double c : p.timing.busy) busy.push_back(c);
  for (const gpu::BusTraffic& t : p.bus.client) bytes.push_back({t.readBytes, t.writeBytes});
  return {{"bins", p.bins},
          {"bins_x", p.binsX},
          {"bins_y", p.binsY},
          {"bin_w", p.binW},
          {"bin_h", p.binH},
          {"cycles", p.timing.cycles},
          {"clock_mhz", p.timing.clockMHz},
          {"bound", static_cast<int>(p.timing.bound)},
          {"busy_cycles", busy},
          {"bytes", bytes}};
}

PointResult pointFromJson(const json& j) {
  PointResult p;
  try {
    p.bins = field<uint32_t>(j, "bins");
    p.binsX = field<uint32_t>(j, "bins_x");
    p.binsY = field<uint32_t>(j, "bins_y");
    p.binW = field<uint32_t>(j, "bin_w");
    p.binH = field<uint32_t>(j, "bin_h");
    p.timing.cycles = field<double>(j, "cycles");
    p.timing.clockMHz = field<double>(j, "clock_mhz");
    const int bound = field<int>(j, "bound");
    if (bound < 0 || bound >= static_cast<int>(gpu::perf::kBlocks))
      throw Error("cached point has a bad bound block");
    p.timing.bound = static_cast<gpu::perf::Block>(bound);
    const json& busy = j.at("busy_cycles");
    const json& bytes = j.at("bytes");
    if (busy.size() != gpu::perf::kBlocks || bytes.size() != std::size(p.bus.client))
      throw Error("cached point was written by a build with other blocks or bus clients");
    for (size_t i = 0; i < gpu::perf::kBlocks; ++i) p.timing.busy[i] = busy[i].get<double>();
    for (size_t i = 0; i < bytes.size(); ++i) {
      p.bus.client[i].readBytes = bytes[i].at(0).get<uint64_t>();
      p.bus.client[i].writeBytes = bytes[i].at(1).get<uint64_t>();
    }
  } catch (const json::exception& e) {
    throw Error(std::string("cached point is malformed: ") + e.what());
  }
  return p;
}

InputHash& InputHash::add(std::string_view bytes) {
  // Two FNV-1a lanes with different bases; the length goes in too so that "ab"+"c" and "a"+"bc"
  // differ.
  for (unsigned char c : bytes) {
    a_ = (a_ ^ c) * kFnvPrime;
    b_ = (b_ ^ c ^ 0x5a) * kFnvPrime;
  }
  const uint64_t n = bytes.size();
  a_ = (a_ ^ n) * kFnvPrime;
  b_ = (b_ ^ (n >> 7) ^ 0xa5) * kFnvPrime;
  return *this;
}

InputHash& InputHash::addFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path + "'");
  std::string buf(1 << 20, '\0');
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    add(std::string_view(buf.data(), static_cast<size_t>(in.gcount())));
  }
  return *this;
}

std::string InputHash::hex() const {
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(a_),
                static_cast<unsigned long long>(b_));
  return out;
}

std::string buildIdentity(const std::string& libDir) {
  static const std::string exe = InputHash().addFile("/proc/self/exe").hex();
  if (libDir.empty()) return exe;
  InputHash h;
  h.add(exe);
  for (const char* lib : {"libEGL.so.1", "libGLESv2.so.2"})
    h.addFile((fs::path(libDir) / lib).string());
  return h.hex();
}

std::string defaultSweepCacheDir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return (fs::path(xdg) / "tessera" / "sweep").string();
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return (fs::path(home) / ".cache" / "tessera" / "sweep").string();
  return "";
}

std::string PointCache::pathOf(const std::string& key) const {
  return (fs::path(dir_) / (key + ".json")).string();
}

std::optional<PointResult> PointCache::load(const std::string& key) const {
  // Anything but a readable file of a result (a folder in its place, a read error) is no result.
  std::error_code ec;
  if (!fs::is_regular_file(pathOf(key), ec)) return std::nullopt;
  try {
    std::ifstream in(pathOf(key));
    if (!in) return std::nullopt;
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.contains("result")) return std::nullopt;
    return pointFromJson(j["result"]);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void PointCache::store(const std::string& key, const std::string& inputs,
                       const PointResult& p) const {
  const json j = {{"inputs", inputs}, {"result", pointJson(p)}};
  writeTextFile(pathOf(key), j.dump(1) + "\n");
}

}  // namespace tessera::tools
