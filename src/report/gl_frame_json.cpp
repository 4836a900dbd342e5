#include "report/gl_frame_json.h"

#include "report/counters_json.h"

namespace tessera::report {

using nlohmann::json;

json glFrameJson(const GlFrame& f, std::span<const driver::BatchReport> batches) {
  json j;
  j["frame"] = f.number;
  j["partial"] = f.partial;
  j["preset"] = f.preset;
  j["mode"] = f.mode;
  j["size"] = {f.width, f.height};
  uint32_t draws = 0, clears = 0, restores = 0, resolves = 0;
  bool overflow = false;
  json counters = json::object(), list = json::array();
  const driver::BatchReport* main = nullptr;
  for (const auto& b : batches) {
    draws += b.draws;
    clears += b.clears;
    restores += b.restores;
    resolves += b.resolves;
    overflow |= b.visibilityOverflow;
    addCounters(counters, blockCountersJson(b.stats));
    list.push_back(batchJson(b));
    if (!main || b.draws > main->draws) main = &b;
  }
  j["draws"] = draws;
  j["clears"] = clears;
  j["restores"] = restores;
  j["resolves"] = resolves;
  j["batch_count"] = batches.size();
  j["visibility_overflow"] = overflow;
  j["bytes"] = busJson(sumBus(batches));
  j["counters"] = counters;
  j["timing"] = timingJson(frameTiming(batches));
  // The frame's bins are those of its main batch; a sysmem batch renders the surface as one.
  if (main && main->layout) {
    const auto& l = *main->layout;
    j["bins"] = {{"mode", std::string(driver::renderModeName(main->mode))},
                 {"count", l.bins.size()},
                 {"nx", l.nx},
                 {"ny", l.ny},
                 {"width", l.binW},
                 {"height", l.binH},
                 {"pipes", l.pipes.size()}};
  } else if (main) {
    j["bins"] = {{"mode", std::string(driver::renderModeName(main->mode))},
                 {"count", 1},
                 {"nx", 1},
                 {"ny", 1},
                 {"width", f.width},
                 {"height", f.height},
                 {"pipes", 0}};
  } else {
    j["bins"] = nullptr;  // nothing was submitted in this frame
  }
  j["batches"] = list;
  return j;
}

void RunTotals::addFrame(std::span<const driver::BatchReport> batches, bool written) {
  ++frames_;
  if (written) ++framesWritten_;
  addBatches(batches);
}

void RunTotals::addBatches(std::span<const driver::BatchReport> batches) {
  batches_ += batches.size();
  for (const auto& b : batches) {
    draws_ += b.draws;
    clears_ += b.clears;
  }
  const gpu::BusStats s = sumBus(batches);
  for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i) {
    bus_.client[i].readBytes += s.client[i].readBytes;
    bus_.client[i].writeBytes += s.client[i].writeBytes;
  }
}

json RunTotals::toJson(const std::string& preset, const std::string& mode) const {
  nlohmann::json j;
  j["preset"] = preset;
  j["mode"] = mode;
  j["frames"] = frames_;
  j["frames_written"] = framesWritten_;
  j["draws"] = draws_;
  j["clears"] = clears_;
  j["batches"] = batches_;
  j["bytes"] = busJson(bus_);
  return j;
}

}  // namespace tessera::report
