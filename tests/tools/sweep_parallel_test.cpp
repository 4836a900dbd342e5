// `tessera sweep` in parallel and resumable: points rendered side by side give the CSV of a
// serial run, and a sweep started again reuses every point already in its cache folder (as after
// an interruption) and renders only the rest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "tools/tessera_cli.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::readAll;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-sweep-parallel", name);
}

// Small frames of the built-in scene: bin sizes that give different bin counts and cycles.
const std::string kSweep = "sweep default --size 96x64 --param maxBinW --param maxBinH ";

size_t countOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SweepParallel, ParallelCsvEqualsSerialCsv) {
  const auto serial = scratch("serial.csv"), parallel = scratch("parallel.csv");
  const CommandResult s =
      tessera(kSweep + "--values 32,64,96 --jobs 1 --no-cache --csv " + serial.string());
  ASSERT_EQ(s.exitCode, 0) << s.output;
  EXPECT_NE(s.output.find("0 cached, 3 rendered (1 at a time)"), std::string::npos) << s.output;
  const CommandResult p =
      tessera(kSweep + "--values 32,64,96 --jobs 3 --no-cache --csv " + parallel.string());
  ASSERT_EQ(p.exitCode, 0) << p.output;
  EXPECT_NE(p.output.find("0 cached, 3 rendered (3 at a time)"), std::string::npos) << p.output;
  // Each point reported once, by its place in the sweep, whatever order they finished in.
  for (const char* line :
       {"[1/3] maxBinW,maxBinH=32\n", "[2/3] maxBinW,maxBinH=64\n", "[3/3] maxBinW,maxBinH=96\n"})
    EXPECT_EQ(countOf(p.output, line), 1u) << line << p.output;
  const std::string a = readAll(serial), b = readAll(parallel);
  EXPECT_EQ(countOf(a, "\n"), 4u) << a;
  EXPECT_EQ(a, b);
}

TEST(SweepParallel, ThreadsPerPointChangeNothing) {
  // Each point's bins on 1 or 4 host threads: the same CSV, row for row.
  const auto one = scratch("threads-1.csv"), four = scratch("threads-4.csv");
  for (const auto& [threads, csv] : {std::pair{"1", one}, std::pair{"4", four}}) {
    const CommandResult r = tessera(kSweep + "--values 32,64 --jobs 1 --no-cache --threads " +
                                    threads + " --csv " + csv.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
  }
  const std::string a = readAll(one);
  EXPECT_EQ(countOf(a, "\n"), 3u) << a;
  EXPECT_EQ(a, readAll(four));
  EXPECT_EQ(tessera(kSweep + "--values 32 --threads 0").exitCode, 2);
}

TEST(SweepParallel, ResumesFromTheCache) {
  const fs::path cache = scratch("cache");
  const auto first = scratch("first.csv"), resumed = scratch("resumed.csv"),
             fresh = scratch("fresh.csv");
  const std::string useCache = "--jobs 2 --cache " + cache.string() + " ";
  // A sweep stopped after two of its points: their results are in the cache.
  const CommandResult r1 = tessera(kSweep + useCache + "--values 32,64 --csv " + first.string());
  ASSERT_EQ(r1.exitCode, 0) << r1.output;
  EXPECT_NE(r1.output.find("0 cached, 2 rendered"), std::string::npos) << r1.output;
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache)) files += e.path().extension() == ".json";
  EXPECT_EQ(files, 2u);

  // Started again over the whole range: the two points come from the cache.
  const CommandResult r2 =
      tessera(kSweep + useCache + "--values 32,64,96 --csv " + resumed.string());
  ASSERT_EQ(r2.exitCode, 0) << r2.output;
  EXPECT_NE(r2.output.find("2 cached, 1 rendered"), std::string::npos) << r2.output;
  EXPECT_NE(r2.output.find("[1/3] maxBinW,maxBinH=32 (cached)"), std::string::npos) << r2.output;
  EXPECT_NE(r2.output.find("[3/3] maxBinW,maxBinH=96\n"), std::string::npos) << r2.output;
  const CommandResult r3 = tessera(kSweep + "--no-cache --values 32,64,96 --csv " + fresh.string());
  ASSERT_EQ(r3.exitCode, 0) << r3.output;
  EXPECT_EQ(readAll(resumed), readAll(fresh));

  // Another size is another frame: nothing reused. An equal value twice renders once.
  const CommandResult r4 = tessera("sweep default --size 64x64 --param maxBinW --param maxBinH " +
                                   useCache + "--values 32,32");
  ASSERT_EQ(r4.exitCode, 0) << r4.output;
  EXPECT_NE(r4.output.find("1 cached, 1 rendered"), std::string::npos) << r4.output;

  // A damaged result (a write cut short elsewhere) is rendered again, not trusted.
  for (const auto& e : fs::directory_iterator(cache)) std::ofstream(e.path()) << "{\"result\":";
  const CommandResult r5 = tessera(kSweep + useCache + "--values 32,64,96");
  ASSERT_EQ(r5.exitCode, 0) << r5.output;
  EXPECT_NE(r5.output.find("0 cached, 3 rendered"), std::string::npos) << r5.output;
}

TEST(SweepParallel, BadCacheAndJobOptions) {
  const fs::path file = scratch("not-a-folder");
  std::ofstream(file) << "x";
  const CommandResult r = tessera(kSweep + "--values 32 --cache " + file.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("cannot use cache folder"), std::string::npos) << r.output;
  const CommandResult j = tessera(kSweep + "--values 32 --jobs 0");
  EXPECT_EQ(j.exitCode, 2) << j.output;
  const CommandResult both = tessera(kSweep + "--values 32 --no-cache --cache " + file.string());
  EXPECT_EQ(both.exitCode, 2) << both.output;
  const CommandResult frames = tessera(kSweep + "--values 32 --frames 1-2");
  EXPECT_EQ(frames.exitCode, 1) << frames.output;
  EXPECT_NE(frames.output.find("--frames applies to a trace only"), std::string::npos)
      << frames.output;
}

}  // namespace
