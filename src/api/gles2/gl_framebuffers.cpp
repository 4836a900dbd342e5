// Framebuffer and renderbuffer objects (GLES 2.0 §4.4): attachments, completeness (§4.4.5), and
// the pipe framebuffer they make. A texture attachment renders straight into the texture's
// texels (a pipe surface over one level of one face).
#include <algorithm>

#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"

namespace tessera::gles2 {
namespace {

constexpr GLenum kRGBA8 = 0x8058, kRGB8 = 0x8051, kDepth24 = 0x81A6, kDepth24Stencil8 = 0x88F0;
constexpr GLenum kDepthStencilAttachment = 0x821A;  // not in GLES 2.0

struct RenderbufferFormat {
  GLenum format;
  bool color;
  pipe::ColorFormat colorFormat;
  pipe::DepthFormat depthFormat;
  int r, g, b, a, depth, stencil;
};

// GLES 2.0 Table 4.5 plus OES_rgb8_rgba8, OES_depth24, OES_packed_depth_stencil. A lone
// STENCIL_INDEX8 lives in a D24S8 surface (the render backend stores stencil beside depth).
constexpr RenderbufferFormat kRenderbufferFormats[] = {
    {GL_RGBA4, true, pipe::ColorFormat::RGBA4444, pipe::DepthFormat::None, 4, 4, 4, 4, 0, 0},
    {GL_RGB5_A1, true, pipe::ColorFormat::RGBA5551, pipe::DepthFormat::None, 5, 5, 5, 1, 0, 0},
    {GL_RGB565, true, pipe::ColorFormat::RGB565, pipe::DepthFormat::None, 5, 6, 5, 0, 0, 0},
    {kRGBA8, true, pipe::ColorFormat::RGBA8, pipe::DepthFormat::None, 8, 8, 8, 8, 0, 0},
    {kRGB8, true, pipe::ColorFormat::RGBA8, pipe::DepthFormat::None, 8, 8, 8, 0, 0, 0},
    {GL_DEPTH_COMPONENT16, false, pipe::ColorFormat::RGBA8, pipe::DepthFormat::D16, 0, 0, 0, 0, 16,
     0},
    {kDepth24, false, pipe::ColorFormat::RGBA8, pipe::DepthFormat::D24S8, 0, 0, 0, 0, 24, 0},
    {kDepth24Stencil8, false, pipe::ColorFormat::RGBA8, pipe::DepthFormat::D24S8, 0, 0, 0, 0, 24,
     8},
    {GL_STENCIL_INDEX8, false, pipe::ColorFormat::RGBA8, pipe::DepthFormat::D24S8, 0, 0, 0, 0, 0,
     8},
};

const RenderbufferFormat* renderbufferFormat(GLenum f) {
  for (const auto& r : kRenderbufferFormats) {
    if (r.format == f) return &r;
  }
  return nullptr;
}

}  // namespace

void Context::genFramebuffers(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = framebuffers_.create();
}

void Context::deleteFramebuffers(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    if (!names[i] || !framebuffers_.find(names[i])) continue;
    if (boundFramebuffer_ == names[i]) boundFramebuffer_ = 0;  // back to the window (§4.4.1)
    framebuffers_.erase(names[i]);
  }
}

void Context::bindFramebuffer(GLenum target, GLuint name) {
  if (target != GL_FRAMEBUFFER) return error(GL_INVALID_ENUM);
  if (name) framebuffers_.reserve(name);
  boundFramebuffer_ = name;
}

GLboolean Context::isFramebuffer(GLuint name) {
  return name && framebuffers_.find(name);
}

