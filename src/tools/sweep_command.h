// `tessera sweep`: one scene (or an apitrace trace, replayed) rendered once per value of a preset
// parameter (or of several that move together, e.g. maxBinW and maxBinH), one row per value of
// what the timing model says the frame costs; as a table, CSV and an SVG plot of frame cycles
// and bytes against the value. Points render in parallel and are cached, so an interrupted sweep
// resumes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tools {

struct SweepArgs {
  std::string model = "default";  // a model file, a built-in scene or an apitrace trace
  std::string preset = "adreno-a630";
  std::string mode;  // empty: binning, or sysmem on a sysmem-only preset
  uint32_t width = 800, height = 600;
  std::vector<std::string> params;  // preset fields set to each value together
  std::vector<std::string> values;  // --values A,B,C
  std::string range;                // --range FROM:TO:STEP (instead of values)
  std::string csv, plot;            // outputs; both optional
  unsigned jobs = 0;                // points rendered at once; 0: every local processor
  std::string cacheDir;             // empty: defaultSweepCacheDir()
  bool noCache = false;             // keep results only for this run
  std::string frames;               // a trace's frames, N or A-B (default: all), summed per point
  // --slurm: the points not cached run as one Slurm job array instead of here.
  bool slurm = false;
  std::string slurmDir = "tessera-slurm";  // the job script and the tasks' stdout/stderr
  std::string partition, timeLimit;        // sbatch --partition and --time; empty: Slurm's
  int point = -1;  // >= 0: render only this point (0-based) into the cache; what a task runs
};

// The values of `--range FROM:TO:STEP`: FROM, FROM+STEP, ... up to TO inclusive, printed with as
// many decimals as FROM and STEP have (so 0.1 steps stay "0.3", not "0.30000000000000004").
// Throws tessera::Error on a malformed range, a zero step, a step that never reaches TO or more
// than 1000 values.
std::vector<std::string> expandRange(const std::string& range);

// Checks everything (parameters, every value against validatePreset, mode, model or trace,
// outputs) before the first frame, then renders each value not already cached (a scene after a
// warm-up frame; a trace replayed on Tessera's libraries), `jobs` at a time. Progress goes to
// stderr: a bar redrawn in place on a terminal, otherwise one "[i/n] key=value" line per point
// as it finishes (" (cached)" after those taken from the cache). Prints "N cached, M rendered".
// With `slurm` the points not cached are submitted as a Slurm job array (one task per point,
// each running this executable with `point` set) and their results read from the cache; the
// cache folder, model and executable must be where the cluster's nodes see them.
int runSweep(const SweepArgs& args);

}  // namespace tessera::tools
