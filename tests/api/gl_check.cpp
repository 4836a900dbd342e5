// gl-check: small GLES 2.0 programs that run unchanged on any libEGL.so.1/libGLESv2.so.2 (Mesa's,
// or Tessera's through LD_LIBRARY_PATH). Each scene writes its image (PNG) and a text log of
// glGetError results and state queries, which the test compares between the two.
//   gl-check SCENE OUT.png OUT.txt
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "api/egl_pbuffer.h"
#include "common/image.h"

#if defined(__SANITIZE_ADDRESS__)
// Mesa's driver is dlopen'ed and keeps process-lifetime allocations LeakSanitizer cannot
// attribute; they are not this program's. Address errors are still reported.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}
#endif

namespace {

constexpr int kW = 96, kH = 72;
std::ofstream gLog;

void logError(const char* what) {
  gLog << what << " -> 0x" << std::hex << glGetError() << std::dec << "\n";
}

GLuint compile(GLenum stage, const char* src) {
  const GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::fprintf(stderr, "compile failed: %s\n", log);
  }
  return s;
}

GLuint program(const char* vs, const char* fs) {
  const GLuint p = glCreateProgram();
  glAttachShader(p, compile(GL_VERTEX_SHADER, vs));
  glAttachShader(p, compile(GL_FRAGMENT_SHADER, fs));
  glBindAttribLocation(p, 0, "a_pos");
  glBindAttribLocation(p, 1, "a_color");
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  gLog << "link " << ok << "\n";
  return p;
}

// Shows the texture bound to unit 0: texture coordinates come in attribute 1 (a_color.xy).
GLuint textureProgram() {
  return program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec2 uv;\n"
      "void main() { gl_Position = a_pos; uv = a_color.xy; }\n",
      "precision mediump float; uniform sampler2D t; varying vec2 uv;\n"
      "void main() { gl_FragColor = texture2D(t, uv); }\n");
}

// A rectangle in clip space with texture coordinates 0..1 across it, from client memory.
void drawTexturedRect(float x0, float y0, float x1, float y1) {
  const float quad[] = {x0, y0, x1, y0, x1, y1, x0, y1};
  const float uv[] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, uv);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
}

// Client-memory arrays, vertex colours, clear and a triangle fan.
void sceneTriangles() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glClearColor(0.2f, 0.3f, 0.4f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const float pos[] = {-0.9f, -0.8f, 0.8f, -0.6f, 0.1f, 0.9f, -0.5f, 0.6f};
  const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  logError("draw");
  // A second, smaller triangle with a constant colour (attribute 1 disabled).
  glDisableVertexAttribArray(1);
  glVertexAttrib4f(1, 1.0f, 0.5f, 0.25f, 1.0f);
  const float small[] = {0.5f, 0.5f, 0.9f, 0.5f, 0.7f, 0.9f};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, small);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  logError("draw constant attribute");
}

// Buffer objects, indexed draws, a mipmapped texture, depth test and blending, uniforms.
void sceneTextured() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; uniform mat4 u_mvp; varying vec2 uv;\n"
      "void main() { gl_Position = u_mvp * a_pos; uv = a_color.xy; }\n",
      "precision mediump float; uniform sampler2D u_tex; uniform vec4 u_tint; varying vec2 uv;\n"
      "void main() { gl_FragColor = texture2D(u_tex, uv) * u_tint; }\n");
  glUseProgram(p);
  std::vector<unsigned char> tex(32 * 32 * 4);
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) {
      unsigned char* t = &tex[(y * 32 + x) * 4];
      const bool on = ((x / 4) + (y / 4)) % 2 == 0;
      t[0] = on ? 240 : 30, t[1] = static_cast<unsigned char>(x * 8), t[2] = on ? 60 : 200,
      t[3] = 255;
    }
  }
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  logError("texture");
  const float verts[] = {
      // x, y, z, (u, v)
      -0.8f, -0.8f, 0.2f,  0,     0,    0.8f, -0.8f, 0.2f, 1,     0,     0.8f,  0.8f,
      0.2f,  1,     1,     -0.8f, 0.8f, 0.2f, 0,     1,    -0.5f, -0.3f, -0.5f, 0,
      0,     0.9f,  -0.1f, 0.6f,  1,    0,    0.2f,  0.9f, 0.6f,  0.5f,  1,
  };
  const unsigned short idx[] = {0, 1, 2, 0, 2, 3, 4, 5, 6};
  GLuint bufs[2];
  glGenBuffers(2, bufs);
  glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
  glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 20, nullptr);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 20, reinterpret_cast<const void*>(12));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  const float mvp[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  glUniformMatrix4fv(glGetUniformLocation(p, "u_mvp"), 1, GL_FALSE, mvp);
  glUniform1i(glGetUniformLocation(p, "u_tex"), 0);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glUniform4f(glGetUniformLocation(p, "u_tint"), 1, 1, 1, 1);
  glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, nullptr);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUniform4f(glGetUniformLocation(p, "u_tint"), 0.3f, 1.0f, 0.6f, 0.5f);
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(12));
  logError("draws");
  // Update part of the vertex buffer after drawing with it: later draws see the new data.
  const float moved[] = {-0.2f, -0.9f, 0.9f};
  glBufferSubData(GL_ARRAY_BUFFER, 20 * 4, sizeof moved, moved);
  glDisable(GL_DEPTH_TEST);
  glUniform4f(glGetUniformLocation(p, "u_tint"), 1.0f, 0.2f, 0.2f, 1.0f);
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, reinterpret_cast<const void*>(12));
  logError("buffer update");
}