void Context::framebufferTexture2D(GLenum target, GLenum attachment, GLenum texTarget,
                                   GLuint texture, GLint level) {
  if (target != GL_FRAMEBUFFER) return error(GL_INVALID_ENUM);
  const bool face =
      texTarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && texTarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
  if (texTarget != GL_TEXTURE_2D && !face) return error(GL_INVALID_ENUM);
  if (attachment != GL_COLOR_ATTACHMENT0 && attachment != GL_DEPTH_ATTACHMENT &&
      attachment != GL_STENCIL_ATTACHMENT)
    return error(GL_INVALID_ENUM);
  if (!boundFramebuffer_) return error(GL_INVALID_OPERATION);
  Attachment a;
  if (texture) {
    Texture* t = textures_.find(texture);
    if (!t) return error(GL_INVALID_OPERATION);
    if (level != 0) return error(GL_INVALID_VALUE);  // GLES 2.0: level 0 only
    if ((t->target == GL_TEXTURE_2D) != (texTarget == GL_TEXTURE_2D) || t->target == kTexture3D)
      return error(GL_INVALID_OPERATION);
    a = {GL_TEXTURE, texture, level, texTarget};
  }
  Framebuffer& fb = *framebuffers_.find(boundFramebuffer_);
  (attachment == GL_COLOR_ATTACHMENT0  ? fb.color
   : attachment == GL_DEPTH_ATTACHMENT ? fb.depth
                                       : fb.stencil) = a;
}

// OES_texture_3D: one slice of a 3D texture as the colour attachment (3D textures have no depth
// formats); level 0 only, as for 2D textures in GLES 2.0.
void Context::framebufferTexture3D(GLenum target, GLenum attachment, GLenum texTarget,
                                   GLuint texture, GLint level, GLint zoffset) {
  if (target != GL_FRAMEBUFFER || texTarget != kTexture3D) return error(GL_INVALID_ENUM);
  if (attachment != GL_COLOR_ATTACHMENT0 && attachment != GL_DEPTH_ATTACHMENT &&
      attachment != GL_STENCIL_ATTACHMENT)
    return error(GL_INVALID_ENUM);
  if (!boundFramebuffer_) return error(GL_INVALID_OPERATION);
  Attachment a;
  if (texture) {
    Texture* t = textures_.find(texture);
    if (!t || t->target != kTexture3D) return error(GL_INVALID_OPERATION);
    if (level != 0 || zoffset < 0 || zoffset >= kMax3DSize) return error(GL_INVALID_VALUE);
    a = {GL_TEXTURE, texture, level, texTarget, zoffset};
  }
  Framebuffer& fb = *framebuffers_.find(boundFramebuffer_);
  (attachment == GL_COLOR_ATTACHMENT0  ? fb.color
   : attachment == GL_DEPTH_ATTACHMENT ? fb.depth
                                       : fb.stencil) = a;
}

void Context::framebufferRenderbuffer(GLenum target, GLenum attachment, GLenum rbTarget,
                                      GLuint rb) {
  if (target != GL_FRAMEBUFFER || (rb && rbTarget != GL_RENDERBUFFER))
    return error(GL_INVALID_ENUM);
  const bool both = attachment == kDepthStencilAttachment;
  if (attachment != GL_COLOR_ATTACHMENT0 && attachment != GL_DEPTH_ATTACHMENT &&
      attachment != GL_STENCIL_ATTACHMENT && !both)
    return error(GL_INVALID_ENUM);
  if (!boundFramebuffer_) return error(GL_INVALID_OPERATION);
  if (rb && !renderbuffers_.find(rb)) return error(GL_INVALID_OPERATION);
  Attachment a;
  if (rb) a = {GL_RENDERBUFFER, rb, 0, GL_RENDERBUFFER};
  Framebuffer& fb = *framebuffers_.find(boundFramebuffer_);
  if (attachment == GL_COLOR_ATTACHMENT0) fb.color = a;
  if (attachment == GL_DEPTH_ATTACHMENT || both) fb.depth = a;
  if (attachment == GL_STENCIL_ATTACHMENT || both) fb.stencil = a;
}

