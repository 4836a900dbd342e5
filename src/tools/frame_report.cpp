#include "tools/frame_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "report/counters_json.h"

namespace tessera::tools {
namespace {

std::string bytesText(uint64_t b) {
  char buf[32];
  if (b >= 10ull << 20)
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / 1048576.0);
  else if (b >= 10ull << 10)
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

// The timing model's view: frame time, what bound it and every block's busy share, beside the
// same frame in sysmem mode.
std::string timingTable(const gpu::perf::SubmissionTiming& t,
                        const gpu::perf::SubmissionTiming& s) {
  std::ostringstream o;
  char line[160];
  std::snprintf(line, sizeof line, "  %-28s %.3f ms (%.0f cycles at %g MHz), bound by %s\n",
                "GPU time (timing model)", t.milliseconds(), t.cycles, t.clockMHz,
                std::string(gpu::perf::blockName(t.bound)).c_str());
  o << line;
  std::snprintf(line, sizeof line, "  %-28s %.3f ms (%.0f cycles), bound by %s\n",
                "GPU time in sysmem mode", s.milliseconds(), s.cycles,
                std::string(gpu::perf::blockName(s.bound)).c_str());
  o << line;
  o << "  busy %  ";
  for (size_t i = 0; i < gpu::perf::kBlocks; ++i) {
    const auto b = static_cast<gpu::perf::Block>(i);
    std::snprintf(line, sizeof line, " %s %.0f%%", std::string(gpu::perf::blockName(b)).c_str(),
                  t.busyPercent(b));
    o << line;
  }
  o << "\n";
  return o.str();
}

}  // namespace

const driver::BatchReport* mainBatch(const FrameResult& frame) {
  const driver::BatchReport* main = nullptr;
  for (const auto& b : frame.batches)
    if (!main || b.draws > main->draws) main = &b;
  return main;
}

FrameFigures computeFigures(const scene::Scene& s, const gpu::Preset& preset,
                            const FrameResult& frame, const FrameResult& sysmem) {
  FrameFigures f;
  f.scene = s.name;
  f.preset = std::string(preset.name);
  f.width = s.width;
  f.height = s.height;
  f.trianglesIn = s.triangleCount();
  for (const auto& b : sysmem.batches)
    f.trianglesAfterCulling +=
        b.stats.pc.primitivesIn - b.stats.pc.trivialRejects - b.stats.pc.culled;
  f.bus = report::sumBus(frame.batches);
  f.sysmemBus = report::sumBus(sysmem.batches);
  f.timing = report::frameTiming(frame.batches);
  f.sysmemTiming = report::frameTiming(sysmem.batches);
  for (const auto& b : frame.batches) {
    f.mode = std::string(driver::renderModeName(b.mode));
    f.fragmentsShaded += b.stats.fragment.fragmentsShaded;
    f.verticesShaded += b.stats.pipeline.verticesShaded + b.stats.pipeline.binningVerticesShaded;
    f.visibilityOverflow |= b.visibilityOverflow;
    f.blockResolve |= b.blockResolve;
    f.fullCoverSkipped += b.stats.fragment.fullCoverSkipped;
    f.blocksResolvedEarly += b.stats.blockResolve.resolvedEarly;
    f.blocksResolvedAtEnd += b.stats.blockResolve.resolvedAtEnd;
    f.blocksUntouched += b.stats.blockResolve.blocksUntouched;
    f.restoresSkipped += b.stats.blockResolve.restoresSkipped;
  }
  // The per-bin figures come from the frame's main batch: the one with the most draws.
  const driver::BatchReport* main = mainBatch(frame);
  if (main && main->layout) {
    const auto& l = *main->layout;
    f.bins = static_cast<uint32_t>(l.bins.size());
    f.binW = l.binW;
    f.binH = l.binH;
    f.pipes = static_cast<uint32_t>(l.pipes.size());
    f.binsX = l.nx;
    f.binsY = l.ny;
    if (main->mode == driver::RenderMode::Binning) {
      f.trianglesPerBin.assign(main->stats.vsc.trianglesPerBin.begin(),
                               main->stats.vsc.trianglesPerBin.end());
      f.trianglesBinned = main->stats.vsc.binHits;
    } else {
      // Naive tiling draws everything in every bin: count the triangles that reached each bin's
      // rasterizer.
      for (const auto& r : main->stats.pipeline.bins) f.trianglesPerBin.push_back(r.triangles);
      for (uint64_t t : f.trianglesPerBin) f.trianglesBinned += t;
    }
  } else if (main) {
    f.bins = 1;
    f.binW = s.width;
    f.binH = s.height;
    f.binsX = f.binsY = 1;
    f.trianglesPerBin = {f.trianglesAfterCulling};
    f.trianglesBinned = f.trianglesAfterCulling;
  }
  if (!f.trianglesPerBin.empty()) {
    f.maxTrianglesPerBin = *std::max_element(f.trianglesPerBin.begin(), f.trianglesPerBin.end());
    f.avgTrianglesPerBin = double(f.trianglesBinned) / double(f.trianglesPerBin.size());
  }
  return f;
}

std::string summaryTable(const FrameFigures& f) {
  std::ostringstream o;
  char line[160];
  auto row = [&](const char* k, const std::string& v) {
    std::snprintf(line, sizeof line, "  %-28s %s\n", k, v.c_str());
    o << line;
  };
  o << "Tessera frame: " << f.scene << " " << f.width << "x" << f.height << " on " << f.preset
    << " (" << f.mode << ")\n";
  row("bins", std::to_string(f.bins) + " (" + std::to_string(f.binsX) + "x" +
                  std::to_string(f.binsY) + " of " + std::to_string(f.binW) + "x" +
                  std::to_string(f.binH) + ")");
  row("VSC pipes", std::to_string(f.pipes));
  row("triangles in", std::to_string(f.trianglesIn));
  row("triangles after culling", std::to_string(f.trianglesAfterCulling));
  row("triangles binned", std::to_string(f.trianglesBinned) + " (bin hits)");
  std::snprintf(line, sizeof line, "%.1f / %llu", f.avgTrianglesPerBin,
                static_cast<unsigned long long>(f.maxTrianglesPerBin));
  row("triangles per bin avg / max", line);
  row("vertices shaded", std::to_string(f.verticesShaded));
  row("fragments shaded", std::to_string(f.fragmentsShaded));
  if (f.blockResolve) {
    row("interleaved resolve", std::to_string(f.blocksResolvedEarly) + " blocks while rendering, " +
                                   std::to_string(f.blocksResolvedAtEnd) + " after, " +
                                   std::to_string(f.blocksUntouched) + " untouched");
    row("full-cover skips", std::to_string(f.fullCoverSkipped) + " fragments, " +
                                std::to_string(f.restoresSkipped) + " block restores");
  }
  if (f.visibilityOverflow)
    row("visibility streams", "OVERFLOWED (bins drew everything; grown for next frame)");
  o << "  bytes moved                   read         write    | sysmem mode: read    write\n";
  for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i) {
    const auto c = static_cast<gpu::BusClient>(i);
    if (c == gpu::BusClient::Host) continue;
    std::snprintf(line, sizeof line, "    %-24s %12s %12s   | %12s %12s\n",
                  std::string(gpu::busClientName(c)).c_str(), bytesText(f.bus[c].readBytes).c_str(),
                  bytesText(f.bus[c].writeBytes).c_str(),
                  bytesText(f.sysmemBus[c].readBytes).c_str(),
                  bytesText(f.sysmemBus[c].writeBytes).c_str());
    o << line;
  }
  std::snprintf(line, sizeof line, "    %-24s %25s   | %25s\n", "total",
                bytesText(f.bus.totalGpuBytes()).c_str(),
                bytesText(f.sysmemBus.totalGpuBytes()).c_str());
  o << line;
  // Texture reads against the framebuffer's traffic (restore + resolve when tiling, the render
  // backend's reads and writes in sysmem mode): which of the two the frame's bandwidth goes to.
  auto framebufferBytes = [](const gpu::BusStats& b) {
    using gpu::BusClient;
    return b[BusClient::GmemRestore].readBytes + b[BusClient::GmemRestore].writeBytes +
           b[BusClient::GmemResolve].readBytes + b[BusClient::GmemResolve].writeBytes +
           b[BusClient::RenderBackend].readBytes + b[BusClient::RenderBackend].writeBytes;
  };
  std::snprintf(line, sizeof line, "  %-28s %s / %s   | %s / %s\n", "texture / framebuffer bytes",
                bytesText(f.bus[gpu::BusClient::Texture].readBytes).c_str(),
                bytesText(framebufferBytes(f.bus)).c_str(),
                bytesText(f.sysmemBus[gpu::BusClient::Texture].readBytes).c_str(),
                bytesText(framebufferBytes(f.sysmemBus)).c_str());
  o << line;
  o << timingTable(f.timing, f.sysmemTiming);
  return o.str();
}

