// Texture objects (GLES 2.0 §3.7): images per face and level in the texture unit's formats,
// parameters, completeness (§3.7.10), mipmap generation; the pipe texture is rebuilt lazily
// when a draw samples a texture whose images changed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>

#include "api/gles2/gl_compressed_formats.h"
#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"
#include "gpu/tex/texel_format.h"

namespace tessera::gles2 {
namespace {

using pipe::TexFormat;

constexpr GLint kMaxTextureSize = 4096;
constexpr int kMaxLevels = 13;  // log2(4096) + 1

struct FormatMatch {
  GLenum format, type;
  TexFormat tex;
  int bytes;  // per texel in the unit's format
};

// GLES 2.0 Table 3.4 (format/type pairs) plus EXT_texture_format_BGRA8888; BGRA is stored as
// RGBA (swizzled on upload).
constexpr GLenum kDepthStencil = 0x84F9, kUnsignedInt248 = 0x84FA;  // OES_packed_depth_stencil

constexpr FormatMatch kFormats[] = {
    {GL_RGBA, GL_UNSIGNED_BYTE, TexFormat::RGBA8, 4},
    {GL_RGB, GL_UNSIGNED_BYTE, TexFormat::RGB8, 3},
    {GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, TexFormat::RGBA4444, 2},
    {GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, TexFormat::RGBA5551, 2},
    {GL_RGB, GL_UNSIGNED_SHORT_5_6_5, TexFormat::RGB565, 2},
    {GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, TexFormat::LA8, 2},
    {GL_LUMINANCE, GL_UNSIGNED_BYTE, TexFormat::L8, 1},
    {GL_ALPHA, GL_UNSIGNED_BYTE, TexFormat::A8, 1},
    {0x80E1 /* GL_BGRA_EXT */, GL_UNSIGNED_BYTE, TexFormat::RGBA8, 4},
    // OES_depth_texture and OES_packed_depth_stencil: 32-bit depth keeps its top 24 bits.
    {GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, TexFormat::D16, 2},
    {GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, TexFormat::D24S8, 4},
    {kDepthStencil, kUnsignedInt248, TexFormat::D24S8, 4},
    // OES_texture_half_float / OES_texture_float: the client's halves and floats as they are.
    {GL_RGBA, kHalfFloat, TexFormat::RGBA16F, 8},
    {GL_RGB, kHalfFloat, TexFormat::RGB16F, 6},
    {GL_LUMINANCE_ALPHA, kHalfFloat, TexFormat::LA16F, 4},
    {GL_LUMINANCE, kHalfFloat, TexFormat::L16F, 2},
    {GL_ALPHA, kHalfFloat, TexFormat::A16F, 2},
    {GL_RGBA, GL_FLOAT, TexFormat::RGBA32F, 16},
    {GL_RGB, GL_FLOAT, TexFormat::RGB32F, 12},
    {GL_LUMINANCE_ALPHA, GL_FLOAT, TexFormat::LA32F, 8},
    {GL_LUMINANCE, GL_FLOAT, TexFormat::L32F, 4},
    {GL_ALPHA, GL_FLOAT, TexFormat::A32F, 4},
};

const FormatMatch* findFormat(GLenum format, GLenum type) {
  for (const FormatMatch& f : kFormats) {
    if (f.format == format && f.type == type) return &f;
  }
  return nullptr;
}

bool knownFormat(GLenum f) {
  return f == GL_RGBA || f == GL_RGB || f == GL_LUMINANCE_ALPHA || f == GL_LUMINANCE ||
         f == GL_ALPHA || f == 0x80E1 || f == GL_DEPTH_COMPONENT || f == kDepthStencil;
}
bool knownType(GLenum t) {
  return t == GL_UNSIGNED_BYTE || t == GL_UNSIGNED_SHORT_4_4_4_4 ||
         t == GL_UNSIGNED_SHORT_5_5_5_1 || t == GL_UNSIGNED_SHORT_5_6_5 || t == GL_UNSIGNED_SHORT ||
         t == GL_UNSIGNED_INT || t == kUnsignedInt248 || t == GL_FLOAT || t == kHalfFloat;
}

bool isDepth(TexFormat f) {
  return f == TexFormat::D16 || f == TexFormat::D24S8;
}

// Compressed images keep their internal format in `format` and type 0, which no client
// format/type pair has.
const CompressedFormat* compressedOf(const TexImage& img) {
  return img.type == 0 ? findCompressedFormat(img.format) : nullptr;
}

// The texture unit's format of a defined image.
TexFormat unitFormat(const TexImage& img) {
  if (const CompressedFormat* c = compressedOf(img)) return c->tex;
  return findFormat(img.format, img.type)->tex;
}

// Bytes of a w x h image of a compressed format: whole blocks (the extension specs' imageSize).
size_t compressedBytes(TexFormat f, GLsizei w, GLsizei h) {
  return static_cast<size_t>(
      gpu::tex::imageBytes(f, static_cast<uint32_t>(w), static_cast<uint32_t>(h)));
}

// Index of a cube face target, or 0 for TEXTURE_2D; -1 for anything else.
int faceOf(GLenum target) {
  if (target == GL_TEXTURE_2D) return 0;
  if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
    return static_cast<int>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
  return -1;
}

// Copies rows of client pixels (rows padded to `alignment`) into tightly packed texels.
void unpack(const FormatMatch& f, GLsizei w, GLsizei h, GLint alignment, const void* pixels,
            uint8_t* out) {
  const size_t row = static_cast<size_t>(w) * static_cast<size_t>(f.bytes);
  const size_t pitch = (row + static_cast<size_t>(alignment) - 1) / static_cast<size_t>(alignment) *
                       static_cast<size_t>(alignment);
  const auto* src = static_cast<const uint8_t*>(pixels);
  for (GLsizei y = 0; y < h; ++y) {
    uint8_t* dst = out + static_cast<size_t>(y) * row;
    std::memcpy(dst, src + static_cast<size_t>(y) * pitch, row);
    if (f.format == 0x80E1) {
      for (size_t x = 0; x < row; x += 4) std::swap(dst[x], dst[x + 2]);
    }
    // Depth to the render backend's D24S8 layout (depth in bits 0..23, stencil in 24..31).
    if (f.tex == TexFormat::D24S8) {
      for (size_t x = 0; x < row; x += 4) {
        uint32_t v;
        std::memcpy(&v, dst + x, 4);
        v = f.format == GL_DEPTH_COMPONENT ? v >> 8 : (v >> 8) | (v & 0xffu) << 24;
        std::memcpy(dst + x, &v, 4);
      }
    }
  }
}

// A texel as 8-bit channels (only the ones the format has), and back: mipmap generation averages
// channels.
void decode(TexFormat f, const uint8_t* p, int c[4], int bytes) {
  const uint16_t v = static_cast<uint16_t>(
      p[0] |
      (f == TexFormat::RGB565 || f == TexFormat::RGBA4444 || f == TexFormat::RGBA5551 ? p[1] << 8
                                                                                      : 0));
  switch (f) {
    case TexFormat::RGB565:
      c[0] = (v >> 11) & 31, c[1] = (v >> 5) & 63, c[2] = v & 31, c[3] = 0;
      return;
    case TexFormat::RGBA4444:
      c[0] = v >> 12, c[1] = (v >> 8) & 15, c[2] = (v >> 4) & 15, c[3] = v & 15;
      return;
    case TexFormat::RGBA5551:
      c[0] = v >> 11, c[1] = (v >> 6) & 31, c[2] = (v >> 1) & 31, c[3] = v & 1;
      return;
    default:
      for (int i = 0; i < 4; ++i) c[i] = i < bytes ? p[i] : 0;  // byte formats: n channels
  }
}
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u)  // infinity, or NaN (kept quiet)
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504
  if (abs < 0x38800000u) {  // a half subnormal (or zero): a multiple of 2^-24, rounded
    float a;
    std::memcpy(&a, &abs, 4);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f)));
  }
  const uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);  // to nearest, ties to even
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}
void decodeFloat(TexFormat f, const uint8_t* p, float c[4], int bytes) {
  const bool half = f <= TexFormat::A16F;
  const int n = bytes / (half ? 2 : 4);
  for (int i = 0; i < 4; ++i) {
    c[i] = 0.0f;
    if (i >= n) continue;
    if (half) {
      uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      c[i] = tessera::halfToFloat(h);
    } else {
      std::memcpy(&c[i], p + 4 * i, 4);
    }
  }
}
void encodeFloat(TexFormat f, const float c[4], uint8_t* p, int bytes) {
  const bool half = f <= TexFormat::A16F;
  const int n = bytes / (half ? 2 : 4);
  for (int i = 0; i < n; ++i) {
    if (half) {
      const uint16_t h = floatToHalf(c[i]);
      std::memcpy(p + 2 * i, &h, 2);
    } else {
      std::memcpy(p + 4 * i, &c[i], 4);
    }
  }
}

