// The procedural scenes: no files needed, identical on every machine.
#include <algorithm>
#include <numbers>

#include "scene/geometry.h"
#include "scene/scene_builder.h"
#include "scene/texture_gen.h"

namespace tessera::scene {
namespace {

float radians(float degrees) {
  return degrees * std::numbers::pi_v<float> / 180.0f;
}

// Model matrix: uniform scale, then rotation (yaw about y after pitch about x), then translation.
Mat4 place(Vec3 at, float yawDegrees = 0, float pitchDegrees = 0, float size = 1) {
  return translate(at) * rotate(radians(yawDegrees), {0, 1, 0}) *
         rotate(radians(pitchDegrees), {1, 0, 0}) * scale({size, size, size});
}

Material matte(float r, float g, float b, float a = 1.0f) {
  Material m;
  m.diffuse = {r, g, b, a};
  m.ambient = {0.2f, 0.2f, 0.22f};
  m.specular = {0.15f, 0.15f, 0.15f};
  m.shininess = 8;
  return m;
}

Material shiny(float r, float g, float b, float a = 1.0f) {
  Material m = matte(r, g, b, a);
  m.specular = {0.8f, 0.8f, 0.8f};
  m.shininess = 48;
  return m;
}

// Common to the built-in scenes: the camera, a ground plane that runs under and behind the
// camera (so triangles cross the near plane and project far outside the viewport), and two
// mipmapped textures with different sampling state.
struct Stage {
  uint32_t ground, torus, sphere, smallSphere, box, quad;
  int checker, stripes;
};

Stage buildStage(SceneBuilder& b, uint8_t stripeMinAlpha) {
  b.setCamera(makeCamera({0.3f, 1.4f, 4.2f}, {0, 0.05f, 0}, b.scene().width, b.scene().height, 0.5f,
                         30.0f, {0.5f, 1.0f, 0.7f}));
  Stage s;
  s.ground = b.addMesh(makeGround(-12, 12, -14, 8, 24, 22, 1.5f));
  // s runs to 1.5 around the ring so the clamped stripe texture shows its edge over a third of
  // it; t runs to 2 around the tube so MirroredRepeat reflects once.
  s.torus = b.addMesh(makeTorus(0.9f, 0.35f, 128, 64, 1.5f, 2));
  s.sphere = b.addMesh(makeSphere(0.6f, 64, 32));
  s.smallSphere = b.addMesh(makeSphere(0.35f, 32, 16));
  s.box = b.addMesh(makeBox({0.4f, 0.4f, 0.4f}, 4));
  s.quad = b.addMesh(makeQuad(-0.8f, -0.6f, 0.8f, 0.6f));
  s.checker = b.addTexture(makeTexture(checkerImage(256, 8), Filter::Linear, Filter::Linear,
                                       MipFilter::Linear, Wrap::Repeat, Wrap::Repeat));
  Image stripes = stripeImage(128, 64);
  for (size_t i = 3; i < stripes.rgba.size(); i += 4) {
    stripes.rgba[i] = std::max(stripes.rgba[i], stripeMinAlpha);
  }
  s.stripes = b.addTexture(makeTexture(stripes, Filter::Nearest, Filter::Linear, MipFilter::Nearest,
                                       Wrap::ClampToEdge, Wrap::MirroredRepeat));
  return s;
}

void addGround(SceneBuilder& b, const Stage& s, float brightness = 1.0f) {
  b.addDraw(s.ground, Shading::PhongTextured, s.checker, place({0, -1, 0}),
            matte(brightness, brightness, brightness));
}

}  // namespace

Scene defaultScene(uint32_t width, uint32_t height) {
  SceneBuilder b("default", width, height);
  b.scene().clearColor = {0.42f, 0.55f, 0.72f, 1.0f};
  const Stage s = buildStage(b, 255);
  addGround(b, s);
  Material glaze = shiny(1, 1, 1);
  glaze.specular = {0.45f, 0.45f, 0.45f};
  glaze.shininess = 96;
  b.addDraw(s.torus, Shading::PhongTextured, s.stripes, place({0, 0.1f, 0}, 20, 60), glaze);
  b.addDraw(s.sphere, Shading::PhongTextured, s.checker, place({-1.9f, -0.4f, -0.6f}, 30),
            shiny(1, 1, 1));
  b.addDraw(s.smallSphere, Shading::Phong, -1, place({1.7f, -0.65f, 0.6f}),
            shiny(0.85f, 0.1f, 0.1f));
  b.addDraw(s.box, Shading::Phong, -1, place({1.5f, -0.6f, -1.8f}, 35), matte(0.2f, 0.35f, 0.9f));
  b.addDraw(s.smallSphere, Shading::Constant, -1, place({-0.8f, 1.3f, -1.5f}, 0, 0, 0.4f),
            matte(1.0f, 0.9f, 0.3f));
  return b.take();
}

Scene blendScene(uint32_t width, uint32_t height) {
  SceneBuilder b("blend", width, height);
  b.scene().clearColor = {0.3f, 0.3f, 0.35f, 1.0f};
  const Stage s = buildStage(b, 64);
  addGround(b, s, 0.55f);  // dimmer, so what the blends add and subtract stands out
  b.addDraw(s.torus, Shading::PhongTextured, s.checker, place({0, 0.1f, -1.2f}, 10, 75),
            shiny(1, 1, 1));

  // Translucent draws, each with its own blend recipe; sorted far to near below.
  struct Translucent {
    uint32_t mesh;
    Shading shading;
    int texture;
    Vec3 at;
    float yaw;
    Material material;
    BlendFactor src, dst, srcA, dstA;
    BlendEquation eq = BlendEquation::Add, eqA = BlendEquation::Add;
    std::array<float, 4> color{};
    Cull cull = Cull::Back;
  };
  using F = BlendFactor;
  const Translucent items[] = {
      {s.sphere,
       Shading::Phong,
       -1,
       {-1.2f, 0.0f, -0.4f},
       0,
       shiny(0.9f, 0.15f, 0.15f, 0.5f),
       F::SrcAlpha,
       F::OneMinusSrcAlpha,
       F::SrcAlpha,
       F::OneMinusSrcAlpha},
      {s.sphere,
       Shading::Phong,
       -1,
       {1.0f, 0.0f, -0.2f},
       0,
       shiny(0.15f, 0.9f, 0.25f, 0.45f),
       F::SrcAlpha,
       F::OneMinusSrcAlpha,
       F::OneMinusDstAlpha,
       F::One},
      {s.quad,
       Shading::PhongTextured,
       s.stripes,
       {-0.1f, -0.2f, 0.9f},
       25,
       matte(1, 1, 1, 0.9f),
       F::SrcAlpha,
       F::OneMinusSrcAlpha,
       F::One,
       F::OneMinusSrcAlpha,
       BlendEquation::Add,
       BlendEquation::Add,
       {},
       Cull::None},
      {s.box,
       Shading::Phong,
       -1,
       {-1.7f, -0.6f, 0.7f},
       30,
       matte(0.9f, 0.9f, 0.2f, 1.0f),
       F::ConstantColor,
       F::OneMinusConstantColor,
       F::ConstantAlpha,
       F::OneMinusConstantAlpha,
       BlendEquation::Add,
       BlendEquation::Add,
       {0.2f, 0.5f, 0.8f, 0.5f}},
      {s.smallSphere,
       Shading::Constant,
       -1,
       {0.35f, 0.75f, 0.3f},
       0,
       matte(0.45f, 0.3f, 0.1f, 0.5f),
       F::One,
       F::One,
       F::One,
       F::Zero,
       BlendEquation::Add,
       BlendEquation::Subtract},
      {s.box,
       Shading::Constant,
       -1,
       {1.7f, -0.6f, 0.8f},
       -20,
       matte(0.35f, 0.35f, 0.0f, 0.0f),
       F::One,
       F::One,
       F::Zero,
       F::One,
       BlendEquation::ReverseSubtract},
      {s.smallSphere,
       Shading::Phong,
       -1,
       {-0.7f, -0.65f, 1.5f},
       0,
       matte(0.6f, 0.6f, 0.9f),
       F::DstColor,
       F::SrcColor,
       F::DstAlpha,
       F::Zero},
      {s.smallSphere,
       Shading::Phong,
       -1,
       {0.8f, -0.65f, 1.6f},
       0,
       matte(0.5f, 0.4f, 0.2f),
       F::OneMinusDstColor,
       F::One,
       F::SrcAlphaSaturate,
       F::OneMinusSrcColor},
  };
  std::vector<const Translucent*> order;
  for (const Translucent& t : items) order.push_back(&t);
  // Back to front by eye-space depth of each object's centre (more negative z = farther).
  auto eyeZ = [&](const Translucent* t) { return transformPoint(b.camera().view, t->at).z; };
  std::stable_sort(order.begin(), order.end(),
                   [&](const Translucent* l, const Translucent* r) { return eyeZ(l) < eyeZ(r); });
  for (const Translucent* t : order) {
    Draw& d = b.addDraw(t->mesh, t->shading, t->texture, place(t->at, t->yaw), t->material);
    d.state.blend = true;
    d.state.depthWrite = false;
    d.state.srcRgb = t->src;
    d.state.dstRgb = t->dst;
    d.state.srcAlpha = t->srcA;
    d.state.dstAlpha = t->dstA;
    d.state.eqRgb = t->eq;
    d.state.eqAlpha = t->eqA;
    d.state.blendColor = t->color;
    d.state.cull = t->cull;
  }
  return b.take();
}

Scene stencilScene(uint32_t width, uint32_t height) {
  SceneBuilder b("stencil", width, height);
  b.scene().clearColor = {0.12f, 0.12f, 0.16f, 1.0f};
  const Stage s = buildStage(b, 255);
  const uint32_t star = b.addMesh(makeStar(5, 1.5f, 0.65f));

  // 1. The star goes to stencil only: no colour, no depth (GLES 2.0 spec 4.1.5, 4.2.2).
  Draw& mask = b.addDraw(star, Shading::Constant, -1, place({0, 0.1f, 0.8f}, 4), matte(1, 0, 1));
  mask.state.colorMask = {false, false, false, false};
  mask.state.depthWrite = false;
  mask.state.depthTest = false;
  mask.state.cull = Cull::None;
  setStencilBoth(mask.state, {Compare::Always, 1, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep,
                              StencilOp::Replace});

  // 2. Inside the star: the torus (stencil == 1).
  const StencilFace inside{Compare::Equal, 1, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep,
                           StencilOp::Keep};
  Draw& torus = b.addDraw(s.torus, Shading::PhongTextured, s.stripes, place({0, 0.1f, 0}, 20, 60),
                          shiny(1, 1, 1));
  setStencilBoth(torus.state, inside);

  // 3. Outside it: ground and spheres (stencil != 1).
  const StencilFace outside{Compare::NotEqual, 1, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep,
                            StencilOp::Keep};
  addGround(b, s);
  setStencilBoth(b.scene().draws.back().state, outside);
  Draw& sphere = b.addDraw(s.sphere, Shading::PhongTextured, s.checker,
                           place({-1.9f, -0.4f, -0.6f}, 30), shiny(1, 1, 1));
  setStencilBoth(sphere.state, outside);
  Draw& red = b.addDraw(s.smallSphere, Shading::Phong, -1, place({1.7f, -0.65f, 0.6f}),
                        shiny(0.85f, 0.1f, 0.1f));
  setStencilBoth(red.state, outside);

  // 4. A two-sided box counts in stencil: front faces increment, back faces invert the low
  // four bits, and back faces hidden behind scenery wrap-decrement.
  Draw& counter = b.addDraw(s.box, Shading::Constant, -1, place({0.9f, -0.3f, 0.9f}, 40, 25, 1.6f),
                            matte(1, 1, 1));
  counter.state.colorMask = {false, false, false, false};
  counter.state.depthWrite = false;
  counter.state.cull = Cull::None;
  counter.state.stencilTest = true;
  counter.state.front = {Compare::Always, 0, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep,
                         StencilOp::Incr};
  counter.state.back = {Compare::Always,  0, 0xff, 0x0f, StencilOp::Keep, StencilOp::DecrWrap,
                        StencilOp::Invert};

  // 5. Screen-covering overlays (identity transform, front-facing) show the counts. The back
  // state is Never, so a renderer that picked the wrong face would draw nothing.
  const uint32_t screen = b.addMesh(makeQuad(-1, -1, 1, 1));
  const Camera sceneCamera = b.camera();
  b.setCamera(Camera{Mat4{}, Mat4{}, {0, 0, 1}});
  struct Overlay {
    std::array<float, 4> color;
    StencilFace front;
  };
  const Overlay overlays[] = {
      // Stencil above 1 (the star plus front faces): orange tint; failing pixels IncrWrap.
      {{1.0f, 0.55f, 0.1f, 0.5f},
       {Compare::Less, 1, 0xff, 0xff, StencilOp::IncrWrap, StencilOp::Keep, StencilOp::Keep}},
      // Bits 2-3 at least 8 (set by Invert): cyan tint, then zeroed there.
      {{0.1f, 0.8f, 0.9f, 0.45f},
       {Compare::LEqual, 0x08, 0x0c, 0xff, StencilOp::Keep, StencilOp::Keep, StencilOp::Zero}},
      // Exactly 0x0f (back faces behind scenery, wrap-decremented under the 0x0f write mask):
      // darkened, then decremented.
      {{0.0f, 0.0f, 0.0f, 0.4f},
       {Compare::Equal, 0x0f, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep, StencilOp::Decr}},
  };
  for (const Overlay& o : overlays) {
    Material m = matte(o.color[0], o.color[1], o.color[2], o.color[3]);
    Draw& d = b.addDraw(screen, Shading::Constant, -1, Mat4{}, m);
    d.state.depthTest = false;
    setAlphaBlend(d.state);
    d.state.stencilTest = true;
    d.state.front = o.front;
    d.state.back = {Compare::Never, 0, 0xff, 0xff, StencilOp::Keep, StencilOp::Keep,
                    StencilOp::Keep};
  }
  b.setCamera(sceneCamera);
  return b.take();
}

Scene compositorScene(uint32_t width, uint32_t height) {
  SceneBuilder b("compositor", width, height);
  b.scene().clearColor = {0.1f, 0.1f, 0.12f, 1.0f};
  // Clip space is the window: identity view and projection, quads placed in NDC.
  Camera flat;
  flat.lightToward = {0.3f, 0.4f, 1.0f};
  b.setCamera(flat);
  const uint32_t quad = b.addMesh(makeQuad(-1, -1, 1, 1));
  const int checker = b.addTexture(makeTexture(checkerImage(128, 8), Filter::Linear, Filter::Linear,
                                               MipFilter::Linear, Wrap::Repeat, Wrap::Repeat));
  const int stripes = b.addTexture(makeTexture(stripeImage(128, 64), Filter::Linear, Filter::Linear,
                                               MipFilter::Linear, Wrap::Repeat, Wrap::Repeat));
  // Painter's order, no depth buffer: what is drawn later covers what was drawn before.
  auto layer = [&](float cx, float cy, float w, float h, Shading shading, int texture,
                   const Material& m) -> RenderState& {
    Draw& d =
        b.addDraw(quad, shading, texture, translate({cx, cy, 0}) * scale({w / 2, h / 2, 1}), m);
    d.state.depthTest = false;
    d.state.cull = Cull::None;
    return d.state;
  };
  layer(0, 0, 2, 2, Shading::PhongTextured, stripes, matte(0.5f, 0.6f, 0.8f));  // wallpaper
  uint32_t seed = 12345;
  auto next = [&] {  // a fixed LCG: the same windows on every machine
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24);
  };
  for (int i = 0; i < 24; ++i) {
    const float w = 0.5f + 0.7f * next(), h = 0.4f + 0.6f * next();
    const float cx = -0.8f + 1.6f * next(), cy = -0.8f + 1.6f * next();
    // A translucent drop shadow, the window body, its title bar.
    setAlphaBlend(
        layer(cx + 0.03f, cy - 0.04f, w, h, Shading::Constant, -1, matte(0, 0, 0, 0.35f)));
    layer(cx, cy, w, h, Shading::PhongTextured, i % 2 ? checker : stripes,
          matte(0.6f + 0.4f * next(), 0.6f + 0.4f * next(), 0.6f + 0.4f * next()));
    layer(cx, cy + h / 2 - 0.05f, w, 0.1f, Shading::Constant, -1,
          matte(0.2f + 0.6f * next(), 0.3f, 0.6f));
  }
  return b.take();
}

}  // namespace tessera::scene
