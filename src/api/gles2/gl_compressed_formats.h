// The compressed texture formats the GL exposes (GL_COMPRESSED_TEXTURE_FORMATS): their enums,
// the texture unit's format for each and the extension that brings it. The sRGB variants of
// ETC2 (0x9275, 0x9277, 0x9279) and ASTC (0x93D0..0x93DD) are not exposed: the texture unit
// has no sRGB decode.
#pragma once
#include <GLES2/gl2.h>

#include <array>

#include "pipe/state.h"

namespace tessera::gles2 {

struct CompressedFormat {
  GLenum glEnum;
  pipe::TexFormat tex;
  // OES_compressed_ETC1_RGB8_texture: no CompressedTexSubImage2D at all.
  bool etc1;
};

inline constexpr std::array<CompressedFormat, 22> kCompressedFormats = {{
    {0x8D64, pipe::TexFormat::ETC1_RGB8, true},  // GL_ETC1_RGB8_OES
    // OpenGL ES 3.0 Table 3.19 (ETC2/EAC).
    {0x9270, pipe::TexFormat::EAC_R11, false},         // GL_COMPRESSED_R11_EAC
    {0x9271, pipe::TexFormat::EAC_R11_SNORM, false},   // GL_COMPRESSED_SIGNED_R11_EAC
    {0x9272, pipe::TexFormat::EAC_RG11, false},        // GL_COMPRESSED_RG11_EAC
    {0x9273, pipe::TexFormat::EAC_RG11_SNORM, false},  // GL_COMPRESSED_SIGNED_RG11_EAC
    {0x9274, pipe::TexFormat::ETC2_RGB8, false},       // GL_COMPRESSED_RGB8_ETC2
    {0x9276, pipe::TexFormat::ETC2_RGB8A1, false},     // ..._RGB8_PUNCHTHROUGH_ALPHA1_ETC2
    {0x9278, pipe::TexFormat::ETC2_RGBA8, false},      // GL_COMPRESSED_RGBA8_ETC2_EAC
    // KHR_texture_compression_astc_ldr: GL_COMPRESSED_RGBA_ASTC_{4x4 .. 12x12}_KHR.
    {0x93B0, pipe::TexFormat::ASTC_4x4, false},
    {0x93B1, pipe::TexFormat::ASTC_5x4, false},
    {0x93B2, pipe::TexFormat::ASTC_5x5, false},
    {0x93B3, pipe::TexFormat::ASTC_6x5, false},
    {0x93B4, pipe::TexFormat::ASTC_6x6, false},
    {0x93B5, pipe::TexFormat::ASTC_8x5, false},
    {0x93B6, pipe::TexFormat::ASTC_8x6, false},
    {0x93B7, pipe::TexFormat::ASTC_8x8, false},
    {0x93B8, pipe::TexFormat::ASTC_10x5, false},
    {0x93B9, pipe::TexFormat::ASTC_10x6, false},
    {0x93BA, pipe::TexFormat::ASTC_10x8, false},
    {0x93BB, pipe::TexFormat::ASTC_10x10, false},
    {0x93BC, pipe::TexFormat::ASTC_12x10, false},
    {0x93BD, pipe::TexFormat::ASTC_12x12, false},
}};

inline const CompressedFormat* findCompressedFormat(GLenum e) {
  for (const CompressedFormat& f : kCompressedFormats)
    if (f.glEnum == e) return &f;
  return nullptr;
}

}  // namespace tessera::gles2
