// The GLES2 state machine on its own (no EGL): a context on an a630 device whose default
// framebuffer is an RGBA8 colour surface (and a D24S8 depth surface if asked), and the program
// building the state-machine tests share.
#pragma once
#include <gtest/gtest.h>

#include "api/gles2/gl_context.h"
#include "gpu/preset/preset.h"

namespace tessera::gles2 {

struct Gles2Fixture {
  Gles2Fixture(uint32_t width, uint32_t height, bool depth)
      : device(gpu::findPreset("adreno-a630")), gl(device, {}) {
    DefaultFramebuffer fb;
    fb.width = width, fb.height = height;
    fb.color = gl.pipe().createColorSurface(pipe::ColorFormat::RGBA8, width, height);
    if (depth) fb.depth = gl.pipe().createDepthSurface(pipe::DepthFormat::D24S8, width, height);
    gl.setDefaultFramebuffer(fb);
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
  gpu::Device device;
  Context gl;
};

}  // namespace tessera::gles2
