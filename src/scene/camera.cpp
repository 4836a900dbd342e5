#include "scene/camera.h"

#include <numbers>

namespace tessera::scene {
namespace {

void putColumn(std::array<float, kConstantSlots * 4>& c, int slot, float x, float y, float z,
               float w) {
  c[slot * 4 + 0] = x;
  c[slot * 4 + 1] = y;
  c[slot * 4 + 2] = z;
  c[slot * 4 + 3] = w;
}

void putMatrix(std::array<float, kConstantSlots * 4>& c, int slot, const Mat4& m, int columns,
               bool zeroW) {
  for (int col = 0; col < columns; ++col) {
    putColumn(c, slot + col, m.at(0, col), m.at(1, col), m.at(2, col), zeroW ? 0 : m.at(3, col));
  }
}

}  // namespace

Camera makeCamera(Vec3 eye, Vec3 target, uint32_t width, uint32_t height, float zNear, float zFar,
                  Vec3 lightToward) {
  Camera cam;
  cam.view = lookAt(eye, target, {0, 1, 0});
  const float aspect = height ? float(width) / float(height) : 1.0f;
  cam.projection = perspective(std::numbers::pi_v<float> / 4, aspect, zNear, zFar);
  cam.lightToward = lightToward;
  return cam;
}

std::array<float, kConstantSlots * 4> packConstants(const Camera& camera, const Mat4& model,
                                                    const Material& material) {
  std::array<float, kConstantSlots * 4> c{};
  const Mat4 modelView = camera.view * model;
  putMatrix(c, kSlotMvp, camera.projection * modelView, 4, false);
  putMatrix(c, kSlotModelView, modelView, 4, false);
  putMatrix(c, kSlotNormalMatrix, inverseTranspose3(modelView), 3, true);
  const Vec3 l = normalize(transformDirection(camera.view, normalize(camera.lightToward)));
  putColumn(c, kSlotLightDir, l.x, l.y, l.z, 0);
  const auto& d = material.diffuse;
  putColumn(c, kSlotDiffuse, d[0], d[1], d[2], d[3]);
  putColumn(c, kSlotAmbient, material.ambient.x, material.ambient.y, material.ambient.z, 0);
  putColumn(c, kSlotSpecular, material.specular.x, material.specular.y, material.specular.z,
            material.shininess);
  return c;
}

Draw makeDraw(uint32_t mesh, Shading shading, int texture, const Camera& camera, const Mat4& model,
              const Material& material) {
  Draw draw;
  draw.mesh = mesh;
  draw.shading = shading;
  draw.texture = texture;
  draw.constants = packConstants(camera, model, material);
  return draw;
}

}  // namespace tessera::scene