void encode(TexFormat f, const int c[4], uint8_t* p, int bytes) {
  uint16_t v = 0;
  switch (f) {
    case TexFormat::RGB565:
      v = static_cast<uint16_t>(c[0] << 11 | c[1] << 5 | c[2]);
      break;
    case TexFormat::RGBA4444:
      v = static_cast<uint16_t>(c[0] << 12 | c[1] << 8 | c[2] << 4 | c[3]);
      break;
    case TexFormat::RGBA5551:
      v = static_cast<uint16_t>(c[0] << 11 | c[1] << 6 | c[2] << 1 | c[3]);
      break;
    default:
      for (int i = 0; i < bytes && i < 4; ++i) p[i] = static_cast<uint8_t>(c[i]);
      return;
  }
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

// Formats whose every byte is a channel of its own (decode's default case): their 2x2 averages
// are taken byte by byte.
bool byteChannels(TexFormat f) {
  return f == TexFormat::RGBA8 || f == TexFormat::RGB8 || f == TexFormat::LA8 ||
         f == TexFormat::L8 || f == TexFormat::A8;
}

// The next level of a w x h image of byte channels (Bytes per texel): each byte the rounded
// average of its 2x2 texels, the last row or column repeated where the size is 1, as the general
// loop of generateMipmap does. Straight rows of a fixed texel size, which the compiler
// vectorizes: this runs once per frame for a texture rendered into and then mipmapped.
template <size_t Bytes>
void halveBytes(const uint8_t* src, GLsizei w, GLsizei h, uint8_t* dst) {
  const GLsizei nw = std::max(1, w / 2), nh = std::max(1, h / 2);
  const size_t pitch = static_cast<size_t>(w) * Bytes;
  // A level 1 wide (or high) repeats its only column (row); otherwise 2x + 1 < w always.
  const size_t right = w > 1 ? Bytes : 0;
  for (GLsizei y = 0; y < nh; ++y) {
    const uint8_t* r0 = src + static_cast<size_t>(2 * y) * pitch;
    const uint8_t* r1 = h > 1 ? r0 + pitch : r0;
    uint8_t* out = dst + static_cast<size_t>(y) * static_cast<size_t>(nw) * Bytes;
    for (size_t x = 0; x < static_cast<size_t>(nw); ++x) {
      const size_t at = 2 * x * Bytes;
      for (size_t b = 0; b < Bytes; ++b)
        out[x * Bytes + b] = static_cast<uint8_t>(
            (r0[at + b] + r0[at + right + b] + r1[at + b] + r1[at + right + b] + 2) / 4);
    }
  }
}
void halveBytes(const uint8_t* src, GLsizei w, GLsizei h, size_t bytes, uint8_t* dst) {
  switch (bytes) {
    case 1:
      return halveBytes<1>(src, w, h, dst);
    case 2:
      return halveBytes<2>(src, w, h, dst);
    case 3:
      return halveBytes<3>(src, w, h, dst);
    default:
      return halveBytes<4>(src, w, h, dst);
  }
}

}  // namespace

