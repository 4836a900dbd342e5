// A batch's figures as JSON: the bus bytes per client and every block's counters, in one table
// (counters_json.cpp) that every report uses, so a counter added to a block's Stats shows up in
// `tessera render --report` and in `tessera run`'s frame reports alike.
#pragma once
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "driver/batch_report.h"
#include "gpu/pipeline/countables.h"

namespace tessera::report {

// {"<client>": {"read_bytes", "write_bytes"}, ..., "total_gpu_bytes"}.
nlohmann::json busJson(const gpu::BusStats& bus);

// The countables' sources in a batch's stats (gpu/pipeline/countables.h).
gpu::CounterSources counterSources(const driver::BlockStats& stats);

// Every block's counters of a submission: {"cp": {...}, "vfd": {...}, ..., "pipeline": {...}}
// (bus bytes and per-bin rows are not counters: see batchJson).
nlohmann::json blockCountersJson(const driver::BlockStats& stats);

// One batch: mode, reason, draws, clears, restores, resolves, "bytes", every block's counters
// (as blockCountersJson, at the top level), "timing", "per_bin" rows (with each bin's work and
// its restore, render and resolve cycles) and the bin "layout" (GMEM modes).
nlohmann::json batchJson(const driver::BatchReport& batch);

// The timing model's figures: {"cycles", "milliseconds", "clock_mhz", "bound", "busy_cycles":
// {"<block>": ...}, "busy_percent": {...}, "setup_cycles", "binning_cycles"}.
nlohmann::json timingJson(const gpu::perf::SubmissionTiming& timing);

// The submissions of a frame back to back.
gpu::perf::SubmissionTiming frameTiming(std::span<const driver::BatchReport> batches);

// The bus traffic of several batches added up.
gpu::BusStats sumBus(std::span<const driver::BatchReport> batches);

// A countable (gpu/pipeline/countables.h) summed over batches; busy cycles from their timing.
uint64_t countableValue(std::span<const driver::BatchReport> batches, size_t countable);
// The same from a GL frame report (gl_frame_json.h): its "counters", "bytes" and "timing".
double countableValue(const nlohmann::json& frame, size_t countable);
// The countable a "group.name" names; throws tessera::Error naming the groups otherwise.
size_t requireCountable(const std::string& name);

// Adds `b`'s numbers into `a` field by field (objects recursively; numbers are summed, other
// values keep `a`'s). Used to total counter objects over the batches of a frame or a run.
void addCounters(nlohmann::json& a, const nlohmann::json& b);

}  // namespace tessera::report
