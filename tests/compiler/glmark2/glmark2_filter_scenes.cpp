// Scenes whose fragment shaders are generated image filters: effect2d's convolution kernels,
// desktop's window blur, and terrain's render-to-texture passes (bloom, tilt-shift blur).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <sstream>

#include "compiler/glmark2/glmark2_scenes.h"

namespace tessera::test::glmark2 {
namespace {

// ---- effect2d -------------------------------------------------------------------------------

struct Kernel {
  std::vector<float> weights;  // row-major
  int width = 0;
  int height = 0;
};

// The kernel option: rows separated by ';' (a trailing one is ignored), weights by ','.
Kernel parseKernel(const std::string& option) {
  Kernel kernel;
  std::istringstream rows(option);
  for (std::string row; std::getline(rows, row, ';'); ++kernel.height) {
    std::istringstream weights(row);
    kernel.width = 0;
    for (std::string weight; std::getline(weights, weight, ','); ++kernel.width) {
      kernel.weights.push_back(std::stof(weight));
    }
  }
  return kernel;
}

// glmark2's normalize=true: divide by the sum, or by the sum of the positive weights when the
// kernel sums to zero (an edge detector).
void normalizeKernel(Kernel& kernel) {
  float sum = 0.0f;
  for (float w : kernel.weights) sum += w;
  if (std::fabs(sum) < 1e-8f) {
    sum = 0.0f;
    for (float w : kernel.weights) sum += w > 0.0f ? w : 0.0f;
  }
  if (sum == 0.0f) return;
  for (float& w : kernel.weights) w /= sum;
}

void addEffect2D(const TemplateDir& dir, ProgramList& out, const std::string& option) {
  Kernel kernel = parseKernel(option);
  normalizeKernel(kernel);
  ShaderText convolution(dir, "effect-2d-convolution.frag");
  convolution.addConst("TextureStepX", 1.0f / kCanvasWidth);
  convolution.addConst("TextureStepY", 1.0f / kCanvasHeight);
  std::string weights;
  std::string sum = "result = ";
  for (int i = 0; i < static_cast<int>(kernel.weights.size()); ++i) {
    const std::string index = std::to_string(i);
    weights += "const float Kernel" + index + " = " + fixedFloat(kernel.weights[i]) + ";\n";
    // Texel offset from the kernel centre; y grows upwards as in GL texture coordinates.
    const int dx = i % kernel.width - (kernel.width - 1) / 2;
    const int dy = -(i / kernel.width - (kernel.height - 1) / 2);
    sum += "texture2D(Texture0, TextureCoord + vec2(" + fixedFloat(dx, 1) + " * TextureStepX, " +
           fixedFloat(dy, 1) + " * TextureStepY)) * Kernel" + index;
    if (i + 1 != static_cast<int>(kernel.weights.size())) sum += " +\n";
  }
  convolution.addGlobal(weights);
  convolution.replace("$CONVOLUTION$", sum + ";\n");
  // The finished text is appended to a second shader text, so its preamble appears twice.
  ShaderText fragment(dir);
  fragment.append(convolution);
  addProgram(out, "effect2d:kernel=" + option, ShaderText(dir, "effect-2d.vert"), fragment);
}

// ---- Gaussian blurs (desktop and terrain) ---------------------------------------------------

enum class BlurDirection { kHorizontal, kVertical, kBoth };

// Weights of a (2 * radius + 1)-tap Gaussian, centre first; sigma below 1 is raised to 1.
std::vector<float> gaussianWeights(unsigned radius, float sigma) {
  sigma = std::max(sigma, 1.0f);
  const float s2 = 2.0f * sigma * sigma;
  std::vector<float> weights;
  for (unsigned i = 0; i <= radius; ++i) {
    const float x = static_cast<float>(i);
    weights.push_back(1.0f / std::sqrt(std::numbers::pi_v<float> * s2) * std::exp(-x * x / s2));
  }
  return weights;
}

// "result = <sum of taps>;" sampling Texture0 around TextureCoord; xStep/yStep name the texel
// step variables. Each tap's weight is Kernel<|offset|> (a product of two in 2D).
std::string blurSum(BlurDirection direction, unsigned radius, const std::string& xStep,
                    const std::string& yStep) {
  const int r = static_cast<int>(radius);
  std::string sum = "result = \n";
  const auto offset = [](int o) { return std::to_string(o) + ".0 * "; };
  const auto kernel = [](int o) { return " * Kernel" + std::to_string(std::abs(o)); };
  for (int i = -r; i <= r; ++i) {
    if (direction == BlurDirection::kHorizontal) {
      sum += "texture2D(Texture0, TextureCoord + vec2(" + offset(i) + xStep + ", 0.0))" +
             kernel(i) + " +\n";
    } else if (direction == BlurDirection::kVertical) {
      sum += "texture2D(Texture0, TextureCoord + vec2(0.0, " + offset(i) + yStep + "))" +
             kernel(i) + " +\n";
    } else {
      for (int j = -r; j <= r; ++j) {
        sum += "texture2D(Texture0, TextureCoord + vec2(" + offset(i) + xStep + ", " + offset(j) +
               yStep + "))" + kernel(i) + kernel(j) + " +\n";
      }
    }
  }
  return sum + (direction == BlurDirection::kBoth ? " 0.0;\n" : "0.0 ;\n");
}

bool blursX(BlurDirection d) {
  return d != BlurDirection::kVertical;
}
bool blursY(BlurDirection d) {
  return d != BlurDirection::kHorizontal;
}

// ---- desktop --------------------------------------------------------------------------------

void addDesktopBlur(const TemplateDir& dir, ProgramList& out, const std::string& name,
                    BlurDirection direction) {
  constexpr unsigned kRadius = 5;  // blur-radius default
  // Window textures: window-size 0.35 of the canvas.
  constexpr float kWindowWidth = 0.35f * kCanvasWidth;
  constexpr float kWindowHeight = 0.35f * kCanvasHeight;
  ShaderText fragment(dir, "desktop-blur.frag");
  const std::vector<float> weights = gaussianWeights(kRadius, kRadius / 3.0f);
  for (unsigned i = 0; i < weights.size(); ++i) {
    fragment.addConst("Kernel" + std::to_string(i), weights[i]);
  }
  fragment.replace("$CONVOLUTION$", blurSum(direction, kRadius, "TextureStepX", "TextureStepY"));
  if (blursX(direction)) fragment.addConst("TextureStepX", 1.0f / kWindowWidth);
  if (blursY(direction)) fragment.addConst("TextureStepY", 1.0f / kWindowHeight);
  addProgram(out, name, ShaderText(dir, "desktop.vert"), fragment);
}

void addDesktop(const TemplateDir& dir, ProgramList& out) {
  // Both effects draw windows with this pair; effect=shadow needs nothing else.
  addPlainProgram(out, dir, "desktop/window", "desktop.vert", "desktop.frag");
  const std::string blur = "desktop:effect=blur:blur-radius=5";
  addDesktopBlur(dir, out, blur + ":separable=true/blur-h", BlurDirection::kHorizontal);
  addDesktopBlur(dir, out, blur + ":separable=true/blur-v", BlurDirection::kVertical);
  addDesktopBlur(dir, out, blur + ":separable=false/blur", BlurDirection::kBoth);
}

// ---- terrain --------------------------------------------------------------------------------

struct TerrainBlur {
  const char* pass;
  unsigned radius;
  float sigma;
  BlurDirection direction;
  float step;       // texel step along the blur direction
  float tiltShift;  // texture row kept sharp: the step shrinks to zero there
};

void addTerrainBlur(const TemplateDir& dir, ProgramList& out, const TerrainBlur& blur) {
  ShaderText fragment(dir, "terrain-blur.frag");
  std::vector<float> weights = gaussianWeights(blur.radius, blur.sigma);
  float sum = 0.0f;
  for (float w : weights) sum += w;
  sum += sum - weights[0];  // every weight but the centre's is used twice
  for (unsigned i = 0; i < weights.size(); ++i) {
    fragment.addConst("Kernel" + std::to_string(i), weights[i] / sum);
  }
  fragment.addConst("TiltShift", blur.tiltShift);
  // The step shrinks towards the TiltShift row; a tilt of exactly 1.0 means a constant step.
  std::string steps;
  const std::string scale = " * abs(TiltShift - TextureCoord.y) / abs(1.0 - TiltShift);\n";
  if (blursX(blur.direction)) {
    steps += blur.tiltShift == 1.0f ? "const float stepX = TextureStepX;\n"
                                    : "float stepX = TextureStepX" + scale;
  }
  if (blursY(blur.direction)) {
    steps += blur.tiltShift == 1.0f ? "const float stepY = TextureStepY;\n"
                                    : "float stepY = TextureStepY" + scale;
  }
  fragment.replace("$CONVOLUTION$", steps + blurSum(blur.direction, blur.radius, "stepX", "stepY"));
  if (blursX(blur.direction)) fragment.addConst("TextureStepX", blur.step);
  if (blursY(blur.direction)) fragment.addConst("TextureStepY", blur.step);
  addProgram(out, std::string("terrain/") + blur.pass, ShaderText(dir, "terrain-texture.vert"),
             fragment);
}

// The renderer chain with bloom and tilt-shift on (the defaults). The final copy pass used
// when only bloom is on has the overlay pass's text.
void addTerrain(const TemplateDir& dir, ProgramList& out) {
  addPlainProgram(out, dir, "terrain/noise", "terrain-texture.vert", "terrain-noise.frag");
  addPlainProgram(out, dir, "terrain/normal-map", "terrain-texture.vert", "terrain-normalmap.frag");
  addPlainProgram(out, dir, "terrain/luminance", "terrain-texture.vert", "terrain-luminance.frag");
  addPlainProgram(out, dir, "terrain/terrain", "terrain.vert", "terrain.frag");
  constexpr float kBloomSize = 256.0f;
  const std::array<TerrainBlur, 4> blurs = {{
      {"bloom-h", 2, 4.0f, BlurDirection::kHorizontal, 1.0f / kCanvasWidth, 0.0f},
      {"bloom-v", 2, 4.0f, BlurDirection::kVertical, 1.0f / kBloomSize, 0.0f},
      {"tilt-shift-h", 4, 2.7f, BlurDirection::kHorizontal, 1.0f / kCanvasWidth, 0.5f},
      {"tilt-shift-v", 4, 2.7f, BlurDirection::kVertical, 1.0f / kCanvasHeight, 0.5f},
  }};
  addTerrainBlur(dir, out, blurs[0]);
  addTerrainBlur(dir, out, blurs[1]);
  addPlainProgram(out, dir, "terrain/overlay", "terrain-texture.vert", "terrain-overlay.frag");
  addTerrainBlur(dir, out, blurs[2]);
  addTerrainBlur(dir, out, blurs[3]);
}

}  // namespace

void addFilterScenes(const TemplateDir& dir, ProgramList& out) {
  // The two default-benchmark kernels (edge detect, 5x3 box blur) and the option's default.
  for (const char* kernel :
       {"0,1,0;1,-4,1;0,1,0;", "1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;", "0,0,0;0,1,0;0,0,0"}) {
    addEffect2D(dir, out, kernel);
  }
  addDesktop(dir, out);
  addTerrain(dir, out);
}

}  // namespace tessera::test::glmark2