TexImage& Texture::image(uint32_t face, GLint level) {
  auto& levels = faces[face];
  if (levels.size() <= static_cast<size_t>(level)) levels.resize(static_cast<size_t>(level) + 1);
  return levels[static_cast<size_t>(level)];
}

// The texture bound to `target` on the active unit; name 0 is the unit's default texture
// (§3.7.13), which exists for both targets and cannot be deleted.
Texture* Context::boundTexture(GLenum target) {
  if (target == GL_TEXTURE_2D) {
    const GLuint n = bound2D_[activeUnit_];
    return n ? textures_.find(n) : &default2D_;
  }
  if (target == kTexture3D) {
    const GLuint n = bound3D_[activeUnit_];
    return n ? textures_.find(n) : &default3D_;
  }
  if (target == GL_TEXTURE_CUBE_MAP || faceOf(target) >= 0) {
    const GLuint n = boundCube_[activeUnit_];
    return n ? textures_.find(n) : &defaultCube_;
  }
  return nullptr;
}

void Context::genTextures(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = textures_.create();
}

void Context::deleteTextures(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    const GLuint name = names[i];
    Texture* t = name ? textures_.find(name) : nullptr;
    if (!t) continue;
    for (int u = 0; u < kMaxTextureUnits; ++u) {  // bound textures revert to the default (§3.7.13)
      if (bound2D_[u] == name) bound2D_[u] = 0;
      if (boundCube_[u] == name) boundCube_[u] = 0;
      if (bound3D_[u] == name) bound3D_[u] = 0;
    }
    if (t->resource) pipe_.destroyResource(t->resource);
    textures_.erase(name);
  }
}

void Context::bindTexture(GLenum target, GLuint name) {
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
    return error(GL_INVALID_ENUM);
  if (name) {
    textures_.reserve(name);
    Texture* t = textures_.find(name);
    if (t->target && t->target != target) return error(GL_INVALID_OPERATION);
    t->target = target;
  }
  (target == GL_TEXTURE_2D ? bound2D_
   : target == kTexture3D  ? bound3D_
                           : boundCube_)[activeUnit_] = name;
}

void Context::activeTexture(GLenum unit) {
  if (unit < GL_TEXTURE0 || unit >= GL_TEXTURE0 + kMaxTextureUnits) return error(GL_INVALID_ENUM);
  activeUnit_ = unit - GL_TEXTURE0;
}

void Context::texImage2D(GLenum target, GLint level, GLint internalFormat, GLsizei w, GLsizei h,
                         GLint border, GLenum format, GLenum type, const void* pixels) {
  const int face = faceOf(target);
  if (face < 0 || !knownFormat(format) || !knownType(type)) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || w < 0 || h < 0 || w > kMaxTextureSize ||
      h > kMaxTextureSize || border != 0 || (w > (kMaxTextureSize >> level)) ||
      (h > (kMaxTextureSize >> level)))
    return error(GL_INVALID_VALUE);
  if (target != GL_TEXTURE_2D && w != h) return error(GL_INVALID_VALUE);  // cube faces are square
  if (static_cast<GLenum>(internalFormat) != format) return error(GL_INVALID_OPERATION);
  const FormatMatch* f = findFormat(format, type);
  if (!f) return error(GL_INVALID_OPERATION);
  // OES_depth_texture: 2D textures, level 0 only.
  if (isDepth(f->tex) && (target != GL_TEXTURE_2D || level != 0))
    return error(GL_INVALID_OPERATION);
  Texture* t = boundTexture(target);
  syncTexels(*t);  // other levels keep what the GPU rendered into them
  TexImage& img = t->image(static_cast<uint32_t>(face), level);
  img.width = w;
  img.height = h;
  img.depth = 1;
  img.format = format;
  img.type = type;
  img.texels.assign(static_cast<size_t>(w) * static_cast<size_t>(h) * static_cast<size_t>(f->bytes),
                    0);
  if (pixels && w && h) unpack(*f, w, h, unpackAlignment_, pixels, img.texels.data());
  t->dirty = true;
}

void Context::texSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
                            GLenum format, GLenum type, const void* pixels) {
  const int face = faceOf(target);
  if (face < 0 || !knownFormat(format) || !knownType(type)) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || x < 0 || y < 0 || w < 0 || h < 0)
    return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  if (!t || t->faces[face].size() <= static_cast<size_t>(level)) return error(GL_INVALID_OPERATION);
  syncTexels(*t);  // the update lands on what the GPU rendered, not on a stale copy
  TexImage& img = t->image(static_cast<uint32_t>(face), level);
  // OpenGL ES 3.0 §3.8.5: compressed images take only CompressedTexSubImage2D.
  if (!img.defined() || compressedOf(img)) return error(GL_INVALID_OPERATION);
  if (x + w > img.width || y + h > img.height) return error(GL_INVALID_VALUE);
  if (format != img.format || type != img.type) return error(GL_INVALID_OPERATION);
  const FormatMatch* f = findFormat(format, type);
  if (!f || !pixels || w == 0 || h == 0) return;
  std::vector<uint8_t> sub(static_cast<size_t>(w) * static_cast<size_t>(h) *
                           static_cast<size_t>(f->bytes));
  unpack(*f, w, h, unpackAlignment_, pixels, sub.data());
  const size_t row = static_cast<size_t>(w) * static_cast<size_t>(f->bytes);
  for (GLsizei r = 0; r < h; ++r) {
    std::memcpy(img.texels.data() + (static_cast<size_t>(y + r) * static_cast<size_t>(img.width) +
                                     static_cast<size_t>(x)) *
                                        static_cast<size_t>(f->bytes),
                sub.data() + static_cast<size_t>(r) * row, row);
  }
  t->dirty = true;
}

