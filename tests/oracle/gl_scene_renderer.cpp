#include "oracle/gl_scene_renderer.h"

#include <GLES2/gl2ext.h>

#include <string>

#include "common/error.h"
#include "oracle/gl_program.h"

namespace tessera::oracle {
namespace {

using namespace tessera::scene;

// One table per enum, indexed by the enum's value (declaration order in scene/scene.h).
constexpr GLenum kCompare[] = {GL_NEVER,   GL_LESS,     GL_EQUAL,  GL_LEQUAL,
                               GL_GREATER, GL_NOTEQUAL, GL_GEQUAL, GL_ALWAYS};
constexpr GLenum kStencilOp[] = {GL_KEEP, GL_ZERO,   GL_REPLACE,   GL_INCR,
                                 GL_DECR, GL_INVERT, GL_INCR_WRAP, GL_DECR_WRAP};
constexpr GLenum kBlendFactor[] = {GL_ZERO,
                                   GL_ONE,
                                   GL_SRC_COLOR,
                                   GL_ONE_MINUS_SRC_COLOR,
                                   GL_DST_COLOR,
                                   GL_ONE_MINUS_DST_COLOR,
                                   GL_SRC_ALPHA,
                                   GL_ONE_MINUS_SRC_ALPHA,
                                   GL_DST_ALPHA,
                                   GL_ONE_MINUS_DST_ALPHA,
                                   GL_CONSTANT_COLOR,
                                   GL_ONE_MINUS_CONSTANT_COLOR,
                                   GL_CONSTANT_ALPHA,
                                   GL_ONE_MINUS_CONSTANT_ALPHA,
                                   GL_SRC_ALPHA_SATURATE};
constexpr GLenum kBlendEquation[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT};
constexpr GLenum kWrap[] = {GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT};
// [minFilter][mipFilter]
constexpr GLenum kMinFilter[2][3] = {
    {GL_NEAREST, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST_MIPMAP_LINEAR},
    {GL_LINEAR, GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_LINEAR}};
constexpr GLenum kMagFilter[] = {GL_NEAREST, GL_LINEAR};
constexpr GLuint kAttributeSlots = 8;  // GLES 2.0 guarantees at least 8 vertex attributes

template <typename E, size_t N>
GLenum gl(const GLenum (&table)[N], E value) {
  return table[static_cast<size_t>(value)];
}

// The shading contract of scene/scene.h, written out in GLSL ES 1.00.
constexpr const char* kVertexShader = R"(
precision highp float;
uniform highp vec4 u_c[16];
attribute highp vec3 a_position;
attribute highp vec3 a_normal;
attribute highp vec2 a_texcoord;
varying highp vec3 v_normal;
varying highp vec2 v_texcoord;
varying highp vec3 v_eyepos;
void main() {
  mat4 mvp = mat4(u_c[0], u_c[1], u_c[2], u_c[3]);
  mat4 mv = mat4(u_c[4], u_c[5], u_c[6], u_c[7]);
  mat3 nm = mat3(u_c[8].xyz, u_c[9].xyz, u_c[10].xyz);
  gl_Position = mvp * vec4(a_position, 1.0);
  v_normal = nm * a_normal;
  v_texcoord = a_texcoord;
  v_eyepos = (mv * vec4(a_position, 1.0)).xyz;
}
)";

constexpr const char* kPhongFragmentShader = R"(
precision highp float;
uniform highp vec4 u_c[16];
#ifdef TEXTURED
uniform highp sampler2D u_tex;
#endif
varying highp vec3 v_normal;
varying highp vec2 v_texcoord;
varying highp vec3 v_eyepos;
void main() {
  vec3 n = normalize(v_normal);
  vec3 l = u_c[11].xyz;
  float diff = max(dot(n, l), 0.0);
  vec3 vdir = normalize(-v_eyepos);
  vec3 h = normalize(l + vdir);
  float spec = diff > 0.0 ? pow(max(dot(n, h), 0.0), u_c[14].w) : 0.0;
#ifdef TEXTURED
  vec4 albedo = texture2D(u_tex, v_texcoord) * u_c[12];
#else
  vec4 albedo = u_c[12];
#endif
  vec3 rgb = u_c[13].rgb * albedo.rgb + diff * albedo.rgb + spec * u_c[14].rgb;
  gl_FragColor = vec4(clamp(rgb, 0.0, 1.0), albedo.a);
}
)";

