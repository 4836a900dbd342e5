#include "gpu/pipeline/shader_cache.h"

#include <cstdio>
#include <cstring>
#include <span>

#include "isa/encoding.h"

namespace tessera::gpu {

const isa::Program& ShaderCache::get(GpuMemory& memory, GpuAddress address, uint32_t dwords,
                                     isa::Stage expected) {
  auto fail = [&](const std::string& why) -> GpuFault {
    char where[48];
    std::snprintf(where, sizeof where,
                  "shader at 0x%llx: ", static_cast<unsigned long long>(address));
    return GpuFault(FaultKind::BadState, address, BusClient::ShaderFetch, where + why);
  };
  if (dwords == 0) throw fail("no program bound");
  auto bytes = memory.span(BusClient::ShaderFetch, address, uint64_t{dwords} * 4);
  // Every bind compares the binary with the decoded one's (a program may be rewritten in place);
  // only a new binary is hashed, for the instruction cache's records.
  auto it = entries_.find(address);
  const bool decoded = it != entries_.end() && it->second.binary.size() == bytes.size() &&
                       std::memcmp(it->second.binary.data(), bytes.data(), bytes.size()) == 0;
  uint64_t hash = decoded ? it->second.hash : 1469598103934665603ull ^ dwords;
  if (!decoded)
    for (uint8_t b : bytes) hash = (hash ^ b) * 1099511628211ull;  // FNV-1a over the binary
  // An instruction-cache miss: a program not yet fetched, or rewritten, this submission.
  auto [line, miss] = fetched_.try_emplace(address, Fetched{hash, bytes.size()});
  if (miss || line->second.hash != hash) {
    line->second = {hash, bytes.size()};
    fetchLog_.emplace_back(address, line->second);
    memory.countRead(BusClient::ShaderFetch, bytes.size());
  }
  if (decoded) return *it->second.program;
  std::span<const uint32_t> words(reinterpret_cast<const uint32_t*>(bytes.data()), dwords);
  auto program = std::make_unique<isa::Program>();
  try {
    *program = isa::decode(words);
  } catch (const isa::DecodeError& e) {
    throw fail(e.what());
  }
  if (program->stage != expected)
    throw fail(expected == isa::Stage::Vertex ? "a fragment shader is bound as vertex shader"
                                              : "a vertex shader is bound as fragment shader");
  auto& slot = entries_[address];
  std::unique_ptr<sp::HostProgram> host = sp::HostProgram::compile(*program);
  slot = Entry{hash, {bytes.begin(), bytes.end()}, std::move(program), std::move(host)};
  return *slot.program;
}

uint64_t ShaderCache::fetchedAgain(const ShaderCache& worker, size_t count) const {
  uint64_t again = 0;
  for (size_t i = 0; i < count && i < worker.fetchLog_.size(); ++i) {
    const auto& [address, f] = worker.fetchLog_[i];
    auto line = fetched_.find(address);
    if (line != fetched_.end() && line->second.hash == f.hash) again += f.bytes;
  }
  return again;
}

uint64_t ShaderCache::absorbFetches(const ShaderCache& worker) {
  const uint64_t again = fetchedAgain(worker, worker.fetchLog_.size());
  for (const auto& [address, f] : worker.fetchLog_) fetched_.insert_or_assign(address, f);
  return again;
}

}  // namespace tessera::gpu
