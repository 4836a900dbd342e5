// The synthetic scaling scene: a given number of triangles as lit, textured spheres in a grid
// that fills the view. The spheres cover about the same share of the screen at any count, so
// the frame's fragment work stays put while its geometry work grows with the triangle count.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

#include "common/error.h"
#include "scene/geometry.h"
#include "scene/scene_builder.h"
#include "scene/texture_gen.h"

namespace tessera::scene {
namespace {

// About 1K triangles per sphere until the grid holds kMaxSpheres; past that the spheres get
// finer. Many small spheres keep the triangles spread over every bin of the screen.
constexpr uint32_t kTrianglesPerSphere = 1024;
constexpr uint32_t kMaxSpheres = 256;
// The camera looks down -z from this distance at the grid in the z = 0 plane.
constexpr float kEyeDistance = 10.0f;
// Sphere radius as a share of its grid cell: gaps between spheres, no overlap.
constexpr float kRadiusInCell = 0.42f;

struct Tint {
  float r, g, b;
};
constexpr Tint kTints[] = {{1.0f, 1.0f, 1.0f},  {1.0f, 0.55f, 0.45f}, {0.5f, 0.8f, 1.0f},
                           {0.6f, 1.0f, 0.55f}, {1.0f, 0.9f, 0.4f},   {0.85f, 0.6f, 1.0f}};

}  // namespace

uint32_t parseSpheresTriangles(std::string_view name) {
  constexpr std::string_view kPrefix = "spheres:";
  const std::string_view digits = name.substr(std::min(name.size(), kPrefix.size()));
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (name.substr(0, kPrefix.size()) != kPrefix || digits.empty() || ec != std::errc{} ||
      end != digits.data() + digits.size() || n < 1 || n > kMaxSpheresTriangles)
    throw Error(std::string(name) + ": expected a triangle count from 1 to " +
                std::to_string(kMaxSpheresTriangles));
  return static_cast<uint32_t>(n);
}

Scene spheresScene(uint32_t triangles, uint32_t width, uint32_t height) {
  checkSceneSize(width, height);
  if (triangles < 1 || triangles > kMaxSpheresTriangles)
    throw Error("spheres:" + std::to_string(triangles) + ": expected a triangle count from 1 to " +
                std::to_string(kMaxSpheresTriangles));
  SceneBuilder b("spheres:" + std::to_string(triangles), width, height);
  b.scene().clearColor = {0.16f, 0.17f, 0.2f, 1.0f};
  b.setCamera(makeCamera({0, 0, kEyeDistance}, {0, 0, 0}, width, height, kEyeDistance / 2,
                         kEyeDistance * 2, {-0.4f, 0.6f, 1.0f}));

  // Every sphere is the same mesh: slices x stacks quads, two triangles each (the pole rows
  // included, whose triangles are thin slivers as in any UV sphere).
  const uint32_t spheres =
      std::clamp((triangles + kTrianglesPerSphere / 2) / kTrianglesPerSphere, 1u, kMaxSpheres);
  const double perSphere = double(triangles) / spheres;
  const auto stacks = std::max(2u, static_cast<uint32_t>(std::lround(std::sqrt(perSphere / 4))));
  const auto slices = std::max(3u, static_cast<uint32_t>(std::lround(perSphere / (2.0 * stacks))));
  const uint32_t mesh = b.addMesh(makeSphere(1.0f, slices, stacks));
  const int checker = b.addTexture(makeTexture(checkerImage(256, 8), Filter::Linear, Filter::Linear,
                                               MipFilter::Linear, Wrap::Repeat, Wrap::Repeat));

  // The grid: about square cells, as many columns as the aspect ratio asks, all inside the view
  // (45-degree vertical field of view, makeCamera).
  const float aspect = float(width) / float(height);
  const float halfH = kEyeDistance * std::tan(std::numbers::pi_v<float> / 8),
              halfW = halfH * aspect;
  const auto cols = std::clamp(
      static_cast<uint32_t>(std::lround(std::sqrt(double(spheres) * aspect))), 1u, spheres);
  const uint32_t rows = (spheres + cols - 1) / cols;
  const float cell = std::min(2 * halfW / float(cols), 2 * halfH / float(rows));
  for (uint32_t i = 0; i < spheres; ++i) {
    const uint32_t row = i / cols, col = i % cols;
    const uint32_t inRow = std::min(cols, spheres - row * cols);  // the last row may be short
    const float x = (float(col) - float(inRow - 1) / 2) * cell;
    const float y = (float(rows - 1) / 2 - float(row)) * cell;
    const float r = kRadiusInCell * cell;
    // Each sphere turned a little further, so the checker does not repeat in lockstep.
    const Mat4 model = translate({x, y, 0}) * rotate(0.7f * float(i), {0, 1, 0}) *
                       rotate(0.35f, {1, 0, 0}) * scale({r, r, r});
    const Tint& t = kTints[i % std::size(kTints)];
    Material m;
    m.diffuse = {t.r, t.g, t.b, 1.0f};
    m.ambient = {0.18f, 0.18f, 0.2f};
    m.specular = {0.5f, 0.5f, 0.5f};
    m.shininess = 32;
    b.addDraw(mesh, Shading::PhongTextured, checker, model, m);
  }
  return b.take();
}

}  // namespace tessera::scene
