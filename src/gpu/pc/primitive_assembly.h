// Primitive assembly: turns a draw's vertex sequence into points, lines or triangles
// (GLES 2.0 §2.6.1). Strips swap the first two vertices of odd triangles so that every triangle
// keeps the strip's winding; a line loop closes with a line from the last vertex to the first.
#pragma once
#include <cstdint>

#include "gpu/cp/opcodes.h"

namespace tessera::gpu::pc {

// Vertices per primitive: 1 for points, 2 for lines, 3 for triangles.
inline int verticesPerPrimitive(cp::PrimType prim) {
  switch (prim) {
    case cp::PrimType::Points:
      return 1;
    case cp::PrimType::Lines:
    case cp::PrimType::LineStrip:
    case cp::PrimType::LineLoop:
      return 2;
    default:
      return 3;
  }
}

inline uint32_t primitiveCount(cp::PrimType prim, uint32_t vertices) {
  switch (prim) {
    case cp::PrimType::Points:
      return vertices;
    case cp::PrimType::Lines:
      return vertices / 2;
    case cp::PrimType::LineStrip:
      return vertices >= 2 ? vertices - 1 : 0;
    case cp::PrimType::LineLoop:
      return vertices >= 2 ? vertices : 0;
    case cp::PrimType::Triangles:
      return vertices / 3;
    case cp::PrimType::TriangleStrip:
    case cp::PrimType::TriangleFan:
      return vertices >= 3 ? vertices - 2 : 0;
  }
  return 0;
}

// Positions in the draw's vertex sequence of primitive `t`'s vertices (verticesPerPrimitive of
// them). `vertices` is the draw's vertex count (a line loop's last line wraps to vertex 0).
inline void primitiveVertices(cp::PrimType prim, uint32_t t, uint32_t vertices, uint32_t out[3]) {
  switch (prim) {
    case cp::PrimType::Points:
      out[0] = t;
      return;
    case cp::PrimType::Lines:
      out[0] = 2 * t;
      out[1] = 2 * t + 1;
      return;
    case cp::PrimType::LineStrip:
      out[0] = t;
      out[1] = t + 1;
      return;
    case cp::PrimType::LineLoop:
      out[0] = t;
      out[1] = t + 1 == vertices ? 0 : t + 1;
      return;
    case cp::PrimType::TriangleStrip:
      out[0] = t + (t & 1);
      out[1] = t + 1 - (t & 1);
      out[2] = t + 2;
      return;
    case cp::PrimType::TriangleFan:
      out[0] = 0;
      out[1] = t + 1;
      out[2] = t + 2;
      return;
    case cp::PrimType::Triangles:
      out[0] = 3 * t;
      out[1] = 3 * t + 1;
      out[2] = 3 * t + 2;
      return;
  }
}

}  // namespace tessera::gpu::pc
