#include <cstdio>

#include "gpu/cp/register_file.h"

namespace tessera::gpu::cp {

static_assert(
    [] {
      for (const auto& r : kRegisters)
        if (r.offset + (r.count - 1) * r.stride >= kRegisterFileSize) return false;
      return true;
    }(),
    "every register must lie inside the register file");

std::optional<RegisterRef> lookupRegister(uint32_t offset) {
  for (const auto& r : kRegisters) {
    if (offset < r.offset) continue;
    const uint32_t delta = offset - r.offset;
    if (delta % r.stride == 0 && delta / r.stride < r.count)
      return RegisterRef{&r, delta / r.stride};
  }
  return std::nullopt;
}

std::string registerName(uint32_t offset) {
  auto ref = lookupRegister(offset);
  if (!ref) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", offset);
    return buf;
  }
  std::string name(ref->info->name);
  if (ref->info->count > 1) name += "[" + std::to_string(ref->index) + "]";
  return name;
}

RegisterFile::RegisterFile() {
  for (const auto& r : kRegisters)
    for (uint32_t i = 0; i < r.count; ++i) valid_[r.offset + i * r.stride] = true;
}

}  // namespace tessera::gpu::cp