// Error semantics: each call below is wrong in one way; the log holds glGetError after it.
void sceneErrors() {
  glEnable(0x1234);
  logError("enable bad cap");
  glClear(0x10);
  logError("clear bad bit");
  glViewport(0, 0, -1, 5);
  logError("negative viewport");
  glBindBuffer(GL_TEXTURE_2D, 1);
  logError("bind buffer bad target");
  GLuint b;
  glGenBuffers(1, &b);
  glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_STATIC_DRAW);
  logError("buffer data with nothing bound");
  glBindBuffer(GL_ARRAY_BUFFER, b);
  glBufferData(GL_ARRAY_BUFFER, -4, nullptr, GL_STATIC_DRAW);
  logError("negative size");
  glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_RGBA);
  logError("bad usage");
  glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_STATIC_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 8, 16, "0123456789abcdef");
  logError("sub data past the end");
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  logError("internal format differs");
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 4, 4, 0, GL_RGB, GL_UNSIGNED_SHORT_4_4_4_4, nullptr);
  logError("format and type do not match");
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  logError("border");
  glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA, 4, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               nullptr);
  logError("non-square cube face");
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  logError("mag filter with mipmaps");
  const unsigned char block[16] = {};
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, 0x1234, 4, 4, 0, 8, block);
  logError("compressed image, unknown format");
  glCompressedTexImage2D(GL_RGBA, 0, 0x8D64, 4, 4, 0, 8, block);
  logError("compressed image, bad target");
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, 0x1234, 8, block);
  logError("compressed sub-image, unknown format");
  glDrawArrays(GL_LINE_LOOP, 0, -1);
  logError("negative count");
  glLineWidth(0.0f);
  logError("line width zero");
  glUseProgram(12345);
  logError("use unknown program");
  const GLuint sh = glCreateShader(GL_VERTEX_SHADER);
  glUseProgram(sh);
  logError("use a shader as a program");
  glCreateShader(GL_RGBA);
  logError("create shader bad type");
  const GLuint p = glCreateProgram();
  glUseProgram(p);
  logError("use unlinked program");
  glUniform1f(0, 1.0f);
  logError("uniform with no current program");
  glDrawArrays(0x99, 0, 3);
  logError("bad mode");
  glDrawElements(GL_TRIANGLES, 3, GL_FLOAT, nullptr);
  logError("bad index type");
  glVertexAttribPointer(99, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  logError("attribute index too big");
  glVertexAttribPointer(0, 5, GL_FLOAT, GL_FALSE, 0, nullptr);
  logError("attribute size 5");
  glPixelStorei(GL_UNPACK_ALIGNMENT, 3);
  logError("alignment 3");
  glStencilFunc(0x9999, 0, 0xff);
  logError("bad stencil func");
  glActiveTexture(GL_TEXTURE0 + 4000);
  logError("texture unit 4000");
  glGetError();
  logError("no error");
  glClearColor(0.5f, 0.25f, 1.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

// State the application set comes back from the queries.
void sceneState() {
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);  // all of the surface defined before the scissored clear
  glClear(GL_COLOR_BUFFER_BIT);
  glViewport(3, 4, 50, 40);
  glScissor(1, 2, 30, 20);
  glEnable(GL_SCISSOR_TEST);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ZERO, GL_DST_ALPHA);
  glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT);
  glDepthFunc(GL_GEQUAL);
  glStencilFuncSeparate(GL_BACK, GL_LESS, 300, 0x0f);
  glCullFace(GL_FRONT);
  glFrontFace(GL_CW);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
  glPixelStorei(GL_PACK_ALIGNMENT, 2);
  const GLenum ints[] = {
      GL_VIEWPORT,        GL_SCISSOR_BOX,       GL_BLEND_SRC_RGB,      GL_BLEND_DST_RGB,
      GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,   GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA,
      GL_DEPTH_FUNC,      GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF,   GL_STENCIL_BACK_VALUE_MASK,
      GL_CULL_FACE_MODE,  GL_FRONT_FACE,        GL_PACK_ALIGNMENT,     GL_UNPACK_ALIGNMENT,
      GL_SCISSOR_TEST,    GL_DEPTH_TEST,        GL_ACTIVE_TEXTURE,     GL_RED_BITS,
      GL_ALPHA_BITS,      GL_DEPTH_BITS,        GL_STENCIL_BITS};
  for (GLenum e : ints) {
    GLint v[4] = {-7, -7, -7, -7};
    glGetIntegerv(e, v);
    gLog << "0x" << std::hex << e << std::dec << " " << v[0] << " " << v[1] << " " << v[2] << " "
         << v[3] << "\n";
  }
  GLboolean mask[4];
  glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  gLog << "colormask " << int(mask[0]) << int(mask[1]) << int(mask[2]) << int(mask[3]) << "\n";
  GLfloat clear[4];
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  gLog << "clear " << clear[0] << " " << clear[1] << " " << clear[2] << " " << clear[3] << "\n";
  logError("queries");
  glClear(GL_COLOR_BUFFER_BIT);  // scissored and masked
}

