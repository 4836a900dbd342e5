// The per-frame reports of a GL program running on Tessera (`tessera run --report DIR`): what
// libEGL writes as DIR/frame-NNNNN.json at each eglSwapBuffers and DIR/summary.json at the end.
// Field by field in docs/run.md.
#pragma once
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "driver/batch_report.h"

namespace tessera::report {

struct GlFrame {
  uint64_t number = 0;             // 1-based, counted over every eglSwapBuffers of the process
  bool partial = false;            // ended by eglTerminate or context destruction, not by a swap
  std::string preset, mode;        // the display's preset and requested rendering mode
  uint32_t width = 0, height = 0;  // the surface swapped (0x0 without one)
};

// The frame's totals (draws, clears, bus bytes per client, every block's counters summed over
// its batches), the bin layout of its main batch (the one with the most draws) and each batch.
nlohmann::json glFrameJson(const GlFrame& frame, std::span<const driver::BatchReport> batches);

// What a whole run did: every frame ended, whether or not its report was written.
class RunTotals final {
 public:
  void addFrame(std::span<const driver::BatchReport> batches, bool written);
  // Batches of frames counted already (they retired after their frame's swap).
  void addBatches(std::span<const driver::BatchReport> batches);
  nlohmann::json toJson(const std::string& preset, const std::string& mode) const;
  uint64_t frames() const { return frames_; }

 private:
  uint64_t frames_ = 0, framesWritten_ = 0, draws_ = 0, clears_ = 0, batches_ = 0;
  gpu::BusStats bus_;
};

}  // namespace tessera::report
