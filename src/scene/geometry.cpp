#include "scene/geometry.h"

#include <cmath>
#include <functional>
#include <numbers>

namespace tessera::scene {
namespace {

constexpr float kTwoPi = 2 * std::numbers::pi_v<float>;

struct SurfacePoint {
  Vec3 position, normal;
  float s = 0, t = 0;
};

void pushVertex(Mesh& mesh, const SurfacePoint& p) {
  const Vec3 n = normalize(p.normal);
  mesh.positions.insert(mesh.positions.end(), {p.position.x, p.position.y, p.position.z});
  mesh.normals.insert(mesh.normals.end(), {n.x, n.y, n.z});
  mesh.texcoords.insert(mesh.texcoords.end(), {p.s, p.t});
}

Vec3 vec3At(const std::vector<float>& attr, uint32_t i) {
  return {attr[3 * i], attr[3 * i + 1], attr[3 * i + 2]};
}

// Appends triangle (a, b, c), swapping two corners if needed so that it is counter-clockwise
// seen from where its vertex normals point. Parametrisations differ in handedness; checking per
// triangle keeps every generator correct without deriving each one's orientation by hand.
void pushTriangle(Mesh& mesh, uint32_t a, uint32_t b, uint32_t c) {
  const Vec3 pa = vec3At(mesh.positions, a), pb = vec3At(mesh.positions, b),
             pc = vec3At(mesh.positions, c);
  const Vec3 n = vec3At(mesh.normals, a) + vec3At(mesh.normals, b) + vec3At(mesh.normals, c);
  if (dot(cross(pb - pa, pc - pa), n) < 0) std::swap(b, c);
  mesh.indices.insert(mesh.indices.end(), {a, b, c});
}

// A (nu+1) x (nv+1) vertex grid over a parametric surface; u, v in [0,1].
Mesh makeGrid(const char* name, uint32_t nu, uint32_t nv,
              const std::function<SurfacePoint(float u, float v)>& surface) {
  Mesh mesh;
  mesh.name = name;
  for (uint32_t j = 0; j <= nv; ++j) {
    for (uint32_t i = 0; i <= nu; ++i) pushVertex(mesh, surface(float(i) / nu, float(j) / nv));
  }
  const uint32_t row = nu + 1;
  for (uint32_t j = 0; j < nv; ++j) {
    for (uint32_t i = 0; i < nu; ++i) {
      const uint32_t v00 = j * row + i, v10 = v00 + 1, v01 = v00 + row, v11 = v01 + 1;
      pushTriangle(mesh, v00, v10, v11);
      pushTriangle(mesh, v00, v11, v01);
    }
  }
  return mesh;
}

void appendMesh(Mesh& dst, const Mesh& src) {
  const auto base = static_cast<uint32_t>(dst.vertexCount());
  dst.positions.insert(dst.positions.end(), src.positions.begin(), src.positions.end());
  dst.normals.insert(dst.normals.end(), src.normals.begin(), src.normals.end());
  dst.texcoords.insert(dst.texcoords.end(), src.texcoords.begin(), src.texcoords.end());
  for (uint32_t i : src.indices) dst.indices.push_back(base + i);
}

}  // namespace

Mesh makeTorus(float majorRadius, float minorRadius, uint32_t rings, uint32_t sides, float sRepeat,
               float tRepeat) {
  return makeGrid("torus", rings, sides, [=](float u, float v) {
    const float a = u * kTwoPi, b = v * kTwoPi;
    const Vec3 n{std::cos(b) * std::cos(a), std::sin(b), -std::cos(b) * std::sin(a)};
    const Vec3 centre{majorRadius * std::cos(a), 0, -majorRadius * std::sin(a)};
    return SurfacePoint{centre + n * minorRadius, n, u * sRepeat, v * tRepeat};
  });
}

Mesh makeSphere(float radius, uint32_t slices, uint32_t stacks) {
  return makeGrid("sphere", slices, stacks, [=](float u, float v) {
    const float a = u * kTwoPi, b = v * std::numbers::pi_v<float>;
    const Vec3 n{std::sin(b) * std::cos(a), std::cos(b), -std::sin(b) * std::sin(a)};
    return SurfacePoint{n * radius, n, u * 2, v};
  });
}

Mesh makeGround(float x0, float x1, float z0, float z1, uint32_t cellsX, uint32_t cellsZ,
                float texelScale) {
  return makeGrid("ground", cellsX, cellsZ, [=](float u, float v) {
    const float x = x0 + u * (x1 - x0), z = z0 + v * (z1 - z0);
    return SurfacePoint{{x, 0, z}, {0, 1, 0}, x / texelScale, z / texelScale};
  });
}

Mesh makeBox(Vec3 h, uint32_t n) {
  // One face per axis direction: normal, and the two in-plane axes it spans.
  struct Face {
    Vec3 normal, du, dv;
  };
  constexpr Face kFaces[] = {
      {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
  };
  auto scaled = [&](Vec3 v) { return Vec3{v.x * h.x, v.y * h.y, v.z * h.z}; };
  Mesh box;
  box.name = "box";
  for (const Face& f : kFaces) {
    appendMesh(box, makeGrid("face", n, n, [&](float u, float v) {
                 const Vec3 p = f.normal + f.du * (2 * u - 1) + f.dv * (2 * v - 1);
                 return SurfacePoint{scaled(p), f.normal, u, v};
               }));
  }
  return box;
}

Mesh makeStar(uint32_t points, float outerRadius, float innerRadius) {
  Mesh star;
  star.name = "star";
  pushVertex(star, {{0, 0, 0}, {0, 0, 1}, 0.5f, 0.5f});
  const uint32_t rim = 2 * points;
  for (uint32_t i = 0; i < rim; ++i) {
    const float a = kTwoPi * float(i) / float(rim) + kTwoPi / 4;
    const float r = (i % 2 == 0) ? outerRadius : innerRadius;
    const float x = r * std::cos(a), y = r * std::sin(a);
    pushVertex(
        star, {{x, y, 0}, {0, 0, 1}, 0.5f + 0.5f * x / outerRadius, 0.5f + 0.5f * y / outerRadius});
  }
  for (uint32_t i = 0; i < rim; ++i) pushTriangle(star, 0, 1 + i, 1 + (i + 1) % rim);
  return star;
}

Mesh makeQuad(float x0, float y0, float x1, float y1) {
  return makeGrid("quad", 1, 1, [=](float u, float v) {
    return SurfacePoint{{x0 + u * (x1 - x0), y0 + v * (y1 - y0), 0}, {0, 0, 1}, u, v};
  });
}

}  // namespace tessera::scene