// Render to texture: a framebuffer object with a texture colour attachment and a depth
// renderbuffer, completeness checks, and the texture drawn into the window afterwards.
void sceneFramebuffer() {
  GLuint fbo = 0, rb = 0, tex = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  gLog << "empty fbo status 0x" << std::hex << glCheckFramebufferStatus(GL_FRAMEBUFFER) << std::dec
       << "\n";
  glClear(GL_COLOR_BUFFER_BIT);
  logError("clear incomplete");
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 32, 32);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
  gLog << "status 0x" << std::hex << glCheckFramebufferStatus(GL_FRAMEBUFFER) << std::dec << "\n";
  GLint v = 0;
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &v);
  gLog << "renderbuffer width " << v << "\n";
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                        GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &v);
  gLog << "colour attachment type 0x" << std::hex << v << std::dec << "\n";
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glViewport(0, 0, 32, 32);
  glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  // Two overlapping triangles; the nearer one (z -0.5) wins wherever they overlap.
  const float pos[] = {-1, -1, 0.5f,  1, -1, 0.5f,  0, 1,  0.5f,
                       -1, 1,  -0.5f, 1, 1,  -0.5f, 0, -1, -0.5f};
  const float col[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  logError("draw into fbo");
  unsigned char px[4] = {};
  glReadPixels(16, 24, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  gLog << "fbo pixel " << int(px[0]) << " " << int(px[1]) << " " << int(px[2]) << "\n";
  // Back to the window: the rendered texture on a quad.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDisable(GL_DEPTH_TEST);
  glViewport(0, 0, kW, kH);
  const GLuint q = textureProgram();
  glUseProgram(q);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  drawTexturedRect(-0.9f, -0.9f, 0.9f, 0.9f);
  logError("draw the texture");
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  GLint bound = -1;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
  gLog << "bound " << bound << "\n";
}

// Shadow-map style: depth rendered into a depth texture (OES_depth_texture), then sampled as
// luminance in the window.
void sceneDepthTexture() {
  GLuint fbo = 0, depth = 0;
  glGenTextures(1, &depth);
  glBindTexture(GL_TEXTURE_2D, depth);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 64, 64, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
               nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  logError("depth texture");
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  gLog << "depth-only status 0x" << std::hex << glCheckFramebufferStatus(GL_FRAMEBUFFER) << std::dec
       << "\n";
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; void main() { gl_Position = a_pos; }\n",
      "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n");
  glUseProgram(p);
  glViewport(0, 0, 64, 64);
  glEnable(GL_DEPTH_TEST);
  glClear(GL_DEPTH_BUFFER_BIT);
  // A slanted triangle: depth varies across it.
  const float tri[] = {-0.9f, -0.9f, -0.8f, 0.9f, -0.7f, 0.2f, -0.2f, 0.9f, 0.8f};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, tri);
  glEnableVertexAttribArray(0);
  glDisableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  logError("depth pass");
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDisable(GL_DEPTH_TEST);
  glViewport(0, 0, kW, kH);
  const GLuint q = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec2 uv;\n"
      "void main() { gl_Position = a_pos; uv = a_pos.xy * 0.5 + 0.5; }\n",
      "precision highp float; uniform sampler2D d; varying vec2 uv;\n"
      "void main() { float z = texture2D(d, uv).r; gl_FragColor = vec4(z, fract(z * 8.0), 0.5, "
      "1.0); }\n");
  glUseProgram(q);
  const float quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, quad);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  logError("sample depth");
}

// glCopyTexImage2D and glCopyTexSubImage2D from the window, the copies drawn back; then
// EXT_discard_framebuffer's error cases.
void sceneCopyTexture() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glClearColor(0.1f, 0.1f, 0.4f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const float pos[] = {-1, -1, 1, -1, 0, 1};
  const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  GLuint tex[2];
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 8, 64, 48, 0);
  logError("copy rgba");
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);  // quad edges hit u = 1
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  std::vector<unsigned char> grey(32 * 32, 90);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_LUMINANCE, 32, 32, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE,
               grey.data());
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 8, 8, 40, 20, 16, 16);
  logError("copy sub luminance");
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, 8, 8, 1);
  logError("copy with border");
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 30, 30, 0, 0, 8, 8);
  logError("copy sub out of range");
  const GLuint q = textureProgram();
  glUseProgram(q);
  glClear(GL_COLOR_BUFFER_BIT);
  for (int k = 0; k < 2; ++k) {
    glBindTexture(GL_TEXTURE_2D, tex[k]);
    drawTexturedRect(k ? 0.05f : -0.95f, -0.9f, k ? 0.95f : -0.05f, 0.9f);
  }
  logError("draw copies");
  auto discard = reinterpret_cast<void (*)(GLenum, GLsizei, const GLenum*)>(
      eglGetProcAddress("glDiscardFramebufferEXT"));
  if (discard) {
    const GLenum bad[] = {GL_COLOR_ATTACHMENT0};  // not a window attachment name
    discard(GL_FRAMEBUFFER, 1, bad);
    logError("discard bad attachment");
    discard(GL_FRAMEBUFFER, -1, bad);
    logError("discard negative count");
  }
}

// Point sprites: sizes from an attribute through gl_PointSize, gl_PointCoord as colour, a point
// whose size comes from a uniform, and points outside the viewport.
void scenePoints() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; uniform float u_scale; varying vec4 c;\n"
      "void main() { gl_Position = vec4(a_pos.xy, 0.0, 1.0); gl_PointSize = a_pos.z * u_scale;\n"
      "  c = a_color; }\n",
      "precision mediump float; varying vec4 c;\n"
      "void main() { gl_FragColor = vec4(gl_PointCoord, c.b, 1.0) * c.a; }\n");
  glUseProgram(p);
  glUniform1f(glGetUniformLocation(p, "u_scale"), 1.0f);
  glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  // x, y, size; the positions keep every sprite inside the viewport.
  const float pos[] = {-0.7f, -0.6f, 1.0f,  -0.4f, -0.6f, 3.0f, 0.0f, -0.5f,
                       8.0f,  0.5f,  -0.4f, 17.f,  -0.5f, 0.4f, 24.f, 0.3f,
                       0.5f,  31.f,  0.8f,  0.8f,  5.5f,  1.5f, 0.0f, 9.0f};  // the last is clipped
  const float col[] = {1, 1, 1, 1, 1, 1, 0,    1, 1, 1, 0.5f, 1, 1, 1, 0, 1,
                       1, 1, 1, 1, 1, 1, 0.2f, 1, 1, 1, 1,    1, 1, 1, 1, 1};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_POINTS, 0, 8);
  logError("points");
  // Indexed points, sized by the uniform.
  glUniform1f(glGetUniformLocation(p, "u_scale"), 0.5f);
  const unsigned short idx[] = {5, 2};
  glDrawElements(GL_POINTS, 2, GL_UNSIGNED_SHORT, idx);
  logError("indexed points");
}

