#include "report/frame_reporter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/image.h"

namespace tessera::report {
namespace {

void writeText(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw Error("cannot write '" + path + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error("cannot write '" + path + "': " + ec.message());
}

// The surface's colour buffer as an image, top row first (GL keeps the bottom row first).
Image backBuffer(driver::Context& ctx, const SwapSurface& s) {
  const std::vector<uint8_t> texels = ctx.readSurface(s.color);
  Image img = Image::blank(s.width, s.height);
  const bool rgb565 = s.rgb565;
  for (uint32_t y = 0; y < img.height; ++y) {
    const size_t row = size_t{img.height - 1 - y} * img.width;
    for (uint32_t x = 0; x < img.width; ++x) {
      uint8_t* p = img.pixel(x, y);
      if (rgb565) {
        uint16_t v;
        std::memcpy(&v, texels.data() + (row + x) * 2, 2);
        const uint32_t r = v >> 11, g = (v >> 5) & 63, b = v & 31;
        p[0] = static_cast<uint8_t>(r << 3 | r >> 2);
        p[1] = static_cast<uint8_t>(g << 2 | g >> 4);
        p[2] = static_cast<uint8_t>(b << 3 | b >> 2);
        p[3] = 255;
      } else {
        std::memcpy(p, texels.data() + (row + x) * 4, 4);
      }
    }
  }
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
  const std::vector<driver::BatchReport> batches = ctx.takeReports();
  if (partial && batches.empty()) return;
  const uint64_t number = totals_.frames() + 1;
  const bool write = enabled() && frames_.contains(number);
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
    writeText(path(number, "json"), glFrameJson(f, batches).dump(2) + "\n");
    if (capture_ && !partial && surface && surface->color)
      writePng(backBuffer(ctx, *surface), path(number, "png"));
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

void FrameReporter::writeSummary() {
  if (!enabled()) return;
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    writeText((std::filesystem::path(dir_) / "summary.json").string(),
              totals_.toJson(preset_, mode_).dump(2) + "\n");
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

}  // namespace tessera::report
