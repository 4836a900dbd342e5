// State queries (GLES 2.0 §6.1): one table of values per pname, converted to the type asked for
// as §6.1.2 says (booleans are non-zero; floats round to the nearest integer; colours and depth
// values map linearly to the integer range).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "api/gles2/gl_compressed_formats.h"
#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"
#include "gpu/pc/primitive_setup.h"
#include "isa/program.h"

namespace tessera::gles2 {

// Implementation limits. The ISA fixes the shader resources (isa/program.h); the rest are the
// driver's.
namespace limits {
constexpr GLint kMaxTextureSize = 4096, kMaxViewport = 8192;
constexpr GLint kMaxVertexUniformVectors = isa::kMaxConstants / 4;
constexpr GLint kMaxFragmentUniformVectors = isa::kMaxConstants / 4;
constexpr GLint kMaxVaryingVectors = isa::kMaxVaryings;
}  // namespace limits

enum class Kind { Int, Enum, Bool, Float, Color };

struct Value {
  Kind kind = Kind::Int;
  std::vector<double> v;
};

struct StateQuery {
  static std::optional<Value> get(Context& c, GLenum pname) {
    auto ints = [](std::initializer_list<double> l) { return Value{Kind::Int, l}; };
    auto enums = [](std::initializer_list<double> l) { return Value{Kind::Enum, l}; };
    auto bools = [](std::initializer_list<double> l) { return Value{Kind::Bool, l}; };
    auto floats = [](std::initializer_list<double> l) { return Value{Kind::Float, l}; };
    const Context::Target t = c.target();
    const auto& f = c.dsa_.front;
    const auto& b = c.dsa_.back;
    switch (pname) {
      case GL_VIEWPORT:
        return ints({double(c.viewport_[0]), double(c.viewport_[1]), double(c.viewport_[2]),
                     double(c.viewport_[3])});
      case GL_SCISSOR_BOX:
        return ints({double(c.scissor_[0]), double(c.scissor_[1]), double(c.scissor_[2]),
                     double(c.scissor_[3])});
      case GL_MAX_TEXTURE_SIZE:
      case GL_MAX_CUBE_MAP_TEXTURE_SIZE:
      case GL_MAX_RENDERBUFFER_SIZE:
        return ints({limits::kMaxTextureSize});
      case GL_MAX_VIEWPORT_DIMS:
        return ints({limits::kMaxViewport, limits::kMaxViewport});
      case GL_MAX_VERTEX_ATTRIBS:
        return ints({kMaxAttribs});
      // EXT_robustness: as the context was created (EGL_EXT_create_context_robustness).
      case kResetNotificationStrategy:
        return enums({double(c.robustness_.loseContextOnReset ? kLoseContextOnReset
                                                              : kNoResetNotification)});
      case kContextRobustAccess:
        return bools({c.robustness_.robustAccess ? 1.0 : 0.0});
      case GL_MAX_VERTEX_UNIFORM_VECTORS:
        return ints({limits::kMaxVertexUniformVectors});
      case GL_MAX_FRAGMENT_UNIFORM_VECTORS:
        return ints({limits::kMaxFragmentUniformVectors});
      case GL_MAX_VARYING_VECTORS:
        return ints({limits::kMaxVaryingVectors});
      case GL_MAX_TEXTURE_IMAGE_UNITS:
      case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS:
      case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS:
        return ints({kMaxTextureUnits});
      case GL_SUBPIXEL_BITS:
        return ints({8});
      case kMaxTextureMaxAnisotropy:  // EXT_texture_filter_anisotropic
        return ints({double(gpu::tex::kMaxAnisotropy)});
      case GL_RED_BITS:
        return ints({double(t.red)});
      case GL_GREEN_BITS:
        return ints({double(t.green)});
      case GL_BLUE_BITS:
        return ints({double(t.blue)});
      case GL_ALPHA_BITS:
        return ints({double(t.alpha)});
      case GL_DEPTH_BITS:
        return ints({double(t.depth)});
      case GL_STENCIL_BITS:
        return ints({double(t.stencil)});
      case GL_SAMPLE_BUFFERS:
        return ints({t.samples > 0 ? 1.0 : 0.0});
      case GL_SAMPLES:
        return ints({double(t.samples)});
      case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
        return ints({double(kCompressedFormats.size())});
      case GL_COMPRESSED_TEXTURE_FORMATS: {
        Value v{Kind::Enum, {}};
        for (const CompressedFormat& cf : kCompressedFormats) v.v.push_back(double(cf.glEnum));
        return v;
      }
      case GL_NUM_SHADER_BINARY_FORMATS:  // none: glShaderBinary raises INVALID_ENUM
        return ints({0});
      case GL_SHADER_BINARY_FORMATS:  // an empty list: nothing is written
        return ints({});
      case GL_FRAMEBUFFER_BINDING:
        return ints({double(c.boundFramebuffer_)});
      case GL_RENDERBUFFER_BINDING:
        return ints({double(c.boundRenderbuffer_)});
      case GL_IMPLEMENTATION_COLOR_READ_FORMAT:
        return enums({GL_RGBA});
      case GL_IMPLEMENTATION_COLOR_READ_TYPE:
        return enums({GL_UNSIGNED_BYTE});
      case GL_SHADER_COMPILER:
        return bools({1});
      case GL_ALIASED_POINT_SIZE_RANGE:
        return floats({1, gpu::pc::kMaxPointSize});
      case GL_ALIASED_LINE_WIDTH_RANGE:
        return floats({1, gpu::pc::kMaxLineWidth});
      case GL_ARRAY_BUFFER_BINDING:
        return ints({double(c.arrayBuffer_)});
      case GL_ELEMENT_ARRAY_BUFFER_BINDING:
        return ints({double(c.vao().elementBuffer)});
      case 0x85B5:  // GL_VERTEX_ARRAY_BINDING_OES
        return ints({double(c.boundVertexArray_)});
      case GL_CURRENT_PROGRAM:
        return ints({double(c.currentProgram_)});
      case GL_ACTIVE_TEXTURE:
        return enums({double(GL_TEXTURE0 + c.activeUnit_)});
      case GL_TEXTURE_BINDING_2D:
        return ints({double(c.bound2D_[c.activeUnit_])});
      case GL_TEXTURE_BINDING_CUBE_MAP:
        return ints({double(c.boundCube_[c.activeUnit_])});
      case kTextureBinding3D:
        return ints({double(c.bound3D_[c.activeUnit_])});
      case kMax3DTextureSize:
        return ints({kMax3DSize});
      case GL_PACK_ALIGNMENT:
        return ints({double(c.packAlignment_)});
      case GL_UNPACK_ALIGNMENT:
        return ints({double(c.unpackAlignment_)});
      case GL_COLOR_CLEAR_VALUE:
        return Value{Kind::Color,
                     {c.clearColor_[0], c.clearColor_[1], c.clearColor_[2], c.clearColor_[3]}};
      case GL_DEPTH_CLEAR_VALUE:
        return Value{Kind::Color, {c.clearDepth_}};
      case GL_STENCIL_CLEAR_VALUE:
        return ints({double(c.clearStencil_)});
      case GL_DEPTH_RANGE:
        return Value{Kind::Color, {c.depthNear_, c.depthFar_}};
      case GL_BLEND_COLOR:
        return Value{Kind::Color,
                     {c.blend_.constant[0], c.blend_.constant[1], c.blend_.constant[2],
                      c.blend_.constant[3]}};
      case GL_COLOR_WRITEMASK: {
        const uint8_t m = c.blend_.colorWriteMask;
        return bools({double(m & 1), double(m >> 1 & 1), double(m >> 2 & 1), double(m >> 3 & 1)});
      }
      case GL_DEPTH_WRITEMASK:
        return bools({double(c.dsa_.depthWrite)});
      case GL_DEPTH_FUNC:
        return enums({double(GL_NEVER + static_cast<int>(c.dsa_.depthFunc))});
      case GL_BLEND_SRC_RGB:
        return enums({double(c.blendFuncs_[0])});
      case GL_BLEND_DST_RGB:
        return enums({double(c.blendFuncs_[1])});
      case GL_BLEND_SRC_ALPHA:
        return enums({double(c.blendFuncs_[2])});
      case GL_BLEND_DST_ALPHA:
        return enums({double(c.blendFuncs_[3])});
      case GL_BLEND_EQUATION_RGB:
        return enums({double(c.blendEquations_[0])});
      case GL_BLEND_EQUATION_ALPHA:
        return enums({double(c.blendEquations_[1])});
      case GL_CULL_FACE_MODE:
        return enums({double(c.cullFace_)});
      case GL_FRONT_FACE:
        return enums({double(c.frontFace_)});
      case GL_GENERATE_MIPMAP_HINT:
        return enums({double(c.generateMipmapHint_)});
      case GL_LINE_WIDTH:
        return floats({c.lineWidth_});
      case GL_POLYGON_OFFSET_FACTOR:
        return floats({c.polygonFactor_});
      case GL_POLYGON_OFFSET_UNITS:
        return floats({c.polygonUnits_});
      case GL_SAMPLE_COVERAGE_VALUE:
        return floats({c.blend_.sampleCoverageValue});
      case GL_SAMPLE_COVERAGE_INVERT:
        return bools({double(c.blend_.sampleCoverageInvert)});
      case GL_STENCIL_FUNC:
        return enums({double(GL_NEVER + static_cast<int>(f.func))});
      case GL_STENCIL_REF:
        return ints({double(f.ref)});
      case GL_STENCIL_VALUE_MASK:
        return ints({double(f.valueMask)});
      case GL_STENCIL_WRITEMASK:
        return ints({double(f.writeMask)});
      case GL_STENCIL_BACK_FUNC:
        return enums({double(GL_NEVER + static_cast<int>(b.func))});
      case GL_STENCIL_BACK_REF:
        return ints({double(b.ref)});
      case GL_STENCIL_BACK_VALUE_MASK:
        return ints({double(b.valueMask)});
      case GL_STENCIL_BACK_WRITEMASK:
        return ints({double(b.writeMask)});
      case GL_BLEND:
      case GL_CULL_FACE:
      case GL_DEPTH_TEST:
      case GL_STENCIL_TEST:
      case GL_SCISSOR_TEST:
      case GL_DITHER:
      case GL_POLYGON_OFFSET_FILL:
      case GL_SAMPLE_ALPHA_TO_COVERAGE:
      case GL_SAMPLE_COVERAGE:
        return bools({double(c.isEnabled(pname))});
      default:
        return std::nullopt;
    }
  }
};

namespace {

// §6.1.2 for the integer forms: colours and depth values map [-1, 1] to the 32-bit range (for
// GetInteger64v too, as in OpenGL ES 3.0), other values round to the nearest integer.
int64_t toInteger(Kind kind, double x) {
  return kind == Kind::Color ? std::llround(std::clamp(x, -1.0, 1.0) * 2147483647.0)
                             : std::llround(x);
}

}  // namespace

// The timer state (GL_TIMESTAMP_EXT, GL_GPU_DISJOINT_EXT) is a 64-bit integer: the 32-bit
// integer form clamps it to the nearest representable value.
void Context::getIntegerv(GLenum pname, GLint* out) {
  if (const auto t = timerState(pname)) {
    *out = static_cast<GLint>(std::min<int64_t>(*t, std::numeric_limits<GLint>::max()));
    return;
  }
  const auto v = StateQuery::get(*this, pname);
  if (!v) return error(GL_INVALID_ENUM);
  for (size_t k = 0; k < v->v.size(); ++k) out[k] = static_cast<GLint>(toInteger(v->kind, v->v[k]));
}

void Context::getInteger64v(GLenum pname, GLint64* out) {
  if (const auto t = timerState(pname)) {
    *out = *t;
    return;
  }
  const auto v = StateQuery::get(*this, pname);
  if (!v) return error(GL_INVALID_ENUM);
  for (size_t k = 0; k < v->v.size(); ++k) out[k] = toInteger(v->kind, v->v[k]);
}

void Context::getFloatv(GLenum pname, GLfloat* out) {
  if (const auto t = timerState(pname)) {
    *out = static_cast<GLfloat>(*t);
    return;
  }
  const auto v = StateQuery::get(*this, pname);
  if (!v) return error(GL_INVALID_ENUM);
  for (size_t k = 0; k < v->v.size(); ++k) out[k] = static_cast<GLfloat>(v->v[k]);
}

void Context::getBooleanv(GLenum pname, GLboolean* out) {
  if (const auto t = timerState(pname)) {
    *out = *t != 0 ? GL_TRUE : GL_FALSE;
    return;
  }
  const auto v = StateQuery::get(*this, pname);
  if (!v) return error(GL_INVALID_ENUM);
  for (size_t k = 0; k < v->v.size(); ++k) out[k] = v->v[k] != 0.0 ? GL_TRUE : GL_FALSE;
}

const GLubyte* Context::getString(GLenum name) {
  switch (name) {
    case GL_VENDOR:
      strings_[0] = "Tessera";
      return reinterpret_cast<const GLubyte*>(strings_[0].c_str());
    case GL_RENDERER:
      strings_[1] = "Tessera tile-based GPU (" + std::string(device_.preset().name) + ")";
      return reinterpret_cast<const GLubyte*>(strings_[1].c_str());
    case GL_VERSION:
      strings_[2] = "OpenGL ES 2.0 Tessera";
      return reinterpret_cast<const GLubyte*>(strings_[2].c_str());
    case GL_SHADING_LANGUAGE_VERSION:
      strings_[3] = "OpenGL ES GLSL ES 1.00 Tessera";
      return reinterpret_cast<const GLubyte*>(strings_[3].c_str());
    case GL_EXTENSIONS:
      return reinterpret_cast<const GLubyte*>(
          "GL_OES_element_index_uint GL_OES_texture_npot GL_OES_rgb8_rgba8 "
          "GL_OES_standard_derivatives GL_EXT_texture_format_BGRA8888 GL_OES_vertex_half_float "
          "GL_OES_depth24 GL_OES_packed_depth_stencil GL_OES_mapbuffer GL_OES_depth_texture "
          "GL_EXT_discard_framebuffer GL_OES_vertex_array_object GL_EXT_shadow_samplers "
          "GL_OES_texture_3D GL_OES_compressed_ETC1_RGB8_texture "
          "GL_KHR_texture_compression_astc_ldr GL_OES_texture_half_float GL_OES_texture_float "
          "GL_OES_texture_half_float_linear GL_OES_texture_float_linear "
          "GL_EXT_texture_filter_anisotropic GL_EXT_occlusion_query_boolean "
          "GL_EXT_disjoint_timer_query GL_AMD_performance_monitor GL_EXT_robustness "
          "GL_OES_EGL_sync");
    default:
      error(GL_INVALID_ENUM);
      return nullptr;
  }
}

void Context::getShaderPrecisionFormat(GLenum shader, GLenum precision, GLint* range, GLint* bits) {
  if (shader != GL_VERTEX_SHADER && shader != GL_FRAGMENT_SHADER) return error(GL_INVALID_ENUM);
  // Every precision is fp32 / int32 on Tessera's cores.
  switch (precision) {
    case GL_LOW_FLOAT:
    case GL_MEDIUM_FLOAT:
    case GL_HIGH_FLOAT:
      range[0] = 127, range[1] = 127, *bits = 23;
      return;
    case GL_LOW_INT:
    case GL_MEDIUM_INT:
    case GL_HIGH_INT:
      range[0] = 31, range[1] = 30, *bits = 0;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

}  // namespace tessera::gles2
