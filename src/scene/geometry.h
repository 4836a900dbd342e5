// Procedural meshes for built-in scenes. Every generator orients each triangle counter-clockwise
// as seen from the side its normals point to, so back-face culling keeps the outside.
#pragma once
#include <cstdint>

#include "scene/math.h"
#include "scene/scene.h"

namespace tessera::scene {

// Torus around the y axis: `rings` segments around the main circle, `sides` around the tube.
// Texcoords wrap `sRepeat` times around the ring and `tRepeat` times around the tube.
Mesh makeTorus(float majorRadius, float minorRadius, uint32_t rings, uint32_t sides, float sRepeat,
               float tRepeat);
// UV sphere at the origin: `slices` around the y axis, `stacks` pole to pole.
Mesh makeSphere(float radius, uint32_t slices, uint32_t stacks);
// Horizontal plane y = 0 facing +y over [x0,x1] x [z0,z1], split into cellsX x cellsZ quads;
// texcoords are world units / `texelScale` so textures repeat across it.
Mesh makeGround(float x0, float x1, float z0, float z1, uint32_t cellsX, uint32_t cellsZ,
                float texelScale);
// Axis-aligned box centred at the origin with half extents `h`, each face split n x n.
Mesh makeBox(Vec3 h, uint32_t n);
// Flat star in the z = 0 plane facing +z (a fan of 2 * points triangles).
Mesh makeStar(uint32_t points, float outerRadius, float innerRadius);
// Quad in the z = 0 plane facing +z over [x0,x1] x [y0,y1], texcoords 0..1.
Mesh makeQuad(float x0, float y0, float x1, float y1);

}  // namespace tessera::scene
