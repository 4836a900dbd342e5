// `tessera sweep` as a user runs it: one CSV row and one plotted point per value, parameters
// that move together, progress kept off the CSV, and every bad input refused before a frame
// renders, with exit code 1 and no output file.
#include <gtest/gtest.h>

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
  return tessera::test::scratch("tessera-sweep", name);
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST(Sweep, WritesOneCsvRowAndOnePlotPointPerValue) {
  const auto csv = scratch("tb.csv"), svg = scratch("tb.svg");
  const CommandResult r = tessera(
      "sweep default --preset milo832-kv260 --size 96x64 --param tileBuffers --values 1,2 "
      "--csv " +
      csv.string() + " --plot " + svg.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // Not a terminal: one progress line per step on stderr.
  EXPECT_NE(r.output.find("[1/2] tileBuffers=1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[2/2] tileBuffers=2"), std::string::npos) << r.output;

  const auto rows = readCsv(csv);
  ASSERT_EQ(rows.size(), 3u);
  const auto& h = rows[0];
  for (const char* c :
       {"tileBuffers", "bins", "bin_w", "bin_h", "cycles", "milliseconds", "total_bytes",
        "bytes_gmem_resolve", "bytes_texture", "bound", "busy_ras", "busy_bus"})
    EXPECT_NE(std::find(h.begin(), h.end(), c), h.end()) << c;
  EXPECT_EQ(h[0], "tileBuffers");
  EXPECT_EQ(std::find(h.begin(), h.end(), "bytes_host"), h.end());  // not GPU traffic
  for (const auto& row : rows) EXPECT_EQ(row.size(), h.size());
  EXPECT_EQ(rows[1][0], "1");
  EXPECT_EQ(rows[2][0], "2");
  for (size_t i : {1, 2}) {
    EXPECT_EQ(rows[i][column(h, "bins")], "6");  // 96x64 in 32x32 tiles
    EXPECT_EQ(rows[i][column(h, "bin_w")], "32");
  }
  // Double-buffered tile memory overlaps resolves with rendering: the same bytes, fewer cycles.
  const size_t cyc = column(h, "cycles"), bytes = column(h, "total_bytes");
  EXPECT_EQ(rows[1][bytes], rows[2][bytes]);
  EXPECT_LT(std::stod(rows[2][cyc]), std::stod(rows[1][cyc]));
  const std::string csvText = readAll(csv);
  EXPECT_EQ(csvText.find('['), std::string::npos) << "progress mixed into the CSV";

  const std::string plot = readAll(svg);
  EXPECT_EQ(xmlProblem(plot), "") << plot.substr(0, 400);
  EXPECT_EQ(countOf(plot, "<circle class=\"point\""), 4u);  // 2 values x (cycles, MiB)
  for (const char* s : {"frame cycles", "MiB moved on the bus", "tileBuffers (count)"})
    EXPECT_NE(plot.find(s), std::string::npos) << s;
}

TEST(Sweep, ParametersMoveTogetherOverARange) {
  const auto csv = scratch("bins.csv"), svg = scratch("bins.svg");
  const CommandResult r = tessera(
      "sweep default --size 128x96 --param maxBinW --param maxBinH --range 32:96:32 --csv " +
      csv.string() + " --plot " + svg.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("[3/3] maxBinW,maxBinH=96"), std::string::npos) << r.output;
  const auto rows = readCsv(csv);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0][0], "maxBinW+maxBinH");
  const size_t bins = column(rows[0], "bins"), w = column(rows[0], "bin_w"),
               hh = column(rows[0], "bin_h");
  // Both limits at 32 give 32x32 bins; larger limits fewer, larger bins.
  EXPECT_EQ(rows[1][0], "32");
  EXPECT_EQ(rows[1][bins], "12");
  EXPECT_EQ(rows[1][w], "32");
  EXPECT_EQ(rows[1][hh], "32");
  EXPECT_GT(std::stoi(rows[1][bins]), std::stoi(rows[2][bins]));
  EXPECT_GT(std::stoi(rows[2][bins]), std::stoi(rows[3][bins]));
  EXPECT_EQ(countOf(readAll(svg), "<circle class=\"point\""), 6u);

  // Decimal steps keep their decimals.
  const CommandResult d =
      tessera("sweep --size 32x32 --param busBytesPerCycle --range 0.1:0.3:0.1");
  ASSERT_EQ(d.exitCode, 0) << d.output;
  EXPECT_NE(d.output.find("[3/3] busBytesPerCycle=0.3\n"), std::string::npos) << d.output;
}

TEST(Sweep, BadInputIsRefusedBeforeRendering) {
  const auto csv = scratch("bad.csv"), svg = scratch("bad.svg");
  // No case gets as far as rendering, so the default size costs nothing.
  const std::string outs = " --csv " + csv.string() + " --plot " + svg.string();
  const fs::path folder = csv.parent_path();
  struct Case {
    std::string args, message;
    int exitCode;
  } cases[] = {
      {"--param nosuch --values 1", "unknown preset field 'nosuch'", 1},
      {"--param sysmemOnly --values 0,1", "'sysmemOnly' is a flag", 1},
      {"--param tileBuffers --values 1,3", "tileBuffers=3: preset 'adreno-a630': tileBuffers must",
       1},
      {"--param gmemBytes --values 1k", "'1k' is not a valid unsigned integer", 1},
      {"--param maxBinW --param maxBinH --values 48", "maxBinW must be a non-zero multiple", 1},
      {"--preset milo832-kv260 --param binAlignW --param binAlignH --param maxBinW --param "
       "maxBinH --values 16,64",
       "=64: no bin layout fits preset 'milo832-kv260'", 1},
      {"--param maxBinW", "--values A,B,C or --range", 1},
      {"--param maxBinW --range 1:10:0", "STEP must not be 0", 1},
      {"--param maxBinW --range 10:1:1", "STEP goes away from TO", 1},
      {"--param maxBinW --range 1:5", "expected FROM:TO:STEP", 1},
      {"--param maxBinW --range a:5:1", "'a' is not a number", 1},
      {"--param maxBinW --range 32:100000:32", "more than 1000 values", 1},
      {"--param tileBuffers --values 1 --preset nope", "unknown preset 'nope'", 1},
      {"--param tileBuffers --values 1 --mode tiled", "unknown mode 'tiled'", 1},
      {"--param tileBuffers --values 1 /no/such/model.obj", "/no/such/model.obj", 1},
      {"--param tileBuffers --values 1 --size 0x1", "bad size '0x1'", 1},
      {"--values 1", "--param", 2},
      {"--param tileBuffers --values 1 --range 1:2:1", "excludes", 2},
  };
  for (const auto& c : cases) {
    const CommandResult r = tessera("sweep " + c.args + outs);
    EXPECT_EQ(r.exitCode, c.exitCode) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("[1/"), std::string::npos) << c.args << ": rendered\n" << r.output;
    EXPECT_FALSE(fs::exists(csv) || fs::exists(svg)) << c.args;
  }
  // Outputs that cannot be written: a missing folder, a folder in place of the file.
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--csv /no/such/dir/s.csv", "cannot write '/no/such/dir/s.csv'"},
           {"--plot " + folder.string(), "it is a folder"}}) {
    const CommandResult r = tessera("sweep --size 32x32 --param tileBuffers --values 1 " + args);
    EXPECT_EQ(r.exitCode, 1) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("[1/"), std::string::npos) << args << "\n" << r.output;
  }
}

}  // namespace
