// PM4-like packet headers (DESIGN.md "Command stream"). A type-4 packet writes COUNT consecutive
// registers from REG; a type-7 packet is an opcode with COUNT payload dwords. A parity nibble
// guards each header so that random data is very unlikely to decode as a packet, as Adreno's
// odd-parity bits do.
//   type 4: [31:28]=4 [27:24]=parity [23:12]=COUNT (1..4095) [11:0]=REG
//   type 7: [31:28]=7 [27:24]=parity [23:16]=OPCODE [15:0]=COUNT
#pragma once
#include <cstdint>
#include <optional>

namespace tessera::gpu::cp {

constexpr uint32_t kType4 = 4, kType7 = 7;

constexpr uint32_t parityNibble(uint32_t low24) {
  uint32_t p = 0x9;  // non-zero seed: an all-zero dword is never a valid header
  for (int i = 0; i < 6; ++i) p ^= (low24 >> (4 * i)) & 0xf;
  return p;
}

constexpr uint32_t type4Header(uint32_t reg, uint32_t count) {
  const uint32_t low = ((count & 0xfff) << 12) | (reg & 0xfff);
  return (kType4 << 28) | (parityNibble(low) << 24) | low;
}

constexpr uint32_t type7Header(uint8_t opcode, uint32_t count) {
  const uint32_t low = (uint32_t{opcode} << 16) | (count & 0xffff);
  return (kType7 << 28) | (parityNibble(low) << 24) | low;
}

struct PacketHeader {
  uint32_t type;
  uint32_t reg;    // type 4
  uint8_t opcode;  // type 7
  uint32_t count;  // registers written (type 4) or payload dwords (type 7)
};

// nullopt when the dword is not a well-formed header (bad type, parity or zero count).
constexpr std::optional<PacketHeader> parseHeader(uint32_t dword) {
  const uint32_t type = dword >> 28;
  const uint32_t low = dword & 0xffffff;
  if (((dword >> 24) & 0xf) != parityNibble(low)) return std::nullopt;
  if (type == kType4) {
    const uint32_t count = low >> 12;
    if (count == 0) return std::nullopt;
    return PacketHeader{kType4, low & 0xfff, 0, count};
  }
  if (type == kType7) return PacketHeader{kType7, 0, static_cast<uint8_t>(low >> 16), low & 0xffff};
  return std::nullopt;
}

}  // namespace tessera::gpu::cp