constexpr const char* kConstantFragmentShader = R"(
precision highp float;
uniform highp vec4 u_c[16];
void main() {
  gl_FragColor = u_c[12];
}
)";

GLuint link(const char* fragment, const char* defines) {
  return linkProgram(std::string("#version 100\n") + kVertexShader,
                     std::string("#version 100\n") + defines + fragment);
}

GLuint uploadBuffer(GLenum target, const void* data, size_t bytes) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(target, buffer);
  glBufferData(target, GLsizeiptr(bytes), data, GL_STATIC_DRAW);
  return buffer;
}

void bindAttribute(GLint location, GLuint buffer, int components) {
  if (location < 0) return;
  if (buffer == 0) {
    // No data: the attribute reads its current value (GLES 2.0 spec 2.7), here all zeros.
    glDisableVertexAttribArray(GLuint(location));
    glVertexAttrib4f(GLuint(location), 0, 0, 0, 1);
    return;
  }
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(GLuint(location), components, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(GLuint(location));
}

void applyStencilFace(GLenum face, const StencilFace& s) {
  glStencilFuncSeparate(face, gl(kCompare, s.func), s.ref, s.valueMask);
  glStencilOpSeparate(face, gl(kStencilOp, s.fail), gl(kStencilOp, s.zfail),
                      gl(kStencilOp, s.zpass));
  glStencilMaskSeparate(face, s.writeMask);
}

}  // namespace

