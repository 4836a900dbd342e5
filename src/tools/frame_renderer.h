// Renders a scene (scene/) on a Tessera GPU through the pipe context: the C++ API path of
// `tessera render` and of the image tests. One call = one frame = the batches it flushed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"
#include "driver/batch_report.h"
#include "driver/options.h"
#include "gpu/cp/capture.h"
#include "gpu/preset/preset.h"
#include "scene/scene.h"

namespace tessera::tools {

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
};

struct FrameResult {
  Image image;                               // row 0 = top
  std::vector<driver::BatchReport> batches;  // of the measured frame
  gpu::cp::Capture capture;                  // last submission, when asked for
  double cpuMilliseconds = 0;                // host time to record and execute the frame
  std::vector<uint32_t> overdraw;  // fragments rasterized per pixel, row 0 = top (if asked)
};

FrameResult renderFrame(const scene::Scene& scene, const gpu::Preset& preset,
                        const FrameOptions& options);

}  // namespace tessera::tools
