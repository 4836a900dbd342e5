#include "report/counters_json.h"

#include <string>

namespace tessera::report {

using nlohmann::json;

json busJson(const gpu::BusStats& b) {
  json j = json::object();
  for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i)
    j[std::string(gpu::kBusClientNames[i])] = {{"read_bytes", b.client[i].readBytes},
                                               {"write_bytes", b.client[i].writeBytes}};
  j["total_gpu_bytes"] = b.totalGpuBytes();
  return j;
}

namespace {

json workJson(const gpu::perf::BlockWork& w) {
  json j = json::object();
  for (const auto& f : gpu::perf::kWorkFields) j[std::string(f.name)] = w.*f.member;
  return j;
}

}  // namespace

json timingJson(const gpu::perf::SubmissionTiming& t) {
  using gpu::perf::Block;
  json busy = json::object(), percent = json::object();
  for (size_t i = 0; i < gpu::perf::kBlocks; ++i) {
    const auto b = static_cast<Block>(i);
    const std::string name(gpu::perf::blockName(b));
    busy[name] = t.busy[i];
    percent[name] = t.busyPercent(b);
  }
  double setup = 0, binning = 0;
  for (const auto& p : t.passes) {
    if (p.kind == gpu::perf::PassKind::Setup) setup += p.render.cycles;
    if (p.kind == gpu::perf::PassKind::Binning) binning += p.render.cycles;
  }
  return {{"cycles", t.cycles},      {"milliseconds", t.milliseconds()},
          {"clock_mhz", t.clockMHz}, {"bound", std::string(gpu::perf::blockName(t.bound))},
          {"busy_cycles", busy},     {"busy_percent", percent},
          {"setup_cycles", setup},   {"binning_cycles", binning}};
}

gpu::perf::SubmissionTiming frameTiming(std::span<const driver::BatchReport> batches) {
  gpu::perf::SubmissionTiming t;
  for (const auto& b : batches) gpu::perf::append(t, b.timing);
  return t;
}

json blockCountersJson(const driver::BlockStats& s) {
  json j;
  j["cp"] = {{"packets", s.cp.packets}, {"reg_writes", s.cp.regWrites},
             {"draws", s.cp.draws},     {"events", s.cp.events},
             {"ibs", s.cp.ibs},         {"dwords_fetched", s.cp.dwordsFetched}};
  j["vfd"] = {{"indices", s.vfd.indices},
              {"vertices", s.vfd.vertices},
              {"attribute_bytes", s.vfd.attributeBytes}};
  j["sp"] = {{"vertex_warps", s.sp.vertexWarps},
             {"fragment_warps", s.sp.fragmentWarps},
             {"instructions", s.sp.instructions},
             {"lane_instructions", s.sp.laneInstructions},
             {"texture_samples", s.sp.textureSamples},
             {"killed_lanes", s.sp.killedLanes},
             {"fpu_instructions", s.sp.fpuInstructions},
             {"sfu_instructions", s.sp.sfuInstructions},
             {"tex_instructions", s.sp.texInstructions},
             {"branch_instructions", s.sp.branchInstructions},
             {"divergent_branches", s.sp.divergentBranches},
             {"warp_registers", s.sp.warpRegisters}};
  j["pc"] = {
      {"primitives_in", s.pc.primitivesIn},     {"points", s.pc.points},   {"lines", s.pc.lines},
      {"trivial_rejects", s.pc.trivialRejects}, {"clipped", s.pc.clipped}, {"culled", s.pc.culled},
      {"triangles_out", s.pc.trianglesOut}};
  j["ras"] = {{"triangles", s.ras.triangles},
              {"triangles_empty", s.ras.trianglesEmpty},
              {"quads", s.ras.quads},
              {"pixels_covered", s.ras.pixelsCovered},
              {"helper_pixels", s.ras.helperPixels}};
  j["rb"] = {
      {"samples_tested", s.rb.samplesTested},    {"samples_passed", s.rb.samplesPassed},
      {"color_bytes_read", s.rb.colorBytesRead}, {"color_bytes_written", s.rb.colorBytesWritten},
      {"depth_bytes_read", s.rb.depthBytesRead}, {"depth_bytes_written", s.rb.depthBytesWritten}};
  j["tex"] = {{"samples", s.tex.samples},
              {"texel_fetches", s.tex.texelFetches},
              {"bytes_fetched", s.tex.bytesFetched},
              {"cache_lookups", s.tex.lookups},
              {"cache_hits", s.tex.hits},
              {"cache_misses", s.tex.misses},
              {"cache_miss_bytes", s.tex.missBytes}};
  j["gmem"] = {{"restores", s.gmem.restores},
               {"resolves", s.gmem.resolves},
               {"clears", s.gmem.clears},
               {"restore_bytes", s.gmem.restoreBytes},
               {"resolve_bytes", s.gmem.resolveBytes},
               {"clear_bytes", s.gmem.clearBytes},
               {"block_restores", s.gmem.blockRestores},
               {"block_resolves", s.gmem.blockResolves}};
  j["vsc"] = {{"primitives_binned", s.vsc.primitivesBinned},
              {"bin_hits", s.vsc.binHits},
              {"bytes_written", s.vsc.bytesWritten},
              {"bytes_read", s.vsc.bytesRead},
              {"overflowed_pipes", s.vsc.overflowedPipes}};
  j["fragment"] = {
      {"fragments_shaded", s.fragment.fragmentsShaded},    {"helper_lanes", s.fragment.helperLanes},
      {"early_z_rejected", s.fragment.earlyZRejected},     {"lrz_rejected", s.fragment.lrzRejected},
      {"full_cover_skipped", s.fragment.fullCoverSkipped}, {"warps", s.fragment.warps}};
  j["lrz"] = {{"triangles_culled", s.lrz.trianglesCulled},
              {"triangles_rejected", s.lrz.trianglesRejected},
              {"occluders", s.lrz.occluders}};
  j["blocks"] = {{"table_updates", s.blockTable.updates},
                 {"full_covers", s.blockTable.fullCovers},
                 {"table_bytes_written", s.blockTable.bytesWritten},
                 {"bins", s.blockResolve.bins},
                 {"blocks_restored", s.blockResolve.blocksRestored},
                 {"restores_skipped", s.blockResolve.restoresSkipped},
                 {"blocks_untouched", s.blockResolve.blocksUntouched},
                 {"resolved_early", s.blockResolve.resolvedEarly},
                 {"resolved_at_end", s.blockResolve.resolvedAtEnd}};
  j["pipeline"] = {{"draws", s.pipeline.draws},
                   {"draws_skipped", s.pipeline.drawsSkipped},
                   {"binning_draws", s.pipeline.binningDraws},
                   {"vertices_shaded", s.pipeline.verticesShaded},
                   {"binning_vertices_shaded", s.pipeline.binningVerticesShaded}};
  return j;
}