// Lines, line strips and loops at width 1 and wider, with interpolated colours.
void sceneLines() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glClearColor(0.0f, 0.0f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const float pos[] = {-0.9f, -0.9f, 0.9f,  -0.7f, -0.8f, -0.2f, 0.7f, 0.9f,
                       -0.2f, 0.8f,  -0.1f, -0.8f, 0.2f,  0.1f,  0.6f, 0.3f};
  const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1,    0, 1,
                       1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0.5f, 0, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_LINES, 0, 8);
  logError("lines");
  glLineWidth(3.0f);
  logError("line width 3");
  glViewport(0, 0, kW / 2, kH / 2);
  glDrawArrays(GL_LINE_STRIP, 0, 5);
  logError("line strip");
  glViewport(kW / 2, kH / 2, kW / 2, kH / 2);
  glLineWidth(1.0f);
  glDrawArrays(GL_LINE_LOOP, 2, 4);
  logError("line loop");
  glLineWidth(0.0f);
  logError("line width 0");
  glLineWidth(-1.0f);
  logError("line width -1");
  GLfloat w = 0;
  glGetFloatv(GL_LINE_WIDTH, &w);
  gLog << "line width " << w << "\n";
}

// Two coplanar, sloped quads at the same depth: the second wins the depth test only through
// its polygon offset.
void scenePolygonOffset() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glClearColor(0, 0, 0, 1);
  glClearDepthf(1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  const float quad[] = {-0.8f, -0.8f, -0.6f, 0.8f, -0.8f, 0.3f,
                        -0.8f, 0.8f,  -0.3f, 0.8f, 0.8f,  0.6f};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, quad);
  glEnableVertexAttribArray(0);
  glVertexAttrib4f(1, 1, 0, 0, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(-1.0f, -2.0f);
  glVertexAttrib4f(1, 0, 1, 0, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);  // wins everywhere: pulled towards the viewer
  glPolygonOffset(1.0f, 2.0f);
  glVertexAttrib4f(1, 0, 0, 1, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);  // loses everywhere: pushed away
  logError("polygon offset");
  GLfloat f = 0, u = 0;
  glGetFloatv(GL_POLYGON_OFFSET_FACTOR, &f);
  glGetFloatv(GL_POLYGON_OFFSET_UNITS, &u);
  gLog << "offset " << f << " " << u << " enabled " << int(glIsEnabled(GL_POLYGON_OFFSET_FILL))
       << "\n";
}

// 16-bit colour renderbuffers (RGB565, RGBA4, RGB5_A1): drawn into, read back with
// glReadPixels as RGBA bytes, and the bytes shown in the window as textures side by side.
void sceneReadbackFormats() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  const GLuint show = textureProgram();
  constexpr int kS = 24;
  glDisable(GL_DITHER);  // dithering is implementation-defined (§4.1.10)
  const GLenum formats[] = {GL_RGB565, GL_RGBA4, GL_RGB5_A1};
  std::vector<unsigned char> px[3];
  for (int f = 0; f < 3; ++f) {
    GLuint fbo = 0, rb = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, formats[f], kS, kS);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    gLog << "status 0x" << std::hex << glCheckFramebufferStatus(GL_FRAMEBUFFER) << std::dec << "\n";
    glViewport(0, 0, kS, kS);
    glClearColor(0.25f, 0.5f, 0.75f, 0.5f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(p);
    const float pos[] = {-1, -1, 1, -1, 0, 1};
    const float col[] = {1, 0, 0, 1, 0, 1, 0, 0.2f, 0, 0, 1, 0.6f};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    px[f].resize(kS * kS * 4);
    glReadPixels(0, 0, kS, kS, GL_RGBA, GL_UNSIGNED_BYTE, px[f].data());
    logError("read back");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
  }
  glViewport(0, 0, kW, kH);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(show);
  for (int f = 0; f < 3; ++f) {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kS, kS, 0, GL_RGBA, GL_UNSIGNED_BYTE, px[f].data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    const float x0 = -0.95f + 0.65f * f;
    drawTexturedRect(x0, -0.8f, x0 + 0.6f, 0.8f);
    logError("show");
  }
}

// A texture rendered into, then changed on the CPU side: glGenerateMipmap must build its levels
// from the rendered texels, and glTexSubImage2D must patch them, not a stale copy.
void sceneRenderedMipmaps() {
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  const GLuint show = textureProgram();
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  glViewport(0, 0, 64, 64);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(p);
  const float pos[] = {-1, -1, 1, -1, -1, 1};
  const float col[] = {0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glGenerateMipmap(GL_TEXTURE_2D);
  logError("generate mipmaps of a rendered texture");
  const std::vector<unsigned char> patch(8 * 8 * 4, 255);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 48, 48, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, patch.data());
  logError("patch level 0");
  glViewport(0, 0, kW, kH);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glUseProgram(show);
  // Level 0 (with the patch) large on the left; minified, trilinear, on the right.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  drawTexturedRect(-1.0f, -1.0f, 0.45f, 1.0f);  // 70x72 pixels
  drawTexturedRect(0.55f, -0.2f, 0.85f, 0.2f);
  logError("draw");
}

