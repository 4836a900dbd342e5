// A frame's timeline as Chrome/Perfetto trace-event JSON (REFERENCES.md §5): the rendering
// engine's passes with Adreno's stage names, the blit engine's GMEM loads and stores, one track
// per hardware block showing its busy time in each pass, and the bus utilisation as a counter.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "gpu/perf/timing_model.h"

namespace tessera::report {

// {"traceEvents": [...], "displayTimeUnit": "ns"}; times in microseconds at the timing's clock.
nlohmann::json chromeTrace(const gpu::perf::SubmissionTiming& timing, const std::string& title);

}  // namespace tessera::report
