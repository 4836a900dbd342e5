// Primitive assembly: turns a draw's vertex sequence into triangles (GLES 2.0 §2.6.1). Strips
// swap the first two vertices of odd triangles so that every triangle keeps the strip's winding.
#pragma once
#include <cstdint>

#include "gpu/cp/opcodes.h"

namespace tessera::gpu::pc {

inline uint32_t triangleCount(cp::PrimType prim, uint32_t vertices) {
  switch (prim) {
    case cp::PrimType::Triangles:
      return vertices / 3;
    case cp::PrimType::TriangleStrip:
    case cp::PrimType::TriangleFan:
      return vertices >= 3 ? vertices - 2 : 0;
    default:
      return 0;
  }
}

// Positions in the draw's vertex sequence of triangle `t`'s three vertices.
inline void triangleVertices(cp::PrimType prim, uint32_t t, uint32_t out[3]) {
  switch (prim) {
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
    default:
      out[0] = 3 * t;
      out[1] = 3 * t + 1;
      out[2] = 3 * t + 2;
      return;
  }
}

}  // namespace tessera::gpu::pc
