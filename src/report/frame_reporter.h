// Per-frame reports of a GL program run with `tessera run --report DIR` (docs/run.md): at each
// eglSwapBuffers the frame's batch reports are taken from the driver context — always, so that a
// program that runs for hours does not pile them up — and, when TESSERA_REPORT_DIR is set, written
// as DIR/frame-NNNNN.json (and DIR/frame-NNNNN.png with TESSERA_CAPTURE_FRAMES=1) for the frames
// TESSERA_REPORT_FRAMES selects; DIR/summary.json totals the run.
#pragma once
#include <cstdint>
#include <string>

#include "driver/context.h"
#include "report/frame_range.h"
#include "report/gl_frame_json.h"

namespace tessera::report {

// The surface a frame was presented from: its colour buffer.
struct SwapSurface {
  pipe::ResourceId color = pipe::kNoResource;
  uint32_t width = 0, height = 0;
  pipe::ColorFormat format = pipe::ColorFormat::RGBA8;
};

class FrameReporter final {
 public:
  // Reads the report settings from the environment. A bad TESSERA_REPORT_FRAMES is reported
  // (`tessera: report: ...`) and turns reports off.
  FrameReporter(std::string preset, std::string mode);

  bool enabled() const { return !dir_.empty(); }
  uint64_t frames() const { return totals_.frames(); }

  // Ends the frame `ctx` rendered into `surface` (its back buffer just before presenting, read as
  // glReadPixels reads it: the driver's readSurface; may be null). A `partial` frame ends without a
  // swap (eglTerminate, context destruction): it counts only if it submitted batches, and its image
  // is not captured.
  void endFrame(driver::Context& ctx, const SwapSurface* surface, bool partial);
  // Waits for the batches of the frames `ctx` ended that were still running at their swap, and
  // counts them in the totals (at exit, before the summary).
  void collectLate(driver::Context& ctx);

  // Writes DIR/summary.json (again, with the latest totals, if called again).
  void writeSummary();

 private:
  void fail(const std::string& what);  // one `tessera: report:` line per process
  std::string path(uint64_t frame, const char* extension) const;

  std::string dir_, preset_, mode_;
  FrameRange frames_;
  bool capture_ = false, failed_ = false, dirReady_ = false;
  RunTotals totals_;
};

}  // namespace tessera::report
