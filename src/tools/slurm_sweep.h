// The points of `tessera sweep --slurm` rendered as one Slurm job array: a task per point, each
// running `tessera sweep ... --point I` so that it writes the point's result into the sweep's
// cache folder, the same file a local run writes. Gathering is then reading the cache.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace tessera::tools {

struct SlurmSweepJob {
  // Renders one point into the cache when its index is appended (the sweep's own options plus
  // `--point`); absolute paths, since the tasks may run anywhere.
  std::vector<std::string> pointCommand;
  std::vector<size_t> todo;  // points to render, sorted; their indices are the array task ids
  std::string dir;           // the job script and each task's stdout and stderr go here
  std::string partition, timeLimit;
  std::function<bool(size_t)> hasResult;         // the point's result is in the cache
  std::function<std::string(size_t)> describe;   // "maxBinW=32", for messages
  std::function<void(size_t)> onDone;            // after a point's result appears
  std::function<void(const std::string&)> note;  // a line for the user (the job's id)
};

// Writes the job script into `dir`, submits it, waits for every task and calls onDone for each
// point as its result appears. Returns the job id. Throws tessera::Error if Slurm does not take
// the job, or, once every task ended, naming each point whose result is missing: its array task
// id, its state and exit code when Slurm still knows them, and its stderr file (last lines
// quoted). The points that finished stay in the cache.
std::string runPointsOnSlurm(const SlurmSweepJob& job);

}  // namespace tessera::tools