json batchJson(const driver::BatchReport& b) {
  json j = blockCountersJson(b.stats);
  j["mode"] = std::string(driver::renderModeName(b.mode));
  j["reason"] = b.reason;
  j["draws"] = b.draws;
  j["clears"] = b.clears;
  j["restores"] = b.restores;
  j["resolves"] = b.resolves;
  j["visibility_overflow"] = b.visibilityOverflow;
  j["lrz"] = b.lrz;
  j["block_resolve"] = b.blockResolve;
  j["bytes"] = busJson(b.stats.bus);
  j["timing"] = timingJson(b.timing);
  json bins = json::array();
  const auto& rows = b.stats.pipeline.bins;
  // The timing model's passes end with one per window, in the same order.
  const auto& passes = b.timing.passes;
  const size_t first = passes.size() >= rows.size() ? passes.size() - rows.size() : 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    json row = {{"x", r.window.x0},
                {"y", r.window.y0},
                {"w", r.window.x1 - r.window.x0},
                {"h", r.window.y1 - r.window.y0},
                {"primitives", r.primitives},
                {"triangles", r.triangles},
                {"fragments", r.fragments},
                {"used_stream", r.usedStream},
                {"stream_overflow", r.streamOverflow},
                {"block_table", r.blockTable},
                {"early_resolves", r.earlyResolves.size()},
                {"work", workJson(r.work)}};
    if (first + i < passes.size()) {
      const auto& t = passes[first + i];
      row["load_cycles"] = t.load.cycles;
      row["render_cycles"] = t.render.cycles;
      row["store_cycles"] = t.store.cycles;
      row["bound"] = std::string(gpu::perf::blockName(t.bound));
    }
    bins.push_back(row);
  }
  j["per_bin"] = bins;
  if (b.layout)
    j["layout"] = {{"x", b.layout->x},
                   {"y", b.layout->y},
                   {"bin_w", b.layout->binW},
                   {"bin_h", b.layout->binH},
                   {"nx", b.layout->nx},
                   {"ny", b.layout->ny},
                   {"pipes", b.layout->pipes.size()},
                   {"gmem_used", b.layout->gmemUsed}};
  return j;
}

gpu::BusStats sumBus(std::span<const driver::BatchReport> batches) {
  gpu::BusStats s;
  for (const auto& b : batches)
    for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i) {
      s.client[i].readBytes += b.stats.bus.client[i].readBytes;
      s.client[i].writeBytes += b.stats.bus.client[i].writeBytes;
    }
  return s;
}

void addCounters(json& a, const json& b) {
  if (a.is_null()) {
    a = b;
    return;
  }
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : b.items()) addCounters(a[key], value);
  } else if (a.is_number_unsigned() && b.is_number_unsigned()) {
    a = a.get<uint64_t>() + b.get<uint64_t>();
  } else if (a.is_number_integer() && b.is_number_integer()) {
    a = a.get<int64_t>() + b.get<int64_t>();
  } else if (a.is_number() && b.is_number()) {
    a = a.get<double>() + b.get<double>();
  }
}

}  // namespace tessera::report
