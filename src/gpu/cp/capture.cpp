#include "gpu/cp/capture.h"

#include <cstdio>
#include <cstring>
#include <fstream>

#include "common/error.h"

namespace tessera::gpu::cp {
namespace {
constexpr char kMagic[8] = {'T', 'S', 'C', 'A', 'P', 'v', '1', '\n'};
}

const uint32_t* Capture::find(GpuAddress addr, uint32_t dwords) const {
  for (const auto& b : buffers) {
    if (addr < b.address || (addr - b.address) % 4) continue;
    const uint64_t first = (addr - b.address) / 4;
    if (first <= b.words.size() && dwords <= b.words.size() - first) return b.words.data() + first;
  }
  return nullptr;
}

void writeCapture(const Capture& capture, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw Error("cannot write capture '" + path + "'");
    auto put64 = [&](uint64_t v) { out.write(reinterpret_cast<const char*>(&v), 8); };
    out.write(kMagic, sizeof kMagic);
    put64(capture.ring);
    put64(capture.ringDwords);
    put64(capture.buffers.size());
    for (const auto& b : capture.buffers) {
      put64(b.name.size());
      out.write(b.name.data(), static_cast<std::streamsize>(b.name.size()));
      put64(b.address);
      put64(b.words.size());
      out.write(reinterpret_cast<const char*>(b.words.data()),
                static_cast<std::streamsize>(b.words.size() * 4));
    }
    if (!out) throw Error("cannot write capture '" + path + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error("cannot write capture '" + path + "'");
  }
}

Capture readCapture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open capture '" + path + "'");
  in.seekg(0, std::ios::end);
  const uint64_t fileSize = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  auto bad = [&](const std::string& why) -> Error {
    return Error("'" + path + "' is not a Tessera command-stream capture: " + why);
  };
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) throw bad("bad magic");
  auto get64 = [&]() {
    uint64_t v = 0;
    if (!in.read(reinterpret_cast<char*>(&v), 8)) throw bad("truncated");
    return v;
  };
  Capture c;
  c.ring = get64();
  c.ringDwords = static_cast<uint32_t>(get64());
  const uint64_t n = get64();
  if (n > 1u << 20) throw bad("implausible buffer count");
  for (uint64_t i = 0; i < n; ++i) {
    Capture::Buffer b;
    const uint64_t nameLen = get64();
    if (nameLen > 4096) throw bad("implausible name length");
    b.name.resize(nameLen);
    if (!in.read(b.name.data(), static_cast<std::streamsize>(nameLen))) throw bad("truncated");
    b.address = get64();
    const uint64_t words = get64();
    if (words * 4 > fileSize) throw bad("buffer larger than the file");
    b.words.resize(words);
    if (!in.read(reinterpret_cast<char*>(b.words.data()), static_cast<std::streamsize>(words * 4)))
      throw bad("truncated");
    c.buffers.push_back(std::move(b));
  }
  if (!c.find(c.ring, c.ringDwords)) throw bad("the ring is not inside any captured buffer");
  return c;
}

}  // namespace tessera::gpu::cp
