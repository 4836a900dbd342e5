// A model file on a ground plane, and the name -> scene lookup the tools and oracle share.
#include <algorithm>
#include <limits>
#include <numbers>

#include "common/error.h"
#include "scene/geometry.h"
#include "scene/model_loader.h"
#include "scene/scene_builder.h"
#include "scene/texture_gen.h"

namespace tessera::scene {

Scene modelScene(const std::string& path, uint32_t width, uint32_t height) {
  checkSceneSize(width, height);
  Mesh model = loadModelMesh(path);
  SceneBuilder b("model:" + model.name, width, height);
  b.scene().clearColor = {0.38f, 0.45f, 0.6f, 1.0f};
  // The unit sphere seen from distance ~2.7 fills most of the 45-degree view; near and far
  // bound the model and ground tightly for depth precision.
  b.setCamera(
      makeCamera({0, 0.7f, 2.6f}, {0, -0.05f, 0}, width, height, 0.5f, 10.0f, {0.4f, 1.0f, 0.8f}));
  const float pi = std::numbers::pi_v<float>;
  const Mat4 pose = rotate(pi / 6, {0, 1, 0}) * rotate(-pi / 18, {1, 0, 0});

  // Rest the posed model on the ground: find its lowest point after rotation.
  float lowest = std::numeric_limits<float>::max();
  for (size_t v = 0; v < model.vertexCount(); ++v) {
    const Vec3 p{model.positions[3 * v], model.positions[3 * v + 1], model.positions[3 * v + 2]};
    lowest = std::min(lowest, transformPoint(pose, p).y);
  }
  const bool textured = !model.texcoords.empty();
  const int checker = b.addTexture(makeTexture(checkerImage(256, 8), Filter::Linear, Filter::Linear,
                                               MipFilter::Linear, Wrap::Repeat, Wrap::Repeat));
  // The ground runs from behind the camera (z = 5 > 2.6) to z = -5, inside the far plane.
  const uint32_t ground = b.addMesh(makeGround(-5, 5, -5, 5, 16, 16, 1.0f));
  const uint32_t mesh = b.addMesh(std::move(model));

  Material floor;
  floor.diffuse = {0.9f, 0.9f, 0.9f, 1.0f};
  floor.specular = {0.1f, 0.1f, 0.1f};
  floor.shininess = 8;
  b.addDraw(ground, Shading::PhongTextured, checker, translate({0, lowest, 0}), floor);

  Material skin;
  skin.diffuse =
      textured ? std::array<float, 4>{1, 1, 1, 1} : std::array<float, 4>{0.85f, 0.62f, 0.4f, 1.0f};
  skin.ambient = {0.18f, 0.18f, 0.2f};
  skin.specular = {0.6f, 0.6f, 0.6f};
  skin.shininess = 40;
  b.addDraw(mesh, textured ? Shading::PhongTextured : Shading::Phong, textured ? checker : -1, pose,
            skin);
  return b.take();
}

Scene sceneByName(std::string_view nameOrPath, uint32_t width, uint32_t height) {
  if (nameOrPath == "default") return defaultScene(width, height);
  if (nameOrPath == "blend") return blendScene(width, height);
  if (nameOrPath == "stencil") return stencilScene(width, height);
  if (nameOrPath == "compositor") return compositorScene(width, height);
  if (nameOrPath.starts_with("spheres:"))
    return spheresScene(parseSpheresTriangles(nameOrPath), width, height);
  if (nameOrPath.empty())
    throw Error(
        "empty scene name (expected default, blend, stencil, compositor, spheres:N or a model "
        "file)");
  return modelScene(std::string(nameOrPath), width, height);
}

size_t Scene::triangleCount() const {
  size_t n = 0;
  for (const Draw& d : draws) {
    if (d.mesh < meshes.size()) n += meshes[d.mesh].triangleCount();
  }
  return n;
}

}  // namespace tessera::scene