// EXT_shadow_samplers' texture parameters: a 16-bit depth texture (a ramp along x, steps along
// y) compared with a reference that varies along the window, with nearest and linear filtering,
// through a shadow sampler's texture and textureProj; the compare parameters and their errors.
void sceneShadowSamplers() {
  constexpr GLenum kMode = 0x884C, kFunc = 0x884D, kRefToTexture = 0x884E;
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  std::vector<uint16_t> depth(16 * 16);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x)
      depth[y * 16 + x] = static_cast<uint16_t>(x * 4000 + (y / 4) * 3000);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 16, 16, 0, GL_DEPTH_COMPONENT,
               GL_UNSIGNED_SHORT, depth.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  GLint v = -1;
  glGetTexParameteriv(GL_TEXTURE_2D, kMode, &v);
  gLog << "compare mode 0x" << std::hex << v;
  glGetTexParameteriv(GL_TEXTURE_2D, kFunc, &v);
  gLog << " func 0x" << v << std::dec << "\n";
  glTexParameteri(GL_TEXTURE_2D, kMode, GL_LEQUAL);
  logError("bad compare mode");
  glTexParameteri(GL_TEXTURE_2D, kFunc, GL_RGBA);
  logError("bad compare func");
  glTexParameteri(GL_TEXTURE_2D, kMode, kRefToTexture);
  glTexParameteri(GL_TEXTURE_2D, kFunc, GL_GEQUAL);
  logError("compare on");
  // Mesa's GLES contexts compile GLSL ES 3.00 but do not offer EXT_shadow_samplers' GLSL ES 1.00
  // functions, so the lookups are GLSL ES 3.00's (tests/api/gles2_shadow_test.cpp covers
  // shadow2DEXT).
  const GLuint p = program(
      "#version 300 es\nin vec4 a_pos; in vec4 a_color; out vec2 uv;\n"
      "void main() { gl_Position = a_pos; uv = a_pos.xy * 0.5 + 0.5; }\n",
      "#version 300 es\n"
      "precision highp float; uniform lowp sampler2DShadow d; in vec2 uv; out vec4 color;\n"
      "void main() {\n"
      "  float ref = 0.1 + 0.77 * uv.y + 0.013 * uv.x;\n"
      "  float a = texture(d, vec3(uv, ref));\n"
      "  float b = textureProj(d, vec4(uv * 1.5, ref * 1.5, 1.5));\n"
      "  color = vec4(a, b, uv.x < 0.5 ? 1.0 : 0.0, 1.0);\n"
      "}\n");
  glUseProgram(p);
  const float quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, quad);
  glEnableVertexAttribArray(0);
  glDisableVertexAttribArray(1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glViewport(0, 0, kW / 2, kH);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glViewport(kW / 2, 0, kW / 2, kH);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glViewport(0, 0, kW, kH);
  logError("shadow draws");
}

// OES_texture_3D: a 3D texture whose slices differ, drawn through texture3D (nearest, then linear
// across slices), a slice replaced by glTexSubImage3DOES, mipmaps that halve the depth, and the
// errors and queries of the extension.
void sceneTexture3D() {
  constexpr GLenum kTexture3D = 0x806F, kBinding = 0x806A, kWrapR = 0x8072;
  using TexImage3D = void (*)(GLenum, GLint, GLenum, GLsizei, GLsizei, GLsizei, GLint, GLenum,
                              GLenum, const void*);
  using TexSubImage3D = void (*)(GLenum, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei,
                                 GLenum, GLenum, const void*);
  const auto texImage3D = reinterpret_cast<TexImage3D>(eglGetProcAddress("glTexImage3DOES"));
  const auto texSubImage3D =
      reinterpret_cast<TexSubImage3D>(eglGetProcAddress("glTexSubImage3DOES"));
  gLog << "entry points " << (texImage3D != nullptr) << (texSubImage3D != nullptr) << "\n";
  if (!texImage3D || !texSubImage3D) return;
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(kTexture3D, tex);
  GLint bound = 0;
  glGetIntegerv(kBinding, &bound);
  gLog << "bound " << (bound == static_cast<GLint>(tex)) << "\n";
  std::vector<uint8_t> texels;
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        texels.insert(texels.end(), {static_cast<uint8_t>(x * 32), static_cast<uint8_t>(y * 32),
                                     static_cast<uint8_t>(z * 80), 255});
  texImage3D(kTexture3D, 0, GL_RGBA, 8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  logError("teximage3d");
  texImage3D(kTexture3D, 0, GL_RGBA, 8, 8, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  logError("teximage3d border");
  texImage3D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  logError("teximage3d target");
  glTexParameteri(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(kTexture3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(kTexture3D, kWrapR, GL_CLAMP_TO_EDGE);
  GLint wrap = 0;
  glGetTexParameteriv(kTexture3D, kWrapR, &wrap);
  gLog << "wrap r 0x" << std::hex << wrap << std::dec << "\n";
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec3 uvw;\n"
      "void main() { gl_Position = a_pos; uvw = vec3(a_pos.xy * 0.5 + 0.5, 0.0);\n"
      "  uvw.z = uvw.x * 0.6 + uvw.y * 0.55 - 0.05; }\n",
      "#extension GL_OES_texture_3D : require\n"
      "precision highp float; uniform lowp sampler3D t; varying vec3 uvw;\n"
      "void main() { gl_FragColor = texture3D(t, uvw); }\n");
  glUseProgram(p);
  const float quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, quad);
  glEnableVertexAttribArray(0);
  glDisableVertexAttribArray(1);
  glViewport(0, 0, kW / 3, kH);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  const std::vector<uint8_t> red(8 * 8 * 4, 200);
  texSubImage3D(kTexture3D, 0, 0, 0, 2, 8, 8, 1, GL_RGBA, GL_UNSIGNED_BYTE, red.data());
  logError("texsubimage3d");
  glTexParameteri(kTexture3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glViewport(kW / 3, 0, kW / 3, kH);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glGenerateMipmap(kTexture3D);
  logError("mipmap");
  glTexParameteri(kTexture3D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glViewport(2 * kW / 3, 0, kW / 3, kH);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glViewport(0, 0, kW, kH);
  logError("3d draws");
}

// Compressed textures filtered through the whole stack: an 8x8 ETC2 texture (any 64 bits are a
// valid ETC2 block) magnified with LINEAR and REPEAT over two periods, and an 8x8 ASTC 4x4
// texture of void-extent blocks blended across its block edges. Also the format queries.
void sceneCompressedFilter() {
  const GLuint p = textureProgram();
  glUseProgram(p);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  GLint count = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &count);
  std::vector<GLint> formats(static_cast<size_t>(count));
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, formats.data());
  for (GLint f : {0x8D64, 0x9274, 0x93B0})
    gLog << std::hex << "format 0x" << f << std::dec << " listed "
         << (std::find(formats.begin(), formats.end(), f) != formats.end()) << "\n";
  uint32_t state = 12345;
  std::vector<unsigned char> etc(32);
  for (unsigned char& b : etc)
    b = static_cast<unsigned char>((state = state * 1664525u + 1013904223u) >> 24);
  GLuint tex[2];
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, 0x9274, 8, 8, 0, 32, etc.data());
  logError("ETC2 image");
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  const float uv2[] = {0, 0, 0, 0, 2, 0, 0, 0, 2, 2, 0, 0, 0, 2, 0, 0};
  const float left[] = {-1, -1, 0, -1, 0, 1, -1, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, left);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, uv2);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  std::vector<unsigned char> astc;
  for (int b = 0; b < 4; ++b) {
    unsigned char blk[16] = {0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const uint16_t c[4] = {static_cast<uint16_t>(0x3000 + 0x3000 * b),
                           static_cast<uint16_t>(0xf000 - 0x2800 * b), 0x8080,
                           static_cast<uint16_t>(0xffff - 0x1000 * b)};
    std::memcpy(blk + 8, c, 8);
    astc.insert(astc.end(), blk, blk + 16);
  }
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, 0x93B0, 8, 8, 0, 64, astc.data());
  logError("ASTC image");
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  const float uv1[] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0};
  const float right[] = {0, -1, 1, -1, 1, 1, 0, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, right);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, uv1);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  logError("draw");
}

