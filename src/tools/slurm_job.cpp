#include "tools/slurm_job.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/error.h"
#include "tools/child_process.h"

namespace tessera::tools {
namespace {

// What a Slurm client command printed (stdout and stderr together) and its exit status.
struct ClientRun {
  int status = 0;
  std::string output;
};

ClientRun runClient(const std::vector<std::string>& argv) {
  TempDir scratch("tessera-slurm-");
  const std::string log = scratch.path() + "/output";
  ClientRun r;
  r.status = runChild({argv, {}, {}, log});
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  r.output = text.str();
  return r;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trimmed(const std::string& text) {
  const size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return text.substr(a, text.find_last_not_of(" \t\r\n") - a + 1);
}

bool allDigits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A client's failure as one message; the usual cause of "cannot contact" named.
std::string clientFailure(const ClientRun& r) {
  std::string text = trimmed(r.output);
  if (text.empty()) text = "exit status " + std::to_string(r.status);
  if (text.find("Unable to contact") != std::string::npos)
    text += "\n(is slurmctld running, and does SLURM_CONF name its slurm.conf?)";
  return text;
}

// The value of `key=` in one line of `scontrol -o` output ("" if absent).
std::string fieldOf(const std::string& line, const std::string& key) {
  const std::string want = key + "=";
  for (size_t at = line.find(want); at != std::string::npos; at = line.find(want, at + 1)) {
    if (at != 0 && line[at - 1] != ' ') continue;
    const size_t from = at + want.size();
    return line.substr(from, line.find(' ', from) - from);
  }
  return "";
}

}  // namespace

std::string shellQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string arrayIndexList(const std::vector<size_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ids[i]);
    if (j > i) out += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

std::string slurmJobScript(const SlurmArrayJob& job) {
  std::string script = "#!/bin/sh\n";
  script += "# Slurm array job " + job.name + ": array tasks " + arrayIndexList(job.tasks) + ".\n";
  script += "# Each task runs the command below with its array task id as the last argument.\n";
  script += "exec";
  for (const std::string& arg : job.command) script += " " + shellQuoted(arg);
  script += " \"$SLURM_ARRAY_TASK_ID\"\n";
  return script;
}

std::vector<std::string> sbatchCommand(const SlurmArrayJob& job, const std::string& scriptPath) {
  // One processor per task: a point renders on one thread.
  std::vector<std::string> argv = {"sbatch",
                                   "--parsable",
                                   "--job-name=" + job.name,
                                   "--array=" + arrayIndexList(job.tasks),
                                   "--ntasks=1",
                                   "--cpus-per-task=1",
                                   "--output=" + job.logDir + "/" + job.name + "-%A_%a.out",
                                   "--error=" + job.logDir + "/" + job.name + "-%A_%a.err"};
  if (!job.partition.empty()) argv.push_back("--partition=" + job.partition);
  if (!job.timeLimit.empty()) argv.push_back("--time=" + job.timeLimit);
  argv.push_back(scriptPath);
  return argv;
}

std::string taskStderrPath(const SlurmArrayJob& job, const std::string& jobId, size_t task) {
  return job.logDir + "/" + job.name + "-" + jobId + "_" + std::to_string(task) + ".err";
}

void requireSlurmClients() {
  for (const char* program : {"sbatch", "squeue", "scontrol"})
    if (findOnPath(program).empty())
      throw Error(std::string("--slurm needs Slurm's '") + program +
                  "' command on PATH (Debian: apt-get install slurm-client)");
}

std::string submitSlurmJob(const SlurmArrayJob& job, const std::string& scriptPath) {
  const ClientRun r = runClient(sbatchCommand(job, scriptPath));
  if (r.status == 0) {
    // --parsable prints "JOBID" or "JOBID;CLUSTER"; warnings may come on other lines.
    for (const std::string& line : linesOf(r.output)) {
      const std::string id = trimmed(line.substr(0, line.find(';')));
      if (allDigits(id)) return id;
    }
  }
  throw Error("Slurm did not take the job: " + clientFailure(r));
}

void waitForSlurmJob(const std::string& jobId, const std::function<bool()>& finished,
                     double giveUpSeconds) {
  using Clock = std::chrono::steady_clock;
  using Seconds = std::chrono::duration<double>;
  const Clock::time_point begin = Clock::now();
  Clock::time_point lastContact = begin, nextQuery = begin;
  double interval = 0.5;  // between squeue queries, growing to 5 s to spare the controller
  for (;;) {
    // Looking for results costs the controller nothing: done as soon as every one is there.
    if (finished()) return;
    if (Clock::now() >= nextQuery) {
      const ClientRun r = runClient({"squeue", "--noheader", "--jobs=" + jobId, "--format=%i"});
      if (r.status == 0) {
        lastContact = Clock::now();
        // squeue lists only pending, running and completing tasks, each line "JOBID_TASK".
        bool left = false;
        for (const std::string& line : linesOf(r.output))
          left |= !line.empty() && std::isdigit(static_cast<unsigned char>(line.front()));
        if (!left) return;
      } else if (r.output.find("Invalid job id") != std::string::npos) {
        return;  // finished so long ago that the controller has forgotten it
      } else if (Seconds(Clock::now() - lastContact).count() > giveUpSeconds) {
        throw Error("lost contact with Slurm while waiting for job " + jobId + ": " +
                    clientFailure(r) +
                    "\nthe job may still be running: run the same sweep again later to gather "
                    "its results, or cancel it with scancel " +
                    jobId);
      }
      nextQuery = Clock::now() + std::chrono::duration_cast<Clock::duration>(Seconds(interval));
      interval = std::min(interval * 1.25, 5.0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

std::map<size_t, std::string> slurmTaskStates(const std::string& jobId) {
  std::map<size_t, std::string> states;
  const ClientRun r = runClient({"scontrol", "--oneliner", "show", "job", jobId});
  if (r.status != 0) return states;
  for (const std::string& line : linesOf(r.output)) {
    const std::string task = fieldOf(line, "ArrayTaskId"), state = fieldOf(line, "JobState");
    if (!allDigits(task) || state.empty()) continue;
    std::string text = state;
    const std::string exit = fieldOf(line, "ExitCode");
    const size_t colon = exit.find(':');
    if (colon != std::string::npos) {
      const std::string code = exit.substr(0, colon), signal = exit.substr(colon + 1);
      if (signal != "0" && !signal.empty())
        text += ", signal " + signal;
      else
        text += ", exit code " + code;
    }
    states[std::stoul(task)] = text;
  }
  return states;
}

}  // namespace tessera::tools
