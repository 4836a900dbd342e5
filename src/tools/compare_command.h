// `tessera compare`: one scene on several presets and rendering modes, one table of what the
// timing model says each costs (frame cycles and time, bytes, the bound block, busy shares).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tools {

struct CompareArgs {
  std::string model = "default";
  uint32_t width = 800, height = 600;
  std::vector<std::string> presets;  // empty: every preset
  std::vector<std::string> modes;    // empty: sysmem, naive, binning, binning+lrz(+ir)
  std::vector<std::string> sets;     // "key=value" preset overrides applied to every preset
  std::string csv;                   // also write the table as CSV here
  // Scene texture formats (tools::TextureFormat names: rgba8, etc2, astc4x4, astc8x8) to render
  // every (preset, mode) pair with; empty: RGBA8 only, and the table keeps its usual columns.
  std::vector<std::string> textureFormats;
  uint32_t samples = 1;  // framebuffer samples per pixel (1, 2, 4)
  unsigned threads = 0;  // host threads for the GPU's bins (0: the default)
};

// Renders every (preset, mode[, texture format]) after a warm-up frame (visibility streams sized as
// in an application's loop) and prints the table; throws tessera::Error on a bad preset, mode,
// override or model before rendering anything.
int runCompare(const CompareArgs& args);

}  // namespace tessera::tools