nlohmann::json reportJson(const FrameFigures& f, const FrameResult& frame) {
  using nlohmann::json;
  json j;
  j["scene"] = f.scene;
  j["preset"] = f.preset;
  j["mode"] = f.mode;
  j["size"] = {f.width, f.height};
  j["bins"] = {{"count", f.bins}, {"nx", f.binsX},    {"ny", f.binsY},
               {"width", f.binW}, {"height", f.binH}, {"pipes", f.pipes}};
  j["triangles"] = {{"in", f.trianglesIn},
                    {"after_culling", f.trianglesAfterCulling},
                    {"binned", f.trianglesBinned},
                    {"avg_per_bin", f.avgTrianglesPerBin},
                    {"max_per_bin", f.maxTrianglesPerBin},
                    {"per_bin", f.trianglesPerBin}};
  j["vertices_shaded"] = f.verticesShaded;
  j["fragments_shaded"] = f.fragmentsShaded;
  j["interleaved_resolve"] = {{"on", f.blockResolve},
                              {"full_cover_skipped_fragments", f.fullCoverSkipped},
                              {"blocks_resolved_early", f.blocksResolvedEarly},
                              {"blocks_resolved_at_end", f.blocksResolvedAtEnd},
                              {"blocks_untouched", f.blocksUntouched},
                              {"restores_skipped", f.restoresSkipped}};
  j["visibility_overflow"] = f.visibilityOverflow;
  j["bytes"] = report::busJson(f.bus);
  j["bytes_sysmem_mode"] = report::busJson(f.sysmemBus);
  j["host_ms"] = frame.cpuMilliseconds;
  j["timing"] = report::timingJson(f.timing);
  j["timing_sysmem_mode"] = report::timingJson(f.sysmemTiming);
  json batches = json::array();
  for (const auto& b : frame.batches) batches.push_back(report::batchJson(b));
  j["batches"] = batches;
  return j;
}

