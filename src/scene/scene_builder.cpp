#include "scene/scene_builder.h"

#include <utility>

#include "common/error.h"

namespace tessera::scene {

void checkSceneSize(uint32_t width, uint32_t height) {
  constexpr uint32_t kMaxSide = 16384;
  if (width == 0 || height == 0 || width > kMaxSide || height > kMaxSide) {
    throw Error("scene size " + std::to_string(width) + "x" + std::to_string(height) +
                " is out of range (1..16384 per side)");
  }
}

SceneBuilder::SceneBuilder(std::string name, uint32_t width, uint32_t height) {
  checkSceneSize(width, height);
  scene_.name = std::move(name);
  scene_.width = width;
  scene_.height = height;
}

uint32_t SceneBuilder::addMesh(Mesh mesh) {
  scene_.meshes.push_back(std::move(mesh));
  return static_cast<uint32_t>(scene_.meshes.size() - 1);
}

int SceneBuilder::addTexture(Texture texture) {
  scene_.textures.push_back(std::move(texture));
  return static_cast<int>(scene_.textures.size() - 1);
}

Draw& SceneBuilder::addDraw(uint32_t mesh, Shading shading, int texture, const Mat4& model,
                            const Material& material) {
  scene_.draws.push_back(makeDraw(mesh, shading, texture, camera_, model, material));
  return scene_.draws.back();
}

void setAlphaBlend(RenderState& state) {
  state.blend = true;
  state.depthWrite = false;
  state.srcRgb = state.srcAlpha = BlendFactor::SrcAlpha;
  state.dstRgb = state.dstAlpha = BlendFactor::OneMinusSrcAlpha;
}

void setStencilBoth(RenderState& state, const StencilFace& face) {
  state.stencilTest = true;
  state.front = face;
  state.back = face;
}

}  // namespace tessera::scene
