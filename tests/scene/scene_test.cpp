// Built-in scenes and model loading: geometry well-formed, constants laid out as documented,
// bad model files rejected with the path in the message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "common/error.h"
#include "scene/camera.h"
#include "scene/geometry.h"
#include "scene/math.h"
#include "scene/model_loader.h"
#include "scene/scene.h"
#include "scene/texture_gen.h"

namespace tessera::scene {
namespace {

namespace fs = std::filesystem;

Vec3 vec3(const std::vector<float>& v, size_t i) {
  return {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
}

Mat4 slotMatrix(const Draw& d, int slot) {
  Mat4 m;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) m.at(r, c) = d.constants[(slot + c) * 4 + r];
  }
  return m;
}

void expectMeshWellFormed(const Mesh& m) {
  SCOPED_TRACE(m.name);
  ASSERT_EQ(m.positions.size() % 3, 0u);
  ASSERT_EQ(m.normals.size(), m.positions.size());
  if (!m.texcoords.empty()) {
    ASSERT_EQ(m.texcoords.size() / 2, m.vertexCount());
  }
  ASSERT_EQ(m.indices.size() % 3, 0u);
  ASSERT_GT(m.indices.size(), 0u);
  for (uint32_t i : m.indices) ASSERT_LT(i, m.vertexCount());
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    ASSERT_NEAR(length(vec3(m.normals, v)), 1.0f, 1e-4f) << "vertex " << v;
  }
}

// Every non-degenerate triangle is counter-clockwise seen from where its normals point.
void expectWindingFollowsNormals(const Mesh& m) {
  SCOPED_TRACE(m.name);
  for (size_t t = 0; t < m.triangleCount(); ++t) {
    const uint32_t a = m.indices[3 * t], b = m.indices[3 * t + 1], c = m.indices[3 * t + 2];
    const Vec3 face = cross(vec3(m.positions, b) - vec3(m.positions, a),
                            vec3(m.positions, c) - vec3(m.positions, a));
    if (length(face) < 1e-9f) continue;
    const Vec3 n = vec3(m.normals, a) + vec3(m.normals, b) + vec3(m.normals, c);
    ASSERT_GT(dot(face, n), 0) << "triangle " << t;
  }
}

void expectScenesConsistent(const Scene& s) {
  SCOPED_TRACE(s.name);
  ASSERT_FALSE(s.draws.empty());
  for (const Mesh& m : s.meshes) expectMeshWellFormed(m);
  for (const Texture& t : s.textures) {
    ASSERT_FALSE(t.levels.empty());
    if (t.mipFilter != MipFilter::None) {
      EXPECT_EQ(t.levels.back().width, 1u);
      EXPECT_EQ(t.levels.back().height, 1u);
    }
  }
  for (const Draw& d : s.draws) {
    ASSERT_LT(d.mesh, s.meshes.size());
    if (d.shading == Shading::PhongTextured) {
      ASSERT_GE(d.texture, 0);
      ASSERT_LT(size_t(d.texture), s.textures.size());
      EXPECT_FALSE(s.meshes[d.mesh].texcoords.empty());
    }
    EXPECT_NEAR(length({d.constants[44], d.constants[45], d.constants[46]}), 1.0f, 1e-5f);
    EXPECT_EQ(d.constants[60], 0.0f);  // slot 15 unused
  }
}

TEST(MathTest, PerspectiveLookAtAndInverseTranspose) {
  const Mat4 p = perspective(std::numbers::pi_v<float> / 2, 1.0f, 1.0f, 10.0f);
  // Points on the near/far planes map to NDC z = -1 / +1.
  auto ndcZ = [&](float z) {
    const float clipZ = p.at(2, 2) * z + p.at(2, 3), clipW = p.at(3, 2) * z;
    return clipZ / clipW;
  };
  EXPECT_NEAR(ndcZ(-1), -1, 1e-6);
  EXPECT_NEAR(ndcZ(-10), 1, 1e-6);
  const Mat4 v = lookAt({0, 0, 5}, {0, 0, 0}, {0, 1, 0});
  const Vec3 e = transformPoint(v, {1, 2, 0});
  EXPECT_NEAR(e.x, 1, 1e-6);
  EXPECT_NEAR(e.y, 2, 1e-6);
  EXPECT_NEAR(e.z, -5, 1e-6);
  const Mat4 m = rotate(0.7f, {1, 2, 3}) * scale({2, 0.5f, 3});
  const Mat4 it = inverseTranspose3(m);
  // (M^-T)^T M = I on the 3x3 part.
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      float s = 0;
      for (int k = 0; k < 3; ++k) s += it.at(k, r) * m.at(k, c);
      EXPECT_NEAR(s, r == c ? 1 : 0, 1e-5) << r << "," << c;
    }
  }
}

