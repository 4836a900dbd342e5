#include "scene/model_loader.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <filesystem>
#include <limits>

#include "common/error.h"
#include "scene/math.h"

namespace tessera::scene {
namespace {

struct Gather {
  const aiScene* scene;
  Mesh& out;
  bool anyTexcoords;
};

void appendAiMesh(Gather& g, const aiMesh& m, const aiMatrix4x4& xform) {
  aiMatrix3x3 normalXform(xform);
  normalXform.Inverse().Transpose();
  const auto base = static_cast<uint32_t>(g.out.vertexCount());
  for (unsigned v = 0; v < m.mNumVertices; ++v) {
    const aiVector3D p = xform * m.mVertices[v];
    g.out.positions.insert(g.out.positions.end(), {p.x, p.y, p.z});
    Vec3 n{0, 0, 1};
    if (m.mNormals) {
      const aiVector3D an = normalXform * m.mNormals[v];
      const Vec3 candidate = normalize(Vec3{an.x, an.y, an.z});
      // Degenerate triangles leave zero or NaN normals; any unit vector keeps shading defined.
      if (std::isfinite(candidate.x) && std::abs(length(candidate) - 1.0f) < 1e-3f) n = candidate;
    }
    g.out.normals.insert(g.out.normals.end(), {n.x, n.y, n.z});
    if (g.anyTexcoords) {
      const bool has = m.HasTextureCoords(0);
      g.out.texcoords.push_back(has ? m.mTextureCoords[0][v].x : 0.0f);
      g.out.texcoords.push_back(has ? m.mTextureCoords[0][v].y : 0.0f);
    }
  }
  for (unsigned f = 0; f < m.mNumFaces; ++f) {
    const aiFace& face = m.mFaces[f];
    if (face.mNumIndices != 3) continue;  // points and lines left by triangulation
    for (int k = 0; k < 3; ++k) g.out.indices.push_back(base + face.mIndices[k]);
  }
}

void gatherNode(Gather& g, const aiNode& node, const aiMatrix4x4& parent) {
  const aiMatrix4x4 xform = parent * node.mTransformation;
  for (unsigned i = 0; i < node.mNumMeshes; ++i) {
    if (node.mMeshes[i] < g.scene->mNumMeshes)
      appendAiMesh(g, *g.scene->mMeshes[node.mMeshes[i]], xform);
  }
  for (unsigned i = 0; i < node.mNumChildren; ++i) gatherNode(g, *node.mChildren[i], xform);
}

}  // namespace

void normalizeToUnitSphere(Mesh& mesh) {
  if (mesh.positions.empty()) return;
  float lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::numeric_limits<float>::max();
    hi[a] = std::numeric_limits<float>::lowest();
  }
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], mesh.positions[i]);
    hi[i % 3] = std::max(hi[i % 3], mesh.positions[i]);
  }
  const float centre[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
  double radius2 = 0;
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    double d2 = 0;
    for (int a = 0; a < 3; ++a) {
      const double d = double(mesh.positions[3 * v + a]) - centre[a];
      d2 += d * d;
    }
    radius2 = std::max(radius2, d2);
  }
  const double radius = std::sqrt(radius2);
  const float s = radius > 0 ? float(1.0 / radius) : 1.0f;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    mesh.positions[i] = (mesh.positions[i] - centre[i % 3]) * s;
  }
}

Mesh loadModelMesh(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Error("cannot load model '" + path + "': no such file");
  if (std::filesystem::is_directory(path, ec)) {
    throw Error("cannot load model '" + path + "': is a directory");
  }
  Assimp::Importer importer;
  // Lines and points are dropped at import so only triangles reach the mesh.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* ai = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
                aiProcess_SortByPType | aiProcess_ValidateDataStructure);
  if (!ai || !ai->mRootNode || (ai->mFlags & AI_SCENE_FLAGS_INCOMPLETE)) {
    const char* why = importer.GetErrorString();
    throw Error("cannot load model '" + path +
                "': " + (why && *why ? why : "assimp could not read the file"));
  }
  Mesh mesh;
  mesh.name = std::filesystem::path(path).filename().string();
  bool anyTexcoords = false;
  for (unsigned i = 0; i < ai->mNumMeshes; ++i) {
    anyTexcoords = anyTexcoords || ai->mMeshes[i]->HasTextureCoords(0);
  }
  Gather g{ai, mesh, anyTexcoords};
  gatherNode(g, *ai->mRootNode, aiMatrix4x4());
  if (mesh.indices.empty())
    throw Error("cannot load model '" + path + "': no triangles in the file");
  for (float v : mesh.positions) {
    if (!std::isfinite(v))
      throw Error("cannot load model '" + path + "': non-finite vertex position");
  }
  normalizeToUnitSphere(mesh);
  return mesh;
}

}  // namespace tessera::scene
