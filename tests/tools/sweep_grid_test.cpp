// `tessera sweep` over a grid: several presets times independent axes, one CSV row per point with
// a column per axis and the preset, one cache entry per point, one plot per axis with a line per
// combination of the rest, resumed and parallel runs equal to a fresh serial one, single points
// rendered as a Slurm task would, and every bad grid refused before a frame renders.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/tessera_cli.h"
#include "tools/xml_check.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::countOf;
using tessera::test::readAll;
using tessera::test::readCsv;
using tessera::test::tessera;
using tessera::test::xmlProblem;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-sweep-grid", name);
}

size_t resultFiles(const fs::path& cache) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(cache)) n += e.path().extension() == ".json";
  return n;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Two presets times two axes of two values: 8 points, small frames of the built-in scene.
const std::string kGrid =
    "sweep default --size 64x48 --presets adreno-a630,milo832-kv260 --axis lrz=0,1 "
    "--axis resolveBlock=0,8 ";

TEST(SweepGrid, OneRowPerPointAndOnePlotPerAxis) {
  const fs::path cache = scratch("cache"), csv = scratch("grid.csv"), svg = scratch("grid.svg");
  for (const char* axis : {"lrz", "resolveBlock"}) scratch(std::string("grid-") + axis + ".svg");
  const CommandResult r = tessera(kGrid + "--jobs 2 --cache " + cache.string() + " --csv " +
                                  csv.string() + " --plot " + svg.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "0 cached, 8 rendered (2 at a time)")) << r.output;
  // Progress names every point: the preset (several here) and each axis's value.
  for (const char* line : {"[1/8] preset=adreno-a630 lrz=0 resolveBlock=0\n",
                           "[6/8] preset=milo832-kv260 lrz=0 resolveBlock=8\n",
                           "[8/8] preset=milo832-kv260 lrz=1 resolveBlock=8\n"})
    EXPECT_EQ(countOf(r.output, line), 1u) << line << r.output;
  // Every point differs in its preset: eight keys.
  EXPECT_EQ(resultFiles(cache), 8u);

  const auto rows = readCsv(csv);
  ASSERT_EQ(rows.size(), 9u);
  const std::vector<std::string> lead = {"lrz", "resolveBlock", "preset", "bins"};
  EXPECT_TRUE(std::equal(lead.begin(), lead.end(), rows[0].begin())) << readAll(csv);
  for (const auto& row : rows) EXPECT_EQ(row.size(), rows[0].size());
  // Presets outermost, the last axis fastest.
  const char* expect[8][3] = {{"0", "0", "adreno-a630"},   {"0", "8", "adreno-a630"},
                              {"1", "0", "adreno-a630"},   {"1", "8", "adreno-a630"},
                              {"0", "0", "milo832-kv260"}, {"0", "8", "milo832-kv260"},
                              {"1", "0", "milo832-kv260"}, {"1", "8", "milo832-kv260"}};
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(rows[i + 1][0], expect[i][0]) << i;
    EXPECT_EQ(rows[i + 1][1], expect[i][1]) << i;
    EXPECT_EQ(rows[i + 1][2], expect[i][2]) << i;
  }
  // The presets really differ: the Milo832's fixed 32x32 tiles against the a630's larger bins.
  const size_t binW = std::find(rows[0].begin(), rows[0].end(), "bin_w") - rows[0].begin();
  EXPECT_EQ(rows[5][binW], "32");
  EXPECT_NE(rows[1][binW], "32");

  // One plot per axis, FILE-AXIS.svg; a line per preset and value of the other axis, in both
  // panels, named in one legend.
  EXPECT_FALSE(fs::exists(svg));
  for (const auto& [axis, other] : {std::pair{"lrz", "resolveBlock"}, {"resolveBlock", "lrz"}}) {
    const fs::path plot = svg.parent_path() / (std::string("grid-") + axis + ".svg");
    ASSERT_TRUE(fs::exists(plot)) << plot << "\n" << r.output;
    const std::string text = readAll(plot);
    EXPECT_EQ(xmlProblem(text), "") << text.substr(0, 400);
    EXPECT_EQ(countOf(text, "<polyline"), 8u) << axis;  // 4 series x 2 panels
    EXPECT_EQ(countOf(text, "<circle class=\"point\""), 16u) << axis;
    EXPECT_EQ(countOf(text, "class=\"legend\""), 4u) << axis;
    EXPECT_EQ(countOf(text, std::string(">preset=milo832-kv260 ") + other + "=0</text>"), 1u)
        << axis;
    EXPECT_TRUE(contains(r.output, plot.string())) << r.output;
  }

  // Run again: every point from the cache, the same CSV.
  const fs::path again = scratch("again.csv");
  const CommandResult r2 =
      tessera(kGrid + "--jobs 2 --cache " + cache.string() + " --csv " + again.string());
  ASSERT_EQ(r2.exitCode, 0) << r2.output;
  EXPECT_TRUE(contains(r2.output, "8 cached, 0 rendered")) << r2.output;
  EXPECT_TRUE(contains(r2.output, "[6/8] preset=milo832-kv260 lrz=0 resolveBlock=8 (cached)"))
      << r2.output;
  EXPECT_EQ(readAll(again), readAll(csv));
}

