// `tessera sweep`: one scene rendered once per value of a preset parameter (or of several that
// move together, e.g. maxBinW and maxBinH), one row per value of what the timing model says the
// frame costs; as a table, CSV and an SVG plot of frame cycles and bytes against the value.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tools {

struct SweepArgs {
  std::string model = "default";
  std::string preset = "adreno-a630";
  std::string mode;  // empty: binning, or sysmem on a sysmem-only preset
  uint32_t width = 800, height = 600;
  std::vector<std::string> params;  // preset fields set to each value together
  std::vector<std::string> values;  // --values A,B,C
  std::string range;                // --range FROM:TO:STEP (instead of values)
  std::string csv, plot;            // outputs; both optional
};

// The values of `--range FROM:TO:STEP`: FROM, FROM+STEP, ... up to TO inclusive, printed with as
// many decimals as FROM and STEP have (so 0.1 steps stay "0.3", not "0.30000000000000004").
// Throws tessera::Error on a malformed range, a zero step, a step that never reaches TO or more
// than 1000 values.
std::vector<std::string> expandRange(const std::string& range);

// Checks everything (parameters, every value against validatePreset, mode, model, outputs)
// before the first frame, then renders each value after a warm-up frame. Progress goes to
// stderr: a bar redrawn in place on a terminal, otherwise one "[i/n] key=value" line per step.
int runSweep(const SweepArgs& args);

}  // namespace tessera::tools