Image triangleHeatmap(const FrameFigures& f, const FrameResult& frame) {
  // Each bin's square is shaded from dark blue (no triangles) to yellow (the busiest bin) over
  // the frame, dimmed to 40% so the frame's shapes stay recognisable.
  Image img = frame.image;
  const double maxT = f.maxTrianglesPerBin ? double(f.maxTrianglesPerBin) : 1.0;
  if (f.binsX == 0 || f.trianglesPerBin.size() != size_t{f.binsX} * f.binsY) return img;
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x) {
      const uint32_t wy = img.height - 1 - y;  // bins are in GL window coordinates
      const uint32_t bx = std::min(f.binsX - 1, x / std::max(1u, f.binW));
      const uint32_t by = std::min(f.binsY - 1, wy / std::max(1u, f.binH));
      const double t = double(f.trianglesPerBin[by * f.binsX + bx]) / maxT;
      uint8_t* p = img.pixel(x, y);
      const bool edge = (x % std::max(1u, f.binW)) == 0 || (wy % std::max(1u, f.binH)) == 0;
      const double heat[3] = {255 * t, 200 * t, 255 * (1 - t) * 0.6};
      for (int c = 0; c < 3; ++c)
        p[c] = edge ? 255 : static_cast<uint8_t>(0.4 * p[c] + 0.6 * heat[c]);
      p[3] = 255;
    }
  return img;
}

