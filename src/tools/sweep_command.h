// `tessera sweep`: one scene (or an apitrace trace, replayed) rendered once per point of a grid
// of presets, render modes and preset parameter values (each axis one parameter, or several
// that move together, e.g. maxBinW and maxBinH), one row per point of what the timing model says
// the frame costs; as a table, CSV and SVG plots of frame cycles and bytes against each axis.
// Points render in parallel and are cached, so an interrupted sweep resumes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tools {

struct SweepArgs {
  std::string model = "default";     // a model file, a built-in scene or an apitrace trace
  std::string preset;                // --preset P; empty: adreno-a630 unless `presets` is given
  std::vector<std::string> presets;  // --presets A,B,C (not with `preset`)
  // --mode M or M1,M2,...; empty: binning, or sysmem on a sysmem-only preset.
  std::string mode;
  uint32_t width = 800, height = 600;
  // The one-axis form: preset fields set to each value together, --values A,B,C or --range
  // FROM:TO:STEP. It is the grid's first axis.
  std::vector<std::string> params;
  std::vector<std::string> values;
  std::string range;
  std::vector<std::string> axes;  // --axis NAME[+NAME2...]=V1,V2,... or NAME=FROM:TO:STEP
  std::string csv, plot;          // outputs; both optional
  unsigned jobs = 0;              // points rendered at once; 0: every local processor
  // Host threads for each point's GPU bins (results do not depend on it; the points already
  // run in parallel).
  unsigned threads = 1;
  std::string cacheDir;  // empty: defaultSweepCacheDir()
  bool noCache = false;  // keep results only for this run
  std::string frames;    // a trace's frames, N or A-B (default: all), summed per point
  // --slurm: the points not cached run as one Slurm job array instead of here.
  bool slurm = false;
  std::string slurmDir = "tessera-slurm";  // the job script and the tasks' stdout/stderr
  std::string partition, timeLimit;        // sbatch --partition and --time; empty: Slurm's
  int point = -1;  // >= 0: render only this point (0-based) into the cache; what a task runs
};

// Checks everything (presets, modes, axes, every point of the grid against validatePreset and
// the bin layout, model or trace, outputs) before the first frame, then renders each point not
// already cached (a scene after a warm-up frame; a trace replayed on Tessera's libraries), `jobs`
// at a time. Progress goes to stderr: a bar redrawn in place on a terminal, otherwise one
// "[i/n] preset=a key=value ..." line per point as it finishes (" (cached)" after those taken
// from the cache). Prints "N cached, M rendered". With `slurm` the points not cached are
// submitted as a Slurm job array (one task per point, each running this executable with `point`
// set) and their results read from the cache; the cache folder, model and executable must be
// where the cluster's nodes see them.
int runSweep(const SweepArgs& args);

}  // namespace tessera::tools
