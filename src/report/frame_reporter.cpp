#include "report/frame_reporter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "common/image.h"
#include "common/text_file.h"
#include "gpu/rb/color_format.h"

namespace tessera::report {
namespace {

// The surface's colour buffer as an image, top row first (GL keeps the bottom row first).
Image backBuffer(driver::Context& ctx, const SwapSurface& s) {
  const std::vector<uint8_t> texels = ctx.readSurface(s.color);
  Image img = Image::blank(s.width, s.height);
  const size_t bpp = gpu::rb::layoutOf(s.format).bytes;
  for (uint32_t y = 0; y < img.height; ++y)  // bottom row first in the surface
    gpu::rb::toRgba8(s.format, texels.data() + size_t{img.height - 1 - y} * img.width * bpp,
                     img.width, img.pixel(0, y));
  return img;
}

}  // namespace

FrameReporter::FrameReporter(std::string preset, std::string mode)
    : preset_(std::move(preset)), mode_(std::move(mode)) {
  const char* dir = std::getenv("TESSERA_REPORT_DIR");
  const char* frames = std::getenv("TESSERA_REPORT_FRAMES");
  const char* capture = std::getenv("TESSERA_CAPTURE_FRAMES");
  if (!dir || !*dir) return;
  if (frames && *frames) {
    const auto range = parseFrameRange(frames);
    if (!range) {
      fail(std::string("bad TESSERA_REPORT_FRAMES '") + frames + "': expected N or A-B (from 1)");
      return;
    }
    frames_ = *range;
  }
  dir_ = dir;
  capture_ = capture && std::strcmp(capture, "1") == 0;
}

void FrameReporter::fail(const std::string& what) {
  if (failed_) return;
  failed_ = true;
  std::fprintf(stderr, "tessera: report: %s\n", what.c_str());
}

std::string FrameReporter::path(uint64_t frame, const char* extension) const {
  char name[48];
  std::snprintf(name, sizeof name, "frame-%05llu.%s", static_cast<unsigned long long>(frame),
                extension);
  return (std::filesystem::path(dir_) / name).string();
}

void FrameReporter::endFrame(driver::Context& ctx, const SwapSurface* surface, bool partial) {
  const uint64_t number = totals_.frames() + 1;
  const bool write = enabled() && frames_.contains(number);
  // A frame that is written waits for its batches. Otherwise the totals take the batches that
  // have retired, and the GPU runs the others while the application records the next frame.
  const std::vector<driver::BatchReport> taken =
      write || partial ? ctx.takeReports() : ctx.takeRetiredReports();
  // Batches of earlier frames that had not retired at their swap count in the totals only. A
  // swap has ended its frame already; a partial frame is the one still open.
  const uint64_t frame =
      partial || ctx.framesEnded() == 0 ? ctx.framesEnded() : ctx.framesEnded() - 1;
  std::vector<driver::BatchReport> batches, late;
  for (const driver::BatchReport& b : taken) (b.frame == frame ? batches : late).push_back(b);
  totals_.addBatches(late);
  if (partial && batches.empty()) return;
  totals_.addFrame(batches, write);
  if (!write) return;
  try {
    if (!dirReady_) {
      std::error_code ec;
      std::filesystem::create_directories(dir_, ec);
      if (ec) throw Error("cannot create '" + dir_ + "': " + ec.message());
      dirReady_ = true;
    }
    GlFrame f;
    f.number = number;
    f.partial = partial;
    f.preset = preset_;
    f.mode = mode_;
    if (surface) {
      f.width = surface->width;
      f.height = surface->height;
    }
    writeTextFile(path(number, "json"), glFrameJson(f, batches).dump(2) + "\n");
    if (capture_ && !partial && surface && surface->color)
      writePng(backBuffer(ctx, *surface), path(number, "png"));
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

void FrameReporter::collectLate(driver::Context& ctx) {
  std::vector<driver::BatchReport> late = ctx.takeReports();
  std::erase_if(late, [&](const driver::BatchReport& b) { return b.frame >= ctx.framesEnded(); });
  totals_.addBatches(late);
}

void FrameReporter::writeSummary() {
  if (!enabled()) return;
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    writeTextFile((std::filesystem::path(dir_) / "summary.json").string(),
                  totals_.toJson(preset_, mode_).dump(2) + "\n");
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

}  // namespace tessera::report
