// The glmark2 scenes, grouped by how they build shaders: model scenes use templates with a few
// constants, filter scenes generate convolution code, grid scenes splice "step" files into a
// main template. Each adds its programs to a list; glmark2_programs.cpp calls them all.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "compiler/glmark2/glmark2_programs.h"
#include "compiler/glmark2/glmark2_shader_text.h"

namespace tessera::test::glmark2 {

using Vec2 = std::array<float, 2>;
using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;
using ProgramList = std::vector<Glmark2Program>;

// The canvas glmark2 renders to by default; sizes feed texel-step constants.
inline constexpr float kCanvasWidth = 800.0f;
inline constexpr float kCanvasHeight = 600.0f;

// Records one program: both texts as glmark2 hands them to glShaderSource, and their files.
void addProgram(ProgramList& out, std::string name, const ShaderText& vertex,
                const ShaderText& fragment);

// A vertex/fragment pair used as is (no constants, no markers).
void addPlainProgram(ProgramList& out, const TemplateDir& dir, std::string name,
                     const std::string& vertexFile, const std::string& fragmentFile);

// build, texture, shading, bump, pulsar, buffer, ideas, jellyfish, shadow, refract, and the
// text renderer behind show-fps/title.
void addModelScenes(const TemplateDir& dir, ProgramList& out);

// effect2d, desktop, terrain.
void addFilterScenes(const TemplateDir& dir, ProgramList& out);

// conditionals, function, loop.
void addGridScenes(const TemplateDir& dir, ProgramList& out);

}  // namespace tessera::test::glmark2
