// The in-memory texture descriptor (TEX_CONST) the driver writes into a descriptor table and the
// shader processor's texture path reads — 8 dwords per sampler unit:
//   0 BASE_LO   1 BASE_HI   2 WIDTH[15:0] HEIGHT[31:16]
//   3 FORMAT[7:0] (tex::TexFormat: 0..23 uncompressed, 24..31 ETC1/ETC2/EAC, 32..45 ASTC LDR
//     4x4..12x12) LEVELS[11:8] WRAP_S[17:16] WRAP_T[19:18] MAG[20] MIN[21] MIP[23:22] CUBE[24]
//     WRAP_R[26:25]
//   4 DEPTH[15:0] (3D: depth of level 0; 2D array: layers; else 1) VOLUME[16] ARRAY[17]
//   5 COMPARE[0] COMPARE_FUNC[3:1] (GL order: NEVER LESS EQUAL LEQUAL GREATER NOTEQUAL GEQUAL
//     ALWAYS) MAX_ANISO[8:4] (1..16 probes; 0 reads as 1)
//   6..7 reserved (0)
// docs/command-stream.md, "Texture descriptors", has the same table.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu {

inline constexpr uint32_t kTexConstDwords = 8;
// Every format code fits FORMAT[7:0].
static_assert(tex::kTexFormatCount <= 256);

inline std::array<uint32_t, kTexConstDwords> encodeTexConst(const tex::TextureDescriptor& d) {
  return {static_cast<uint32_t>(d.base),
          static_cast<uint32_t>(d.base >> 32),
          (d.width & 0xffff) | (d.height << 16),
          static_cast<uint32_t>(d.format) | ((d.levels & 0xf) << 8) |
              (static_cast<uint32_t>(d.wrapS) << 16) | (static_cast<uint32_t>(d.wrapT) << 18) |
              (static_cast<uint32_t>(d.magFilter) << 20) |
              (static_cast<uint32_t>(d.minFilter) << 21) |
              (static_cast<uint32_t>(d.mipFilter) << 22) | (uint32_t{d.cube} << 24) |
              (static_cast<uint32_t>(d.wrapR) << 25),
          (d.depth & 0xffff) | (uint32_t{d.volume} << 16) | (uint32_t{d.array} << 17),
          uint32_t{d.compare} | (static_cast<uint32_t>(d.compareFunc) << 1) |
              (uint32_t{d.maxAnisotropy} & 0x1f) << 4,
          0,
          0};
}

// Returns false if a field holds a value no format/mode has, or more than one target is set.
inline bool decodeTexConst(const uint32_t* w, tex::TextureDescriptor& d) {
  const uint32_t format = w[3] & 0xff, wrapS = (w[3] >> 16) & 3, wrapT = (w[3] >> 18) & 3,
                 mip = (w[3] >> 22) & 3, wrapR = (w[3] >> 25) & 3;
  const uint32_t cube = (w[3] >> 24) & 1, volume = (w[4] >> 16) & 1, array = (w[4] >> 17) & 1;
  if (format >= tex::kTexFormatCount || wrapS > 2 || wrapT > 2 || wrapR > 2 || mip > 2 ||
      cube + volume + array > 1)
    return false;
  d.base = uint64_t{w[0]} | (uint64_t{w[1]} << 32);
  d.width = w[2] & 0xffff;
  d.height = w[2] >> 16;
  d.format = static_cast<tex::TexFormat>(format);
  d.levels = (w[3] >> 8) & 0xf;
  d.wrapS = static_cast<tex::Wrap>(wrapS);
  d.wrapT = static_cast<tex::Wrap>(wrapT);
  d.wrapR = static_cast<tex::Wrap>(wrapR);
  d.magFilter = static_cast<tex::Filter>((w[3] >> 20) & 1);
  d.minFilter = static_cast<tex::Filter>((w[3] >> 21) & 1);
  d.mipFilter = static_cast<tex::MipFilter>(mip);
  d.cube = cube != 0;
  d.volume = volume != 0;
  d.array = array != 0;
  // A descriptor written before DEPTH existed (0) has one layer.
  d.depth = (w[4] & 0xffff) ? (w[4] & 0xffff) : 1;
  d.compare = (w[5] & 1) != 0;
  d.compareFunc = static_cast<tex::CompareFunc>((w[5] >> 1) & 7);
  const uint32_t aniso = (w[5] >> 4) & 0x1f;
  d.maxAnisotropy = static_cast<uint8_t>(aniso == 0 ? 1 : std::min(aniso, tex::kMaxAnisotropy));
  return true;
}

}  // namespace tessera::gpu
