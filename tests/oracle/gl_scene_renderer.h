// Draws a tessera::scene::Scene with GLES 2.0 calls: the reference Tessera's images are judged
// against. Shaders implement exactly the shading documented in scene/scene.h.
#pragma once
#include <GLES2/gl2.h>

#include <array>
#include <vector>

#include "scene/scene.h"

namespace tessera::oracle {

class GlSceneRenderer final {
 public:
  // Uploads meshes and textures and compiles the programs; needs a current context.
  // Throws tessera::Error on shader compile/link failure or a GL error.
  explicit GlSceneRenderer(const scene::Scene& scene);
  ~GlSceneRenderer();
  GlSceneRenderer(const GlSceneRenderer&) = delete;
  GlSceneRenderer& operator=(const GlSceneRenderer&) = delete;

  // Clear and every draw, into the currently bound framebuffer (no glFinish).
  void render();

 private:
  struct MeshBuffers {
    GLuint positions = 0, normals = 0, texcoords = 0, indices = 0;
    GLsizei indexCount = 0;
  };
  struct Program {
    GLuint id = 0;
    GLint constants = -1, sampler = -1;
    GLint position = -1, normal = -1, texcoord = -1;
  };
  void applyState(const scene::RenderState& state);
  const Program& programFor(scene::Shading shading) const;

  const scene::Scene& scene_;
  std::vector<MeshBuffers> meshes_;
  std::vector<GLuint> textures_;
  std::array<Program, 3> programs_{};  // indexed by scene::Shading
};

}  // namespace tessera::oracle
