// `tessera bench`: how fast Tessera itself runs on this machine. Host time per frame of the
// built-in scenes at each host thread count (with a check that the image and every counter are
// the same at any count), what the GPU's timing model costs on top of the functional model,
// and, with --scaling, how frame time grows with triangle count and with resolution.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::tools {

struct BenchArgs {
  std::vector<std::string> scenes = {"default", "blend", "stencil", "compositor"};
  uint32_t width = 800, height = 600;
  std::string preset = "adreno-a630";
  std::string mode;  // empty: binning (sysmem on a sysmem-only preset)
  // Host threads for the GPU's bins; the first count is the reference of speedups and checks.
  std::vector<unsigned> threads = {1, 2, 4};
  uint32_t frames = 5;  // measured frames per point, after one warm-up frame (median reported)
  bool scaling = false;
  // The scaling points: triangle counts of the spheres:N scene at width x height, and sizes of
  // the default scene.
  std::vector<uint32_t> triangles = {1000, 4000, 16000, 64000, 256000};
  std::vector<std::pair<uint32_t, uint32_t>> sizes = {
      {320, 240}, {640, 480}, {800, 600}, {1280, 720}, {1920, 1080}};
  std::string csv;   // every measured row as CSV
  std::string plot;  // with scaling: FILE.svg -> FILE-triangles.svg and FILE-resolution.svg
};

// The two chart files --plot FILE.svg writes: FILE-triangles.svg and FILE-resolution.svg (one
// chart each: triangle counts and pixel counts cannot share an x axis).
std::pair<std::string, std::string> benchPlotPaths(const std::string& plot);

// Checks everything (preset, mode, scenes, thread counts, frames, output paths) before the first
// frame, throwing tessera::Error; then measures and prints the tables. Throws tessera::Error if
// an image or a counter differs between thread counts (it never may).
int runBench(const BenchArgs& args);

}  // namespace tessera::tools