// OES_texture_float / OES_texture_half_float (and _linear): every base format as FLOAT and
// HALF_FLOAT_OES, nearest and linear, values beyond [0, 1] saturating when written; a float
// the extension strings and a format/type mismatch.
void sceneFloatTextures() {
  const char* ext = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  for (const char* e : {"GL_OES_texture_float", "GL_OES_texture_half_float",
                        "GL_OES_texture_float_linear", "GL_OES_texture_half_float_linear"})
    gLog << e << " " << (std::strstr(ext, e) != nullptr) << "\n";
  const GLuint p = textureProgram();
  glUseProgram(p);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  const GLenum formats[] = {GL_RGBA, GL_RGB, GL_LUMINANCE_ALPHA, GL_LUMINANCE, GL_ALPHA};
  const int channels[] = {4, 3, 2, 1, 1};
  // 4x4 texels per format, values -0.5 .. 1.5 so that filtering crosses the clamp.
  for (int half = 0; half < 2; ++half)
    for (int k = 0; k < 5; ++k) {
      GLuint t = 0;
      glGenTextures(1, &t);
      glBindTexture(GL_TEXTURE_2D, t);
      std::vector<float> v;
      std::vector<uint16_t> h;
      for (int i = 0; i < 16 * channels[k]; ++i) {
        const float x = -0.5f + 2.0f * float((i * 7 + k * 3) % 16) / 15.0f;
        v.push_back(x);
        // Binary16 of x, rounded to the nearest multiple of 2^-10 of its binade (x is a multiple of
        // 2/15, not exact): truncation is fine, both stacks read the same halves.
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        const int exp = int((bits >> 23) & 0xff) - 112;
        h.push_back(x == 0.0f || exp <= 0
                        ? uint16_t((bits >> 16) & 0x8000)
                        : uint16_t(((bits >> 16) & 0x8000) | exp << 10 | ((bits >> 13) & 0x3ff)));
      }
      glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(formats[k]), 4, 4, 0, formats[k],
                   half ? 0x8D61 : GL_FLOAT, half ? static_cast<const void*>(h.data()) : v.data());
      logError(half ? "half image" : "float image");
      const GLint filter = k % 2 ? GL_NEAREST : GL_LINEAR;
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      const float x0 = -1.0f + 0.4f * float(k), y0 = half ? 0.0f : -1.0f;
      drawTexturedRect(x0, y0, x0 + 0.4f, y0 + 1.0f);
    }
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, 1, 1, 0, GL_RGBA, GL_FLOAT, nullptr);
  logError("format mismatch");
  // (DEPTH_COMPONENT with FLOAT is left out: OES_depth_texture allows only UNSIGNED_SHORT and
  // UNSIGNED_INT, but Mesa accepts it; gles2_float_texture_test checks Tessera's error.)
}

// EXT_occlusion_query_boolean: a visible draw, an occluded one, nested states, availability,
// and the errors; the results and errors are logged for both stacks.
void sceneOcclusionQuery() {
  constexpr GLenum kAny = 0x8C2F, kConservative = 0x8D6A, kCurrent = 0x8865, kResult = 0x8866,
                   kAvailable = 0x8867;
  using GenQueries = void (*)(GLsizei, GLuint*);
  using BeginQuery = void (*)(GLenum, GLuint);
  using EndQuery = void (*)(GLenum);
  using GetQueryiv = void (*)(GLenum, GLenum, GLint*);
  using GetQueryObjectuiv = void (*)(GLuint, GLenum, GLuint*);
  using IsQuery = GLboolean (*)(GLuint);
  const auto gen = reinterpret_cast<GenQueries>(eglGetProcAddress("glGenQueriesEXT"));
  const auto begin = reinterpret_cast<BeginQuery>(eglGetProcAddress("glBeginQueryEXT"));
  const auto end = reinterpret_cast<EndQuery>(eglGetProcAddress("glEndQueryEXT"));
  const auto getiv = reinterpret_cast<GetQueryiv>(eglGetProcAddress("glGetQueryivEXT"));
  const auto get = reinterpret_cast<GetQueryObjectuiv>(eglGetProcAddress("glGetQueryObjectuivEXT"));
  const auto isQuery = reinterpret_cast<IsQuery>(eglGetProcAddress("glIsQueryEXT"));
  const char* ext = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  gLog << "extension " << (std::strstr(ext, "GL_EXT_occlusion_query_boolean") != nullptr)
       << " entry points " << (gen && begin && end && getiv && get && isQuery) << "\n";
  if (!gen || !begin || !end || !getiv || !get || !isQuery) return;
  const GLuint p = program(
      "attribute vec4 a_pos; void main() { gl_Position = a_pos; }\n",
      "precision mediump float; void main() { gl_FragColor = vec4(0.9, 0.5, 0.1, 1.0); }\n");
  glUseProgram(p);
  glEnableVertexAttribArray(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  GLuint q[3];
  gen(3, q);
  gLog << "is query before begin " << int(isQuery(q[0])) << "\n";
  const float nearQuad[] = {-0.8f, -0.8f, -0.5f, 0.5f,  -0.8f, -0.5f,
                            0.5f,  0.5f,  -0.5f, -0.8f, 0.5f,  -0.5f};
  const float farQuad[] = {-0.6f, -0.6f, 0.5f, 0.3f,  -0.6f, 0.5f,
                           0.3f,  0.3f,  0.5f, -0.6f, 0.3f,  0.5f};
  begin(kAny, q[0]);
  GLint current = 0;
  getiv(kAny, kCurrent, &current);
  gLog << "current is q0 " << (current == GLint(q[0])) << "\n";
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nearQuad);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  end(kAny);
  begin(kConservative, q[1]);  // behind the first quad everywhere
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, farQuad);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  end(kConservative);
  begin(kAny, q[2]);  // nothing drawn
  end(kAny);
  logError("queries");
  GLuint v[3] = {7, 7, 7};
  for (int i = 0; i < 3; ++i) get(q[i], kResult, &v[i]);
  gLog << "results " << v[0] << " " << v[1] << " " << v[2] << "\n";
  GLuint available = 0;
  get(q[0], kAvailable, &available);
  gLog << "available " << available << " is query " << int(isQuery(q[0])) << "\n";
  begin(kAny, 0);
  logError("begin 0");
  begin(GL_TEXTURE_2D, q[0]);
  logError("begin bad target");
  end(kAny);
  logError("end without begin");
  begin(kConservative, q[0]);
  logError("begin with another target");
  get(q[0], GL_TEXTURE_2D, &available);
  logError("get bad pname");
  glDisable(GL_DEPTH_TEST);
}

