// Shader tests: a GLSL ES program, its uniforms and textures, drawn over a grid that covers the
// viewport. Tessera and the llvmpipe oracle read the same file and draw the same thing, so their
// images can be compared. Uniforms and attributes the file leaves out get deterministic values
// derived from their names (so any program, e.g. each of glmark2's, can be drawn).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::shadertest {

enum class Kind : uint8_t { Float, Int, Bool, Sampler };

// A uniform's or attribute's type as both GL and Tessera's compiler can describe it.
struct VarType {
  Kind kind = Kind::Float;
  uint32_t rows = 1;     // vector size (matrix rows)
  uint32_t columns = 1;  // matrix columns
  uint32_t components() const { return rows * columns; }
};

struct UniformValue {
  std::string name;           // "u_color", or "weights[2]" for one array element
  std::vector<float> values;  // ints and bools as their numeric value
};

enum class Pattern : uint8_t { Checker, Gradient, Noise };

// Texel formats a test texture can have: 8-bit RGBA (normalized), depth (16 bits, or 24 bits
// with 8 of stencil) and the GLES 3.0 sized integer formats.
enum class TexelFormat : uint8_t {
  RGBA8,
  Depth16,
  Depth24,
  R8I,
  R8UI,
  RG8I,
  RG8UI,
  RGBA8I,
  RGBA8UI,
  R16I,
  R16UI,
  RGBA16I,
  RGBA16UI,
  R32I,
  R32UI,
  RGBA32I,
  RGBA32UI,
};
struct TexelFormatInfo {
  TexelFormat format;
  const char* name;  // as the `format` key writes it
  uint8_t channels, bits;
  bool isSigned, isInteger, isDepth;
  uint32_t bytesPerTexel() const { return isDepth ? bits / 8 : channels * bits / 8; }
};
const TexelFormatInfo& formatInfo(TexelFormat f);

// Depth comparison functions, in the GL enum order (GL_NEVER + i).
enum class CompareFunc : uint8_t { Never, Less, Equal, LEqual, Greater, NotEqual, GEqual, Always };

struct TextureSpec {
  uint32_t unit = 0;
  uint32_t width = 64, height = 64;
  uint32_t depth = 1;  // 3D: slices; 2D array: layers
  Pattern pattern = Pattern::Checker;
  TexelFormat format = TexelFormat::RGBA8;
  bool mipmaps = false;  // a full chain of box-filtered levels
  bool linear = true;    // bilinear (and trilinear with mipmaps) or nearest
  bool clamp = false;    // clamp-to-edge, else repeat
  // The target follows the sampler type that reads the texture (set by the runners).
  bool cube = false;     // a cube map: six faces, each the pattern tinted by its face
  bool volume = false;   // a 3D texture: `depth` slices, each tinted by its slice
  bool array = false;    // a 2D array texture: `depth` layers, each tinted by its layer
  bool compare = false;  // depth comparison (GL_COMPARE_REF_TO_TEXTURE) with compareFunc
  CompareFunc compareFunc = CompareFunc::LEqual;
  uint32_t layers() const { return cube ? 6 : array ? depth : 1; }  // images uploaded per level
};

struct ShaderTest {
  std::string name;
  uint32_t width = 64, height = 64;
  uint32_t grid = 8;   // quads per side
  bool exact = false;  // integer-valued results: every pixel must match exactly
  std::string vertex, fragment;
  std::vector<UniformValue> uniforms;
  std::vector<TextureSpec> textures;
};

// Parses the text format (docs/compiler.md, "Shader tests"). Throws tessera::Error naming the
// file and line.
ShaderTest parse(const std::string& text, const std::string& name);
ShaderTest load(const std::string& path);

// The grid: positions in [-1, 1]^2 and texcoords in [0, 1]^2 per vertex (row-major, bottom row
// first), and indices of two counter-clockwise triangles per quad.
struct Grid {
  std::vector<float> position;  // x, y per vertex
  std::vector<float> texcoord;  // s, t per vertex
  std::vector<uint32_t> indices;
  uint32_t vertices() const { return static_cast<uint32_t>(position.size() / 2); }
};
Grid makeGrid(uint32_t quads);

// Per-vertex data (4 floats per vertex) for an attribute: `a_position` / names containing
// "position" or "vertex" get (x, y, 0, 1), `a_texcoord` / "texcoord" get (s, t, 0, 1), anything
// else smooth values in [0, 1] that depend on the name.
std::vector<float> attributeData(const std::string& name, const Grid& grid);

// The value an unlisted uniform gets: components in [-1, 1] from a hash of the name and element
// (matrices near identity; ints in [0, 4]; bools 0 or 1); samplers are not covered here.
std::vector<float> autoUniform(const std::string& name, VarType type);

// The value the test gives for one uniform element ("u", "w[2]"; "w" also names "w[0]"), or null.
const UniformValue* findUniform(const ShaderTest& t, const std::string& element);

// The texture unit of a sampler uniform the test gives no value: its index among the program's
// sampler uniform names, sorted.
uint32_t autoSamplerUnit(const std::string& name, std::vector<std::string> samplerNames);

// The texture on `unit`: the test's [texture N] section, or a 64x64 trilinear gradient.
TextureSpec textureFor(const ShaderTest& t, uint32_t unit);

// RGBA8 levels (level 0 first) of a texture, or of one face of a cube map (0..5: +X -X +Y -Y
// +Z -Z).
std::vector<std::vector<uint8_t>> textureLevels(const TextureSpec& t, uint32_t face = 0);

// The levels of any texture in the spec's format, laid out as GL uploads them (little-endian
// channels; depth 24 as GL_UNSIGNED_INT_24_8: depth in bits 8..31): of one face or array layer
// (`layer`), or for a 3D texture every slice of the level one after another. RGBA8 2D textures and
// cube maps are textureLevels().
std::vector<std::vector<uint8_t>> textureData(const TextureSpec& t, uint32_t layer = 0);
// Level count of textureData (a full chain along every axis that halves, or 1).
uint32_t levelCount(const TextureSpec& t);

}  // namespace tessera::shadertest