TEST(SweepGrid, ParallelEqualsSerialAndResumesFromOnePoint) {
  const fs::path serial = scratch("serial.csv"), parallel = scratch("parallel.csv");
  const CommandResult s = tessera(kGrid + "--jobs 1 --no-cache --csv " + serial.string());
  ASSERT_EQ(s.exitCode, 0) << s.output;
  const CommandResult p = tessera(kGrid + "--jobs 2 --no-cache --csv " + parallel.string());
  ASSERT_EQ(p.exitCode, 0) << p.output;
  EXPECT_EQ(countOf(readAll(serial), "\n"), 9u);
  EXPECT_EQ(readAll(serial), readAll(parallel));

  // Point 5 alone, as Slurm array task 5 renders it, then the whole grid: that one is cached.
  const fs::path cache = scratch("point-cache"), resumed = scratch("resumed.csv");
  const CommandResult one = tessera(kGrid + "--cache " + cache.string() + " --point 5");
  ASSERT_EQ(one.exitCode, 0) << one.output;
  EXPECT_TRUE(contains(one.output, "point 5 preset=milo832-kv260 lrz=0 resolveBlock=8: "))
      << one.output;
  EXPECT_EQ(resultFiles(cache), 1u);
  const CommandResult all =
      tessera(kGrid + "--jobs 2 --cache " + cache.string() + " --csv " + resumed.string());
  ASSERT_EQ(all.exitCode, 0) << all.output;
  EXPECT_TRUE(contains(all.output, "1 cached, 7 rendered")) << all.output;
  EXPECT_TRUE(contains(all.output, "[6/8] preset=milo832-kv260 lrz=0 resolveBlock=8 (cached)"))
      << all.output;
  EXPECT_EQ(readAll(resumed), readAll(serial));
  const CommandResult beyond = tessera(kGrid + "--cache " + cache.string() + " --point 8");
  EXPECT_EQ(beyond.exitCode, 1) << beyond.output;
  EXPECT_TRUE(contains(beyond.output, "there is no point 8 (the sweep has 8, from 0)"))
      << beyond.output;
}

TEST(SweepGrid, CacheKeysFollowTheWholePreset) {
  const fs::path cache = scratch("key-cache"), line = scratch("line.csv"), grid = scratch("g.csv");
  const std::string useCache = " --jobs 1 --cache " + cache.string();
  // A one-axis sweep on the Milo832...
  const CommandResult a = tessera(
      "sweep default --size 64x48 --preset milo832-kv260 --param "
      "tileBuffers --values 1,2 --csv " +
      line.string() + useCache);
  ASSERT_EQ(a.exitCode, 0) << a.output;
  // ...is the Milo832 half of this grid (the same preset, field by field): reused as it is.
  const CommandResult b = tessera(
      "sweep default --size 64x48 --presets adreno-a630,milo832-kv260 --axis tileBuffers=1,2 "
      "--csv " +
      grid.string() + useCache);
  ASSERT_EQ(b.exitCode, 0) << b.output;
  EXPECT_TRUE(contains(b.output, "2 cached, 2 rendered")) << b.output;
  EXPECT_TRUE(contains(b.output, "[3/4] preset=milo832-kv260 tileBuffers=1 (cached)")) << b.output;
  const auto lineRows = readCsv(line);
  auto gridRows = readCsv(grid);
  ASSERT_EQ(lineRows.size(), 3u);
  ASSERT_EQ(gridRows.size(), 5u);
  EXPECT_EQ(gridRows[3][1], "milo832-kv260");
  for (auto& row : gridRows) row.erase(row.begin() + 1);  // the grid's preset column
  EXPECT_EQ(lineRows[0], gridRows[0]);
  EXPECT_EQ(lineRows[1], gridRows[3]);
  EXPECT_EQ(lineRows[2], gridRows[4]);
  // One more override is another preset: nothing reused.
  const CommandResult c = tessera(
      "sweep default --size 64x48 --preset milo832-kv260 --axis tileBuffers=1,2 --axis "
      "resolveBlock=8" +
      useCache);
  ASSERT_EQ(c.exitCode, 0) << c.output;
  EXPECT_TRUE(contains(c.output, "0 cached, 2 rendered")) << c.output;
  EXPECT_EQ(resultFiles(cache), 6u);
}

