// The GPU's countables: every event a block counts, by group (hardware block) and name — the one
// table behind the performance counters (RBBM_PERFCTR_SEL selects GROUP[15:8] INDEX[7:0]),
// AMD_performance_monitor's groups, `tessera render --counter` and the JSON reports' block
// counters (docs/counters.md). A countable is read from every block's Stats at one moment; the
// `busy` group's values come from the timing model instead.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpu/cp/command_processor.h"
#include "gpu/pipeline/pipeline.h"

namespace tessera::gpu {

// Every block's counters at one moment (cumulative since the blocks' last reset).
struct CounterSources {
  const cp::CpStats& cp;
  const PipelineStats& pipeline;
  const vsc::VscStats& vsc;
  const gmem::GmemStats& gmem;
  const sp::SpStats& sp;
  const ras::RasStats& ras;
  const rb::RbStats& rb;
  const pc::PcStats& pc;
  const vfd::VfdStats& vfd;
  const tex::TexStats& tex;
  const FragmentStats& fragment;
  const lrz::LrzStats& lrz;
  const vsc::BlockTableStats& blockTable;
  const gmem::BlockResolveStats& blockResolve;
  const BusStats& bus;
};

enum class CounterGroup : uint8_t {
  Cp,
  Vfd,
  Sp,
  Pc,
  Ras,
  Rb,
  Tex,
  Gmem,
  Vsc,
  Fragment,
  Lrz,
  Blocks,
  Pipeline,
  Bus,
  Busy,
  Count
};
inline constexpr std::array<std::string_view, static_cast<size_t>(CounterGroup::Count)>
    kCounterGroupNames = {"cp",  "vfd",      "sp",  "pc",     "ras",      "rb",  "tex", "gmem",
                          "vsc", "fragment", "lrz", "blocks", "pipeline", "bus", "busy"};

struct Countable {
  CounterGroup group;
  std::string_view name;
  std::string_view description;
  uint64_t (*read)(const CounterSources&);  // null in the busy group
  perf::Block busyBlock = perf::Block::Cp;  // the busy group's block
};

// Every countable, grouped, in RBBM_PERFCTR_SEL order within each group.
std::span<const Countable> countables();

// RBBM_PERFCTR_SEL's encoding of a countable (an index into countables()), and back.
uint32_t counterSelect(size_t countable);
std::optional<size_t> countableOfSelect(uint32_t select);
// "group.name" (e.g. "fragment.fragments_shaded"), if it names one.
std::optional<size_t> findCountable(std::string_view qualifiedName);

}  // namespace tessera::gpu
