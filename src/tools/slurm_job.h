// A Slurm job array as Tessera uses it: a shell script run once per array task, submitted with
// sbatch and followed with squeue until no task is pending or running. Slurm does the
// scheduling; these are only its client commands (sbatch, squeue, scontrol) run as a user would,
// so SLURM_CONF and the rest of the environment pick the cluster.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::tools {

// `text` as one word for /bin/sh: in single quotes, each ' written as '\''.
std::string shellQuoted(const std::string& text);

// Array task ids as sbatch's --array takes them, runs of consecutive ids as ranges:
// {0, 1, 2, 5, 7, 8} -> "0-2,5,7-8". The ids must be sorted and distinct.
std::string arrayIndexList(const std::vector<size_t>& ids);

struct SlurmArrayJob {
  std::string name = "tessera";  // the job's name in squeue
  std::vector<size_t> tasks;     // array task ids, sorted
  // The command each task runs, followed by its array task id as one more argument.
  std::vector<std::string> command;
  std::string logDir;     // absolute: the tasks' stdout and stderr files go here
  std::string partition;  // empty: the cluster's default partition
  std::string timeLimit;  // per task, as sbatch's --time takes it; empty: the partition's
};

// The job script: /bin/sh running `command` with "$SLURM_ARRAY_TASK_ID" appended.
std::string slurmJobScript(const SlurmArrayJob& job);
// The sbatch command line submitting `scriptPath` for `job` (without waiting for it).
std::vector<std::string> sbatchCommand(const SlurmArrayJob& job, const std::string& scriptPath);
// Where array task `task` of job `jobId` writes its stderr (the --error pattern, filled in).
std::string taskStderrPath(const SlurmArrayJob& job, const std::string& jobId, size_t task);

// Throws tessera::Error naming the program unless sbatch, squeue and scontrol are on PATH.
void requireSlurmClients();

// Submits the script with `sbatch --parsable` and returns the job id. Throws tessera::Error with
// sbatch's own message (e.g. the controller cannot be reached) if Slurm does not take the job.
std::string submitSlurmJob(const SlurmArrayJob& job, const std::string& scriptPath);

// Waits until `finished` says every task's work is there (it is asked five times a second) or
// squeue shows none of the job's tasks pending or running (asked less and less often, down to
// every 5 s). Throws tessera::Error if the controller stays unreachable for `giveUpSeconds`:
// the job may still run, so the message says so.
void waitForSlurmJob(const std::string& jobId, const std::function<bool()>& finished,
                     double giveUpSeconds = 120);

// Best effort: each finished array task's state and exit code ("FAILED, exit code 1"), from
// scontrol while the controller still remembers the job; empty if it does not.
std::map<size_t, std::string> slurmTaskStates(const std::string& jobId);

}  // namespace tessera::tools