// §3.7.3 with OES_compressed_ETC1_RGB8_texture, OpenGL ES 3.0 §3.8.6 (ETC2/EAC) and
// KHR_texture_compression_astc_ldr: the image is kept as its blocks, rows of blocks top to
// bottom, exactly as the application gives them; the texture unit decodes them when sampling.
void Context::compressedTexImage2D(GLenum target, GLint level, GLenum internalFormat, GLsizei w,
                                   GLsizei h, GLint border, GLsizei imageSize, const void* data) {
  const int face = faceOf(target);
  if (face < 0) return error(GL_INVALID_ENUM);
  const CompressedFormat* cf = findCompressedFormat(internalFormat);
  if (!cf) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || w < 0 || h < 0 || w > (kMaxTextureSize >> level) ||
      h > (kMaxTextureSize >> level) || border != 0 || imageSize < 0)
    return error(GL_INVALID_VALUE);
  if (target != GL_TEXTURE_2D && w != h) return error(GL_INVALID_VALUE);  // cube faces are square
  const size_t bytes = compressedBytes(cf->tex, w, h);
  if (static_cast<size_t>(imageSize) != bytes) return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  syncTexels(*t);
  TexImage& img = t->image(static_cast<uint32_t>(face), level);
  img.width = w, img.height = h, img.depth = 1;
  img.format = internalFormat, img.type = 0;
  img.texels.assign(bytes, 0);  // no data: contents undefined, zeros here
  if (data && bytes) std::memcpy(img.texels.data(), data, bytes);
  t->dirty = true;
}

void Context::compressedTexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w,
                                      GLsizei h, GLenum format, GLsizei imageSize,
                                      const void* data) {
  const int face = faceOf(target);
  if (face < 0) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || x < 0 || y < 0 || w < 0 || h < 0 || imageSize < 0)
    return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  auto& levels = t->faces[static_cast<size_t>(face)];
  // No image to modify comes first, as in Mesa: its error logs and ours compare equal.
  if (levels.size() <= static_cast<size_t>(level) || !levels[static_cast<size_t>(level)].defined())
    return error(GL_INVALID_OPERATION);
  const CompressedFormat* cf = findCompressedFormat(format);
  if (!cf) return error(GL_INVALID_ENUM);
  // OES_compressed_ETC1_RGB8_texture: ETC1 images cannot be modified in part.
  if (cf->etc1) return error(GL_INVALID_OPERATION);
  TexImage& img = levels[static_cast<size_t>(level)];
  if (img.type != 0 || img.format != format) return error(GL_INVALID_OPERATION);
  if (x + w > img.width || y + h > img.height) return error(GL_INVALID_VALUE);
  // OpenGL ES 3.0 §3.8.6 (and the ASTC extension): the region is whole blocks, except that it
  // may end at the image's right or bottom edge.
  const gpu::tex::TexelBlock b = gpu::tex::texelBlock(cf->tex);
  const GLint bw = b.width, bh = b.height;
  if (x % bw != 0 || y % bh != 0 || (w % bw != 0 && x + w != img.width) ||
      (h % bh != 0 && y + h != img.height))
    return error(GL_INVALID_OPERATION);
  if (static_cast<size_t>(imageSize) != compressedBytes(cf->tex, w, h))
    return error(GL_INVALID_VALUE);
  if (!data || w == 0 || h == 0) return;
  const size_t rowBytes = static_cast<size_t>((w + bw - 1) / bw) * b.bytes;
  const size_t pitch = static_cast<size_t>((img.width + bw - 1) / bw) * b.bytes;
  const auto* src = static_cast<const uint8_t*>(data);
  for (GLint row = 0; row < (h + bh - 1) / bh; ++row) {
    std::memcpy(img.texels.data() + static_cast<size_t>(y / bh + row) * pitch +
                    static_cast<size_t>(x / bw) * b.bytes,
                src + static_cast<size_t>(row) * rowBytes, rowBytes);
  }
  t->dirty = true;
}

