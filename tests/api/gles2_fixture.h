// The GLES2 state machine on its own (no EGL): a context on an a630 device whose default
// framebuffer is an RGBA8 colour surface (and a D24S8 depth surface if asked), and the program
// building the state-machine tests share.
#pragma once
#include <gtest/gtest.h>

#include <array>

#include "api/gles2/gl_context.h"
#include "gpu/preset/preset.h"

namespace tessera::gles2 {

struct Gles2Fixture {
  Gles2Fixture(uint32_t width, uint32_t height, bool depth)
      : device(gpu::findPreset("adreno-a630")), kernel(device), gl(kernel, {}) {
    DefaultFramebuffer fb;
    fb.width = width, fb.height = height;
    fb.color = gl.pipe().createColorSurface(pipe::ColorFormat::RGBA8, width, height);
    if (depth) fb.depth = gl.pipe().createDepthSurface(pipe::DepthFormat::D24S8, width, height);
    gl.setDefaultFramebuffer(fb);
  }
  GLenum err() { return gl.takeError(); }
  // A new texture bound to `target`, with both filters set to `filter`.
  GLuint texture(GLenum target = GL_TEXTURE_2D, GLenum filter = GL_NEAREST) {
    GLuint t = 0;
    gl.genTextures(1, &t);
    gl.bindTexture(target, t);
    gl.texParameter(target, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(filter));
    gl.texParameter(target, GL_TEXTURE_MAG_FILTER, static_cast<GLint>(filter));
    return t;
  }
  // Compiles and links the pair; `attribute0`, if given, is bound to location 0.
  GLuint program(const char* vs, const char* fs, const char* attribute0 = nullptr) {
    const GLuint v = gl.createShader(GL_VERTEX_SHADER), f = gl.createShader(GL_FRAGMENT_SHADER);
    gl.shaderSource(v, 1, &vs, nullptr);
    gl.shaderSource(f, 1, &fs, nullptr);
    gl.compileShader(v);
    gl.compileShader(f);
    const GLuint p = gl.createProgram();
    gl.attachShader(p, v);
    gl.attachShader(p, f);
    if (attribute0) gl.bindAttribLocation(p, 0, attribute0);
    gl.linkProgram(p);
    return p;
  }
  // Draws the bound 2D texture over the whole viewport (uv 0..1; texel centres on pixel centres
  // when the texture matches the window) and returns pixel (x, y).
  std::array<uint8_t, 4> drawTexture(int x, int y) {
    if (!texturedQuad_) {
      texturedQuad_ = program(
          "attribute vec4 pos; varying vec2 uv;\n"
          "void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }\n",
          "precision mediump float; uniform sampler2D t; varying vec2 uv;\n"
          "void main() { gl_FragColor = texture2D(t, uv); }\n",
          "pos");
    }
    gl.useProgram(texturedQuad_);
    static const std::array<float, 8> quad = {-1, -1, 1, -1, -1, 1, 1, 1};
    gl.vertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad.data());
    gl.enableVertexAttribArray(0, true);
    gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
    std::array<uint8_t, 4> px{};
    gl.readPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
    return px;
  }
  gpu::Device device;
  kmd::Device kernel;
  Context gl;

 private:
  GLuint texturedQuad_ = 0;
};

}  // namespace tessera::gles2
