// Shared by the built-in scene recipes: collects meshes, textures and draws, and holds the
// camera each draw's constants are packed with.
#pragma once
#include <cstdint>
#include <string>

#include "scene/camera.h"
#include "scene/scene.h"

namespace tessera::scene {

// Throws tessera::Error unless 1 <= width, height <= 16384.
void checkSceneSize(uint32_t width, uint32_t height);

class SceneBuilder final {
 public:
  SceneBuilder(std::string name, uint32_t width, uint32_t height);

  void setCamera(const Camera& camera) { camera_ = camera; }
  const Camera& camera() const { return camera_; }
  uint32_t addMesh(Mesh mesh);
  int addTexture(Texture texture);
  // Appends a draw with default render state; the reference stays valid until the next add.
  Draw& addDraw(uint32_t mesh, Shading shading, int texture, const Mat4& model,
                const Material& material);
  Scene& scene() { return scene_; }
  Scene take() { return std::move(scene_); }

 private:
  Scene scene_;
  Camera camera_;
};

// Straight alpha blending (GLES 2.0 spec 4.1.7): src * a + dst * (1 - a), depth writes off.
void setAlphaBlend(RenderState& state);
// Separate-face stencil state set identically for both faces.
void setStencilBoth(RenderState& state, const StencilFace& face);

}  // namespace tessera::scene