std::string frameTimeCsvHeader() {
  return "cycles,milliseconds";
}

std::string frameTimeCsv(const gpu::perf::SubmissionTiming& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f,%.6f", t.cycles, t.milliseconds());
  return buf;
}

std::string boundBusyCsvHeader() {
  std::string h = "bound";
  for (std::string_view b : gpu::perf::kBlockNames) h += ",busy_" + std::string(b);
  return h;
}

std::string boundBusyCsv(const gpu::perf::SubmissionTiming& t) {
  std::string row(gpu::perf::blockName(t.bound));
  char buf[32];
  for (size_t b = 0; b < gpu::perf::kBlocks; ++b) {
    std::snprintf(buf, sizeof buf, ",%.2f", t.busyPercent(static_cast<gpu::perf::Block>(b)));
    row += buf;
  }
  return row;
}

Image resolveOrderHeatmap(const FrameResult& frame) {
  Image img = Image::blank(frame.image.width, frame.image.height);
  const driver::BatchReport* main = mainBatch(frame);
  if (!main) return img;
  const auto& events = main->stats.blockResolves;
  // Each bin's resolves are numbered from 0; a block resolved twice (colour, then depth, by the
  // RESOLVE events) keeps its first position.
  std::vector<uint32_t> perBin;
  for (const auto& e : events) {
    if (e.bin >= perBin.size()) perBin.resize(e.bin + 1, 0);
    perBin[e.bin] = std::max(perBin[e.bin], e.order + 1);
  }
  std::vector<uint8_t> done(size_t{img.width} * img.height, 0);
  for (const auto& e : events) {
    const double t = perBin[e.bin] > 1 ? double(e.order) / double(perBin[e.bin] - 1) : 0.0;
    const uint8_t rgb[3] = {uint8_t(255 * t), uint8_t(80 * (1 - t)), uint8_t(255 * (1 - t))};
    for (int wy = std::max(0, e.rect.y0); wy < std::min<int>(e.rect.y1, img.height); ++wy)
      for (int x = std::max(0, e.rect.x0); x < std::min<int>(e.rect.x1, img.width); ++x) {
        const uint32_t y = img.height - 1 - uint32_t(wy);  // GL window rows to image rows
        if (done[size_t{y} * img.width + uint32_t(x)]++) continue;
        uint8_t* p = img.pixel(uint32_t(x), y);
        const bool edge = x == e.rect.x0 || wy == e.rect.y0;
        for (int c = 0; c < 3; ++c) p[c] = edge ? uint8_t(rgb[c] * 3 / 4) : rgb[c];
        p[3] = 255;
      }
  }
  return img;
}

Image overdrawHeatmap(const FrameResult& frame) {
  static constexpr uint8_t kPalette[8][3] = {{0, 0, 0},     {20, 40, 160},  {0, 170, 220},
                                             {40, 190, 60}, {240, 220, 40}, {250, 140, 20},
                                             {220, 30, 30}, {255, 255, 255}};
  Image img = Image::blank(frame.image.width, frame.image.height);
  if (frame.overdraw.size() != size_t{img.width} * img.height) return img;
  for (uint32_t y = 0; y < img.height; ++y)
    for (uint32_t x = 0; x < img.width; ++x) {
      const uint32_t n = std::min(frame.overdraw[size_t{y} * img.width + x], 7u);
      uint8_t* p = img.pixel(x, y);
      for (int c = 0; c < 3; ++c) p[c] = kPalette[n][c];
      p[3] = 255;
    }
  return img;
}

}  // namespace tessera::tools
