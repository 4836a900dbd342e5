// A small GLES2 program for `tessera run`'s tests, linked like any application against
// libEGL.so.1/libGLESv2.so.2 (whichever the loader finds): FRAMES frames on a 320x240 pbuffer with
// depth and stencil buffers, each cleared to blue with the top half drawn over F times in frame F
// (green in odd frames, red in even ones), then one more draw that is flushed but never swapped (a
// partial frame). Usage: gl_frames_program FRAMES [EXIT_CODE | term]
#include <EGL/egl.h>
#include <GLES2/gl2.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/egl_pbuffer.h"

namespace {

int die(const char* what) {
  std::fprintf(stderr, "gl_frames_program: %s failed (EGL 0x%x, GL 0x%x)\n", what, eglGetError(),
               glGetError());
  return 3;
}

GLuint shader(GLenum type, const char* source) {
  const GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int frames = std::atoi(argv[1]);
  tessera::test::PbufferContext egl = tessera::test::makePbufferContext(320, 240);
  if (!egl.error.empty()) {
    std::fprintf(stderr, "gl_frames_program: %s\n", egl.error.c_str());
    return 3;
  }

  const GLuint program = glCreateProgram();
  glAttachShader(program,
                 shader(GL_VERTEX_SHADER,
                        "attribute vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"));
  glAttachShader(program, shader(GL_FRAGMENT_SHADER,
                                 "precision mediump float;\nuniform vec4 color;\n"
                                 "void main() { gl_FragColor = color; }\n"));
  glBindAttribLocation(program, 0, "p");
  glLinkProgram(program);
  glUseProgram(program);
  const GLint color = glGetUniformLocation(program, "color");
  static const float topHalf[] = {-1, 0, 1, 0, -1, 1, 1, 1};
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, topHalf);
  glEnableVertexAttribArray(0);
  glViewport(0, 0, 320, 240);
  glClearColor(0, 0, 1, 1);

  for (int f = 1; f <= frames; ++f) {
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (f % 2)
      glUniform4f(color, 0, 1, 0, 1);
    else
      glUniform4f(color, 1, 0, 0, 1);
    for (int d = 0; d < f; ++d) glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    if (!eglSwapBuffers(egl.display, egl.surface)) return die("eglSwapBuffers");
  }
  // The partial frame: drawn and flushed (releasing the context flushes), never swapped.
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  if (glGetError() != GL_NO_ERROR) return die("drawing");
  tessera::test::destroyPbufferContext(egl);

  std::printf("gl_frames_program: %d frames\n", frames);
  std::fprintf(stderr, "gl_frames_program: done\n");
  std::fflush(nullptr);
  if (argc > 2 && std::strcmp(argv[2], "term") == 0) std::raise(SIGTERM);
  return argc > 2 ? std::atoi(argv[2]) : 0;
}