void Context::texParameter(GLenum target, GLenum pname, GLint value) {
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
    return error(GL_INVALID_ENUM);
  Texture* t = boundTexture(target);
  const auto v = static_cast<GLenum>(value);
  auto isWrap = [](GLenum w) {
    return w == GL_REPEAT || w == GL_CLAMP_TO_EDGE || w == GL_MIRRORED_REPEAT;
  };
  auto isMin = [](GLenum m) {
    return m == GL_NEAREST || m == GL_LINEAR || m == GL_NEAREST_MIPMAP_NEAREST ||
           m == GL_LINEAR_MIPMAP_NEAREST || m == GL_NEAREST_MIPMAP_LINEAR ||
           m == GL_LINEAR_MIPMAP_LINEAR;
  };
  switch (pname) {
    case GL_TEXTURE_WRAP_S:
    case GL_TEXTURE_WRAP_T:
    case kTextureWrapR:  // OES_texture_3D: kept by textures of every target
      if (!isWrap(v)) return error(GL_INVALID_ENUM);
      if (t)
        (pname == GL_TEXTURE_WRAP_S   ? t->wrapS
         : pname == GL_TEXTURE_WRAP_T ? t->wrapT
                                      : t->wrapR) = v;
      return;
    case GL_TEXTURE_MIN_FILTER:
      if (!isMin(v)) return error(GL_INVALID_ENUM);
      if (t) t->minFilter = v;
      return;
    case GL_TEXTURE_MAG_FILTER:
      if (v != GL_NEAREST && v != GL_LINEAR) return error(GL_INVALID_ENUM);
      if (t) t->magFilter = v;
      return;
    case kTextureCompareMode:  // EXT_shadow_samplers
      if (v != GL_NONE && v != kCompareRefToTexture) return error(GL_INVALID_ENUM);
      if (t) t->compareMode = v;
      return;
    case kTextureCompareFunc:
      if (!compareFunc(v)) return error(GL_INVALID_ENUM);
      if (t) t->compareFunc = v;
      return;
    case kTextureMaxAnisotropy:
      return texParameterf(target, pname, static_cast<GLfloat>(value));
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::texParameterf(GLenum target, GLenum pname, GLfloat value) {
  if (pname != kTextureMaxAnisotropy) return texParameter(target, pname, static_cast<GLint>(value));
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
    return error(GL_INVALID_ENUM);
  // EXT_texture_filter_anisotropic: values below 1.0 are INVALID_VALUE; larger values than the
  // implementation's maximum are kept and clamped when sampling.
  if (!(value >= 1.0f)) return error(GL_INVALID_VALUE);
  if (Texture* t = boundTexture(target)) t->maxAnisotropy = value;
}

void Context::getTexParameterf(GLenum target, GLenum pname, GLfloat* out) {
  if (pname == kTextureMaxAnisotropy) {
    if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
      return error(GL_INVALID_ENUM);
    const Texture* t = boundTexture(target);
    *out = t ? t->maxAnisotropy : 1.0f;
    return;
  }
  GLint v = 0;
  getTexParameter(target, pname, &v);
  *out = static_cast<GLfloat>(v);
}

void Context::getTexParameter(GLenum target, GLenum pname, GLint* out) {
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
    return error(GL_INVALID_ENUM);
  Texture def;
  Texture* t = boundTexture(target);
  if (!t) t = &def;
  switch (pname) {
    case GL_TEXTURE_WRAP_S:
      *out = static_cast<GLint>(t->wrapS);
      return;
    case GL_TEXTURE_WRAP_T:
      *out = static_cast<GLint>(t->wrapT);
      return;
    case kTextureWrapR:
      *out = static_cast<GLint>(t->wrapR);
      return;
    case GL_TEXTURE_MIN_FILTER:
      *out = static_cast<GLint>(t->minFilter);
      return;
    case GL_TEXTURE_MAG_FILTER:
      *out = static_cast<GLint>(t->magFilter);
      return;
    case kTextureCompareMode:
      *out = static_cast<GLint>(t->compareMode);
      return;
    case kTextureCompareFunc:
      *out = static_cast<GLint>(t->compareFunc);
      return;
    case kTextureMaxAnisotropy:
      *out = static_cast<GLint>(t->maxAnisotropy);
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::generateMipmap(GLenum target) {
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_CUBE_MAP && target != kTexture3D)
    return error(GL_INVALID_ENUM);
  Texture* t = boundTexture(target);
  if (!t) return error(GL_INVALID_OPERATION);
  const uint32_t faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
  for (uint32_t face = 0; face < faces; ++face) {
    if (t->faces[face].empty() || !t->faces[face][0].defined()) return error(GL_INVALID_OPERATION);
    // §3.7.11: a compressed level zero cannot be mipmapped.
    if (compressedOf(t->faces[face][0])) return error(GL_INVALID_OPERATION);
  }
  syncTexels(*t);  // the mipmaps of a rendered texture come from what was rendered
  for (uint32_t face = 0; face < faces; ++face) {
    const TexImage base = t->faces[face][0];
    const FormatMatch* f = findFormat(base.format, base.type);
    if (isDepth(f->tex)) return error(GL_INVALID_OPERATION);  // OES_depth_texture
    t->faces[face].resize(1);
    const auto bytes = static_cast<size_t>(f->bytes);
    const bool floatFormat = gpu::tex::isFloatFormat(f->tex);
    // Each level averages 2x2 texels (2x2x2 for 3D textures, whose depth halves too).
    GLsizei w = base.width, h = base.height, d = base.depth;
    for (GLint level = 1; w > 1 || h > 1 || d > 1; ++level) {
      const TexImage& src = t->faces[face][static_cast<size_t>(level - 1)];
      const GLsizei nw = std::max(1, w / 2), nh = std::max(1, h / 2), nd = std::max(1, d / 2);
      TexImage dst;
      dst.width = nw, dst.height = nh, dst.depth = nd;
      dst.format = base.format, dst.type = base.type;
      dst.texels.assign(
          static_cast<size_t>(nw) * static_cast<size_t>(nh) * static_cast<size_t>(nd) * bytes, 0);
      auto at = [](GLsizei x, GLsizei y, GLsizei z, GLsizei pw, GLsizei ph) {
        return (static_cast<size_t>(z) * static_cast<size_t>(ph) + static_cast<size_t>(y)) *
                   static_cast<size_t>(pw) +
               static_cast<size_t>(x);
      };
      const int dz = d > 1 ? 2 : 1, n = 4 * dz;
      if (d == 1 && byteChannels(f->tex)) {
        halveBytes(src.texels.data(), w, h, bytes, dst.texels.data());
        t->faces[face].push_back(std::move(dst));
        w = nw, h = nh;
        continue;
      }
      for (GLsizei z = 0; z < nd; ++z) {
        for (GLsizei y = 0; y < nh; ++y) {
          for (GLsizei x = 0; x < nw; ++x) {
            int sum[4] = {0, 0, 0, 0};
            float fsum[4] = {0, 0, 0, 0};
            for (int k = 0; k < dz; ++k) {
              for (int dy = 0; dy < 2; ++dy) {
                for (int dx = 0; dx < 2; ++dx) {
                  const GLsizei sx = std::min(w - 1, 2 * x + dx), sy = std::min(h - 1, 2 * y + dy);
                  const GLsizei sz = std::min(d - 1, dz * z + k);
                  const uint8_t* texel = src.texels.data() + at(sx, sy, sz, w, h) * bytes;
                  if (floatFormat) {
                    float c[4];
                    decodeFloat(f->tex, texel, c, f->bytes);
                    for (int i = 0; i < 4; ++i) fsum[i] += c[i];
                  } else {
                    int c[4];
                    decode(f->tex, texel, c, f->bytes);
                    for (int i = 0; i < 4; ++i) sum[i] += c[i];
                  }
                }
              }
            }
            uint8_t* out = dst.texels.data() + at(x, y, z, nw, nh) * bytes;
            if (floatFormat) {
              for (float& c : fsum) c /= static_cast<float>(n);
              encodeFloat(f->tex, fsum, out, f->bytes);
              continue;
            }
            int avg[4];
            for (int i = 0; i < 4; ++i) avg[i] = (sum[i] + n / 2) / n;
            encode(f->tex, avg, out, f->bytes);
          }
        }
      }
      t->faces[face].push_back(std::move(dst));
      w = nw, h = nh, d = nd;
    }
  }
  t->dirty = true;
}

// glCopyTexImage2D / glCopyTexSubImage2D (§3.7.2): the framebuffer's pixels go through the same
// path as client pixels, as RGBA8 reduced to the texture's components.
namespace {

// The components a copy may take from an RGBA framebuffer, in client layout.
std::vector<uint8_t> reduce(const std::vector<uint8_t>& rgba, GLenum format) {
  struct Keep {
    int count;
    int channel[4];  // indices into R, G, B, A
  };
  const Keep keep = format == GL_RGB               ? Keep{3, {0, 1, 2}}
                    : format == GL_LUMINANCE       ? Keep{1, {0}}
                    : format == GL_ALPHA           ? Keep{1, {3}}
                    : format == GL_LUMINANCE_ALPHA ? Keep{2, {0, 3}}
                                                   : Keep{4, {0, 1, 2, 3}};
  std::vector<uint8_t> out;
  out.reserve(rgba.size() / 4 * static_cast<size_t>(keep.count));
  for (size_t p = 0; p + 4 <= rgba.size(); p += 4)
    for (int k = 0; k < keep.count; ++k)
      out.push_back(rgba[p + static_cast<size_t>(keep.channel[k])]);
  return out;
}

}  // namespace

void Context::copyTexImage2D(GLenum target, GLint level, GLenum internalFormat, GLint x, GLint y,
                             GLsizei w, GLsizei h, GLint border) {
  if (faceOf(target) < 0) return error(GL_INVALID_ENUM);
  if (internalFormat != GL_RGBA && internalFormat != GL_RGB && internalFormat != GL_LUMINANCE &&
      internalFormat != GL_ALPHA && internalFormat != GL_LUMINANCE_ALPHA)
    return error(GL_INVALID_ENUM);
  if (w < 0 || h < 0 || border != 0) return error(GL_INVALID_VALUE);
  // The framebuffer must have the components the texture asks for (§3.7.2, Table 3.9).
  const bool needsAlpha = internalFormat == GL_RGBA || internalFormat == GL_ALPHA ||
                          internalFormat == GL_LUMINANCE_ALPHA;
  if (needsAlpha && this->target().alpha == 0) return error(GL_INVALID_OPERATION);
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0);
  if (!readColor(x, y, w, h, static_cast<size_t>(w) * 4, rgba.data())) return;
  const std::vector<uint8_t> texels = reduce(rgba, internalFormat);
  const GLint saved = unpackAlignment_;
  unpackAlignment_ = 1;
  texImage2D(target, level, static_cast<GLint>(internalFormat), w, h, 0, internalFormat,
             GL_UNSIGNED_BYTE, texels.data());
  unpackAlignment_ = saved;
}

void Context::copyTexSubImage2D(GLenum target, GLint level, GLint xoff, GLint yoff, GLint x,
                                GLint y, GLsizei w, GLsizei h) {
  if (faceOf(target) < 0) return error(GL_INVALID_ENUM);
  if (w < 0 || h < 0 || level < 0) return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  const auto face = static_cast<uint32_t>(faceOf(target));
  if (!t || t->faces[face].size() <= static_cast<size_t>(level) ||
      !t->faces[face][static_cast<size_t>(level)].defined())
    return error(GL_INVALID_OPERATION);
  const TexImage& img = t->faces[face][static_cast<size_t>(level)];
  if (img.type != GL_UNSIGNED_BYTE) return error(GL_INVALID_OPERATION);  // 8-bit images only yet
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0);
  if (!readColor(x, y, w, h, static_cast<size_t>(w) * 4, rgba.data())) return;
  const std::vector<uint8_t> texels = reduce(rgba, img.format);
  const GLint saved = unpackAlignment_;
  unpackAlignment_ = 1;
  texSubImage2D(target, level, xoff, yoff, w, h, img.format, img.type, texels.data());
  unpackAlignment_ = saved;
}

GLboolean Context::isTexture(GLuint name) {
  const Texture* t = name ? textures_.find(name) : nullptr;
  return t && t->target != 0;
}

void Context::syncTexels(Texture& t) {
  if (!t.resource || !t.gpuWritten) return;
  const uint32_t faces = t.target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
  const bool volume = t.target == kTexture3D;
  for (const auto& [key, view] : t.views) {
    // key = face (a 3D texture: the slice) * 16 + level
    const uint32_t face = volume ? 0 : key / 16, slice = volume ? key / 16 : 0, level = key % 16;
    if (face >= faces || t.faces[face].size() <= level) continue;
    TexImage& img = t.faces[face][level];
    std::vector<uint8_t> texels = pipe_.readSurface(view);
    const size_t sliceBytes = img.texels.size() / static_cast<size_t>(img.depth);
    if (texels.size() == sliceBytes && slice < static_cast<uint32_t>(img.depth))
      std::copy(texels.begin(), texels.end(), img.texels.begin() + slice * sliceBytes);
  }
  t.gpuWritten = false;  // set again when a framebuffer next renders through a view
}

// The pipe texture of a texture object, rebuilt when its images changed: every level (and, for
// cube maps, every face) from 0 down that is defined with consistent sizes and format. Texels
// the GPU rendered into the old texture are read back first, so a rebuild keeps them.
pipe::ResourceId Context::buildTexture(Texture& t) {
  const uint32_t faces = t.target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
  const TexImage* base = t.faces[0].empty() ? nullptr : &t.faces[0][0];
  if (!base || !base->defined()) return pipe::kNoResource;
  if (!t.dirty && t.resource) return t.resource;
  syncTexels(t);
  for (const auto& [key, view] : t.views) pipe_.destroyResource(view);
  t.views.clear();
  t.gpuWritten = false;
  if (t.resource) pipe_.destroyResource(t.resource);
  uint32_t levels = 0;
  for (;; ++levels) {
    bool ok = true;
    for (uint32_t face = 0; face < faces && ok; ++face) {
      if (t.faces[face].size() <= levels) {
        ok = false;
        break;
      }
      const TexImage& img = t.faces[face][levels];
      ok = img.width == std::max(1, base->width >> levels) &&
           img.height == std::max(1, base->height >> levels) &&
           img.depth == std::max(1, base->depth >> levels) && img.format == base->format &&
           img.type == base->type;
    }
    if (!ok) break;
    if (std::max({base->width, base->height, base->depth}) >> levels <= 1) {
      ++levels;
      break;
    }
  }
  if (levels == 0) return t.resource = pipe::kNoResource;
  const bool volume = t.target == kTexture3D;
  t.resource = pipe_.createTexture({unitFormat(*base), static_cast<uint32_t>(base->width),
                                    static_cast<uint32_t>(base->height), levels, faces == 6, volume,
                                    false, static_cast<uint32_t>(base->depth)});
  for (uint32_t face = 0; face < faces; ++face) {
    for (uint32_t l = 0; l < levels; ++l) {
      const TexImage& img = t.faces[face][l];
      const std::span<const uint8_t> texels(img.texels);
      const size_t slice = texels.size() / static_cast<size_t>(img.depth);
      for (uint32_t z = 0; z < static_cast<uint32_t>(img.depth); ++z)  // 3D: slice by slice
        pipe_.uploadTexture(t.resource, volume ? z : face, l, texels.subspan(z * slice, slice));
    }
  }
  t.dirty = false;
  return t.resource;
}

// The pipe texture to sample, and whether the texture is complete (§3.7.10): an incomplete
// texture samples as (0, 0, 0, 1).
pipe::ResourceId Context::textureResource(Texture& t, bool& complete) {
  complete = false;
  const pipe::ResourceId res = buildTexture(t);
  if (!res) return pipe::kNoResource;
  const uint32_t faces = t.target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
  const TexImage& base = t.faces[0][0];
  for (uint32_t face = 1; face < faces; ++face) {  // cube faces: all square and alike (§3.7.10)
    if (t.faces[face].empty() || t.faces[face][0].width != base.width ||
        t.faces[face][0].format != base.format || t.faces[face][0].type != base.type)
      return res;
  }
  const bool mipmapped = t.minFilter != GL_NEAREST && t.minFilter != GL_LINEAR;
  uint32_t need = 1;
  if (mipmapped) {
    for (GLsizei m = std::max({base.width, base.height, base.depth}); m > 1; m /= 2) ++need;
  }
  for (uint32_t face = 0; face < faces; ++face) {
    if (t.faces[face].size() < need) return res;
    for (uint32_t l = 0; l < need; ++l) {
      const TexImage& img = t.faces[face][l];
      if (img.width != std::max(1, base.width >> l) ||
          img.height != std::max(1, base.height >> l) ||
          img.depth != std::max(1, base.depth >> l) || img.format != base.format ||
          img.type != base.type)
        return res;
    }
  }
  complete = true;
  return res;
}

// OES_texture_3D: TexImage3DOES and the rest follow their 2D counterparts (GLES 2.0 §3.7.1-3.7.3)
// with a depth; images have no row skipping or image height, so slice z of the client's pixels
// starts `h` padded rows after slice z - 1. Depth formats are 2D only (OES_depth_texture).
void Context::texImage3D(GLenum target, GLint level, GLint internalFormat, GLsizei w, GLsizei h,
                         GLsizei d, GLint border, GLenum format, GLenum type, const void* pixels) {
  if (target != kTexture3D || !knownFormat(format) || !knownType(type))
    return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || w < 0 || h < 0 || d < 0 || border != 0 ||
      w > (kMax3DSize >> level) || h > (kMax3DSize >> level) || d > (kMax3DSize >> level))
    return error(GL_INVALID_VALUE);
  if (static_cast<GLenum>(internalFormat) != format) return error(GL_INVALID_OPERATION);
  const FormatMatch* f = findFormat(format, type);
  if (!f || isDepth(f->tex)) return error(GL_INVALID_OPERATION);
  Texture* t = boundTexture(target);
  syncTexels(*t);
  TexImage& img = t->image(0, level);
  img.width = w, img.height = h, img.depth = std::max<GLsizei>(d, 1);
  img.format = format, img.type = type;
  const size_t row = static_cast<size_t>(w) * static_cast<size_t>(f->bytes);
  const size_t slice = row * static_cast<size_t>(h);
  img.texels.assign(slice * static_cast<size_t>(d), 0);
  if (d == 0) img.width = img.height = 0;  // no texels: undefined, as a 0-sized 2D image
  if (pixels && w && h) {
    const auto align = static_cast<size_t>(unpackAlignment_);
    const size_t pitch = (row + align - 1) / align * align;
    for (GLsizei z = 0; z < d; ++z) {
      unpack(*f, w, h, unpackAlignment_,
             static_cast<const uint8_t*>(pixels) +
                 static_cast<size_t>(z) * pitch * static_cast<size_t>(h),
             img.texels.data() + static_cast<size_t>(z) * slice);
    }
  }
  t->dirty = true;
}

