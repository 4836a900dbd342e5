// Model files to one Mesh through assimp: every mesh of every node, node transforms applied,
// triangles only, scaled and centred into the unit sphere.
#pragma once
#include <string>

#include "scene/scene.h"

namespace tessera::scene {

// Throws tessera::Error naming `path` when the file is missing, unreadable, not a model assimp
// understands, or holds no triangles.
Mesh loadModelMesh(const std::string& path);

// Translates and uniformly scales positions so the bounding sphere (centred on the box centre)
// is the unit sphere at the origin. Normals are unaffected by a uniform scale.
void normalizeToUnitSphere(Mesh& mesh);

}  // namespace tessera::scene
