#include "gpu/pipeline/countables.h"

#include <string>
#include <utility>
#include <vector>

namespace tessera::gpu {

namespace {

using S = CounterSources;

template <size_t Client, bool Write>
uint64_t busBytes(const S& s) {
  const BusTraffic& t = s.bus.client[Client];
  return Write ? t.writeBytes : t.readBytes;
}

// The bus group: read and write bytes of every client but the host (which is not GPU traffic).
template <size_t... I>
void addBus(std::vector<Countable>& table, std::index_sequence<I...>) {
  static const std::string names[] = {(std::string(kBusClientNames[I]) + "_read_bytes")...,
                                      (std::string(kBusClientNames[I]) + "_write_bytes")...};
  constexpr size_t n = sizeof...(I);
  ((table.push_back({CounterGroup::Bus, names[I], "bytes the client read from system memory",
                     &busBytes<I, false>})),
   ...);
  ((table.push_back({CounterGroup::Bus, names[n + I], "bytes the client wrote to system memory",
                     &busBytes<I, true>})),
   ...);
}

std::vector<Countable> buildTable() {
  std::vector<Countable> table = {
      {CounterGroup::Cp, "packets", "packets executed",
       [](const S& s) -> uint64_t { return s.cp.packets; }},
      {CounterGroup::Cp, "reg_writes", "registers written by type-4 packets",
       [](const S& s) -> uint64_t { return s.cp.regWrites; }},
      {CounterGroup::Cp, "draws", "CP_DRAW_INDX packets executed",
       [](const S& s) -> uint64_t { return s.cp.draws; }},
      {CounterGroup::Cp, "events", "CP_EVENT_WRITE packets executed",
       [](const S& s) -> uint64_t { return s.cp.events; }},
      {CounterGroup::Cp, "ibs", "indirect buffers entered",
       [](const S& s) -> uint64_t { return s.cp.ibs; }},
      {CounterGroup::Cp, "dwords_fetched", "ring and IB dwords fetched",
       [](const S& s) -> uint64_t { return s.cp.dwordsFetched; }},
      {CounterGroup::Vfd, "indices", "indices read",
       [](const S& s) -> uint64_t { return s.vfd.indices; }},
      {CounterGroup::Vfd, "vertices", "vertices fetched (once per bin in naive mode)",
       [](const S& s) -> uint64_t { return s.vfd.vertices; }},
      {CounterGroup::Vfd, "attribute_bytes", "vertex attribute bytes read",
       [](const S& s) -> uint64_t { return s.vfd.attributeBytes; }},
      {CounterGroup::Sp, "vertex_warps", "vertex (and binning) warps run",
       [](const S& s) -> uint64_t { return s.sp.vertexWarps; }},
      {CounterGroup::Sp, "fragment_warps", "fragment warps run",
       [](const S& s) -> uint64_t { return s.sp.fragmentWarps; }},
      {CounterGroup::Sp, "instructions", "warp-instructions issued",
       [](const S& s) -> uint64_t { return s.sp.instructions; }},
      {CounterGroup::Sp, "lane_instructions", "active lanes summed over issued instructions",
       [](const S& s) -> uint64_t { return s.sp.laneInstructions; }},
      {CounterGroup::Sp, "texture_samples", "lanes of texture sample instructions",
       [](const S& s) -> uint64_t { return s.sp.textureSamples; }},
      {CounterGroup::Sp, "killed_lanes", "covered pixels discarded by kill",
       [](const S& s) -> uint64_t { return s.sp.killedLanes; }},
      {CounterGroup::Sp, "fpu_instructions", "warp-instructions issued to the fp32 pipe",
       [](const S& s) -> uint64_t { return s.sp.fpuInstructions; }},
      {CounterGroup::Sp, "sfu_instructions",
       "warp-instructions issued to the special-function unit",
       [](const S& s) -> uint64_t { return s.sp.sfuInstructions; }},
      {CounterGroup::Sp, "tex_instructions", "warp-instructions issued to the texture unit",
       [](const S& s) -> uint64_t { return s.sp.texInstructions; }},
      {CounterGroup::Sp, "branch_instructions", "control-flow warp-instructions",
       [](const S& s) -> uint64_t { return s.sp.branchInstructions; }},
      {CounterGroup::Sp, "divergent_branches", "branches that split the active lanes",
       [](const S& s) -> uint64_t { return s.sp.divergentBranches; }},
      {CounterGroup::Sp, "warp_registers", "registers per thread summed over warps (occupancy)",
       [](const S& s) -> uint64_t { return s.sp.warpRegisters; }},
      {CounterGroup::Pc, "primitives_in", "primitives assembled, every pass",
       [](const S& s) -> uint64_t { return s.pc.primitivesIn; }},
      {CounterGroup::Pc, "points", "points assembled",
       [](const S& s) -> uint64_t { return s.pc.points; }},
      {CounterGroup::Pc, "lines", "lines assembled",
       [](const S& s) -> uint64_t { return s.pc.lines; }},
      {CounterGroup::Pc, "trivial_rejects", "primitives wholly outside a clip plane",
       [](const S& s) -> uint64_t { return s.pc.trivialRejects; }},
      {CounterGroup::Pc, "clipped", "primitives that needed clipping",
       [](const S& s) -> uint64_t { return s.pc.clipped; }},
      {CounterGroup::Pc, "culled", "primitives face-culled or of zero area",
       [](const S& s) -> uint64_t { return s.pc.culled; }},
      {CounterGroup::Pc, "triangles_out", "window triangles emitted after clipping",
       [](const S& s) -> uint64_t { return s.pc.trianglesOut; }},
      {CounterGroup::Pc, "primitives_generated",
       "primitives of draws while PC_PRIM_COUNT_CNTL is on (once per batch)",
       [](const S& s) -> uint64_t { return s.pipeline.primitivesGenerated; }},
      {CounterGroup::Ras, "triangles", "triangles set up",
       [](const S& s) -> uint64_t { return s.ras.triangles; }},
      {CounterGroup::Ras, "triangles_empty", "triangles that produced no quad",
       [](const S& s) -> uint64_t { return s.ras.trianglesEmpty; }},
      {CounterGroup::Ras, "quads", "quads emitted",
       [](const S& s) -> uint64_t { return s.ras.quads; }},
      {CounterGroup::Ras, "pixels_covered",
       "covered pixels of emitted quads (fragments rasterized)",
       [](const S& s) -> uint64_t { return s.ras.pixelsCovered; }},
      {CounterGroup::Ras, "helper_pixels", "uncovered pixels of emitted quads",
       [](const S& s) -> uint64_t { return s.ras.helperPixels; }},
      {CounterGroup::Ras, "samples_covered", "covered samples (pixels at one sample)",
       [](const S& s) -> uint64_t { return s.ras.samplesCovered; }},
      {CounterGroup::Rb, "samples_tested", "samples entering depth/stencil",
       [](const S& s) -> uint64_t { return s.rb.samplesTested; }},
      {CounterGroup::Rb, "samples_passed", "samples passing depth/stencil (occlusion counter)",
       [](const S& s) -> uint64_t { return s.rb.samplesPassed; }},
      {CounterGroup::Rb, "color_bytes_read", "colour bytes read for blending or masks",
       [](const S& s) -> uint64_t { return s.rb.colorBytesRead; }},
      {CounterGroup::Rb, "color_bytes_written", "colour bytes written",
       [](const S& s) -> uint64_t { return s.rb.colorBytesWritten; }},
      {CounterGroup::Rb, "depth_bytes_read", "depth/stencil bytes read",
       [](const S& s) -> uint64_t { return s.rb.depthBytesRead; }},
      {CounterGroup::Rb, "depth_bytes_written", "depth/stencil bytes written",
       [](const S& s) -> uint64_t { return s.rb.depthBytesWritten; }},
      {CounterGroup::Tex, "samples", "filtered results produced",
       [](const S& s) -> uint64_t { return s.tex.samples; }},
      {CounterGroup::Tex, "texel_fetches", "texels read",
       [](const S& s) -> uint64_t { return s.tex.texelFetches; }},
      {CounterGroup::Tex, "bytes_fetched", "texture bytes charged to the bus",
       [](const S& s) -> uint64_t { return s.tex.bytesFetched; }},
      {CounterGroup::Tex, "cache_lookups", "texture cache lookups",
       [](const S& s) -> uint64_t { return s.tex.lookups; }},
      {CounterGroup::Tex, "cache_hits", "texture cache hits",
       [](const S& s) -> uint64_t { return s.tex.hits; }},
      {CounterGroup::Tex, "cache_misses", "texture cache misses",
       [](const S& s) -> uint64_t { return s.tex.misses; }},
      {CounterGroup::Tex, "cache_miss_bytes", "bytes of missed texture cache lines",
       [](const S& s) -> uint64_t { return s.tex.missBytes; }},
      {CounterGroup::Gmem, "restores", "restore blits",
       [](const S& s) -> uint64_t { return s.gmem.restores; }},
      {CounterGroup::Gmem, "resolves", "resolve blits",
       [](const S& s) -> uint64_t { return s.gmem.resolves; }},
      {CounterGroup::Gmem, "clears", "GMEM clears",
       [](const S& s) -> uint64_t { return s.gmem.clears; }},
      {CounterGroup::Gmem, "restore_bytes", "bytes restored (system memory to GMEM)",
       [](const S& s) -> uint64_t { return s.gmem.restoreBytes; }},
      {CounterGroup::Gmem, "resolve_bytes", "bytes resolved (GMEM to system memory)",
       [](const S& s) -> uint64_t { return s.gmem.resolveBytes; }},
      {CounterGroup::Gmem, "clear_bytes", "GMEM bytes fast-cleared",
       [](const S& s) -> uint64_t { return s.gmem.clearBytes; }},
      {CounterGroup::Gmem, "block_restores", "blocks restored by the interleaved resolve",
       [](const S& s) -> uint64_t { return s.gmem.blockRestores; }},
      {CounterGroup::Gmem, "block_resolves", "blocks resolved by the interleaved resolve",
       [](const S& s) -> uint64_t { return s.gmem.blockResolves; }},
      {CounterGroup::Gmem, "sample_resolves", "multisample resolves (averaged to one sample)",
       [](const S& s) -> uint64_t { return s.gmem.sampleResolves; }},
      {CounterGroup::Gmem, "sample_restores", "restores of multisample buffers",
       [](const S& s) -> uint64_t { return s.gmem.sampleRestores; }},
      {CounterGroup::Vsc, "primitives_binned", "primitives visible in at least one bin",
       [](const S& s) -> uint64_t { return s.vsc.primitivesBinned; }},
      {CounterGroup::Vsc, "bin_hits", "(primitive, bin) pairs",
       [](const S& s) -> uint64_t { return s.vsc.binHits; }},
      {CounterGroup::Vsc, "bytes_written", "visibility stream bytes written",
       [](const S& s) -> uint64_t { return s.vsc.bytesWritten; }},
      {CounterGroup::Vsc, "bytes_read", "visibility stream bytes read by bins",
       [](const S& s) -> uint64_t { return s.vsc.bytesRead; }},
      {CounterGroup::Vsc, "overflowed_pipes", "pipes whose stream overflowed",
       [](const S& s) -> uint64_t { return s.vsc.overflowedPipes; }},
      {CounterGroup::Fragment, "fragments_shaded", "covered pixels shaded",
       [](const S& s) -> uint64_t { return s.fragment.fragmentsShaded; }},
      {CounterGroup::Fragment, "helper_lanes", "uncovered lanes shaded for derivatives",
       [](const S& s) -> uint64_t { return s.fragment.helperLanes; }},
      {CounterGroup::Fragment, "early_z_rejected", "pixels rejected by early depth/stencil",
       [](const S& s) -> uint64_t { return s.fragment.earlyZRejected; }},
      {CounterGroup::Fragment, "lrz_rejected", "covered pixels dropped by low-resolution Z",
       [](const S& s) -> uint64_t { return s.fragment.lrzRejected; }},
      {CounterGroup::Fragment, "full_cover_skipped",
       "covered pixels skipped under a full-cover triangle",
       [](const S& s) -> uint64_t { return s.fragment.fullCoverSkipped; }},
      {CounterGroup::Fragment, "warps", "fragment warps issued",
       [](const S& s) -> uint64_t { return s.fragment.warps; }},
      {CounterGroup::Lrz, "triangles_culled", "triangles left out of the visibility streams by LRZ",
       [](const S& s) -> uint64_t { return s.lrz.trianglesCulled; }},
      {CounterGroup::Lrz, "triangles_rejected", "triangles LRZ kept from the rasterizer",
       [](const S& s) -> uint64_t { return s.lrz.trianglesRejected; }},
      {CounterGroup::Lrz, "occluders", "triangles that lowered an LRZ block",
       [](const S& s) -> uint64_t { return s.lrz.occluders; }},
      {CounterGroup::Blocks, "table_updates", "(triangle, block) entries written",
       [](const S& s) -> uint64_t { return s.blockTable.updates; }},
      {CounterGroup::Blocks, "full_covers", "entries that set the full-cover index",
       [](const S& s) -> uint64_t { return s.blockTable.fullCovers; }},
      {CounterGroup::Blocks, "table_bytes_written", "block table bytes written",
       [](const S& s) -> uint64_t { return s.blockTable.bytesWritten; }},
      {CounterGroup::Blocks, "bins", "bins rendered with their block table",
       [](const S& s) -> uint64_t { return s.blockResolve.bins; }},
      {CounterGroup::Blocks, "blocks_restored", "blocks restored",
       [](const S& s) -> uint64_t { return s.blockResolve.blocksRestored; }},
      {CounterGroup::Blocks, "restores_skipped", "restores a full-cover triangle made moot",
       [](const S& s) -> uint64_t { return s.blockResolve.restoresSkipped; }},
      {CounterGroup::Blocks, "blocks_untouched", "blocks neither restored nor resolved",
       [](const S& s) -> uint64_t { return s.blockResolve.blocksUntouched; }},
      {CounterGroup::Blocks, "resolved_early", "blocks resolved while the bin rendered",
       [](const S& s) -> uint64_t { return s.blockResolve.resolvedEarly; }},
      {CounterGroup::Blocks, "resolved_at_end", "blocks resolved by the bin's RESOLVE",
       [](const S& s) -> uint64_t { return s.blockResolve.resolvedAtEnd; }},
      {CounterGroup::Pipeline, "draws", "draws executed in a render pass or sysmem",
       [](const S& s) -> uint64_t { return s.pipeline.draws; }},
      {CounterGroup::Pipeline, "draws_skipped", "bin draws the visibility stream showed empty",
       [](const S& s) -> uint64_t { return s.pipeline.drawsSkipped; }},
      {CounterGroup::Pipeline, "binning_draws", "draws executed by the binning pass",
       [](const S& s) -> uint64_t { return s.pipeline.binningDraws; }},
      {CounterGroup::Pipeline, "vertices_shaded", "vertex shader invocations, render passes",
       [](const S& s) -> uint64_t { return s.pipeline.verticesShaded; }},
      {CounterGroup::Pipeline, "binning_vertices_shaded", "position-only shader invocations",
       [](const S& s) -> uint64_t { return s.pipeline.binningVerticesShaded; }},
  };
  addBus(table, std::make_index_sequence<static_cast<size_t>(BusClient::Host)>());
  static_assert(static_cast<size_t>(BusClient::Host) + 1 == static_cast<size_t>(BusClient::Count),
                "the host is the last bus client");
  // Busy cycles per block: the timing model's schedule, read when the submission has been timed.
  for (size_t b = 0; b < perf::kBlocks; ++b)
    table.push_back({CounterGroup::Busy, perf::kBlockNames[b],
                     "cycles the block was busy (timing model)", nullptr,
                     static_cast<perf::Block>(b)});
  return table;
}

}  // namespace

std::span<const Countable> countables() {
  static const std::vector<Countable> table = buildTable();
  return table;
}

uint32_t counterSelect(size_t countable) {
  const auto all = countables();
  const CounterGroup g = all[countable].group;
  size_t first = countable;
  while (first > 0 && all[first - 1].group == g) --first;
  return static_cast<uint32_t>(g) << 8 | static_cast<uint32_t>(countable - first);
}

std::optional<size_t> countableOfSelect(uint32_t select) {
  const auto all = countables();
  const uint32_t group = select >> 8 & 0xff, index = select & 0xff;
  if (select >> 16 || group >= static_cast<uint32_t>(CounterGroup::Count)) return std::nullopt;
  for (size_t i = 0; i < all.size(); ++i)
    if (static_cast<uint32_t>(all[i].group) == group) {
      if (i + index < all.size() && all[i + index].group == all[i].group) return i + index;
      return std::nullopt;
    }
  return std::nullopt;
}

std::optional<size_t> findCountable(std::string_view qualifiedName) {
  const size_t dot = qualifiedName.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view group = qualifiedName.substr(0, dot), name = qualifiedName.substr(dot + 1);
  const auto all = countables();
  for (size_t i = 0; i < all.size(); ++i)
    if (kCounterGroupNames[static_cast<size_t>(all[i].group)] == group && all[i].name == name)
      return i;
  return std::nullopt;
}

}  // namespace tessera::gpu
