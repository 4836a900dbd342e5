// The in-memory texture descriptor (TEX_CONST) the driver writes into a descriptor table and the
// shader processor's texture path reads — 8 dwords per sampler unit:
//   0 BASE_LO   1 BASE_HI   2 WIDTH[15:0] HEIGHT[31:16]
//   3 FORMAT[3:0] LEVELS[11:8] WRAP_S[17:16] WRAP_T[19:18] MAG[20] MIN[21] MIP[23:22] CUBE[24]
//   4..7 reserved (0)
#pragma once
#include <array>
#include <cstdint>

#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu {

inline constexpr uint32_t kTexConstDwords = 8;

inline std::array<uint32_t, kTexConstDwords> encodeTexConst(const tex::TextureDescriptor& d) {
  return {static_cast<uint32_t>(d.base),
          static_cast<uint32_t>(d.base >> 32),
          (d.width & 0xffff) | (d.height << 16),
          static_cast<uint32_t>(d.format) | ((d.levels & 0xf) << 8) |
              (static_cast<uint32_t>(d.wrapS) << 16) | (static_cast<uint32_t>(d.wrapT) << 18) |
              (static_cast<uint32_t>(d.magFilter) << 20) |
              (static_cast<uint32_t>(d.minFilter) << 21) |
              (static_cast<uint32_t>(d.mipFilter) << 22) | (uint32_t{d.cube} << 24),
          0,
          0,
          0,
          0};
}

// Returns false if a field holds a value no format/mode has.
inline bool decodeTexConst(const uint32_t* w, tex::TextureDescriptor& d) {
  const uint32_t format = w[3] & 0xf, wrapS = (w[3] >> 16) & 3, wrapT = (w[3] >> 18) & 3,
                 mip = (w[3] >> 22) & 3;
  if (format > static_cast<uint32_t>(tex::TexFormat::D24S8) || wrapS > 2 || wrapT > 2 || mip > 2)
    return false;
  d.base = uint64_t{w[0]} | (uint64_t{w[1]} << 32);
  d.width = w[2] & 0xffff;
  d.height = w[2] >> 16;
  d.format = static_cast<tex::TexFormat>(format);
  d.levels = (w[3] >> 8) & 0xf;
  d.wrapS = static_cast<tex::Wrap>(wrapS);
  d.wrapT = static_cast<tex::Wrap>(wrapT);
  d.magFilter = static_cast<tex::Filter>((w[3] >> 20) & 1);
  d.minFilter = static_cast<tex::Filter>((w[3] >> 21) & 1);
  d.mipFilter = static_cast<tex::MipFilter>(mip);
  d.cube = (w[3] >> 24) & 1;
  return true;
}

}  // namespace tessera::gpu
