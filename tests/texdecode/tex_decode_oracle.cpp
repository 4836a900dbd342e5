// tex-decode-oracle: the system GLES 3 implementation (Mesa's llvmpipe in the tests) as the
// reference decoder of compressed textures. For each job it uploads a compressed image with
// glCompressedTexImage2D, draws it 1:1 into an RGBA32F framebuffer with texelFetch (so no
// filtering or coordinate rounding takes part) and writes the texels as float RGBA, row 0 first.
//   tex-decode-oracle JOBS.txt
// Each line of JOBS.txt: FORMAT(hex GL enum) WIDTH HEIGHT IN.bin OUT.bin
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
// Mesa's driver keeps process-lifetime allocations LeakSanitizer cannot attribute.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}
#endif

namespace {

int fail(const char* what) {
  std::fprintf(stderr, "tex-decode-oracle: %s (EGL 0x%x, GL 0x%x)\n", what, eglGetError(),
               glGetError());
  return 1;
}

GLuint compile(GLenum stage, const char* src) {
  const GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  return s;
}

bool hasExtension(const char* list, const char* name) {
  return list != nullptr && std::strstr(list, name) != nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tex-decode-oracle JOBS.txt\n");
    return 2;
  }
  if (!hasExtension(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS),
                    "EGL_MESA_platform_surfaceless"))
    return fail("EGL_MESA_platform_surfaceless missing");
  auto getPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay display =
      getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr))
    return fail("eglInitialize");
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
                                  EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, configAttribs, &config, 1, &count) || count < 1)
    return fail("eglChooseConfig(ES3)");
  const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttribs);
  if (context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
    return fail("eglCreateContext(ES3)");

  const GLuint program = glCreateProgram();
  glAttachShader(program, compile(GL_VERTEX_SHADER,
                                  "#version 300 es\n"
                                  "in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }\n"));
  glAttachShader(program,
                 compile(GL_FRAGMENT_SHADER,
                         "#version 300 es\nprecision highp float; uniform highp sampler2D t;\n"
                         "out vec4 o;\n"
                         "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), 0); }\n"));
  glBindAttribLocation(program, 0, "p");
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return fail("link");
  glUseProgram(program);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, 1};
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);

  std::ifstream jobs(argv[1]);
  std::string in, out;
  unsigned format = 0;
  int width = 0, height = 0;
  while (jobs >> std::hex >> format >> std::dec >> width >> height >> in >> out) {
    std::ifstream file(in, std::ios::binary);
    const std::vector<char> data((std::istreambuf_iterator<char>(file)),
                                 std::istreambuf_iterator<char>());
    GLuint tex = 0, rb = 0, fbo = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, format, width, height, 0,
                           static_cast<GLsizei>(data.size()), data.data());
    if (glGetError() != GL_NO_ERROR) return fail(("upload of " + in).c_str());
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, width, height);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return fail("RGBA32F framebuffer incomplete");
    glViewport(0, 0, width, height);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    std::vector<float> texels(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_FLOAT, texels.data());
    if (glGetError() != GL_NO_ERROR) return fail("readback");
    std::ofstream(out, std::ios::binary)
        .write(reinterpret_cast<const char*>(texels.data()),
               static_cast<std::streamsize>(texels.size() * sizeof(float)));
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
    glDeleteTextures(1, &tex);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return 0;
}