void Context::texSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                            GLsizei h, GLsizei d, GLenum format, GLenum type, const void* pixels) {
  if (target != kTexture3D || !knownFormat(format) || !knownType(type))
    return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || x < 0 || y < 0 || z < 0 || w < 0 || h < 0 || d < 0)
    return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  if (t->faces[0].size() <= static_cast<size_t>(level)) return error(GL_INVALID_OPERATION);
  syncTexels(*t);
  TexImage& img = t->image(0, level);
  if (!img.defined()) return error(GL_INVALID_OPERATION);
  if (x + w > img.width || y + h > img.height || z + d > img.depth) return error(GL_INVALID_VALUE);
  if (format != img.format || type != img.type) return error(GL_INVALID_OPERATION);
  const FormatMatch* f = findFormat(format, type);
  if (!f || !pixels || w == 0 || h == 0 || d == 0) return;
  const auto bytes = static_cast<size_t>(f->bytes);
  const size_t row = static_cast<size_t>(w) * bytes;
  const auto align = static_cast<size_t>(unpackAlignment_);
  const size_t pitch = (row + align - 1) / align * align;
  std::vector<uint8_t> sub(row * static_cast<size_t>(h));
  for (GLsizei k = 0; k < d; ++k) {
    unpack(*f, w, h, unpackAlignment_,
           static_cast<const uint8_t*>(pixels) +
               static_cast<size_t>(k) * pitch * static_cast<size_t>(h),
           sub.data());
    for (GLsizei r = 0; r < h; ++r) {
      const size_t texel = (static_cast<size_t>(z + k) * static_cast<size_t>(img.height) +
                            static_cast<size_t>(y + r)) *
                               static_cast<size_t>(img.width) +
                           static_cast<size_t>(x);
      std::memcpy(img.texels.data() + texel * bytes, sub.data() + static_cast<size_t>(r) * row,
                  row);
    }
  }
  t->dirty = true;
}

