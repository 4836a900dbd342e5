// A GLES 2.0 context: the GL state machine (GLES 2.0 §2-§6) over a pipe context. GL calls
// validate their arguments and record errors as the spec says (glGetError); draws, clears and
// reads turn the current state into pipe state and pipe calls, which the driver records into
// the batch of the bound framebuffer.
#pragma once
#include <GLES2/gl2.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/gles2/gl_objects.h"
#include "driver/context.h"
#include "gpu/device.h"

namespace tessera::gles2 {

// What a context renders into when no framebuffer object is bound (an EGL surface).
struct DefaultFramebuffer {
  pipe::ResourceId color = pipe::kNoResource, depth = pipe::kNoResource;
  uint32_t width = 0, height = 0;
  int redBits = 8, greenBits = 8, blueBits = 8, alphaBits = 8, depthBits = 24, stencilBits = 8;
  int samples = 0;  // EGL_SAMPLES of the surface's config (0: single sample)
};

inline constexpr int kMaxTextureUnits = 16;

// How a context was created for GL_EXT_robustness (EGL_EXT_create_context_robustness).
struct Robustness {
  bool loseContextOnReset = false;  // RESET_NOTIFICATION_STRATEGY: LOSE_CONTEXT_ON_RESET_EXT
  bool robustAccess = false;        // CONTEXT_ROBUST_ACCESS_EXT
};

class Context final {
 public:
  Context(kmd::Device& kernel, driver::DriverOptions options);
  ~Context();

  void setDefaultFramebuffer(const DefaultFramebuffer& fb);
  const DefaultFramebuffer& defaultFramebuffer() const { return default_; }
  driver::Context& pipe() { return pipe_; }

  // Errors (§2.5): the first error since the last glGetError is kept.
  void error(GLenum e) {
    if (error_ == GL_NO_ERROR) error_ = e;
  }
  GLenum takeError() {
    const GLenum e = error_;
    error_ = GL_NO_ERROR;
    return e;
  }

  // State (gl_state.cpp).
  void enable(GLenum cap, bool on);
  GLboolean isEnabled(GLenum cap);
  void viewport(GLint x, GLint y, GLsizei w, GLsizei h);
  void scissor(GLint x, GLint y, GLsizei w, GLsizei h);
  void depthRange(float n, float f);
  void clearColor(float r, float g, float b, float a) { clearColor_ = {r, g, b, a}; }
  void clearDepth(float d) { clearDepth_ = std::clamp(d, 0.0f, 1.0f); }
  void clearStencil(GLint s) { clearStencil_ = s; }
  void colorMask(bool r, bool g, bool b, bool a);
  void depthMask(bool on) { dsa_.depthWrite = on; }
  void depthFunc(GLenum f);
  void stencilFunc(GLenum face, GLenum func, GLint ref, GLuint mask);
  void stencilOp(GLenum face, GLenum fail, GLenum zfail, GLenum zpass);
  void stencilMask(GLenum face, GLuint mask);
  void blendFunc(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha, GLenum dstAlpha);
  void blendEquation(GLenum rgb, GLenum alpha);
  void blendColor(float r, float g, float b, float a);
  void cullFace(GLenum mode);
  void frontFace(GLenum mode);
  void pixelStore(GLenum pname, GLint value);
  void lineWidth(float w);
  void polygonOffset(float factor, float units);
  void hint(GLenum target, GLenum mode);
  void sampleCoverage(float value, bool invert);

