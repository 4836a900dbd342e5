// `tessera bench` as a user runs it, on frames small enough to take seconds: the thread table
// checks results across thread counts, the CSV holds every measured row, --scaling draws its
// charts, and bad input is refused before any frame renders. Times are never asserted, only
// that they were measured.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tools/frame_renderer.h"
#include "tools/tessera_cli.h"
#include "tools/xml_check.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::readAll;
using tessera::test::readCsv;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-bench", name);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The CSV's rows as column name -> cell, checked against its header.
std::vector<std::map<std::string, std::string>> csvRows(const fs::path& p) {
  const auto cells = readCsv(p);
  EXPECT_FALSE(cells.empty());
  if (cells.empty()) return {};
  const std::vector<std::string> header = {"kind",         "scene",     "width",
                                           "height",       "triangles", "threads",
                                           "timing_model", "ms",        "timing_model_ms"};
  EXPECT_EQ(cells[0], header);
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t r = 1; r < cells.size(); ++r) {
    EXPECT_EQ(cells[r].size(), header.size()) << "row " << r;
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < cells[r].size(); ++c) row[header[c]] = cells[r][c];
    rows.push_back(row);
  }
  return rows;
}

TEST(Bench, TinyRunIsIdenticalAcrossThreadsAndWritesEveryRow) {
  const fs::path csv = scratch("tiny.csv");
  const CommandResult r = tessera(
      "bench --scenes default,compositor --size 64x48 --threads 1,2 "
      "--frames 1 --csv " +
      csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("Host threads"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Timing model"), std::string::npos) << r.output;
  // Thread table: a reference row and an identical one per scene; timing table: one per scene.
  EXPECT_EQ(count(r.output, "reference"), 2u) << r.output;
  EXPECT_EQ(count(r.output, "identical"), 4u) << r.output;
  EXPECT_EQ(r.output.find("DIFFERS"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Scaling"), std::string::npos) << r.output;

  const auto rows = csvRows(csv);
  ASSERT_EQ(rows.size(), 6u);
  std::set<std::string> threadRows;
  size_t timingRows = 0;
  for (const auto& row : rows) {
    EXPECT_GT(std::stod(row.at("ms")), 0.0);
    EXPECT_EQ(row.at("width"), "64");
    EXPECT_EQ(row.at("height"), "48");
    EXPECT_GT(std::stoul(row.at("triangles")), 0u);
    if (row.at("kind") == "threads") {
      threadRows.insert(row.at("scene") + "@" + row.at("threads"));
      EXPECT_EQ(row.at("timing_model"), "on");
      EXPECT_GT(std::stod(row.at("timing_model_ms")), 0.0);  // the timing model did run
    } else {
      EXPECT_EQ(row.at("kind"), "timing");
      EXPECT_EQ(row.at("timing_model"), "off");
      EXPECT_EQ(row.at("threads"), "1");  // the first thread count
      ++timingRows;
    }
  }
  EXPECT_EQ(threadRows,
            (std::set<std::string>{"default@1", "default@2", "compositor@1", "compositor@2"}));
  EXPECT_EQ(timingRows, 2u);
}

TEST(Bench, ScalingDrawsOnePointPerMeasurement) {
  const fs::path plot = scratch("scaling.svg"), csv = scratch("scaling.csv");
  const fs::path triangles = scratch("scaling-triangles.svg");
  const fs::path resolution = scratch("scaling-resolution.svg");
  const CommandResult r = tessera(
      "bench --scenes compositor --size 48x32 --threads 1,2 --frames 1 --scaling "
      "--triangles 100,400,1600 --sizes 32x24,64x48 --plot " +
      plot.string() + " --csv " + csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("Scaling with triangles"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Scaling with resolution"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(plot));  // two charts instead, named after it
  for (const auto& [file, points] : {std::pair{triangles, 3 * 2}, std::pair{resolution, 2 * 2}}) {
    SCOPED_TRACE(file.string());
    const std::string svg = readAll(file);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_EQ(tessera::test::xmlProblem(svg), "");
    EXPECT_EQ(count(svg, "<circle class=\"point\""), size_t(points));
    EXPECT_NE(svg.find("2 threads"), std::string::npos);  // one series per thread count
  }
  size_t byTriangles = 0, bySize = 0;
  std::set<std::string> sizes;
  for (const auto& row : csvRows(csv)) {
    EXPECT_GT(std::stod(row.at("ms")), 0.0);
    if (row.at("kind") == "triangles") {
      ++byTriangles;
      EXPECT_EQ(row.at("scene").rfind("spheres:", 0), 0u);
      EXPECT_EQ(row.at("width") + "x" + row.at("height"), "48x32");
    } else if (row.at("kind") == "resolution") {
      ++bySize;
      EXPECT_EQ(row.at("scene"), "default");
      sizes.insert(row.at("width") + "x" + row.at("height"));
    }
  }
  EXPECT_EQ(byTriangles, 6u);
  EXPECT_EQ(bySize, 4u);
  EXPECT_EQ(sizes, (std::set<std::string>{"32x24", "64x48"}));
}

// The check behind "identical": the first differing pixel, or the first differing field of a
// batch's report, named so the failure can be chased.
TEST(Bench, FirstDifferenceNamesThePixelOrTheCounter) {
  using tessera::tools::firstDifference;
  tessera::tools::FrameResult a;
  a.image.width = 4;
  a.image.height = 2;
  a.image.rgba.assign(4 * 2 * 4, 7);
  a.batches.resize(2);
  tessera::tools::FrameResult b = a;
  EXPECT_EQ(firstDifference(a, b, true), "");
  b.image.rgba[4 * (1 * 4 + 3) + 1] = 9;  // pixel (3, 1), green
  EXPECT_EQ(firstDifference(a, b, true), "image differs at pixel (3, 1) channel g: 7 vs 9");
  b = a;
  b.batches[1].draws = 3;
  EXPECT_EQ(firstDifference(a, b, true), "batch 1 report differs at /draws: 0 vs 3");
  EXPECT_EQ(firstDifference(a, b, false), "");  // images only
  b.batches.pop_back();
  EXPECT_EQ(firstDifference(a, b, true), "batch count differs: 2 vs 1");
  b = a;
  b.image.height = 1;
  EXPECT_EQ(firstDifference(a, b, false), "image size differs");
}

TEST(Bench, BadInputIsRefusedBeforeAnyFrame) {
  const fs::path csv = scratch("bad.csv"), plot = scratch("bad.svg");
  const fs::path folder = scratch("a-folder");
  fs::create_directories(folder);
  const std::string ok = " --size 32x24 --frames 1 --threads 1 --csv " + csv.string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--scenes no-such-scene.obj" + ok, "no-such-scene.obj"},
      {"--scenes default,spheres:abc" + ok, "spheres:abc: expected a triangle count from 1 to"},
      {"--scenes spheres:0" + ok, "spheres:0: expected a triangle count"},
      {"--size 64by48 --csv " + csv.string(), "bad size '64by48'"},
      {"--size 0x48 --csv " + csv.string(), "bad size '0x48'"},
      {"--threads 0 --csv " + csv.string(), "--threads"},
      {"--threads 1,257 --csv " + csv.string(), "--threads"},
      {"--frames 0 --csv " + csv.string(), "--frames"},
      {"--preset no-such-gpu" + ok, "no-such-gpu"},
      {"--mode tiled" + ok, "unknown mode 'tiled'"},
      {"--size 32x24 --csv /no/such/folder/x.csv", "cannot write '/no/such/folder/x.csv'"},
      {"--size 32x24 --csv " + folder.string(), "it is a folder"},
      {"--scaling --plot /no/such/folder/p.svg" + ok, "cannot write '/no/such/folder/p-"},
      {"--plot " + plot.string() + ok, "--scaling"},
      {"--scaling --sizes 32x24,big" + ok, "bad size 'big'"},
      {"--scaling --triangles 0" + ok, "--triangles"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const CommandResult r = tessera("bench " + c.args);
    EXPECT_TRUE(r.exitCode == 1 || r.exitCode == 2) << r.exitCode << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Host threads"), std::string::npos) << r.output;  // nothing measured
    EXPECT_FALSE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(csv.parent_path() / "bad-triangles.svg"));
  }
}

}  // namespace
