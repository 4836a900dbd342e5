// The pieces of `tessera sweep --slurm` that need no cluster: the job script as /bin/sh runs it,
// sbatch's command line, and the errors a user meets without a working Slurm (no sbatch, a
// controller nobody answers for) or with options that do not go together.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tools/slurm_cluster.h"
#include "tools/slurm_job.h"
#include "tools/tessera_cli.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::readAll;
using tessera::test::tessera;
using namespace tessera::tools;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-slurm-job", name);
}

const std::string kSweep =
    "sweep default --size 96x64 --param maxBinW --param maxBinH --values 32,64,96 ";

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(SlurmJob, ArrayIndexListMergesRuns) {
  EXPECT_EQ(arrayIndexList({}), "");
  EXPECT_EQ(arrayIndexList({4}), "4");
  EXPECT_EQ(arrayIndexList({0, 1, 2}), "0-2");
  EXPECT_EQ(arrayIndexList({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(arrayIndexList({1, 3, 5}), "1,3,5");
}

TEST(SlurmJob, ScriptRunsTheCommandWithItsTaskId) {
  SlurmArrayJob job;
  job.tasks = {0, 1, 2, 5};
  // Quotes, spaces and shell syntax reach the program unchanged.
  job.command = {"printf", "%s|", "it's", "a b", "$HOME", "`x`;"};
  const fs::path script = scratch("job.sh");
  std::ofstream(script) << slurmJobScript(job);
  const CommandResult r = tessera::test::runShell("SLURM_ARRAY_TASK_ID=5 sh " + script.string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "it's|a b|$HOME|`x`;|5|");
  EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
}

TEST(SlurmJob, SbatchCommandLine) {
  SlurmArrayJob job;
  job.name = "tessera-sweep";
  job.tasks = {0, 2, 3};
  job.logDir = "/shared/logs";
  const std::vector<std::string> plain = sbatchCommand(job, "/shared/job.sh");
  const std::vector<std::string> expected = {"sbatch",
                                             "--parsable",
                                             "--job-name=tessera-sweep",
                                             "--array=0,2-3",
                                             "--ntasks=1",
                                             "--cpus-per-task=1",
                                             "--output=/shared/logs/tessera-sweep-%A_%a.out",
                                             "--error=/shared/logs/tessera-sweep-%A_%a.err",
                                             "/shared/job.sh"};
  EXPECT_EQ(plain, expected);
  job.partition = "gpu";
  job.timeLimit = "10:00";
  const std::vector<std::string> full = sbatchCommand(job, "/shared/job.sh");
  ASSERT_EQ(full.size(), expected.size() + 2);
  EXPECT_EQ(full[8], "--partition=gpu");
  EXPECT_EQ(full[9], "--time=10:00");
  EXPECT_EQ(taskStderrPath(job, "41", 3), "/shared/logs/tessera-sweep-41_3.err");
}

TEST(SlurmSweepErrors, OptionsThatDoNotGoTogether) {
  EXPECT_EQ(tessera(kSweep + "--partition debug").exitCode, 2);
  EXPECT_EQ(tessera(kSweep + "--time 1:00").exitCode, 2);
  EXPECT_EQ(tessera(kSweep + "--slurm-dir x").exitCode, 2);
  EXPECT_EQ(tessera(kSweep + "--slurm --jobs 2").exitCode, 2);
  EXPECT_EQ(tessera(kSweep + "--slurm --point 0").exitCode, 2);
  EXPECT_EQ(tessera(kSweep + "--point -1").exitCode, 2);
  // --point is what each array task runs; it is not offered in --help.
  const CommandResult help = tessera("sweep --help");
  EXPECT_TRUE(contains(help.output, "--slurm")) << help.output;
  EXPECT_FALSE(contains(help.output, "--point")) << help.output;
}

TEST(SlurmSweepErrors, PointRendersOnePointIntoTheCache) {
  const fs::path cache = scratch("point-cache");
  const CommandResult r = tessera(kSweep + "--cache " + cache.string() + " --point 1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "point 1 maxBinW,maxBinH=64: " + cache.string())) << r.output;
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache)) files += e.path().extension() == ".json";
  EXPECT_EQ(files, 1u);
  const CommandResult again = tessera(kSweep + "--cache " + cache.string() + " --point 1");
  EXPECT_TRUE(contains(again.output, "point 1 maxBinW,maxBinH=64 (cached)")) << again.output;

  const CommandResult past = tessera(kSweep + "--cache " + cache.string() + " --point 3");
  EXPECT_EQ(past.exitCode, 1) << past.output;
  EXPECT_TRUE(contains(past.output, "there is no point 3 (the sweep has 3, from 0)"))
      << past.output;
  const CommandResult noCache = tessera(kSweep + "--no-cache --point 0");
  EXPECT_EQ(noCache.exitCode, 1) << noCache.output;
  EXPECT_TRUE(contains(noCache.output, "--point keeps its result in the cache")) << noCache.output;
}

TEST(SlurmSweepErrors, NoSbatchOnPath) {
  const fs::path dir = scratch("nosbatch"), csv = scratch("nosbatch.csv");
  const CommandResult r = tessera::test::runShell(
      "PATH=" + scratch("empty-path").string() + " " + std::string(TESSERA_BIN) + " " + kSweep +
      "--no-cache --slurm --slurm-dir " + dir.string() + " --csv " + csv.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "--slurm needs Slurm's 'sbatch' command on PATH")) << r.output;
  EXPECT_FALSE(fs::exists(csv));
}

TEST(SlurmSweepErrors, SlurmFolderThatIsAFile) {
  const fs::path file = scratch("a-file");
  std::ofstream(file) << "x";
  const CommandResult r = tessera(kSweep + "--no-cache --slurm --slurm-dir " + file.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "cannot use Slurm folder '" + file.string() + "'")) << r.output;
}

TEST(SlurmSweepErrors, UnreachableControllerIsAClearError) {
  if (tessera::test::programPath("sbatch").empty())
    GTEST_SKIP() << "sbatch is not installed (scripts/install-deps.sh installs slurm-client)";
  // A controller on a port nothing listens on; short timeouts so sbatch gives up at once.
  const fs::path conf = scratch("unreachable.conf"), dir = scratch("unreachable"),
                 csv = scratch("unreachable.csv");
  std::ofstream(conf) << "ClusterName=nowhere\nSlurmctldHost=localhost(127.0.0.1)\n"
                      << "SlurmctldPort=" << tessera::test::freePort() << "\n"
                      << "MessageTimeout=1\nTCPTimeout=1\n";
  const CommandResult r = tessera::test::runShell(
      "SLURM_CONF=" + conf.string() + " timeout -k 5 60 " + std::string(TESSERA_BIN) + " " +
      kSweep + "--no-cache --slurm --slurm-dir " + dir.string() + " --csv " + csv.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "tessera: error: sweep --slurm: Slurm did not take the job: "))
      << r.output;
  EXPECT_TRUE(contains(r.output, "Unable to contact slurm controller")) << r.output;
  EXPECT_TRUE(contains(r.output, "is slurmctld running")) << r.output;
  EXPECT_FALSE(fs::exists(csv));
}

}  // namespace