TEST(GeometryTest, GeneratorsAreWellFormedAndWoundCounterClockwise) {
  for (const Mesh& m :
       {makeTorus(1, 0.3f, 16, 8, 1, 1), makeSphere(1, 12, 6), makeGround(-1, 1, -1, 1, 3, 2, 1),
        makeBox({1, 2, 3}, 2), makeStar(5, 1, 0.5f), makeQuad(-1, -1, 1, 1)}) {
    expectMeshWellFormed(m);
    expectWindingFollowsNormals(m);
  }
  const Mesh sphere = makeSphere(2, 12, 6);
  // Outward normals: normal == position / radius.
  for (size_t v = 0; v < sphere.vertexCount(); ++v) {
    const Vec3 d = vec3(sphere.positions, v) * 0.5f - vec3(sphere.normals, v);
    ASSERT_LT(length(d), 1e-5f);
  }
}

TEST(TextureGenTest, MipChainIsRoundedBoxFilterDownToOneTexel) {
  Image base = Image::blank(4, 2);
  const uint8_t texels[8] = {0, 1, 10, 20, 3, 2, 30, 41};  // channel 0 of each texel
  for (uint32_t i = 0; i < 8; ++i) base.rgba[i * 4] = texels[i];
  const auto chain = makeMipChain(base);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[1].width, 2u);
  EXPECT_EQ(chain[1].height, 1u);
  EXPECT_EQ(chain[1].pixel(0, 0)[0], 2);   // (0+1+3+2+2)/4 = 8/4
  EXPECT_EQ(chain[1].pixel(1, 0)[0], 25);  // (10+20+30+41+2)/4 = 103/4 = 25
  EXPECT_EQ(chain[2].pixel(0, 0)[0], 14);  // 2x1 footprint: (2+25+1)/2
  EXPECT_THROW(makeMipChain(Image::blank(3, 4)), Error);
}

TEST(SceneTest, BuiltInScenesAreConsistent) {
  for (const char* name : {"default", "blend", "stencil"}) {
    const Scene s = sceneByName(name, 160, 120);
    EXPECT_EQ(s.name, name);
    EXPECT_EQ(s.width, 160u);
    expectScenesConsistent(s);
  }
  EXPECT_GE(defaultScene(64, 64).triangleCount(), 20000u);
}

TEST(SceneTest, ConstantsFollowTheDocumentedLayout) {
  const Camera cam = makeCamera({1, 2, 3}, {0, 0, 0}, 200, 100, 0.5f, 10, {0, 0, 1});
  const Mat4 model = translate({0.5f, 0, 0}) * rotate(0.3f, {0, 1, 0}) * scale({1, 2, 1});
  Material mat;
  mat.diffuse = {0.1f, 0.2f, 0.3f, 0.4f};
  mat.shininess = 17;
  const Draw d = makeDraw(0, Shading::Phong, -1, cam, model, mat);
  const Mat4 mvp = slotMatrix(d, kSlotMvp), mv = slotMatrix(d, kSlotModelView);
  const Mat4 expectMv = cam.view * model, expectMvp = cam.projection * expectMv;
  for (int i = 0; i < 16; ++i) {
    EXPECT_NEAR(mv.m[i], expectMv.m[i], 1e-5);
    EXPECT_NEAR(mvp.m[i], expectMvp.m[i], 1e-5);
  }
  const Mat4 nm = inverseTranspose3(expectMv);
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r)
      EXPECT_NEAR(d.constants[(kSlotNormalMatrix + c) * 4 + r], nm.at(r, c), 1e-5);
    EXPECT_EQ(d.constants[(kSlotNormalMatrix + c) * 4 + 3], 0.0f);
  }
  // Light toward +z in world space, seen from the camera.
  const Vec3 l = normalize(transformDirection(cam.view, {0, 0, 1}));
  EXPECT_NEAR(d.constants[kSlotLightDir * 4 + 0], l.x, 1e-6);
  EXPECT_NEAR(d.constants[kSlotLightDir * 4 + 2], l.z, 1e-6);
  EXPECT_FLOAT_EQ(d.constants[kSlotDiffuse * 4 + 3], 0.4f);
  EXPECT_FLOAT_EQ(d.constants[kSlotSpecular * 4 + 3], 17.0f);
}

