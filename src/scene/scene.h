// Scenes: plain data (meshes, textures, draws with their full GL render state) that Tessera's
// renderer and the llvmpipe oracle both draw the same way. A scene knows nothing of either
// renderer; each translates Draw::state into its own calls (GLES 2.0 spec chapter 4 names).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/image.h"

namespace tessera::scene {

struct Mesh {
  std::string name;
  std::vector<float> positions;   // xyz per vertex
  std::vector<float> normals;     // xyz per vertex, unit length
  std::vector<float> texcoords;   // st per vertex; empty if the mesh has none
  std::vector<uint32_t> indices;  // triangle list, counter-clockwise front faces
  size_t vertexCount() const { return positions.size() / 3; }
  size_t triangleCount() const { return indices.size() / 3; }
};

// Fragment shading (the exact maths is in docs and in the oracle's GLSL):
// Phong: ambient + diffuse + Blinn-Phong specular with constant albedo; PhongTextured: the same
// with albedo = texture * diffuse; Constant: the diffuse colour as is.
enum class Shading : uint8_t { Phong, PhongTextured, Constant };
enum class Compare : uint8_t { Never, Less, Equal, LEqual, Greater, NotEqual, GEqual, Always };
enum class StencilOp : uint8_t { Keep, Zero, Replace, Incr, Decr, Invert, IncrWrap, DecrWrap };
enum class BlendFactor : uint8_t {
  Zero,
  One,
  SrcColor,
  OneMinusSrcColor,
  DstColor,
  OneMinusDstColor,
  SrcAlpha,
  OneMinusSrcAlpha,
  DstAlpha,
  OneMinusDstAlpha,
  ConstantColor,
  OneMinusConstantColor,
  ConstantAlpha,
  OneMinusConstantAlpha,
  SrcAlphaSaturate
};
enum class BlendEquation : uint8_t { Add, Subtract, ReverseSubtract };
enum class Cull : uint8_t { None, Back, Front };
enum class Filter : uint8_t { Nearest, Linear };
enum class MipFilter : uint8_t { None, Nearest, Linear };
enum class Wrap : uint8_t { Repeat, ClampToEdge, MirroredRepeat };

struct StencilFace {
  Compare func = Compare::Always;
  uint8_t ref = 0, valueMask = 0xff, writeMask = 0xff;
  StencilOp fail = StencilOp::Keep, zfail = StencilOp::Keep, zpass = StencilOp::Keep;
};

// Everything a draw sets besides shaders and buffers; defaults are GL's initial state except
// depthTest and cull, which scenes almost always want on. GL semantics throughout: with
// depthTest (stencilTest) off the depth (stencil) buffer is neither tested nor written
// (GLES 2.0 spec 4.1.5-4.1.6); SrcAlphaSaturate is only valid as a source factor.
struct RenderState {
  bool depthTest = true, depthWrite = true;
  Compare depthFunc = Compare::Less;
  Cull cull = Cull::Back;
  bool frontFaceCCW = true;
  bool blend = false;
  BlendFactor srcRgb = BlendFactor::One, dstRgb = BlendFactor::Zero;
  BlendFactor srcAlpha = BlendFactor::One, dstAlpha = BlendFactor::Zero;
  BlendEquation eqRgb = BlendEquation::Add, eqAlpha = BlendEquation::Add;
  std::array<float, 4> blendColor{};
  std::array<bool, 4> colorMask{true, true, true, true};
  bool stencilTest = false;
  StencilFace front, back;
};

// levels[0] is the base level; when minFilter uses mipmaps (mipFilter != None) the chain is
// complete down to 1x1. Image row 0 is texel row t = 0 (the first row glTexImage2D reads).
struct Texture {
  std::vector<Image> levels;
  Filter magFilter = Filter::Linear, minFilter = Filter::Linear;
  MipFilter mipFilter = MipFilter::Linear;
  Wrap wrapS = Wrap::Repeat, wrapT = Wrap::Repeat;
};

// Constant slots (vec4 each; matrices column-major, one column per slot, clip = M * (x,y,z,1)):
// 0-3 model-view-projection, 4-7 model-view, 8-10 normal matrix columns (inverse transpose of
// the model-view's upper 3x3, w = 0), 11 eye-space unit direction toward the light,
// 12 material diffuse rgba (alpha is the output alpha), 13 ambient rgb, 14 specular rgb with
// w = shininess, 15 unused (0).
inline constexpr int kConstantSlots = 16;
inline constexpr int kSlotMvp = 0, kSlotModelView = 4, kSlotNormalMatrix = 8, kSlotLightDir = 11,
                     kSlotDiffuse = 12, kSlotAmbient = 13, kSlotSpecular = 14;

struct Draw {
  uint32_t mesh = 0;
  int texture = -1;  // index into Scene::textures, -1 for none (PhongTextured requires one)
  Shading shading = Shading::Phong;
  std::array<float, kConstantSlots * 4> constants{};
  RenderState state;
};

// Drawing a scene: clear colour, depth and stencil fully (whatever the draws' masks), viewport
// = whole width x height, then each draw in order.
struct Scene {
  std::string name;
  uint32_t width = 0, height = 0;
  std::array<float, 4> clearColor{};
  float clearDepth = 1.0f;
  uint8_t clearStencil = 0;
  std::vector<Mesh> meshes;
  std::vector<Texture> textures;
  std::vector<Draw> draws;
  size_t triangleCount() const;  // triangles submitted over all draws
};

// Procedural: textured torus, spheres, a box and a ground plane that reaches behind the camera.
Scene defaultScene(uint32_t width, uint32_t height);
// One model file (any format assimp reads) normalised into the unit sphere, on a ground plane.
// Throws tessera::Error naming the file and the reason.
Scene modelScene(const std::string& path, uint32_t width, uint32_t height);
// Opaque geometry, then translucent draws back to front with depth writes off: alpha blending,
// separate alpha factors, constant colour, multiply, additive and reverse-subtract.
Scene blendScene(uint32_t width, uint32_t height);
// A stencil-only mask, a model drawn where stencil == 1, others where != 1, and two-sided
// Incr/Invert/DecrWrap ops made visible by later stencil-tested overlays.
Scene stencilScene(uint32_t width, uint32_t height);
// A desktop compositor: a wallpaper and 24 overlapping windows with translucent drop shadows,
// drawn back to front without a depth buffer: heavy overdraw of opaque layers.
Scene compositorScene(uint32_t width, uint32_t height);
// About `triangles` triangles (whole spheres: at least 12) as lit, textured spheres in a grid
// filling the view, about 1K triangles each up to 256 spheres, finer past that. The screen
// coverage, and so the fragment work, is about the same at any count: frame time against
// geometry alone (`tessera bench --scaling`).
inline constexpr uint32_t kMaxSpheresTriangles = 10'000'000;
Scene spheresScene(uint32_t triangles, uint32_t width, uint32_t height);
// "spheres:N" -> N; throws tessera::Error unless N is a whole number from 1 to
// kMaxSpheresTriangles.
uint32_t parseSpheresTriangles(std::string_view name);
// "default" | "blend" | "stencil" | "compositor" | "spheres:N" | otherwise a model file path.
// Throws on a bad size, triangle count or file.
Scene sceneByName(std::string_view nameOrPath, uint32_t width, uint32_t height);

}  // namespace tessera::scene
