// The little linear algebra scenes need: Vec3 and a column-major Mat4 (m[col * 4 + row]), the
// layout GL uniforms and Tessera's constant slots use (one column per vec4 slot).
#pragma once
#include <array>
#include <cmath>

namespace tessera::scene {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
};

inline float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 v) {
  return std::sqrt(dot(v, v));
}
inline Vec3 normalize(Vec3 v) {
  const float len = length(v);
  return len > 0 ? v * (1.0f / len) : v;
}

struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // identity
  float& at(int row, int col) { return m[col * 4 + row]; }
  float at(int row, int col) const { return m[col * 4 + row]; }
};

inline Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a.at(row, k) * b.at(k, c);
      r.at(row, c) = s;
    }
  }
  return r;
}

inline Vec3 transformPoint(const Mat4& a, Vec3 p) {
  return {a.at(0, 0) * p.x + a.at(0, 1) * p.y + a.at(0, 2) * p.z + a.at(0, 3),
          a.at(1, 0) * p.x + a.at(1, 1) * p.y + a.at(1, 2) * p.z + a.at(1, 3),
          a.at(2, 0) * p.x + a.at(2, 1) * p.y + a.at(2, 2) * p.z + a.at(2, 3)};
}
inline Vec3 transformDirection(const Mat4& a, Vec3 d) {
  return {a.at(0, 0) * d.x + a.at(0, 1) * d.y + a.at(0, 2) * d.z,
          a.at(1, 0) * d.x + a.at(1, 1) * d.y + a.at(1, 2) * d.z,
          a.at(2, 0) * d.x + a.at(2, 1) * d.y + a.at(2, 2) * d.z};
}

inline Mat4 translate(Vec3 t) {
  Mat4 r;
  r.at(0, 3) = t.x;
  r.at(1, 3) = t.y;
  r.at(2, 3) = t.z;
  return r;
}
inline Mat4 scale(Vec3 s) {
  Mat4 r;
  r.at(0, 0) = s.x;
  r.at(1, 1) = s.y;
  r.at(2, 2) = s.z;
  return r;
}

// Rotation by `radians` about `axis`, counter-clockwise looking down the axis (right-handed).
inline Mat4 rotate(float radians, Vec3 axis) {
  const Vec3 a = normalize(axis);
  const float c = std::cos(radians), s = std::sin(radians), t = 1 - c;
  Mat4 r;
  r.at(0, 0) = t * a.x * a.x + c;
  r.at(0, 1) = t * a.x * a.y - s * a.z;
  r.at(0, 2) = t * a.x * a.z + s * a.y;
  r.at(1, 0) = t * a.x * a.y + s * a.z;
  r.at(1, 1) = t * a.y * a.y + c;
  r.at(1, 2) = t * a.y * a.z - s * a.x;
  r.at(2, 0) = t * a.x * a.z - s * a.y;
  r.at(2, 1) = t * a.y * a.z + s * a.x;
  r.at(2, 2) = t * a.z * a.z + c;
  return r;
}

// GL-style projection: eye space looks down -z, depth maps [near, far] to NDC [-1, 1].
inline Mat4 perspective(float fovyRadians, float aspect, float zNear, float zFar) {
  const float f = 1.0f / std::tan(fovyRadians / 2);
  Mat4 r;
  r.at(0, 0) = f / aspect;
  r.at(1, 1) = f;
  r.at(2, 2) = (zFar + zNear) / (zNear - zFar);
  r.at(2, 3) = 2 * zFar * zNear / (zNear - zFar);
  r.at(3, 2) = -1;
  r.at(3, 3) = 0;
  return r;
}

inline Mat4 lookAt(Vec3 eye, Vec3 center, Vec3 up) {
  const Vec3 f = normalize(center - eye);
  const Vec3 s = normalize(cross(f, up));
  const Vec3 u = cross(s, f);
  Mat4 r;
  r.at(0, 0) = s.x, r.at(0, 1) = s.y, r.at(0, 2) = s.z, r.at(0, 3) = -dot(s, eye);
  r.at(1, 0) = u.x, r.at(1, 1) = u.y, r.at(1, 2) = u.z, r.at(1, 3) = -dot(u, eye);
  r.at(2, 0) = -f.x, r.at(2, 1) = -f.y, r.at(2, 2) = -f.z, r.at(2, 3) = dot(f, eye);
  return r;
}

// Inverse transpose of the upper 3x3, returned in the upper 3x3 of a Mat4 (rest identity): the
// matrix that keeps normals perpendicular to surfaces under non-uniform scale.
inline Mat4 inverseTranspose3(const Mat4& a) {
  // Cofactor matrix / determinant == inverse transpose.
  auto e = [&](int r, int c) { return a.at(r, c); };
  Mat4 cof;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      cof.at(r, c) = e(r1, c1) * e(r2, c2) - e(r1, c2) * e(r2, c1);
    }
  }
  const float det = e(0, 0) * cof.at(0, 0) + e(0, 1) * cof.at(0, 1) + e(0, 2) * cof.at(0, 2);
  const float inv = det != 0 ? 1.0f / det : 0.0f;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) cof.at(r, c) *= inv;
  }
  return cof;
}

}  // namespace tessera::scene