void Context::copyTexSubImage3D(GLenum target, GLint level, GLint xoff, GLint yoff, GLint zoff,
                                GLint x, GLint y, GLsizei w, GLsizei h) {
  if (target != kTexture3D) return error(GL_INVALID_ENUM);
  if (w < 0 || h < 0 || level < 0 || level >= kMaxLevels) return error(GL_INVALID_VALUE);
  Texture* t = boundTexture(target);
  if (t->faces[0].size() <= static_cast<size_t>(level) ||
      !t->faces[0][static_cast<size_t>(level)].defined())
    return error(GL_INVALID_OPERATION);
  const TexImage& img = t->faces[0][static_cast<size_t>(level)];
  if (img.type != GL_UNSIGNED_BYTE) return error(GL_INVALID_OPERATION);  // 8-bit images only yet
  if (zoff < 0 || zoff >= img.depth) return error(GL_INVALID_VALUE);
  std::vector<uint8_t> rgba(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0);
  if (!readColor(x, y, w, h, static_cast<size_t>(w) * 4, rgba.data())) return;
  const std::vector<uint8_t> texels = reduce(rgba, img.format);
  const GLint saved = unpackAlignment_;
  unpackAlignment_ = 1;
  texSubImage3D(target, level, xoff, yoff, zoff, w, h, 1, img.format, img.type, texels.data());
  unpackAlignment_ = saved;
}

void Context::compressedTexImage3D(GLenum target, GLint level, GLsizei w, GLsizei h, GLsizei d,
                                   GLint border, GLsizei imageSize) {
  if (target != kTexture3D) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || w < 0 || h < 0 || d < 0 || w > kMax3DSize ||
      h > kMax3DSize || d > kMax3DSize || border != 0 || imageSize < 0)
    return error(GL_INVALID_VALUE);
  error(GL_INVALID_ENUM);  // no compressed format is supported
}

void Context::compressedTexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z,
                                      GLsizei w, GLsizei h, GLsizei d, GLsizei imageSize) {
  if (target != kTexture3D) return error(GL_INVALID_ENUM);
  if (level < 0 || level >= kMaxLevels || x < 0 || y < 0 || z < 0 || w < 0 || h < 0 || d < 0 ||
      imageSize < 0)
    return error(GL_INVALID_VALUE);
  error(GL_INVALID_OPERATION);  // no image of a compressed format to update
}

}  // namespace tessera::gles2