GlSceneRenderer::GlSceneRenderer(const Scene& scene) : scene_(scene) {
  const char* fragments[3] = {kPhongFragmentShader, kPhongFragmentShader, kConstantFragmentShader};
  const char* defines[3] = {"", "#define TEXTURED 1\n", ""};
  for (size_t i = 0; i < programs_.size(); ++i) {
    Program& p = programs_[i];
    p.id = link(fragments[i], defines[i]);
    p.constants = glGetUniformLocation(p.id, "u_c");
    p.sampler = glGetUniformLocation(p.id, "u_tex");
    p.position = glGetAttribLocation(p.id, "a_position");
    p.normal = glGetAttribLocation(p.id, "a_normal");
    p.texcoord = glGetAttribLocation(p.id, "a_texcoord");
  }
  for (const Mesh& m : scene.meshes) {
    MeshBuffers b;
    b.positions = uploadBuffer(GL_ARRAY_BUFFER, m.positions.data(), m.positions.size() * 4);
    b.normals = uploadBuffer(GL_ARRAY_BUFFER, m.normals.data(), m.normals.size() * 4);
    if (!m.texcoords.empty()) {
      b.texcoords = uploadBuffer(GL_ARRAY_BUFFER, m.texcoords.data(), m.texcoords.size() * 4);
    }
    b.indices = uploadBuffer(GL_ELEMENT_ARRAY_BUFFER, m.indices.data(), m.indices.size() * 4);
    b.indexCount = GLsizei(m.indices.size());
    meshes_.push_back(b);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  for (const Texture& t : scene.textures) {
    GLuint id = 0;
    glGenTextures(1, &id);
    textures_.push_back(id);
    glBindTexture(GL_TEXTURE_2D, id);
    // Levels exactly as the scene gives them, so both renderers sample the same texels.
    for (size_t level = 0; level < t.levels.size(); ++level) {
      const Image& img = t.levels[level];
      glTexImage2D(GL_TEXTURE_2D, GLint(level), GL_RGBA, GLsizei(img.width), GLsizei(img.height), 0,
                   GL_RGBA, GL_UNSIGNED_BYTE, img.rgba.data());
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GLint(gl(kMagFilter, t.magFilter)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                    GLint(kMinFilter[size_t(t.minFilter)][size_t(t.mipFilter)]));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GLint(gl(kWrap, t.wrapS)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GLint(gl(kWrap, t.wrapT)));
  }
  if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
    throw Error("GLES: error " + std::to_string(err) + " while uploading scene '" + scene.name +
                "'");
  }
}

GlSceneRenderer::~GlSceneRenderer() {
  for (const MeshBuffers& b : meshes_) {
    const GLuint buffers[4] = {b.positions, b.normals, b.texcoords, b.indices};
    glDeleteBuffers(4, buffers);
  }
  if (!textures_.empty()) glDeleteTextures(GLsizei(textures_.size()), textures_.data());
  for (const Program& p : programs_) glDeleteProgram(p.id);
}

const GlSceneRenderer::Program& GlSceneRenderer::programFor(Shading shading) const {
  return programs_[static_cast<size_t>(shading)];
}

void GlSceneRenderer::applyState(const RenderState& s) {
  // With the depth (stencil) test disabled GL neither tests nor writes that buffer (GLES 2.0
  // spec 4.1.5, 4.1.6); Tessera follows the same rule.
  if (s.depthTest)
    glEnable(GL_DEPTH_TEST);
  else
    glDisable(GL_DEPTH_TEST);
  glDepthFunc(gl(kCompare, s.depthFunc));
  glDepthMask(s.depthWrite ? GL_TRUE : GL_FALSE);
  if (s.cull == Cull::None) {
    glDisable(GL_CULL_FACE);
  } else {
    glEnable(GL_CULL_FACE);
    glCullFace(s.cull == Cull::Back ? GL_BACK : GL_FRONT);
  }
  glFrontFace(s.frontFaceCCW ? GL_CCW : GL_CW);
  if (s.blend)
    glEnable(GL_BLEND);
  else
    glDisable(GL_BLEND);
  glBlendFuncSeparate(gl(kBlendFactor, s.srcRgb), gl(kBlendFactor, s.dstRgb),
                      gl(kBlendFactor, s.srcAlpha), gl(kBlendFactor, s.dstAlpha));
  glBlendEquationSeparate(gl(kBlendEquation, s.eqRgb), gl(kBlendEquation, s.eqAlpha));
  glBlendColor(s.blendColor[0], s.blendColor[1], s.blendColor[2], s.blendColor[3]);
  glColorMask(s.colorMask[0], s.colorMask[1], s.colorMask[2], s.colorMask[3]);
  if (s.stencilTest)
    glEnable(GL_STENCIL_TEST);
  else
    glDisable(GL_STENCIL_TEST);
  applyStencilFace(GL_FRONT, s.front);
  applyStencilFace(GL_BACK, s.back);
}

void GlSceneRenderer::render() {
  glViewport(0, 0, GLsizei(scene_.width), GLsizei(scene_.height));
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DITHER);  // dithering would make GL's output differ from exact rounding
  // Clears obey the write masks (GLES 2.0 spec 4.2.3); a scene's clear is always complete.
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDepthMask(GL_TRUE);
  glStencilMask(0xff);
  const auto& c = scene_.clearColor;
  glClearColor(c[0], c[1], c[2], c[3]);
  glClearDepthf(scene_.clearDepth);
  glClearStencil(scene_.clearStencil);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);

  for (const Draw& d : scene_.draws) {
    if (d.mesh >= meshes_.size())
      throw Error("scene '" + scene_.name + "': draw names a missing mesh");
    const Program& p = programFor(d.shading);
    const MeshBuffers& m = meshes_[d.mesh];
    applyState(d.state);
    glUseProgram(p.id);
    glUniform4fv(p.constants, kConstantSlots, d.constants.data());
    if (p.sampler >= 0) {
      if (d.texture < 0 || size_t(d.texture) >= textures_.size()) {
        throw Error("scene '" + scene_.name + "': textured draw without a valid texture");
      }
      glActiveTexture(GL_TEXTURE0);
      glBindTexture(GL_TEXTURE_2D, textures_[size_t(d.texture)]);
      glUniform1i(p.sampler, 0);
    }
    // Arrays left enabled by another program's locations could read past a smaller mesh.
    for (GLuint i = 0; i < kAttributeSlots; ++i) glDisableVertexAttribArray(i);
    bindAttribute(p.position, m.positions, 3);
    bindAttribute(p.normal, m.normals, 3);
    bindAttribute(p.texcoord, m.texcoords, 2);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.indices);
    glDrawElements(GL_TRIANGLES, m.indexCount, GL_UNSIGNED_INT, nullptr);
  }
  if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
    throw Error("GLES: error " + std::to_string(err) + " while drawing scene '" + scene_.name +
                "'");
  }
}

}  // namespace tessera::oracle
