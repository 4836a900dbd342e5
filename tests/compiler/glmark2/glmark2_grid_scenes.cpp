// The shader-cost scenes drawn on a grid: conditionals, function and loop. Each repeats a
// "step" of arithmetic N times in either stage; the step files are spliced into the main
// template's $MAIN$ (and function's $PROCESS$) marker.
#include "compiler/glmark2/glmark2_scenes.h"

namespace tessera::test::glmark2 {
namespace {

// Option values of one stage; the defaults are the scenes' option defaults.
struct ConditionalsStage {
  int steps = 1;
  bool conditionals = true;  // each step has an if/else
};
struct FunctionStage {
  int steps = 1;
  bool function = true;  // each step calls process(), which holds the step
  bool medium = false;   // complexity=medium: a longer step
};
struct LoopStage {
  int steps = 1;
  bool loop = true;     // one for loop of `steps` iterations instead of unrolled steps
  bool uniform = true;  // loop bound is a uniform, not a literal
};

// glmark2 builds the spliced code as a shader text of its own, so it carries the precision
// macros (but no precision statements: its stage is unknown) into the middle of main().
ShaderText conditionalsStage(const TemplateDir& dir, const std::string& file,
                             const ConditionalsStage& stage) {
  ShaderText shader(dir, file);
  ShaderText steps(dir);
  for (int i = 0; i < stage.steps; ++i) {
    steps.appendFile(stage.conditionals ? "conditionals-step-conditional.all"
                                        : "conditionals-step-simple.all");
  }
  shader.replace("$MAIN$", steps);
  return shader;
}

ShaderText functionStage(const TemplateDir& dir, const std::string& file,
                         const FunctionStage& stage) {
  const std::string step = stage.medium ? "function-step-medium.all" : "function-step-low.all";
  ShaderText shader(dir, file);
  ShaderText calls(dir);
  for (int i = 0; i < stage.steps; ++i)
    calls.appendFile(stage.function ? "function-call.all" : step);
  if (stage.function) {
    shader.replaceWithFile("$PROCESS$", step);
  } else {
    shader.replace("$PROCESS$", "");
  }
  shader.replace("$MAIN$", calls);
  return shader;
}

ShaderText loopStage(const TemplateDir& dir, const std::string& file, const LoopStage& stage,
                     const std::string& uniform) {
  ShaderText shader(dir, file);
  ShaderText body(dir);
  if (stage.loop) {
    body.appendFile("loop-step-loop.all");
    body.replace("$NLOOPS$", stage.uniform ? uniform : std::to_string(stage.steps));
  } else {
    for (int i = 0; i < stage.steps; ++i) body.appendFile("loop-step-simple.all");
  }
  shader.replace("$MAIN$", body);
  return shader;
}

template <typename Stage>
struct Variant {
  const char* name;
  Stage vertex;
  Stage fragment;
};

void addConditionals(const TemplateDir& dir, ProgramList& out) {
  const std::array<Variant<ConditionalsStage>, 5> variants = {{
      {"conditionals:vertex-steps=0:fragment-steps=0", {.steps = 0}, {.steps = 0}},
      {"conditionals:vertex-steps=0:fragment-steps=5", {.steps = 0}, {.steps = 5}},
      {"conditionals:vertex-steps=5:fragment-steps=0", {.steps = 5}, {.steps = 0}},
      {"conditionals", {}, {}},
      {"conditionals:vertex-steps=5:fragment-steps=5:vertex-conditionals=false:"
       "fragment-conditionals=false",
       {.steps = 5, .conditionals = false},
       {.steps = 5, .conditionals = false}},
  }};
  for (const auto& v : variants) {
    addProgram(out, v.name, conditionalsStage(dir, "conditionals.vert", v.vertex),
               conditionalsStage(dir, "conditionals.frag", v.fragment));
  }
}

void addFunction(const TemplateDir& dir, ProgramList& out) {
  const std::array<Variant<FunctionStage>, 4> variants = {{
      {"function:fragment-steps=5:fragment-complexity=low", {}, {.steps = 5}},
      {"function:fragment-steps=5:fragment-complexity=medium", {}, {.steps = 5, .medium = true}},
      {"function:vertex-steps=5:vertex-complexity=medium", {.steps = 5, .medium = true}, {}},
      {"function:vertex-steps=5:fragment-steps=5:vertex-function=false:fragment-function=false:"
       "vertex-complexity=medium",
       {.steps = 5, .function = false, .medium = true},
       {.steps = 5, .function = false}},
  }};
  for (const auto& v : variants) {
    addProgram(out, v.name, functionStage(dir, "function.vert", v.vertex),
               functionStage(dir, "function.frag", v.fragment));
  }
}

void addLoop(const TemplateDir& dir, ProgramList& out) {
  const std::array<Variant<LoopStage>, 5> variants = {{
      {"loop:vertex-steps=5:fragment-steps=5:fragment-loop=false",
       {.steps = 5},
       {.steps = 5, .loop = false}},
      {"loop:vertex-steps=5:fragment-steps=5:fragment-uniform=false",
       {.steps = 5},
       {.steps = 5, .uniform = false}},
      {"loop:vertex-steps=5:fragment-steps=5:fragment-uniform=true", {.steps = 5}, {.steps = 5}},
      {"loop:vertex-steps=5:fragment-steps=5:vertex-loop=false",
       {.steps = 5, .loop = false},
       {.steps = 5}},
      {"loop:vertex-steps=5:fragment-steps=5:vertex-uniform=false",
       {.steps = 5, .uniform = false},
       {.steps = 5}},
  }};
  for (const auto& v : variants) {
    addProgram(out, v.name, loopStage(dir, "loop.vert", v.vertex, "VertexLoops"),
               loopStage(dir, "loop.frag", v.fragment, "FragmentLoops"));
  }
}

}  // namespace

void addGridScenes(const TemplateDir& dir, ProgramList& out) {
  addConditionals(dir, out);
  addFunction(dir, out);
  addLoop(dir, out);
}

}  // namespace tessera::test::glmark2