void Context::getFramebufferAttachmentParameter(GLenum target, GLenum attachment, GLenum pname,
                                                GLint* out) {
  if (target != GL_FRAMEBUFFER) return error(GL_INVALID_ENUM);
  if (!boundFramebuffer_) return error(GL_INVALID_OPERATION);
  const Framebuffer& fb = *framebuffers_.find(boundFramebuffer_);
  const Attachment* a = attachment == GL_COLOR_ATTACHMENT0    ? &fb.color
                        : attachment == GL_DEPTH_ATTACHMENT   ? &fb.depth
                        : attachment == GL_STENCIL_ATTACHMENT ? &fb.stencil
                                                              : nullptr;
  if (!a) return error(GL_INVALID_ENUM);
  switch (pname) {
    case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE:
      *out = static_cast<GLint>(a->type);
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
      *out = static_cast<GLint>(a->name);
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL:
      if (a->type != GL_TEXTURE) return error(GL_INVALID_ENUM);
      *out = a->level;
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE:
      if (a->type != GL_TEXTURE) return error(GL_INVALID_ENUM);
      *out =
          a->target == GL_TEXTURE_2D || a->target == kTexture3D ? 0 : static_cast<GLint>(a->target);
      return;
    case kAttachmentTexture3DZoffset:
      if (a->type != GL_TEXTURE) return error(GL_INVALID_ENUM);
      *out = a->zoffset;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::genRenderbuffers(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = renderbuffers_.create();
}

void Context::deleteRenderbuffers(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    Renderbuffer* r = names[i] ? renderbuffers_.find(names[i]) : nullptr;
    if (!r) continue;
    if (boundRenderbuffer_ == names[i]) boundRenderbuffer_ = 0;
    // Detached from the bound framebuffer (§4.4.3); other framebuffers see a missing attachment.
    if (Framebuffer* fb = boundFramebuffer_ ? framebuffers_.find(boundFramebuffer_) : nullptr) {
      for (Attachment* a : {&fb->color, &fb->depth, &fb->stencil}) {
        if (a->type == GL_RENDERBUFFER && a->name == names[i]) *a = {};
      }
    }
    if (r->resource) pipe_.destroyResource(r->resource);
    renderbuffers_.erase(names[i]);
  }
}

void Context::bindRenderbuffer(GLenum target, GLuint name) {
  if (target != GL_RENDERBUFFER) return error(GL_INVALID_ENUM);
  if (name) renderbuffers_.reserve(name);
  boundRenderbuffer_ = name;
}

GLboolean Context::isRenderbuffer(GLuint name) {
  return name && renderbuffers_.find(name);
}

void Context::renderbufferStorage(GLenum target, GLenum format, GLsizei w, GLsizei h) {
  if (target != GL_RENDERBUFFER) return error(GL_INVALID_ENUM);
  const RenderbufferFormat* f = renderbufferFormat(format);
  if (!f) return error(GL_INVALID_ENUM);
  if (w < 0 || h < 0 || w > 4096 || h > 4096) return error(GL_INVALID_VALUE);
  if (!boundRenderbuffer_) return error(GL_INVALID_OPERATION);
  Renderbuffer& r = *renderbuffers_.find(boundRenderbuffer_);
  if (r.resource) pipe_.destroyResource(r.resource);
  r.resource = pipe::kNoResource;
  r.format = format;
  r.width = w;
  r.height = h;
  if (w == 0 || h == 0) return;
  r.resource = f->color ? pipe_.createColorSurface(f->colorFormat, static_cast<uint32_t>(w),
                                                   static_cast<uint32_t>(h))
                        : pipe_.createDepthSurface(f->depthFormat, static_cast<uint32_t>(w),
                                                   static_cast<uint32_t>(h));
}

void Context::getRenderbufferParameter(GLenum target, GLenum pname, GLint* out) {
  if (target != GL_RENDERBUFFER) return error(GL_INVALID_ENUM);
  if (!boundRenderbuffer_) return error(GL_INVALID_OPERATION);
  const Renderbuffer& r = *renderbuffers_.find(boundRenderbuffer_);
  const RenderbufferFormat* f = renderbufferFormat(r.format);
  switch (pname) {
    case GL_RENDERBUFFER_WIDTH:
      *out = r.width;
      return;
    case GL_RENDERBUFFER_HEIGHT:
      *out = r.height;
      return;
    case GL_RENDERBUFFER_INTERNAL_FORMAT:
      *out = static_cast<GLint>(r.format);
      return;
    case GL_RENDERBUFFER_RED_SIZE:
      *out = f->r;
      return;
    case GL_RENDERBUFFER_GREEN_SIZE:
      *out = f->g;
      return;
    case GL_RENDERBUFFER_BLUE_SIZE:
      *out = f->b;
      return;
    case GL_RENDERBUFFER_ALPHA_SIZE:
      *out = f->a;
      return;
    case GL_RENDERBUFFER_DEPTH_SIZE:
      *out = f->depth;
      return;
    case GL_RENDERBUFFER_STENCIL_SIZE:
      *out = f->stencil;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

pipe::ResourceId Context::textureView(Texture& t, uint32_t face, GLint level) {
  const pipe::ResourceId res = buildTexture(t);
  if (!res) return pipe::kNoResource;
  const uint32_t key = face * 16 + static_cast<uint32_t>(level);
  auto it = t.views.find(key);
  if (it == t.views.end())
    it = t.views.emplace(key, pipe_.createTextureSurface(res, face, static_cast<uint32_t>(level)))
             .first;
  t.gpuWritten = true;
  return it->second;
}

Context::Target Context::target() {
  Target out;
  if (!boundFramebuffer_) {
    out.fb = {default_.color, default_.depth, default_.width, default_.height};
    out.red = default_.redBits, out.green = default_.greenBits, out.blue = default_.blueBits;
    out.alpha = default_.alphaBits;
    out.depth = default_.depth ? default_.depthBits : 0;
    out.stencil = default_.depth ? default_.stencilBits : 0;
    out.samples = default_.samples;
    return out;
  }
  Framebuffer& fb = *framebuffers_.find(boundFramebuffer_);
  out.red = out.green = out.blue = out.alpha = 0;
  GLsizei w = -1, h = -1;
  bool sizesDiffer = false, incomplete = false;
  auto size = [&](GLsizei aw, GLsizei ah) {
    if (w >= 0 && (aw != w || ah != h)) sizesDiffer = true;
    w = aw, h = ah;
  };
  if (fb.color.type == GL_TEXTURE) {
    Texture* t = textures_.find(fb.color.name);
    const bool volume = fb.color.target == kTexture3D;
    const uint32_t face = fb.color.target == GL_TEXTURE_2D || volume
                              ? 0
                              : fb.color.target - GL_TEXTURE_CUBE_MAP_POSITIVE_X;
    const TexImage* img = t && !t->faces[face].empty() ? &t->faces[face][0] : nullptr;
    // A 3D slice beyond the texture's depth is missing (OES_texture_3D).
    if (!img || !img->defined() || (volume && fb.color.zoffset >= img->depth)) {
      incomplete = true;
    } else if (!(img->format == GL_RGBA && img->type == GL_UNSIGNED_BYTE) &&
               !(img->format == GL_RGB && img->type == GL_UNSIGNED_SHORT_5_6_5) &&
               !(img->format == GL_RGBA && img->type == GL_UNSIGNED_SHORT_4_4_4_4) &&
               !(img->format == GL_RGBA && img->type == GL_UNSIGNED_SHORT_5_5_5_1)) {
      out.status = GL_FRAMEBUFFER_UNSUPPORTED;  // no colour format for RGB8 or luminance texels
    } else {
      size(img->width, img->height);
      // The view of a 3D texture's slice is keyed by the slice, as a cube face's by the face.
      out.fb.color = textureView(*t, volume ? static_cast<uint32_t>(fb.color.zoffset) : face, 0);
      const bool full = img->type == GL_UNSIGNED_BYTE;
      out.red = out.green = out.blue = full ? 8 : 5;
      out.alpha = full                                     ? 8
                  : img->type == GL_UNSIGNED_SHORT_5_6_5   ? 0
                  : img->type == GL_UNSIGNED_SHORT_4_4_4_4 ? 4
                                                           : 1;
    }
  } else if (fb.color.type == GL_RENDERBUFFER) {
    Renderbuffer* r = renderbuffers_.find(fb.color.name);
    const RenderbufferFormat* f = r ? renderbufferFormat(r->format) : nullptr;
    if (!r || !r->resource || !f->color) {
      incomplete = true;
    } else {
      size(r->width, r->height);
      out.fb.color = r->resource;
      out.red = f->r, out.green = f->g, out.blue = f->b, out.alpha = f->a;
    }
  }
  // Depth and stencil: the render backend keeps them in one surface, so both attachments must
  // name the same D24S8 renderbuffer when both are present.
  const Attachment& d = fb.depth;
  const Attachment& s = fb.stencil;
  if (d.type == GL_TEXTURE || s.type == GL_TEXTURE) {
    // A depth texture (OES_depth_texture): depth only, or depth and stencil from one
    // DEPTH_STENCIL texture; never mixed with a renderbuffer.
    const Attachment& a = d.type == GL_TEXTURE ? d : s;
    Texture* t = textures_.find(a.name);
    const TexImage* img = t && !t->faces[0].empty() ? &t->faces[0][0] : nullptr;
    const bool depthFormat = img && (img->format == GL_DEPTH_COMPONENT || img->format == 0x84F9);
    if ((d.type != GL_NONE && s.type != GL_NONE && (d.type != s.type || d.name != s.name))) {
      out.status = GL_FRAMEBUFFER_UNSUPPORTED;
    } else if (!img || !img->defined() || !depthFormat ||
               (s.type == GL_TEXTURE && img->format != 0x84F9)) {
      incomplete = true;
    } else {
      size(img->width, img->height);
      out.fb.depth = textureView(*t, 0, 0);
      out.depth = d.type == GL_TEXTURE ? (img->type == GL_UNSIGNED_SHORT ? 16 : 24) : 0;
      out.stencil = s.type == GL_TEXTURE ? 8 : 0;
    }
  } else if (d.type == GL_RENDERBUFFER || s.type == GL_RENDERBUFFER) {
    if (d.type == GL_RENDERBUFFER && s.type == GL_RENDERBUFFER && d.name != s.name) {
      out.status = GL_FRAMEBUFFER_UNSUPPORTED;
    } else {
      Renderbuffer* r = renderbuffers_.find(d.type == GL_RENDERBUFFER ? d.name : s.name);
      const RenderbufferFormat* f = r ? renderbufferFormat(r->format) : nullptr;
      if (!r || !r->resource || f->color ||
          (d.type == GL_RENDERBUFFER && f->depth == 0 && f->stencil == 0)) {
        incomplete = true;
      } else {
        size(r->width, r->height);
        out.fb.depth = r->resource;
        out.depth = d.type == GL_RENDERBUFFER ? f->depth : 0;
        out.stencil = s.type == GL_RENDERBUFFER ? f->stencil : 0;
      }
    }
  }
  if (incomplete)
    out.status = GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
  else if (w < 0 && out.status == GL_FRAMEBUFFER_COMPLETE)
    out.status = GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
  else if (sizesDiffer && out.status == GL_FRAMEBUFFER_COMPLETE)
    out.status = GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS;
  out.fb.width = static_cast<uint32_t>(std::max<GLsizei>(w, 0));
  out.fb.height = static_cast<uint32_t>(std::max<GLsizei>(h, 0));
  return out;
}

GLenum Context::checkFramebufferStatus(GLenum t) {
  if (t != GL_FRAMEBUFFER) {
    error(GL_INVALID_ENUM);
    return 0;
  }
  return target().status;
}

bool Context::targetComplete() {
  if (target().status == GL_FRAMEBUFFER_COMPLETE) return true;
  error(GL_INVALID_FRAMEBUFFER_OPERATION);
  return false;
}

}  // namespace tessera::gles2