TEST(SweepGrid, ModesAreAnAxisOfTheGrid) {
  const fs::path csv = scratch("modes.csv"), svg = scratch("modes.svg");
  const CommandResult r = tessera(
      "sweep default --size 64x48 --mode sysmem,binning --axis maxBinW+maxBinH=32,64 "
      "--no-cache --csv " +
      csv.string() + " --plot " + svg.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "[3/4] mode=binning maxBinW,maxBinH=32\n")) << r.output;
  const auto rows = readCsv(csv);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0][0], "maxBinW+maxBinH");
  EXPECT_EQ(rows[0][1], "mode");  // one preset: no preset column
  EXPECT_EQ(rows[0][2], "bins");
  EXPECT_EQ(rows[1][1], "sysmem");
  EXPECT_EQ(rows[4][1], "binning");
  // One axis: the plot is FILE.svg, a line per mode.
  const std::string plot = readAll(svg);
  EXPECT_EQ(xmlProblem(plot), "");
  EXPECT_EQ(countOf(plot, "<polyline"), 4u);
  EXPECT_EQ(countOf(plot, ">mode=sysmem</text>"), 1u);
}

TEST(SweepGrid, BadGridsAreRefusedBeforeRendering) {
  const fs::path csv = scratch("bad.csv"), svg = scratch("bad.svg");
  const std::string outs = " --csv " + csv.string() + " --plot " + svg.string();
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--axis nosuch=1,2", "bad axis 'nosuch=1,2': unknown preset field 'nosuch'"},
      {"--axis lrz", "bad axis 'lrz': expected NAME=V1,V2,... or NAME=FROM:TO:STEP"},
      {"--axis lrz=", "bad axis 'lrz=': expected NAME="},
      {"--axis =0,1", "bad axis '=0,1': expected NAME="},
      {"--axis maxBinW+=32", "bad axis 'maxBinW+=32': an empty parameter name"},
      {"--axis maxBinW+maxBinW=32", "a parameter given twice"},
      {"--axis lrz=0,,1", "bad axis 'lrz=0,,1': an empty value"},
      {"--axis gmemBytes=1:5", "bad axis 'gmemBytes=1:5': bad range '1:5': expected FROM:TO:STEP"},
      {"--axis lrz=0,1 --axis tileBuffers=1 --axis lrz=1", "parameter 'lrz' is in two axes"},
      {"--param lrz --values 0,1 --axis lrz=1", "'lrz' is a flag"},
      {"--axis lrz=0,maybe", "sweep lrz=maybe: preset field 'lrz': 'maybe' is not true/false"},
      // One combination of an otherwise good grid: the a630's bins align to 32 pixels.
      {"--presets milo832-de2-115,adreno-a630 --axis lrz=0,1 --axis maxBinW=16",
       "sweep preset=adreno-a630 lrz=0 maxBinW=16: preset 'adreno-a630': maxBinW must be a "
       "non-zero multiple of binAlignW"},
      {"--axis busBytesPerCycle=1:100:1 --axis texLatency=1:101:1",
       "sweep: the grid has 10100 points (1 preset x 100 busBytesPerCycle x 101 texLatency); at "
       "most 10000"},
      {"--preset adreno-a630 --presets milo832-kv260 --axis lrz=0,1",
       "give either --preset P or --presets A,B,C, not both"},
      {"--presets adreno-a630,nope --axis lrz=0,1", "unknown preset 'nope'"},
      {"--mode binning,tiled --axis lrz=0,1", "unknown mode 'tiled'"},
      {"", "give the parameters to vary: --axis NAME=V1,V2,..."},
  };
  for (const auto& c : cases) {
    const CommandResult r = tessera("sweep default --size 64x48 " + c.args + outs);
    EXPECT_EQ(r.exitCode, 1) << c.args << "\n" << r.output;
    EXPECT_TRUE(contains(r.output, c.message)) << c.args << "\n" << r.output;
    EXPECT_FALSE(contains(r.output, "[1/")) << c.args << ": rendered\n" << r.output;
    EXPECT_FALSE(fs::exists(csv) || fs::exists(svg)) << c.args;
  }
  // Each axis's plot file is checked before rendering: a folder where the second one goes.
  const fs::path folder = scratch("plots");
  fs::create_directories(folder / "p-tileBuffers.svg");
  const CommandResult r = tessera(
      "sweep default --size 64x48 --axis lrz=0,1 --axis tileBuffers=1 "
      "--plot " +
      (folder / "p.svg").string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "p-tileBuffers.svg': it is a folder")) << r.output;
  EXPECT_FALSE(contains(r.output, "[1/")) << r.output;
  EXPECT_FALSE(fs::exists(folder / "p-lrz.svg"));
}

}  // namespace
