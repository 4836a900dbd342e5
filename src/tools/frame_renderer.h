// Renders a scene (scene/) on a Tessera GPU through the pipe context: the C++ API path of
// `tessera render` and of the image tests. One call = one frame = the batches it flushed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/image.h"
#include "driver/batch_report.h"
#include "driver/options.h"
#include "gpu/cp/capture.h"
#include "gpu/preset/preset.h"
#include "gpu/tex/texture_descriptor.h"
#include "scene/scene.h"

namespace tessera::tools {

// How the scene's RGBA8 textures are stored on the GPU: as they are, or encoded (every mip level)
// by the encoders of gpu/tex/compressed/encode.h and sampled from their blocks.
enum class TextureFormat : uint8_t { Rgba8, Etc2, Astc4x4, Astc8x8 };
// "rgba8", "etc2", "astc4x4", "astc8x8".
std::string_view textureFormatName(TextureFormat);
std::optional<TextureFormat> parseTextureFormat(std::string_view);
// The same, throwing tessera::Error naming the known formats for an unknown name.
TextureFormat requireTextureFormat(std::string_view);
// The texture unit format a scene texture is stored in: RGBA8, ETC2_RGB8 (ETC2_RGBA8 when the
// texture has any texel that is not opaque), ASTC_4x4 or ASTC_8x8.
gpu::tex::TexFormat storedFormat(TextureFormat, bool opaque);

struct FrameOptions {
  driver::RenderMode mode = driver::RenderMode::Binning;
  bool capture = false;
  // Frames to render before the measured ones (resources and caches warm, as in an app's loop).
  uint32_t warmupFrames = 0;
  // Frames measured; the result keeps the last frame and the median host time.
  uint32_t measuredFrames = 1;
  // End each frame with depth/stencil invalidated (glDiscardFramebufferEXT): a tiler then
  // never resolves them.
  bool discardDepth = false;
  // Count the fragments rasterized at each pixel of the measured frame (FrameResult::overdraw).
  bool overdraw = false;
  // The format the scene's textures are uploaded in.
  TextureFormat textureFormat = TextureFormat::Rgba8;
  // Samples per pixel of the framebuffer (1, 2 or 4): the image is the resolved one.
  uint32_t samples = 1;
  // Host threads for the bins of render passes (0: defaultThreads()). Nothing but the host
  // time depends on it.
  unsigned threads = 0;
  // Off: the GPU's timing model does not run (the functional model alone): the image and the
  // functional counters are the same, cycles and timed counters stay zero.
  bool timingModel = true;
};

struct FrameResult {
  Image image;                               // row 0 = top
  std::vector<driver::BatchReport> batches;  // of the measured frame
  gpu::cp::Capture capture;                  // last submission, when asked for
  double cpuMilliseconds = 0;                // host time to record and execute the frame
  // Of that, host time in the timing model (the mean over the measured frames; 0 when off).
  double timingMilliseconds = 0;
  std::vector<uint32_t> overdraw;  // fragments rasterized per pixel, row 0 = top (if asked)
};

FrameResult renderFrame(const scene::Scene& scene, const gpu::Preset& preset,
                        const FrameOptions& options);

// The first place two frames differ: "" when the images are byte for byte the same and (with
// `counters`) so is every batch's report (report::batchJson: counters, bytes, timing, per-bin
// rows). Otherwise e.g. "image differs at pixel (3, 1) channel g: 10 vs 11" or "batch 0 report
// differs at /draws: 2 vs 3".
std::string firstDifference(const FrameResult& a, const FrameResult& b, bool counters);

}  // namespace tessera::tools