TEST(SceneTest, DefaultSceneCrossesTheNearPlane) {
  const Scene s = defaultScene(160, 120);
  bool crossesNear = false;
  for (const Draw& d : s.draws) {
    const Mat4 mvp = slotMatrix(d, kSlotMvp);
    const Mesh& m = s.meshes[d.mesh];
    for (size_t t = 0; t < m.triangleCount() && !crossesNear; ++t) {
      int behind = 0;
      for (int k = 0; k < 3; ++k) {
        const Vec3 p = vec3(m.positions, m.indices[3 * t + k]);
        const float clipZ =
            mvp.at(2, 0) * p.x + mvp.at(2, 1) * p.y + mvp.at(2, 2) * p.z + mvp.at(2, 3);
        const float clipW =
            mvp.at(3, 0) * p.x + mvp.at(3, 1) * p.y + mvp.at(3, 2) * p.z + mvp.at(3, 3);
        behind += clipZ < -clipW;
      }
      crossesNear = behind == 1 || behind == 2;
    }
  }
  EXPECT_TRUE(crossesNear);
}

TEST(SceneTest, StencilSceneUsesSeparateFacesAndTheRequiredOps) {
  const Scene s = stencilScene(64, 64);
  bool maskOnly = false, equal = false, notEqual = false, incr = false, invert = false,
       split = false;
  for (const Draw& d : s.draws) {
    const RenderState& r = d.state;
    if (!r.stencilTest) continue;
    maskOnly |= r.colorMask == std::array<bool, 4>{} && !r.depthWrite &&
                r.front.zpass == StencilOp::Replace && r.front.ref == 1;
    equal |= r.front.func == Compare::Equal && r.front.ref == 1;
    notEqual |= r.front.func == Compare::NotEqual && r.front.ref == 1;
    incr |= r.front.zpass == StencilOp::Incr || r.back.zpass == StencilOp::Incr;
    invert |= r.front.zpass == StencilOp::Invert || r.back.zpass == StencilOp::Invert;
    split |= r.front.zpass != r.back.zpass || r.front.func != r.back.func;
  }
  EXPECT_TRUE(maskOnly && equal && notEqual && incr && invert && split);
}

TEST(SceneTest, BlendSceneDrawsTranslucentBackToFrontWithoutDepthWrites) {
  const Scene s = blendScene(64, 64);
  int translucent = 0, additive = 0;
  float lastDepth = -1e9f;
  bool opaqueAfterTranslucent = false;
  for (const Draw& d : s.draws) {
    if (!d.state.blend) {
      opaqueAfterTranslucent |= translucent > 0;
      continue;
    }
    ++translucent;
    EXPECT_FALSE(d.state.depthWrite);
    additive += d.state.srcRgb == BlendFactor::One && d.state.dstRgb == BlendFactor::One &&
                d.state.eqRgb == BlendEquation::Add;
    // Eye-space z of the object's origin = MV column 3, row 2; must not get farther.
    const float z = d.constants[(kSlotModelView + 3) * 4 + 2];
    EXPECT_GE(z, lastDepth);
    lastDepth = z;
  }
  EXPECT_GE(translucent, 4);
  EXPECT_GE(additive, 1);
  EXPECT_FALSE(opaqueAfterTranslucent);
}

TEST(SceneTest, RejectsBadSizes) {
  EXPECT_THROW(defaultScene(0, 10), Error);
  EXPECT_THROW(sceneByName("blend", 10, 100000), Error);
}

// spheres:N, the scaling scene: about N triangles, all of them inside the view whatever the
// aspect ratio, spread to its edges; malformed counts are refused naming the scene.
TEST(SpheresSceneTest, HasAboutTheTrianglesAskedSpreadInsideTheView) {
  for (const uint32_t n : {1000u, 4000u, 64000u, 300000u}) {
    for (const auto& [w, h] : {std::pair{800u, 600u}, std::pair{200u, 640u}}) {
      SCOPED_TRACE(std::to_string(n) + " at " + std::to_string(w) + "x" + std::to_string(h));
      const Scene s = sceneByName("spheres:" + std::to_string(n), w, h);
      EXPECT_EQ(s.name, "spheres:" + std::to_string(n));
      expectScenesConsistent(s);
      EXPECT_NEAR(double(s.triangleCount()), double(n), 0.03 * n);
      ASSERT_EQ(s.meshes.size(), 1u);  // one sphere mesh, drawn many times
      float reach = 0;                 // farthest NDC x or y of any vertex
      for (const Draw& d : s.draws) {
        EXPECT_EQ(d.shading, Shading::PhongTextured);
        const Mat4 mvp = slotMatrix(d, kSlotMvp);
        const Mesh& m = s.meshes[d.mesh];
        for (size_t v = 0; v < m.vertexCount(); ++v) {
          const Vec3 p = vec3(m.positions, v);
          float clip[4];
          for (int r = 0; r < 4; ++r)
            clip[r] = mvp.at(r, 0) * p.x + mvp.at(r, 1) * p.y + mvp.at(r, 2) * p.z + mvp.at(r, 3);
          ASSERT_GT(clip[3], 0);
          for (int r = 0; r < 3; ++r) ASSERT_LE(std::fabs(clip[r]), clip[3]) << "vertex " << v;
          reach = std::max({reach, std::fabs(clip[0] / clip[3]), std::fabs(clip[1] / clip[3])});
        }
      }
      EXPECT_GT(reach, 0.8f);
    }
  }
  const Scene one = spheresScene(1, 64, 64);
  EXPECT_EQ(one.draws.size(), 1u);
  EXPECT_GE(one.triangleCount(), 12u);
  EXPECT_EQ(spheresScene(kMaxSpheresTriangles / 1000, 32, 32).draws.size(), 10u);
}