// EXT_disjoint_timer_query: an elapsed time around a draw, timestamps across a flush, the GL
// clock, the counter bits, the disjoint flag and the errors. Times differ between GPUs, so only
// their relations (non-zero, ordered) are logged.
void sceneTimerQuery() {
  constexpr GLenum kCurrent = 0x8865, kResult = 0x8866, kAvailable = 0x8867, kBits = 0x8864,
                   kTimeElapsed = 0x88BF, kTimestamp = 0x8E28, kDisjoint = 0x8FBB,
                   kAnySamples = 0x8C2F;
  using GenQueries = void (*)(GLsizei, GLuint*);
  using BeginQuery = void (*)(GLenum, GLuint);
  using EndQuery = void (*)(GLenum);
  using QueryCounter = void (*)(GLuint, GLenum);
  using GetQueryiv = void (*)(GLenum, GLenum, GLint*);
  using GetQueryObjectui64v = void (*)(GLuint, GLenum, GLuint64*);
  using GetInteger64v = void (*)(GLenum, GLint64*);
  const auto gen = reinterpret_cast<GenQueries>(eglGetProcAddress("glGenQueriesEXT"));
  const auto begin = reinterpret_cast<BeginQuery>(eglGetProcAddress("glBeginQueryEXT"));
  const auto end = reinterpret_cast<EndQuery>(eglGetProcAddress("glEndQueryEXT"));
  const auto counter = reinterpret_cast<QueryCounter>(eglGetProcAddress("glQueryCounterEXT"));
  const auto getiv = reinterpret_cast<GetQueryiv>(eglGetProcAddress("glGetQueryivEXT"));
  const auto get =
      reinterpret_cast<GetQueryObjectui64v>(eglGetProcAddress("glGetQueryObjectui64vEXT"));
  const auto get64 = reinterpret_cast<GetInteger64v>(eglGetProcAddress("glGetInteger64vEXT"));
  const char* ext = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  const bool all = gen && begin && end && counter && getiv && get && get64;
  gLog << "extension " << (std::strstr(ext, "GL_EXT_disjoint_timer_query") != nullptr)
       << " entry points " << all << "\n";
  if (!all) return;
  GLint disjoint = 7;
  glGetIntegerv(kDisjoint, &disjoint);  // clears it
  const GLuint p = program(
      "attribute vec4 a_pos; void main() { gl_Position = a_pos; }\n",
      "precision mediump float; void main() { gl_FragColor = vec4(0.2, 0.6, 0.9, 1.0); }\n");
  glUseProgram(p);
  glEnableVertexAttribArray(0);
  const float quad[] = {-0.9f, -0.9f, 0.9f, -0.9f, 0.9f, 0.9f, -0.9f, 0.9f};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
  glClear(GL_COLOR_BUFFER_BIT);
  GLint bits[3] = {};
  getiv(kTimeElapsed, kBits, &bits[0]);
  getiv(kTimestamp, kBits, &bits[1]);
  getiv(kAnySamples, kBits, &bits[2]);
  gLog << "counter bits " << bits[0] << " " << bits[1] << " " << bits[2] << "\n";
  GLuint q[4];
  gen(4, q);
  begin(kTimeElapsed, q[0]);
  GLint current = 0;
  getiv(kTimeElapsed, kCurrent, &current);
  gLog << "current is q0 " << (current == GLint(q[0])) << "\n";
  for (int i = 0; i < 4; ++i) glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  end(kTimeElapsed);
  counter(q[1], kTimestamp);
  glFlush();
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  counter(q[2], kTimestamp);
  logError("queries");
  glFinish();
  GLuint64 v[3] = {}, available = 0;
  get(q[0], kAvailable, &available);
  for (int i = 0; i < 3; ++i) get(q[i], kResult, &v[i]);
  GLint64 now = 0;
  get64(kTimestamp, &now);
  gLog << "available " << available << " elapsed > 0 " << (v[0] > 0) << " t1 > 0 " << (v[1] > 0)
       << " t1 < t2 " << (v[1] < v[2]) << " clock >= t2 " << (GLuint64(now) >= v[2]) << "\n";
  getiv(kTimestamp, kCurrent, &current);
  glGetIntegerv(kDisjoint, &disjoint);
  gLog << "timestamp current " << current << " disjoint " << disjoint << "\n";
  logError("results");
  begin(kTimestamp, q[3]);
  logError("begin timestamp");
  counter(q[3], kTimeElapsed);
  logError("counter with time elapsed");
  counter(0, kTimestamp);
  logError("counter 0");
  end(kTimeElapsed);
  logError("end without begin");
  begin(kTimeElapsed, q[3]);
  begin(kTimeElapsed, q[0]);
  logError("begin while active");
  counter(q[3], kTimestamp);
  logError("counter on the active query");
  end(kTimeElapsed);
  begin(kTimeElapsed, q[1]);
  logError("begin a timestamp query");
  counter(q[0], kTimestamp);
  logError("counter on a time-elapsed query");
  get(q[0], GL_TEXTURE_2D, &available);
  logError("get bad pname");
  getiv(kTimeElapsed, kResult, &current);
  logError("getiv bad pname");
}

