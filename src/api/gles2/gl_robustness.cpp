// GL_EXT_robustness: the context's reset status from the kernel-mode layer, and the reads with a
// bound on what they write (glReadnPixelsEXT, glGetnUniform{f,i}vEXT).
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include "api/gles2/gl_context.h"

namespace tessera::gles2 {

bool Context::lost() const {
  try {
    return pipe_.resetStatus() == kmd::ResetStatus::Guilty;
  } catch (const std::exception&) {
    return false;  // the kernel does not know the context: nothing was lost
  }
}

// EXT_robustness, "Graphics Reset Recovery": with NO_RESET_NOTIFICATION_EXT no reset is ever
// reported. With LOSE_CONTEXT_ON_RESET_EXT each reset is reported once: the first call after the
// kernel found the context guilty (recovery gave up on its faults) or innocent (another
// context's fault made its work replay) returns that status, later calls NO_ERROR — the reset
// "was encountered and completed". A guilty context stays lost; the application recreates it.
// The kernel always knows whose fault a reset was, so UNKNOWN_CONTEXT_RESET_EXT is never
// returned.
GLenum Context::graphicsResetStatus() {
  if (!robustness_.loseContextOnReset) return GL_NO_ERROR;
  const kmd::ResetStatus now = pipe_.resetStatus();
  if (now == reportedReset_) return GL_NO_ERROR;
  reportedReset_ = now;
  switch (now) {
    case kmd::ResetStatus::Guilty:
      return GL_GUILTY_CONTEXT_RESET_EXT;
    case kmd::ResetStatus::Innocent:
      return GL_INNOCENT_CONTEXT_RESET_EXT;
    case kmd::ResetStatus::None:
      break;
  }
  return GL_NO_ERROR;
}

// glReadnPixelsEXT is glReadPixels writing at most bufSize bytes: INVALID_OPERATION when the
// rectangle needs more (EXT_robustness, §4.3.1). The size is the pack layout's end: full rows
// padded to PACK_ALIGNMENT, the last row unpadded. The other errors are glReadPixels' own, which
// come first.
void Context::readnPixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
                          GLsizei bufSize, void* data) {
  if (w >= 0 && h >= 0 && format == GL_RGBA && type == GL_UNSIGNED_BYTE) {
    const int64_t row = int64_t{w} * 4;
    const int64_t pitch = (row + packAlignment_ - 1) / packAlignment_ * packAlignment_;
    const int64_t bytes = w == 0 || h == 0 ? 0 : pitch * (h - 1) + row;
    if (bytes > bufSize) return error(GL_INVALID_OPERATION);
  }
  readPixels(x, y, w, h, format, type, data);
}

// glGetnUniform{f,i}vEXT: glGetUniform{f,i}v writing at most bufSize bytes (EXT_robustness,
// §6.1.8): a uniform with more components than fit is INVALID_OPERATION and nothing is written.
// The program and location errors are glGetUniform's, checked first.
void Context::getnUniform(GLuint prog, GLint location, GLsizei bufSize, float* f, GLint* i) {
  Program* p = program(prog);
  if (!p) return;
  if (!p->linked || location < 0 || static_cast<size_t>(location) >= p->locations.size())
    return error(GL_INVALID_OPERATION);
  const compiler::ShaderType& t = p->locations[static_cast<size_t>(location)].info->type;
  const int64_t components = t.isSampler() ? 1 : int64_t{t.columns} * t.rows;
  // GLfloat and GLint are both 4 bytes.
  if (components * 4 > bufSize) return error(GL_INVALID_OPERATION);
  getUniform(prog, location, f, i);
}

}  // namespace tessera::gles2
