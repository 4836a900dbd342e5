// The number of set bits of a 32-bit lane or pixel mask. std::popcount becomes a call into the
// compiler's runtime library on baseline x86-64 (no POPCNT instruction), and the shader core
// counts lanes on every instruction; this SWAR form is a dozen inlined ALU operations.
#pragma once
#include <cstdint>

namespace tessera {

constexpr int laneCount(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return static_cast<int>((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

// laneCount of a quad's pixel mask (below 16), read from a table of nibbles: the render backend
// and the rasterizer count every quad's pixels, several times over.
constexpr int quadLaneCount(uint32_t m) {
  return static_cast<int>((0x4332322132212110ull >> (4 * (m & 0xfu))) & 0xfu);
}

// The quads of a 32-lane mask with a lane set: bit q for lanes 4q..4q+3, without a loop.
constexpr uint32_t quadsOfLanes(uint32_t m) {
  m |= m >> 1;
  m = (m | m >> 2) & 0x11111111u;
  m = (m | m >> 3) & 0x03030303u;
  m = (m | m >> 6) & 0x000f000fu;
  return (m | m >> 12) & 0xffu;
}

static_assert(quadsOfLanes(0) == 0 && quadsOfLanes(~0u) == 0xff &&
              quadsOfLanes(0x80000001u) == 0x81 && quadsOfLanes(0x00f00100u) == 0x24);
static_assert(laneCount(0) == 0 && laneCount(~0u) == 32 && laneCount(0x80000001u) == 2 &&
              laneCount(0x0f0f00ffu) == 16);
static_assert([] {
  for (uint32_t m = 0; m < 16; ++m)
    if (quadLaneCount(m) != laneCount(m)) return false;
  return true;
}());

}  // namespace tessera
