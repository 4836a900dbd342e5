// Scenes that draw a model with a template pair plus a few constants computed on the CPU.
#include <cmath>
#include <numbers>

#include "compiler/glmark2/glmark2_scenes.h"

namespace tessera::test::glmark2 {
namespace {

constexpr Vec4 kDefaultLightPosition = {20.0f, 20.0f, 10.0f, 1.0f};
constexpr Vec4 kWhite = {1.0f, 1.0f, 1.0f, 1.0f};

// Blinn-Phong half vector for a light at infinity and the viewer on +z.
Vec3 halfVector(const Vec4& light) {
  const float lightLength = std::hypot(light[0], light[1], light[2]);
  Vec3 h = {light[0] / lightLength, light[1] / lightLength, light[2] / lightLength + 1.0f};
  const float hLength = std::hypot(h[0], h[1], h[2]);
  for (float& c : h) c /= hLength;
  return h;
}

// light-basic.vert lit by one directional light with a diffuse material colour.
ShaderText litBasicVertex(const TemplateDir& dir, const std::string& file, const Vec4& light,
                          const Vec4& diffuse) {
  ShaderText vertex(dir, file);
  vertex.addConst("LightSourcePosition", light);
  vertex.addConst("MaterialDiffuse", diffuse);
  return vertex;
}

// "build" (use-vbo=false and true share the text). It also carries the precision option
// variants, which change the preamble of every scene alike.
void addBuild(const TemplateDir& dir, ProgramList& out) {
  const ShaderText vertex = litBasicVertex(dir, "light-basic.vert", kDefaultLightPosition, kWhite);
  addProgram(out, "build", vertex, ShaderText(dir, "light-basic.frag"));
  struct Variant {
    const char* vertex;
    const char* fragment;
  };
  constexpr std::array<Variant, 2> kPrecisionVariants = {{
      {"high,high,high,high", "high,high,high,high"},
      {"low,medium,high,default", "medium,low,high,low"},
  }};
  for (const Variant& v : kPrecisionVariants) {
    const TemplateDir custom{dir.path, parsePrecisionOption(v.vertex),
                             parsePrecisionOption(v.fragment)};
    addProgram(
        out,
        std::string("build:vertex-precision=") + v.vertex + ":fragment-precision=" + v.fragment,
        litBasicVertex(custom, "light-basic.vert", kDefaultLightPosition, kWhite),
        ShaderText(custom, "light-basic.frag"));
  }
}

// "texture": nearest, linear and mipmap filtering share one text; linear-shader filters in the
// shader, texgen computes texture coordinates from the position.
void addTexture(const TemplateDir& dir, ProgramList& out) {
  addProgram(out, "texture:texture-filter=nearest",
             litBasicVertex(dir, "light-basic.vert", kDefaultLightPosition, kWhite),
             ShaderText(dir, "light-basic-tex.frag"));

  ShaderText bilinear(dir, "light-basic-tex-bilinear.frag");
  bilinear.addConst("TextureSize", Vec2{512.0f, 512.0f});
  addProgram(out, "texture:texture-filter=linear-shader",
             litBasicVertex(dir, "light-basic.vert", kDefaultLightPosition, kWhite), bilinear);

  ShaderText texgen(dir, "light-basic-texgen.vert");
  texgen.addConst("PI", std::numbers::pi_v<float>);
  texgen.addConst("LightSourcePosition", kDefaultLightPosition);
  texgen.addConst("MaterialDiffuse", kWhite);
  addProgram(out, "texture:texgen=true", texgen, ShaderText(dir, "light-basic-tex.frag"));
}

// light-phong.frag with one compute_color() call per light, the lights spread over a sphere.
ShaderText phongFragment(const TemplateDir& dir, unsigned lights, const Vec4& diffuse) {
  ShaderText lit(dir, "light-phong.frag");
  std::string calls = "    gl_FragColor = vec4(0.0, 0.0, 0.0, 0.0);\n";
  const float theta = 2.0f * std::numbers::pi_v<float> / static_cast<float>(lights);
  const float intensity = 0.8f / static_cast<float>(lights);
  for (unsigned l = 0; l < lights; ++l) {
    const float t = theta * static_cast<float>(l);
    const float p = theta / 2.0f * static_cast<float>(l);
    const std::string index = std::to_string(l);
    lit.addConst("LightSourcePosition" + index,
                 Vec4{std::cos(p) * std::sin(t), std::cos(p) * std::cos(t), std::sin(p), 1.0f});
    lit.addConst("LightColor" + index, Vec4{intensity, intensity, intensity, 1.0f});
    calls += "    gl_FragColor += compute_color(LightSourcePosition" + index + ", LightColor" +
             index + ");\n";
  }
  lit.replace("$DO_LIGHTS$", calls);
  // glmark2 wraps the finished text (preamble included) in a second shader text before adding
  // the material colour, so the preamble appears twice.
  ShaderText fragment(dir);
  fragment.append(lit);
  fragment.addConst("MaterialDiffuse", diffuse);
  return fragment;
}

void addShading(const TemplateDir& dir, ProgramList& out) {
  constexpr Vec4 kBlue = {0.0f, 0.0f, 1.0f, 1.0f};
  addProgram(out, "shading:shading=gouraud",
             litBasicVertex(dir, "light-basic.vert", kDefaultLightPosition, kBlue),
             ShaderText(dir, "light-basic.frag"));

  ShaderText advanced(dir, "light-advanced.frag");
  advanced.addConst("LightSourcePosition", kDefaultLightPosition);
  advanced.addConst("LightSourceHalfVector", halfVector(kDefaultLightPosition));
  addProgram(out, "shading:shading=blinn-phong-inf", ShaderText(dir, "light-advanced.vert"),
             advanced);

  addProgram(out, "shading:shading=phong", ShaderText(dir, "light-phong.vert"),
             phongFragment(dir, 1, kBlue));
  addProgram(out, "shading:shading=phong:num-lights=4", ShaderText(dir, "light-phong.vert"),
             phongFragment(dir, 4, kBlue));
  addPlainProgram(out, dir, "shading:shading=cel", "light-phong.vert", "light-cel.frag");
}

// "bump": bump-render=off draws the low-poly model with the high-poly program's text.
void addBump(const TemplateDir& dir, ProgramList& out) {
  struct Mode {
    const char* option;
    const char* base;
    bool heightSteps;
  };
  constexpr std::array<Mode, 4> kModes = {{
      {"high-poly", "bump-poly", false},
      {"normals", "bump-normals", false},
      {"normals-tangent", "bump-normals-tangent", false},
      {"height", "bump-height", true},
  }};
  for (const Mode& mode : kModes) {
    const std::string base = mode.base;
    ShaderText fragment(dir, base + ".frag");
    fragment.addConst("LightSourcePosition", kDefaultLightPosition);
    fragment.addConst("LightSourceHalfVector", halfVector(kDefaultLightPosition));
    if (mode.heightSteps) {  // one texel of the 1024x1024 height map
      fragment.addConst("TextureStepX", 1.0f / 1024.0f);
      fragment.addConst("TextureStepY", 1.0f / 1024.0f);
    }
    addProgram(out, std::string("bump:bump-render=") + mode.option, ShaderText(dir, base + ".vert"),
               fragment);
  }
}

// "pulsar": lighting picks the vertex shader, texturing the fragment shader.
void addPulsar(const TemplateDir& dir, ProgramList& out) {
  for (const bool light : {false, true}) {
    for (const bool texture : {false, true}) {
      ShaderText vertex(dir, light ? "pulsar-light.vert" : "pulsar.vert");
      if (light) vertex.addConst("LightSourcePosition", Vec4{-20.0f, 20.0f, -20.0f, 1.0f});
      ShaderText fragment(dir, texture ? "light-basic-tex.frag" : "light-basic.frag");
      addProgram(out,
                 std::string("pulsar:quads=5:texture=") + (texture ? "true" : "false") +
                     ":light=" + (light ? "true" : "false"),
                 vertex, fragment);
    }
  }
}

// "ideas": every part of the scene (table, paper, logo, lamp...) has its own plain pair.
void addIdeas(const TemplateDir& dir, ProgramList& out) {
  constexpr std::array<const char*, 9> kParts = {"table",       "paper",    "text",
                                                 "under-table", "logo",     "logo-flat",
                                                 "logo-shadow", "lamp-lit", "lamp-unlit"};
  for (const char* part : kParts) {
    const std::string base = std::string("ideas-") + part;
    addPlainProgram(out, dir, std::string("ideas/") + part, base + ".vert", base + ".frag");
  }
}

void addJellyfish(const TemplateDir& dir, ProgramList& out) {
  addPlainProgram(out, dir, "jellyfish/gradient", "gradient.vert", "gradient.frag");
  // The jellyfish itself asks for highp float in the fragment shader where available.
  ShaderText fragment(dir, "jellyfish.frag");
  fragment.setPrecision(parsePrecisionOption(",high,,"));
  addProgram(out, "jellyfish/jellyfish", ShaderText(dir, "jellyfish.vert"), fragment);
}

// "shadow" renders depth from the light, then the ground with the shadow map, then the model.
void addShadow(const TemplateDir& dir, ProgramList& out) {
  addPlainProgram(out, dir, "shadow/depth", "depth.vert", "depth.frag");
  ShaderText ground(dir, "shadow.vert");
  ground.addConst("MaterialDiffuse", Vec4{0.3f, 0.3f, 0.3f, 1.0f});
  addProgram(out, "shadow/ground", ground, ShaderText(dir, "shadow.frag"));
  addProgram(out, "shadow/model",
             litBasicVertex(dir, "light-basic.vert", Vec4{0.0f, 3.0f, 2.0f, 1.0f}, kWhite),
             ShaderText(dir, "light-basic.frag"));
}

// "refract" renders back-face distances, then the refracting model.
void addRefract(const TemplateDir& dir, ProgramList& out) {
  addPlainProgram(out, dir, "refract/depth", "depth.vert", "depth.frag");
  ShaderText fragment(dir, "light-refract.frag");
  fragment.addConst("LightColor", Vec4{0.4f, 0.4f, 0.4f, 1.0f});
  fragment.addConst("LightSourcePosition", Vec4{1.0f, 1.0f, 2.0f, 1.0f});
  fragment.addConst("RefractiveIndex", 1.2f);  // the index option's default
  addProgram(out, "refract/model", ShaderText(dir, "light-refract.vert"), fragment);
}

}  // namespace

void addModelScenes(const TemplateDir& dir, ProgramList& out) {
  addBuild(dir, out);
  addTexture(dir, out);
  addShading(dir, out);
  addBump(dir, out);
  addPulsar(dir, out);
  addPlainProgram(out, dir, "buffer", "buffer-wireframe.vert", "buffer-wireframe.frag");
  addIdeas(dir, out);
  addJellyfish(dir, out);
  addShadow(dir, out);
  addRefract(dir, out);
  // The overlay that draws the FPS counter and scene titles (show-fps, title options).
  addPlainProgram(out, dir, "text-renderer", "text-renderer.vert", "text-renderer.frag");
}

}  // namespace tessera::test::glmark2