  // Buffers (gl_buffers.cpp).
  void genBuffers(GLsizei n, GLuint* names);
  void deleteBuffers(GLsizei n, const GLuint* names);
  void bindBuffer(GLenum target, GLuint name);
  void bufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage);
  void bufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data);
  GLboolean isBuffer(GLuint name);
  void* mapBuffer(GLenum target, GLenum access);  // OES_mapbuffer
  GLboolean unmapBuffer(GLenum target);
  void getBufferPointer(GLenum target, GLenum pname, void** out);
  void getBufferParameter(GLenum target, GLenum pname, GLint* out);

  // Textures (gl_textures.cpp).
  void genTextures(GLsizei n, GLuint* names);
  void deleteTextures(GLsizei n, const GLuint* names);
  void bindTexture(GLenum target, GLuint name);
  void activeTexture(GLenum unit);
  void texImage2D(GLenum target, GLint level, GLint internalFormat, GLsizei w, GLsizei h,
                  GLint border, GLenum format, GLenum type, const void* pixels);
  void texSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
                     GLenum format, GLenum type, const void* pixels);
  // ETC1, ETC2/EAC and ASTC LDR images (api/gles2/gl_compressed_formats.h), kept as blocks.
  void compressedTexImage2D(GLenum target, GLint level, GLenum internalFormat, GLsizei w, GLsizei h,
                            GLint border, GLsizei imageSize, const void* data);
  void compressedTexSubImage2D(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
                               GLenum format, GLsizei imageSize, const void* data);
  void copyTexImage2D(GLenum target, GLint level, GLenum internalFormat, GLint x, GLint y,
                      GLsizei w, GLsizei h, GLint border);
  void copyTexSubImage2D(GLenum target, GLint level, GLint xoff, GLint yoff, GLint x, GLint y,
                         GLsizei w, GLsizei h);
  // OES_texture_3D (gl_textures.cpp): 3D images, their updates and framebuffer slices.
  void texImage3D(GLenum target, GLint level, GLint internalFormat, GLsizei w, GLsizei h, GLsizei d,
                  GLint border, GLenum format, GLenum type, const void* pixels);
  void texSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
                     GLsizei d, GLenum format, GLenum type, const void* pixels);
  void copyTexSubImage3D(GLenum target, GLint level, GLint xoff, GLint yoff, GLint zoff, GLint x,
                         GLint y, GLsizei w, GLsizei h);
  void compressedTexImage3D(GLenum target, GLint level, GLsizei w, GLsizei h, GLsizei d,
                            GLint border, GLsizei imageSize);
  void compressedTexSubImage3D(GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                               GLsizei h, GLsizei d, GLsizei imageSize);
  void framebufferTexture3D(GLenum target, GLenum attachment, GLenum texTarget, GLuint texture,
                            GLint level, GLint zoffset);
  void texParameter(GLenum target, GLenum pname, GLint value);
  // The float forms: TEXTURE_MAX_ANISOTROPY_EXT keeps its fraction; other parameters are the
  // integer forms' (enums).
  void texParameterf(GLenum target, GLenum pname, GLfloat value);
  void getTexParameter(GLenum target, GLenum pname, GLint* out);
  void getTexParameterf(GLenum target, GLenum pname, GLfloat* out);
  void generateMipmap(GLenum target);
  GLboolean isTexture(GLuint name);

  // Framebuffer and renderbuffer objects (gl_framebuffers.cpp, GLES 2.0 §4.4).
  void genFramebuffers(GLsizei n, GLuint* names);
  void deleteFramebuffers(GLsizei n, const GLuint* names);
  void bindFramebuffer(GLenum target, GLuint name);
  void framebufferTexture2D(GLenum target, GLenum attachment, GLenum texTarget, GLuint texture,
                            GLint level);
  void framebufferRenderbuffer(GLenum target, GLenum attachment, GLenum rbTarget, GLuint rb);
  GLenum checkFramebufferStatus(GLenum target);
  void getFramebufferAttachmentParameter(GLenum target, GLenum attachment, GLenum pname,
                                         GLint* out);
  GLboolean isFramebuffer(GLuint name);
  void genRenderbuffers(GLsizei n, GLuint* names);
  void deleteRenderbuffers(GLsizei n, const GLuint* names);
  void bindRenderbuffer(GLenum target, GLuint name);
  void renderbufferStorage(GLenum target, GLenum format, GLsizei w, GLsizei h);
  void getRenderbufferParameter(GLenum target, GLenum pname, GLint* out);
  GLboolean isRenderbuffer(GLuint name);

  // Shaders and programs (gl_programs.cpp).
  GLuint createShader(GLenum type);
  void shaderSource(GLuint shader, GLsizei count, const GLchar* const* strings,
                    const GLint* lengths);
  void compileShader(GLuint shader);
  void getShaderiv(GLuint shader, GLenum pname, GLint* out);
  void getShaderInfoLog(GLuint shader, GLsizei size, GLsizei* length, GLchar* log);
  void getShaderSource(GLuint shader, GLsizei size, GLsizei* length, GLchar* source);
  void deleteShader(GLuint shader);
  GLuint createProgram();
  void attachShader(GLuint program, GLuint shader);
  void detachShader(GLuint program, GLuint shader);
  void bindAttribLocation(GLuint program, GLuint index, const GLchar* name);
  void linkProgram(GLuint program);
  void useProgram(GLuint program);
  void deleteProgram(GLuint program);
  void validateProgram(GLuint program);
  void getProgramiv(GLuint program, GLenum pname, GLint* out);
  void getProgramInfoLog(GLuint program, GLsizei size, GLsizei* length, GLchar* log);
  GLint getAttribLocation(GLuint program, const GLchar* name);
  GLint getUniformLocation(GLuint program, const GLchar* name);
  void getActiveAttrib(GLuint program, GLuint index, GLsizei size, GLsizei* length, GLint* count,
                       GLenum* type, GLchar* name);
  void getActiveUniform(GLuint program, GLuint index, GLsizei size, GLsizei* length, GLint* count,
                        GLenum* type, GLchar* name);
  void getAttachedShaders(GLuint program, GLsizei max, GLsizei* count, GLuint* shaders);
  // glUniform{1234}{fi}v and glUniformMatrix{234}fv: `components` per element, `count` elements.
  void uniform(GLint location, GLsizei count, int components, const float* f, const GLint* i);
  void uniformMatrix(GLint location, GLsizei count, int columns, GLboolean transpose,
                     const float* values);
  void getUniform(GLuint program, GLint location, float* f, GLint* i);
  GLboolean isShader(GLuint name) { return shaders_.find(name) != nullptr; }
  GLboolean isProgram(GLuint name) { return programs_.find(name) != nullptr; }

  // Vertex arrays and drawing (gl_draw.cpp).
  void vertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean normalized,
                           GLsizei stride, const void* pointer);
  void enableVertexAttribArray(GLuint index, bool on);
  void vertexAttrib(GLuint index, const float* values, int n);
  void genVertexArrays(GLsizei n, GLuint* names);
  void deleteVertexArrays(GLsizei n, const GLuint* names);
  void bindVertexArray(GLuint name);
  GLboolean isVertexArray(GLuint name);

  // Query objects: EXT_occlusion_query_boolean and EXT_disjoint_timer_query
  // (gl_query_objects.cpp).
  void genQueries(GLsizei n, GLuint* names);
  void deleteQueries(GLsizei n, const GLuint* names);
  GLboolean isQuery(GLuint name);
  void beginQuery(GLenum target, GLuint name);
  void endQuery(GLenum target);
  void queryCounter(GLuint name, GLenum target);
  void getQueryiv(GLenum target, GLenum pname, GLint* params);
  // glGetQueryObject{i,ui,i64,ui64}vEXT: a result too large for the type is clamped to its
  // maximum (the nearest representable value).
  void getQueryObjectiv(GLuint name, GLenum pname, GLint* params);
  void getQueryObjectuiv(GLuint name, GLenum pname, GLuint* params);
  void getQueryObjecti64v(GLuint name, GLenum pname, GLint64* params);
  void getQueryObjectui64v(GLuint name, GLenum pname, GLuint64* params);

  // Performance monitors, AMD_performance_monitor (gl_perf_monitors.cpp).
  void getPerfMonitorGroups(GLint* numGroups, GLsizei groupsSize, GLuint* groups);
  void getPerfMonitorCounters(GLuint group, GLint* numCounters, GLint* maxActiveCounters,
                              GLsizei countersSize, GLuint* counters);
  void getPerfMonitorGroupString(GLuint group, GLsizei bufSize, GLsizei* length, GLchar* text);
  void getPerfMonitorCounterString(GLuint group, GLuint counter, GLsizei bufSize, GLsizei* length,
                                   GLchar* text);
  void getPerfMonitorCounterInfo(GLuint group, GLuint counter, GLenum pname, void* data);
  void genPerfMonitors(GLsizei n, GLuint* names);
  void deletePerfMonitors(GLsizei n, const GLuint* names);
  void selectPerfMonitorCounters(GLuint monitor, GLboolean enable, GLuint group, GLint numCounters,
                                 const GLuint* counters);
  void beginPerfMonitor(GLuint monitor);
  void endPerfMonitor(GLuint monitor);
  void getPerfMonitorCounterData(GLuint monitor, GLenum pname, GLsizei dataSize, GLuint* data,
                                 GLint* bytesWritten);
  void getVertexAttrib(GLuint index, GLenum pname, float* f, GLint* i, void** pointer);
  void drawArrays(GLenum mode, GLint first, GLsizei count);
  void drawElements(GLenum mode, GLsizei count, GLenum type, const void* indices);
  void clear(GLbitfield mask);
  void readPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, void* data);
  void discardFramebuffer(GLenum target, GLsizei count, const GLenum* attachments);
  // eglSwapBuffers of a window: its depth and stencil buffers are undefined after the swap
  // (EGL 1.4 §3.9.1), so the frame need not resolve them nor the next frame restore them.
  void discardWindowAncillaryBuffers();
  void flush();
  void finish();

  // GL_EXT_robustness (gl_robustness.cpp).
  void setRobustness(const Robustness& r) { robustness_ = r; }
  const Robustness& robustness() const { return robustness_; }
  // The kernel found the context guilty of GPU faults and invalidated it: its draws, clears and
  // flushes are dropped quietly from then on.
  bool lost() const;
  // GUILTY/INNOCENT_CONTEXT_RESET_EXT once per reset the kernel reports, NO_ERROR otherwise.
  GLenum graphicsResetStatus();
  void readnPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
                   GLsizei bufSize, void* data);
  // glGetnUniform{f,i}vEXT: INVALID_OPERATION when the uniform needs more than bufSize bytes.
  void getnUniform(GLuint program, GLint location, GLsizei bufSize, float* f, GLint* i);

  // Queries (gl_queries.cpp).
  const GLubyte* getString(GLenum name);
  void getIntegerv(GLenum pname, GLint* out);
  void getFloatv(GLenum pname, GLfloat* out);
  void getBooleanv(GLenum pname, GLboolean* out);
  void getInteger64v(GLenum pname, GLint64* out);  // EXT_disjoint_timer_query
  void getShaderPrecisionFormat(GLenum shader, GLenum precision, GLint* range, GLint* bits);

 private:
  friend struct StateQuery;
  Buffer* boundBuffer(GLenum target);
  Texture* boundTexture(GLenum target);
  Program* program(GLuint name, bool mustBeProgram = true);  // sets INVALID_VALUE/OPERATION
  Shader* shader(GLuint name);
  void releaseShaderIfUnused(GLuint name);
  // What draws, clears and reads go to: the default framebuffer or the bound framebuffer object.
  struct Target {
    pipe::Framebuffer fb;
    GLenum status = GL_FRAMEBUFFER_COMPLETE;
    int red = 8, green = 8, blue = 8, alpha = 8, depth = 0, stencil = 0;
    int samples = 0;  // GL_SAMPLES: the window surface's; framebuffer objects have none
  };
  Target target();
  bool targetComplete();  // sets INVALID_FRAMEBUFFER_OPERATION when not
  bool readColor(GLint x, GLint y, GLsizei w, GLsizei h, size_t pitch, uint8_t* out);
  pipe::ResourceId textureView(Texture& t, uint32_t face, GLint level);
  pipe::ResourceId buildTexture(Texture& t);  // the pipe texture of every consistent level
  // Texels the GPU rendered into `t` (render to texture) back into its images, so that CPU-side
  // changes (image updates, mipmap generation) and rebuilds start from what the GPU drew.
  void syncTexels(Texture& t);
  bool prepareDraw(GLenum mode);  // program, textures and state into the pipe
  void applyState();              // blend, depth-stencil, rasterizer, scissor, viewport
  bool bindTextures(Program& p);
  pipe::ResourceId textureResource(Texture& t, bool& complete);
  bool bindAttributes(Program& p, uint32_t vertexCount, std::vector<pipe::ResourceId>& temps);

  gpu::Device& device_;
  driver::Context pipe_;
  DefaultFramebuffer default_;
  GLenum error_ = GL_NO_ERROR;

  NameTable<Buffer> buffers_;
  NameTable<Texture> textures_;
  NameTable<Shader> shaders_;
  NameTable<Program> programs_;
  NameTable<Framebuffer> framebuffers_;
  NameTable<Renderbuffer> renderbuffers_;
  GLuint boundFramebuffer_ = 0, boundRenderbuffer_ = 0;
  GLuint nextShaderOrProgram_ = 1;  // shaders and programs share one name space (§2.10.1)
  GLuint arrayBuffer_ = 0;
  GLuint currentProgram_ = 0;
  GLuint activeUnit_ = 0;
  std::array<GLuint, kMaxTextureUnits> bound2D_{}, boundCube_{}, bound3D_{};
  Texture default2D_{GL_TEXTURE_2D}, defaultCube_{GL_TEXTURE_CUBE_MAP}, default3D_{0x806F};
  // Vertex array objects (OES_vertex_array_object): name 0 is the context's own.
  NameTable<VertexArray> vertexArrays_;
  NameTable<QueryObject> queries_;
  // The running query of each kind: its name (0 once deleted), target and pipe query. One per
  // target (ES 3.0 §2.14), and both occlusion targets count samples, so they share one.
  struct ActiveQuery {
    GLuint name = 0;
    GLenum target = 0;
    pipe::QueryId query = 0;
  };
  std::array<ActiveQuery, kQueryKinds> activeQueries_{};  // by QueryKind
  ActiveQuery& activeQuery(QueryKind k) { return activeQueries_[static_cast<size_t>(k)]; }
  // The value of a query object's result or availability (pname), or nullopt after an error.
  std::optional<uint64_t> queryObjectValue(GLuint name, GLenum pname);
  // GL_TIMESTAMP_EXT and GL_GPU_DISJOINT_EXT, which the state tables do not hold.
  std::optional<int64_t> timerState(GLenum pname);
  NameTable<PerfMonitor> perfMonitors_;
  std::vector<PerfGroup> perfGroups_;  // made from the pipe's counter list at first use
  const std::vector<PerfGroup>& perfGroups();
  PerfMonitor* perfMonitor(GLuint name);  // sets INVALID_VALUE when there is none
  // Starts counting `m`'s selection in a fresh pipe query (none when nothing is selected).
  void startPerfMonitor(PerfMonitor& m);
  VertexArray defaultVertexArray_;
  GLuint boundVertexArray_ = 0;
  VertexArray& vao() {
    return boundVertexArray_ ? *vertexArrays_.find(boundVertexArray_) : defaultVertexArray_;
  }
  // Current attribute values (glVertexAttrib*) are context state, not vertex array state.
  std::array<std::array<float, 4>, kMaxAttribs> currentValues_{};

  pipe::BlendState blend_;
  pipe::DepthStencilAlphaState dsa_;
  bool cullEnabled_ = false, scissorEnabled_ = false, ditherEnabled_ = true;
  bool polygonOffsetFill_ = false;
  GLenum cullFace_ = GL_BACK, frontFace_ = GL_CCW;
  std::array<GLint, 4> viewport_{}, scissor_{};
  float depthNear_ = 0, depthFar_ = 1;
  std::array<float, 4> clearColor_{0, 0, 0, 0};
  float clearDepth_ = 1;
  GLint clearStencil_ = 0;
  GLint unpackAlignment_ = 4, packAlignment_ = 4;
  float lineWidth_ = 1, polygonFactor_ = 0, polygonUnits_ = 0;
  GLenum generateMipmapHint_ = GL_DONT_CARE;
  std::array<GLenum, 4> blendFuncs_{GL_ONE, GL_ZERO, GL_ONE, GL_ZERO};
  std::array<GLenum, 2> blendEquations_{GL_FUNC_ADD, GL_FUNC_ADD};
  std::array<std::string, 4> strings_;
  Robustness robustness_;
  kmd::ResetStatus reportedReset_ = kmd::ResetStatus::None;  // the last one reported
};

// The calling thread's current context (EGL's eglMakeCurrent sets it), or null.
Context* current();
void makeCurrent(Context* c);
// A GL entry point by name (eglGetProcAddress), or null.
void* procAddress(const char* name);

}  // namespace tessera::gles2
