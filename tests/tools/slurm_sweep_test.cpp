// `tessera sweep --slurm` on a real one-node Slurm cluster started by the test: the job array's
// CSV is the local run's (for a grid of presets and an axis too), points already cached are not
// submitted, and a failed array task is named with its stderr file while the points that
// finished stay cached. Skipped, saying why, without Slurm and MUNGE installed or without root.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/slurm_cluster.h"
#include "tools/tessera_cli.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::readAll;
using tessera::test::SlurmCluster;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-slurm-sweep", name);
}

const std::string kSweep =
    "sweep default --size 96x64 --param maxBinW --param maxBinH --values 32,64,96 ";

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

size_t resultFiles(const fs::path& cache) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(cache))
    n += e.is_regular_file() && e.path().extension() == ".json";
  return n;
}

class SlurmSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = SlurmCluster::unavailable();
    if (!why.empty()) GTEST_SKIP() << why;
    cluster_ = std::make_unique<SlurmCluster>();
    std::string notIdle;
    ASSERT_TRUE(cluster_->waitUntilIdle(notIdle)) << notIdle << "\n" << cluster_->logs();
  }

  // `tessera ARGS` against the test's cluster; killed after 120 s so that a lost job fails the
  // test instead of hanging it.
  CommandResult onCluster(const std::string& args) const {
    return tessera::test::runShell("XDG_CACHE_HOME=" + tessera::test::sweepCacheHome() + " " +
                                   cluster_->env() + "timeout -k 5 120 " +
                                   std::string(TESSERA_BIN) + " " + args);
  }

  std::unique_ptr<SlurmCluster> cluster_;  // stopped after each test, passed or failed
};

// The CSV of a local run, for comparison; `cache` (if given) keeps its results.
std::string localCsv(const std::string& name, const std::string& cacheOption = "--no-cache") {
  const fs::path csv = scratch(name);
  const CommandResult r = tessera(kSweep + cacheOption + " --jobs 1 --csv " + csv.string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  return readAll(csv);
}

TEST_F(SlurmSweep, JobArrayCsvEqualsLocalCsv) {
  const std::string local = localCsv("local.csv");
  const fs::path dir = scratch("job"), cache = scratch("cache"), csv = scratch("slurm.csv");
  const std::string args = kSweep + "--slurm --slurm-dir " + dir.string() + " --cache " +
                           cache.string() + " --csv " + csv.string();
  const CommandResult r = onCluster(args);
  ASSERT_EQ(r.exitCode, 0) << r.output << cluster_->logs();
  EXPECT_TRUE(contains(r.output, "0 cached, 3 rendered (Slurm job ")) << r.output;
  EXPECT_TRUE(contains(r.output, "3 array tasks (0-2)")) << r.output;
  EXPECT_TRUE(contains(r.output, "[2/3] maxBinW,maxBinH=64\n")) << r.output;
  EXPECT_EQ(readAll(csv), local);
  EXPECT_EQ(resultFiles(cache), 3u);
  // The job script and one stdout/stderr pair per array task.
  size_t scripts = 0, errs = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    scripts += e.path().extension() == ".sh";
    errs += e.path().extension() == ".err";
  }
  EXPECT_EQ(scripts, 1u);
  EXPECT_EQ(errs, 3u);

  // Everything cached: nothing goes to Slurm, the CSV is the same.
  fs::remove(csv);
  const CommandResult again = onCluster(args);
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_TRUE(contains(again.output, "3 cached, 0 rendered (nothing submitted to Slurm)"))
      << again.output;
  EXPECT_EQ(readAll(csv), local);

  // --no-cache keeps the results in the Slurm folder, where the tasks reach them, for the run.
  const CommandResult noCache = onCluster(kSweep + "--slurm --slurm-dir " + dir.string() +
                                          " --no-cache --csv " + csv.string());
  ASSERT_EQ(noCache.exitCode, 0) << noCache.output << cluster_->logs();
  EXPECT_TRUE(contains(noCache.output, "0 cached, 3 rendered (Slurm job ")) << noCache.output;
  EXPECT_EQ(readAll(csv), local);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_FALSE(e.is_directory()) << e.path() << " left behind";

  // A grid: each array task renders its point of presets x axis, as the local run numbers them.
  const std::string grid =
      "sweep default --size 64x48 --presets adreno-a630,milo832-kv260 --axis tileBuffers=1,2 ";
  const fs::path localGrid = scratch("grid-local.csv"), slurmGrid = scratch("grid-slurm.csv");
  const CommandResult l = tessera(grid + "--no-cache --jobs 1 --csv " + localGrid.string());
  ASSERT_EQ(l.exitCode, 0) << l.output;
  const CommandResult g =
      onCluster(grid + "--slurm --slurm-dir " + scratch("gridjob").string() + " --cache " +
                scratch("gridcache").string() + " --csv " + slurmGrid.string());
  ASSERT_EQ(g.exitCode, 0) << g.output << cluster_->logs();
  EXPECT_TRUE(contains(g.output, "4 array tasks (0-3)")) << g.output;
  EXPECT_TRUE(contains(g.output, "[3/4] preset=milo832-kv260 tileBuffers=1\n")) << g.output;
  EXPECT_EQ(readAll(slurmGrid), readAll(localGrid));
}

TEST_F(SlurmSweep, FailedTaskIsNamedAndFinishedPointsKept) {
  // The key of the point maxBinW=64, from a local run's cache (same executable, same key).
  const fs::path keys = scratch("keys");
  const std::string local = localCsv("local-keys.csv", "--cache " + keys.string());
  std::string key;
  for (const auto& e : fs::directory_iterator(keys)) {
    const auto j = nlohmann::json::parse(readAll(e.path()));
    if (j.at("inputs").get<std::string>().rfind("maxBinW,maxBinH=64 ", 0) == 0)
      key = e.path().filename().string();
  }
  ASSERT_FALSE(key.empty());

  // A folder where that point's result goes: its array task cannot write it and fails.
  const fs::path dir = scratch("failjob"), cache = scratch("failcache"), csv = scratch("f.csv");
  fs::create_directories(cache / key);
  const std::string args = kSweep + "--slurm --slurm-dir " + dir.string() + " --cache " +
                           cache.string() + " --csv " + csv.string();
  const CommandResult r = onCluster(args);
  EXPECT_EQ(r.exitCode, 1) << r.output << cluster_->logs();
  EXPECT_TRUE(contains(r.output, "1 of 3 points failed in Slurm job ")) << r.output;
  EXPECT_TRUE(contains(r.output, "array task 1 (maxBinW,maxBinH=64): FAILED, exit code 1"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "; stderr " + dir.string() + "/tessera-sweep-")) << r.output;
  EXPECT_TRUE(contains(r.output,
                       "_1.err:\n    tessera: error: sweep maxBinW,maxBinH=64: cannot "
                       "write"))
      << r.output;
  EXPECT_FALSE(fs::exists(csv));
  EXPECT_EQ(resultFiles(cache), 2u);  // the other two points are kept

  // Cleared and run again: only the failed point is submitted.
  fs::remove_all(cache / key);
  const CommandResult again = onCluster(args);
  ASSERT_EQ(again.exitCode, 0) << again.output << cluster_->logs();
  EXPECT_TRUE(contains(again.output, "2 cached, 1 rendered (Slurm job ")) << again.output;
  EXPECT_TRUE(contains(again.output, "1 array task (1)")) << again.output;
  EXPECT_EQ(readAll(csv), local);
}

}  // namespace