// 4x multisampling (EGL_SAMPLES 4): slanted edges resolve to intermediate colours, depth is
// tested per sample, and the multisample state answers as GLES2 §4.1.3 says.
void sceneMultisample() {
  GLint samples = -1, buffers = -1;
  glGetIntegerv(GL_SAMPLES, &samples);
  glGetIntegerv(GL_SAMPLE_BUFFERS, &buffers);
  gLog << "samples " << samples << " sample buffers " << buffers << "\n";
  const GLuint p = program(
      "attribute vec4 a_pos; attribute vec4 a_color; varying vec4 c;\n"
      "void main() { gl_Position = a_pos; c = a_color; }\n",
      "precision mediump float; varying vec4 c; void main() { gl_FragColor = c; }\n");
  glUseProgram(p);
  glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  // Two triangles crossing in depth, with long slanted edges.
  const float pos[] = {-0.9f, -0.85f, 0.5f,  0.85f, -0.6f, -0.5f, -0.2f, 0.9f,  0.0f,
                       -0.8f, 0.7f,   -0.5f, 0.9f,  0.2f,  0.5f,  0.1f,  -0.9f, 0.5f};
  const float col[] = {1,    0.2f, 0.2f, 1, 1,    0.2f, 0.2f, 1, 1,    0.2f, 0.2f, 1,
                       0.2f, 1,    0.4f, 1, 0.2f, 1,    0.4f, 1, 0.2f, 1,    0.4f, 1};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, pos);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  logError("draw");
  glDisable(GL_DEPTH_TEST);
  // A thin sliver: sub-pixel coverage all along it.
  const float sliver[] = {-0.95f, 0.95f, 0, 0.95f, 0.80f, 0, 0.95f, 0.83f, 0};
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, sliver);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  logError("draw sliver");
  glSampleCoverage(1.5f, GL_TRUE);  // clamped to [0, 1]
  GLfloat value = 0;
  GLboolean invert = GL_FALSE;
  glGetFloatv(GL_SAMPLE_COVERAGE_VALUE, &value);
  glGetBooleanv(GL_SAMPLE_COVERAGE_INVERT, &invert);
  gLog << "coverage " << value << " invert " << int(invert) << " enabled "
       << int(glIsEnabled(GL_SAMPLE_COVERAGE)) << int(glIsEnabled(GL_SAMPLE_ALPHA_TO_COVERAGE))
       << "\n";
  glSampleCoverage(1.0f, GL_FALSE);
  // A framebuffer object has no samples.
  GLuint fbo = 0, rb = 0;
  glGenFramebuffers(1, &fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, 8, 8);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  glGetIntegerv(GL_SAMPLES, &samples);
  glGetIntegerv(GL_SAMPLE_BUFFERS, &buffers);
  gLog << "fbo samples " << samples << " sample buffers " << buffers << "\n";
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  logError("fbo");
}

struct Scene {
  const char* name;
  void (*draw)();
  EGLint samples = 0;  // the pbuffer config's EGL_SAMPLES
};
constexpr Scene kScenes[] = {
    {"triangles", sceneTriangles},
    {"textured", sceneTextured},
    {"errors", sceneErrors},
    {"state", sceneState},
    {"framebuffer", sceneFramebuffer},
    {"depth-texture", sceneDepthTexture},
    {"copy-texture", sceneCopyTexture},
    {"points", scenePoints},
    {"lines", sceneLines},
    {"polygon-offset", scenePolygonOffset},
    {"readback-formats", sceneReadbackFormats},
    {"rendered-mipmaps", sceneRenderedMipmaps},
    {"shadow-samplers", sceneShadowSamplers},
    {"texture-3d", sceneTexture3D},
    {"compressed-filter", sceneCompressedFilter},
    {"float-textures", sceneFloatTextures},
    {"occlusion-query", sceneOcclusionQuery},
    {"timer-query", sceneTimerQuery},
    {"multisample", sceneMultisample, 4},
};

}  // namespace

int main(int argc, char** argv) {
  const Scene* scene = nullptr;
  for (const Scene& s : kScenes)
    if (argc == 4 && std::strcmp(argv[1], s.name) == 0) scene = &s;
  if (scene == nullptr) {
    std::string names;
    for (const Scene& s : kScenes) names += (names.empty() ? "" : "|") + std::string(s.name);
    std::fprintf(stderr, "usage: gl-check %s OUT.png OUT.txt\n", names.c_str());
    return 2;
  }
  tessera::test::PbufferContext egl = tessera::test::makePbufferContext(kW, kH, scene->samples);
  if (!egl.error.empty()) {
    std::fprintf(stderr, "gl-check: %s\n", egl.error.c_str());
    return 1;
  }
  gLog.open(argv[3]);
  scene->draw();
  tessera::Image img = tessera::Image::blank(kW, kH);
  std::vector<unsigned char> px(kW * kH * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, kW, kH, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  logError("read pixels");
  for (int y = 0; y < kH; ++y)
    std::memcpy(img.pixel(0, static_cast<uint32_t>(y)), &px[(kH - 1 - y) * kW * 4], kW * 4);
  tessera::writePng(img, argv[2]);
  tessera::test::destroyPbufferContext(egl);
  return 0;
}