TEST(SpheresSceneTest, RejectsMalformedTriangleCounts) {
  for (const char* name : {"spheres:abc", "spheres:", "spheres:0", "spheres:-5", "spheres:12x",
                           "spheres:10000001", "spheres: 12", "spheres:99999999999999999999"}) {
    SCOPED_TRACE(name);
    try {
      sceneByName(name, 64, 64);
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string(name) + ": expected a triangle count from 1 to 10000000");
    }
  }
  EXPECT_EQ(parseSpheresTriangles("spheres:10000000"), 10000000u);
  EXPECT_THROW(spheresScene(0, 64, 64), Error);
  EXPECT_THROW(sceneByName("spheres:100", 0, 64), Error);
}

class ModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (std::string("tessera-model-test-") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  void expectErrorNaming(const std::string& p) {
    try {
      modelScene(p, 64, 64);
      FAIL() << "accepted " << p;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  }
  fs::path dir_;
};

// An off-centre, non-unit cube in two objects, one with texcoords.
constexpr const char* kCubeObj = R"(
v 10 10 10
v 14 10 10
v 14 14 10
v 10 14 10
v 10 10 14
v 14 10 14
v 14 14 14
v 10 14 14
vt 0 0
vt 1 0
vt 1 1
vt 0 1
o front
f 5/1 6/2 7/3 8/4
f 1/1 4/4 3/3 2/2
o rest
f 1 5 8 4
f 2 3 7 6
f 4 8 7 3
f 1 2 6 5
)";

TEST_F(ModelTest, LoadsMergesAndNormalisesIntoTheUnitSphere) {
  const Mesh m = loadModelMesh(write("cube.obj", kCubeObj));
  expectMeshWellFormed(m);
  EXPECT_EQ(m.triangleCount(), 12u);
  EXPECT_EQ(m.texcoords.size() / 2, m.vertexCount());
  float maxR = 0;
  Vec3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    const Vec3 p = vec3(m.positions, v);
    maxR = std::max(maxR, length(p));
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  EXPECT_NEAR(maxR, 1.0f, 1e-5f);
  EXPECT_NEAR(lo.x + hi.x, 0.0f, 1e-5f);
  EXPECT_NEAR(hi.y - lo.y, 2 / std::sqrt(3.0f), 1e-5f);

  const Scene s = modelScene(write("cube2.obj", kCubeObj), 100, 80);
  expectScenesConsistent(s);
  EXPECT_EQ(s.draws.back().shading, Shading::PhongTextured);
}

TEST_F(ModelTest, MissingCorruptAndEmptyFilesThrowNamingTheFile) {
  expectErrorNaming((dir_ / "missing.obj").string());
  expectErrorNaming(dir_.string());  // a directory
  expectErrorNaming(write("garbage.3ds", std::string("\x4d\x4d\xff\xff\xff\x7f garbage", 14)));
  expectErrorNaming(write("garbage.xyz", "\x01\x02\x03 not a model"));
  expectErrorNaming(write("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n"));
  expectErrorNaming(write("points.obj", "v 0 0 0\nv 1 0 0\np 1 2\n"));
  expectErrorNaming(write("empty.obj", ""));
}

TEST_F(ModelTest, BundledModelLoadsWhenPresent) {
  const std::string bunny = "/usr/share/glmark2/models/bunny.obj";
  if (!fs::exists(bunny)) GTEST_SKIP() << bunny << " not installed";
  const Scene s = modelScene(bunny, 64, 48);
  expectScenesConsistent(s);
  EXPECT_GT(s.triangleCount(), 1000u);
}

}  // namespace
}  // namespace tessera::scene
