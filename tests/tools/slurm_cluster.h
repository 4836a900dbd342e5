// A one-node Slurm cluster for a test: munged, slurmctld and slurmd started as child processes
// on a configuration of their own in a temporary folder (free ports, the node's short hostname
// at 127.0.0.1, no accounting, no cgroups), and stopped with everything removed when the object
// goes, whether the test passed or not. Every wait is bounded; a failure quotes the daemons' logs.
#pragma once
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tools/shell_command.h"
#include "tools/tessera_cli.h"

namespace tessera::test {

// A program in PATH or in the sbin folders (daemons live there and root's PATH may lack them).
inline std::string programPath(const std::string& name) {
  const char* env = std::getenv("PATH");
  std::string dirs = std::string(env ? env : "") + ":/usr/local/sbin:/usr/sbin:/sbin";
  for (size_t at = 0; at <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = dirs.substr(at, end - at);
    at = end + 1;
    if (dir.empty()) continue;
    const std::string path = dir + "/" + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

// A TCP port nothing listens on now (the kernel's pick for port 0).
inline int freePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  if (fd >= 0) close(fd);
  return port;
}

class SlurmCluster final {
 public:
  static constexpr std::chrono::seconds kTimeout{60};

  // Why no cluster can start here ("" if it can): the daemons and clients must be installed and
  // slurmd, which runs jobs as their owner, must run as root.
  static std::string unavailable() {
    for (const char* p :
         {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo", "scancel"})
      if (programPath(p).empty())
        return std::string("'") + p +
               "' is not installed (scripts/install-deps.sh installs slurmctld, slurmd, "
               "slurm-client and munge)";
    if (geteuid() != 0) return "slurmd must run as root to start jobs";
    return "";
  }

  SlurmCluster() {
    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / "tessera-slurm-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      error_ = "cannot make a temporary folder";
      return;
    }
    dir_ = pattern;
    // munged wants every folder above its socket searchable by all.
    chmod(dir_.c_str(), 0755);
    for (const char* sub : {"state", "spool"}) fs::create_directories(dir_ + "/" + sub);
    const std::string key = dir_ + "/munge.key", socket = dir_ + "/munge.socket";
    {
      std::ifstream random("/dev/urandom", std::ios::binary);
      std::string bytes(1024, '\0');
      random.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      std::ofstream(key, std::ios::binary) << bytes;
    }
    chmod(key.c_str(), 0400);
    conf_ = dir_ + "/slurm.conf";
    std::ofstream(conf_) << config(socket);

    start("munged", {programPath("munged"), "--foreground", "--force", "--socket=" + socket,
                     "--key-file=" + key, "--pid-file=" + dir_ + "/munged.pid",
                     "--log-file=" + dir_ + "/munged.log", "--seed-file=" + dir_ + "/munged.seed"});
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (!fs::exists(socket)) {
      if (!alive() || std::chrono::steady_clock::now() > deadline) {
        error_ = "munged did not open its socket";
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    start("slurmctld", {programPath("slurmctld"), "-D"});
    start("slurmd", {programPath("slurmd"), "-D"});
  }

  ~SlurmCluster() {
    // Jobs first (a task left running would outlive slurmd), then the daemons, newest first.
    if (error_.empty() && !daemons_.empty())
      runShell(env() + "timeout 10 " + programPath("scancel") + " --quiet --user=root");
    for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) stop(it->second);
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // "SLURM_CONF=... " to put before a command line.
  std::string env() const { return "SLURM_CONF=" + conf_ + " "; }

  // Waits until sinfo shows the node idle; false with the reason after kTimeout, or as soon as a
  // daemon has exited.
  bool waitUntilIdle(std::string& why) {
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    std::string state;
    while (error_.empty()) {
      if (!alive()) {
        why = "a Slurm daemon exited";
        return false;
      }
      const CommandResult r =
          runShell(env() + "timeout 10 " + programPath("sinfo") + " --noheader --Node --format=%t");
      state = r.output;
      while (!state.empty() && (state.back() == '\n' || state.back() == ' ')) state.pop_back();
      if (r.exitCode == 0 && state == "idle") return true;
      if (std::chrono::steady_clock::now() > deadline) {
        why = "the node is not idle after 60 s (sinfo: '" + state + "')";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    why = error_;
    return false;
  }

  // The end of each daemon's log, for failure messages.
  std::string logs() const {
    std::string text;
    for (const char* name : {"munged", "slurmctld", "slurmd"}) {
      for (const std::string& file : {dir_ + "/" + name + ".log", dir_ + "/" + name + ".out"}) {
        std::string all = readAll(file);
        if (all.empty()) continue;
        if (all.size() > 3000) all = "..." + all.substr(all.size() - 3000);
        text += "--- " + file + "\n" + all + "\n";
      }
    }
    return text;
  }

 private:
  std::string config(const std::string& socket) const {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::string node = host;
    node = node.substr(0, node.find('.'));  // slurmd names itself by the short hostname
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    const std::string d = dir_;
    const std::vector<std::pair<std::string, std::string>> settings = {
        {"ClusterName", "tessera-test"},
        {"SlurmctldHost", node + "(127.0.0.1)"},
        {"SlurmctldPort", std::to_string(freePort())},
        {"SlurmdPort", std::to_string(freePort())},
        {"AuthType", "auth/munge"},
        {"CredType", "cred/munge"},
        {"AuthInfo", "socket=" + socket},
        {"SlurmUser", "root"},
        {"SlurmdUser", "root"},
        {"StateSaveLocation", d + "/state"},
        {"SlurmdSpoolDir", d + "/spool"},
        {"SlurmctldPidFile", d + "/slurmctld.pid"},
        {"SlurmdPidFile", d + "/slurmd.pid"},
        {"SlurmctldLogFile", d + "/slurmctld.log"},
        {"SlurmdLogFile", d + "/slurmd.log"},
        {"SlurmdParameters", "config_overrides"},  // the CPUs below, whatever slurmd counts
        {"ProctrackType", "proctrack/linuxproc"},
        {"TaskPlugin", "task/none"},
        {"JobAcctGatherType", "jobacct_gather/none"},
        {"AccountingStorageType", "accounting_storage/none"},
        {"JobCompType", "jobcomp/none"},
        {"MpiDefault", "none"},
        {"MailProg", "/bin/true"},
        {"SchedulerType", "sched/builtin"},
        {"SelectType", "select/cons_tres"},
        {"SelectTypeParameters", "CR_Core"},
        {"ReturnToService", "2"},
        {"NodeName", node + " NodeAddr=127.0.0.1 CPUs=" + std::to_string(cpus) + " State=UNKNOWN"},
        {"PartitionName", "debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"}};
    std::string text;
    for (const auto& [key, value] : settings) text += key + "=" + value + "\n";
    return text;
  }

  // Each daemon in a process group of its own, its output in NAME.out, SLURM_CONF set.
  void start(const std::string& name, const std::vector<std::string>& argv) {
    const std::string out = dir_ + "/" + name + ".out";
    const pid_t pid = fork();
    if (pid < 0) {
      error_ = "cannot start " + name;
      return;
    }
    if (pid == 0) {
      setpgid(0, 0);
      setenv("SLURM_CONF", conf_.c_str(), 1);
      const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int nul = open("/dev/null", O_RDONLY);
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
      }
      if (nul >= 0) dup2(nul, STDIN_FILENO);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    setpgid(pid, pid);
    daemons_.emplace_back(name, pid);
  }

  bool alive() {
    for (auto& [name, pid] : daemons_) {
      if (pid <= 0) return false;
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return false;
      }
    }
    return true;
  }

  // SIGTERM to the daemon's process group, SIGKILL if it is still there after 15 s.
  static void stop(pid_t& pid) {
    if (pid <= 0) return;
    kill(-pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(-pid, SIGKILL);  // anything the daemon left in its group
    pid = -1;
  }

  std::string dir_, conf_, error_;
  std::vector<std::pair<std::string, pid_t>> daemons_;
};

}  // namespace tessera::test
