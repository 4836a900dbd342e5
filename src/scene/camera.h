// Camera, light and material to constant slots (layout in scene.h): the one place that knows
// which slot holds what, so every built-in scene packs its draws the same way.
#pragma once
#include <array>

#include "scene/math.h"
#include "scene/scene.h"

namespace tessera::scene {

struct Camera {
  Mat4 view, projection;
  Vec3 lightToward{0, 1, 0};  // world-space direction toward the light (normalised when packed)
};

struct Material {
  std::array<float, 4> diffuse{0.8f, 0.8f, 0.8f, 1.0f};
  Vec3 ambient{0.15f, 0.15f, 0.15f};
  Vec3 specular{0.5f, 0.5f, 0.5f};
  float shininess = 32.0f;
};

// Perspective camera at `eye` looking at `target` (y up), vertical field of view 45 degrees.
Camera makeCamera(Vec3 eye, Vec3 target, uint32_t width, uint32_t height, float zNear, float zFar,
                  Vec3 lightToward);

std::array<float, kConstantSlots * 4> packConstants(const Camera& camera, const Mat4& model,
                                                    const Material& material);

// A draw of `mesh` with `shading`, constants packed from camera/model/material, default state.
Draw makeDraw(uint32_t mesh, Shading shading, int texture, const Camera& camera, const Mat4& model,
              const Material& material);

}  // namespace tessera::scene
