// Primitive assembly for every GLES 2.0 primitive type (§2.6.1).
#include "gpu/pc/primitive_assembly.h"

#include <gtest/gtest.h>

#include <vector>

namespace tessera::gpu::pc {
namespace {

using cp::PrimType;

std::vector<std::vector<uint32_t>> assemble(PrimType prim, uint32_t vertices) {
  std::vector<std::vector<uint32_t>> out;
  for (uint32_t t = 0; t < primitiveCount(prim, vertices); ++t) {
    uint32_t v[3];
    primitiveVertices(prim, t, vertices, v);
    out.emplace_back(v, v + verticesPerPrimitive(prim));
  }
  return out;
}

using P = std::vector<std::vector<uint32_t>>;

TEST(PrimitiveAssembly, PointsAndLines) {
  EXPECT_EQ(assemble(PrimType::Points, 3), (P{{0}, {1}, {2}}));
  EXPECT_EQ(assemble(PrimType::Lines, 5), (P{{0, 1}, {2, 3}}));  // the odd vertex is dropped
  EXPECT_EQ(assemble(PrimType::LineStrip, 4), (P{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(assemble(PrimType::LineLoop, 4), (P{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  EXPECT_EQ(assemble(PrimType::LineLoop, 2), (P{{0, 1}, {1, 0}}));
}

TEST(PrimitiveAssembly, Triangles) {
  EXPECT_EQ(assemble(PrimType::Triangles, 7), (P{{0, 1, 2}, {3, 4, 5}}));
  // Odd strip triangles swap their first two vertices to keep the winding.
  EXPECT_EQ(assemble(PrimType::TriangleStrip, 5), (P{{0, 1, 2}, {2, 1, 3}, {2, 3, 4}}));
  EXPECT_EQ(assemble(PrimType::TriangleFan, 5), (P{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}));
}

TEST(PrimitiveAssembly, TooFewVerticesMakeNothing) {
  for (PrimType p : {PrimType::Lines, PrimType::LineStrip, PrimType::LineLoop})
    EXPECT_EQ(primitiveCount(p, 1), 0u);
  for (PrimType p : {PrimType::Triangles, PrimType::TriangleStrip, PrimType::TriangleFan})
    EXPECT_EQ(primitiveCount(p, 2), 0u);
  EXPECT_EQ(primitiveCount(PrimType::Points, 0), 0u);
}

}  // namespace
}  // namespace tessera::gpu::pc
