#include "tools/slurm_sweep.h"

#include <unistd.h>

#include <filesystem>
#include <set>

#include "common/error.h"
#include "common/text_file.h"
#include "tools/child_process.h"
#include "tools/slurm_job.h"
#include "tools/sweep_cache.h"

namespace tessera::tools {

std::string runPointsOnSlurm(const SlurmSweepJob& s) {
  namespace fs = std::filesystem;
  requireSlurmClients();
  std::error_code ec;
  fs::create_directories(s.dir, ec);
  if (!fs::is_directory(s.dir) || ::access(s.dir.c_str(), W_OK) != 0)
    throw Error("cannot use Slurm folder '" + s.dir + "'" + (ec ? ": " + ec.message() : ""));

  SlurmArrayJob job;
  job.name = "tessera-sweep";
  job.tasks = s.todo;
  job.command = s.pointCommand;
  job.logDir = fs::absolute(s.dir).lexically_normal().string();
  job.partition = s.partition;
  job.timeLimit = s.timeLimit;
  const std::string script = slurmJobScript(job);
  // Named by its contents: the same sweep submitted again reuses its script file.
  const std::string scriptPath = job.logDir + "/sweep-" + InputHash().add(script).hex() + ".sh";
  writeTextFile(scriptPath, script);
  fs::permissions(scriptPath, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add,
                  ec);

  const std::string jobId = submitSlurmJob(job, scriptPath);
  s.note("Slurm job " + jobId + ": " + std::to_string(s.todo.size()) + " array task" +
         (s.todo.size() == 1 ? "" : "s") + " (" + arrayIndexList(s.todo) + "), logs in " +
         job.logDir);
  std::set<size_t> waiting(s.todo.begin(), s.todo.end());
  auto gather = [&] {
    for (auto it = waiting.begin(); it != waiting.end();) {
      if (!s.hasResult(*it)) {
        ++it;
        continue;
      }
      s.onDone(*it);
      it = waiting.erase(it);
    }
    return waiting.empty();
  };
  waitForSlurmJob(jobId, gather);
  gather();  // a result written between the last look and the job leaving the queue
  if (waiting.empty()) return jobId;

  const std::map<size_t, std::string> states = slurmTaskStates(jobId);
  std::string message = std::to_string(waiting.size()) + " of " + std::to_string(s.todo.size()) +
                        " points failed in Slurm job " + jobId +
                        " (the others are kept in the cache):";
  for (size_t i : waiting) {
    const std::string err = taskStderrPath(job, jobId, i);
    message += "\n  array task " + std::to_string(i) + " (" + s.describe(i) + ")";
    const auto state = states.find(i);
    message += state != states.end() ? ": " + state->second : ": no result";
    message += "; stderr " + err;
    std::string tail = tailOfFile(err, 3);
    for (size_t at = tail.find('\n'); at != std::string::npos; at = tail.find('\n', at + 1))
      tail.insert(at + 1, "    ");
    if (!tail.empty()) message += ":\n    " + tail;
  }
  throw Error(message);
}

}  // namespace tessera::tools
