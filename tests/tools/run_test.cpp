// `tessera run` with a real GLES2 program: per-frame reports whose figures match what the program
// drew, frame selection, captured back buffers, exit statuses passed through, and the errors a
// user can make.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/image.h"
#include "tools/shell_command.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tessera::test::CommandResult;
using tessera::test::runShell;

CommandResult tesseraRun(const std::string& options, const std::string& programArgs) {
  return runShell(std::string(TESSERA_BIN) + " run " + options + " -- " + GL_FRAMES_PROGRAM + " " +
                  programArgs);
}

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / "tessera-run" / name;
  fs::remove_all(dir);
  return dir;
}

json readJson(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

std::string frameName(int n, const char* ext) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "frame-%05d.%s", n, ext);
  return buf;
}

TEST(Run, WritesAReportPerFrameWithTheProgramsDraws) {
  const fs::path dir = freshDir("all");
  const CommandResult r =
      tesseraRun("--preset adreno-a320 --mode binning --report " + dir.string(), "3");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // The program's own output passes through.
  EXPECT_NE(r.output.find("gl_frames_program: 3 frames"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gl_frames_program: done"), std::string::npos) << r.output;
  for (int f = 1; f <= 3; ++f) {
    const json j = readJson(dir / frameName(f, "json"));
    EXPECT_EQ(j["frame"], f);
    EXPECT_EQ(j["partial"], false);
    EXPECT_EQ(j["preset"], "adreno-a320");
    EXPECT_EQ(j["mode"], "binning");
    EXPECT_EQ(j["size"], json::array({320, 240}));
    EXPECT_EQ(j["draws"], f) << "frame " << f << " draws the top half " << f << " times";
    EXPECT_EQ(j["clears"], 1);
    ASSERT_GE(j["batch_count"].get<int>(), 1);
    EXPECT_EQ(j["batches"].size(), j["batch_count"].get<size_t>());
    EXPECT_EQ(j["batches"][0]["mode"], "binning");
    EXPECT_GT(j["bytes"]["total_gpu_bytes"].get<uint64_t>(), 0u);
    EXPECT_GT(j["bytes"]["gmem_resolve"]["write_bytes"].get<uint64_t>(), 0u);
    // The binning pass runs each draw once and every bin draws it again; each draw is two
    // triangles.
    EXPECT_EQ(j["counters"]["pipeline"]["binning_draws"], f);
    EXPECT_EQ(j["counters"]["pipeline"]["draws"], 2 * f);
    EXPECT_EQ(j["counters"]["vsc"]["primitives_binned"], 2 * f);
    // Half of 320x240 covered f times.
    EXPECT_EQ(j["counters"]["ras"]["pixels_covered"], 320 * 120 * f);
    EXPECT_EQ(j["bins"]["count"], 2) << "a320's GMEM holds half of a 320x240 frame with depth";
    EXPECT_EQ(j["bins"]["mode"], "binning");
  }
  // The draw flushed after the last swap is reported as a partial frame at eglTerminate.
  const json partial = readJson(dir / frameName(4, "json"));
  EXPECT_EQ(partial["partial"], true);
  EXPECT_EQ(partial["draws"], 1);
  EXPECT_FALSE(fs::exists(dir / frameName(5, "json")));
  EXPECT_FALSE(fs::exists(dir / frameName(1, "png"))) << "images only with --capture-frames";
  const json s = readJson(dir / "summary.json");
  EXPECT_EQ(s["frames"], 4);
  EXPECT_EQ(s["frames_written"], 4);
  EXPECT_EQ(s["draws"], 1 + 2 + 3 + 1);
  EXPECT_GT(s["bytes"]["total_gpu_bytes"].get<uint64_t>(), 0u);
}

TEST(Run, ModeAndPresetReachTheDriver) {
  const fs::path dir = freshDir("sysmem");
  const CommandResult r =
      tesseraRun("--preset adreno-a630 --mode sysmem --report " + dir.string(), "1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json j = readJson(dir / frameName(1, "json"));
  EXPECT_EQ(j["preset"], "adreno-a630");
  EXPECT_EQ(j["mode"], "sysmem");
  EXPECT_EQ(j["batches"][0]["mode"], "sysmem");
  EXPECT_EQ(j["bins"]["count"], 1);
  EXPECT_EQ(j["bytes"]["gmem_resolve"]["write_bytes"], 0) << "sysmem never resolves";
  EXPECT_GT(j["bytes"]["render_backend"]["write_bytes"].get<uint64_t>(), 0u);
}

TEST(Run, FramesSelectsWhichReportsAreWritten) {
  const fs::path dir = freshDir("range");
  ASSERT_EQ(tesseraRun("--frames 2-3 --report " + dir.string(), "3").exitCode, 0);
  EXPECT_FALSE(fs::exists(dir / frameName(1, "json")));
  EXPECT_TRUE(fs::exists(dir / frameName(2, "json")));
  EXPECT_TRUE(fs::exists(dir / frameName(3, "json")));
  EXPECT_FALSE(fs::exists(dir / frameName(4, "json")));
  EXPECT_EQ(readJson(dir / "summary.json")["frames"], 4) << "every frame counts";
  EXPECT_EQ(readJson(dir / "summary.json")["frames_written"], 2);

  const fs::path one = freshDir("one");
  ASSERT_EQ(tesseraRun("--frames 2 --report " + one.string(), "3").exitCode, 0);
  EXPECT_FALSE(fs::exists(one / frameName(1, "json")));
  EXPECT_EQ(readJson(one / frameName(2, "json"))["draws"], 2);
  EXPECT_FALSE(fs::exists(one / frameName(3, "json")));
}

TEST(Run, CaptureFramesWritesTheBackBufferTopRowFirst) {
  const fs::path dir = freshDir("capture");
  const CommandResult r = tesseraRun("--capture-frames --frames 1-2 --report " + dir.string(), "3");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const tessera::Image f1 = tessera::readPng((dir / frameName(1, "png")).string());
  const tessera::Image f2 = tessera::readPng((dir / frameName(2, "png")).string());
  EXPECT_FALSE(fs::exists(dir / frameName(3, "png")));
  ASSERT_EQ(f1.width, 320u);
  ASSERT_EQ(f1.height, 240u);
  auto rgba = [](const tessera::Image& img, uint32_t x, uint32_t y) {
    const uint8_t* p = img.pixel(x, y);
    return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
           std::to_string(p[3]);
  };
  // The top half (GL y > 0) is the picture's first rows.
  EXPECT_EQ(rgba(f1, 0, 0), "0,255,0,255");
  EXPECT_EQ(rgba(f1, 319, 119), "0,255,0,255");
  EXPECT_EQ(rgba(f1, 0, 120), "0,0,255,255");
  EXPECT_EQ(rgba(f1, 319, 239), "0,0,255,255");
  EXPECT_EQ(rgba(f2, 10, 5), "255,0,0,255");
  EXPECT_EQ(rgba(f2, 10, 200), "0,0,255,255");
}

TEST(Run, TopPrintsEachContextsSummaryAtTerminate) {
  const CommandResult r = tesseraRun("--top --preset adreno-a320", "2");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // The program's one context, destroyed before eglTerminate: its row is kept for the summary.
  const size_t heading = r.output.find("tessera: contexts at eglTerminate (adreno-a320");
  ASSERT_NE(heading, std::string::npos) << r.output;
  const std::string table = r.output.substr(heading);
  EXPECT_NE(table.find("gpu ms"), std::string::npos) << table;
  EXPECT_NE(table.find("submitted"), std::string::npos) << table;
  EXPECT_NE(table.find("egl context 1"), std::string::npos) << table;
  EXPECT_NE(table.find("none, destroyed"), std::string::npos) << table;
  EXPECT_EQ(table.find("egl context 2"), std::string::npos) << table;
  // Printed once: nothing happened between eglTerminate and exit.
  EXPECT_EQ(r.output.find("tessera: contexts at", heading + 1), std::string::npos) << r.output;
  // Without --top, nothing.
  const CommandResult plain = tesseraRun("--preset adreno-a320", "2");
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_EQ(plain.output.find("tessera: contexts at"), std::string::npos) << plain.output;
}

TEST(Run, CounterPrintsTheReportsValuesForThisRunsFrames) {
  const fs::path dir = freshDir("counter");
  ASSERT_EQ(
      tesseraRun("--preset adreno-a320 --mode binning --report " + dir.string(), "3").exitCode, 0);
  // A second run into the same folder reports frame 2 only: frames 1 and 3 are the first run's.
  const CommandResult r =
      tesseraRun("--preset adreno-a320 --mode binning --frames 2 --report " + dir.string() +
                     " --counter ras.pixels_covered --counter bus.gmem_resolve_write_bytes"
                     " --counter busy.ras",
                 "3");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json j = readJson(dir / frameName(2, "json"));
  const auto line = [&](const std::string& name, double value) {
    char text[128];
    std::snprintf(text, sizeof text, "frame 00002  %s  %.0f\n", name.c_str(), value);
    return std::string(text);
  };
  EXPECT_NE(r.output.find(line("ras.pixels_covered", j["counters"]["ras"]["pixels_covered"])),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(
                line("bus.gmem_resolve_write_bytes", j["bytes"]["gmem_resolve"]["write_bytes"])),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(line("busy.ras", j["timing"]["busy_cycles"]["ras"])), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("frame 00001"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("frame 00003"), std::string::npos) << r.output;
  const CommandResult bad = tesseraRun("--report " + dir.string() + " --counter ras.nope", "1");
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.output.find("unknown counter 'ras.nope'"), std::string::npos) << bad.output;
}

TEST(Run, ExitStatusIsTheProgramsOwn) {
  EXPECT_EQ(tesseraRun("", "1 7").exitCode, 7);
  EXPECT_EQ(tesseraRun("", "1 0").exitCode, 0);
  EXPECT_EQ(tesseraRun("", "1 term").exitCode, 128 + 15);
}

TEST(Run, BadArgumentsAreRefusedBeforeTheProgramRuns) {
  const fs::path dir = freshDir("bad");
  struct Case {
    std::string options, message;
    int exitCode;  // 1: a bad value, 2: a usage error
  } cases[] = {
      {"--preset adreno-a999 --report " + dir.string(), "unknown preset 'adreno-a999'", 1},
      {"--mode tiled --report " + dir.string(), "unknown mode 'tiled'", 1},
      {"--frames 0-2 --report " + dir.string(), "bad frames '0-2'", 1},
      {"--frames 3-2 --report " + dir.string(), "bad frames '3-2'", 1},
      {"--frames 2", "--report", 2},
      {"--capture-frames", "--report", 2},
      {"--no-such-option", "--no-such-option", 2},
      {"--faults /proc/no-such-folder", "cannot create fault directory '/proc/no-such-folder'", 1},
  };
  for (const auto& c : cases) {
    const CommandResult r = tesseraRun(c.options, "1");
    EXPECT_EQ(r.exitCode, c.exitCode) << c.options << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.options << "\n" << r.output;
    EXPECT_EQ(r.output.find("gl_frames_program: "), std::string::npos) << "the program ran";
    EXPECT_FALSE(fs::exists(dir)) << c.options;
  }
  // No program at all, or one that does not exist.
  const CommandResult empty = runShell(std::string(TESSERA_BIN) + " run");
  EXPECT_EQ(empty.exitCode, 2) << empty.output;
  EXPECT_NE(empty.output.find("command"), std::string::npos) << empty.output;
  EXPECT_EQ(runShell(std::string(TESSERA_BIN) + " run --").exitCode, 2);
  const CommandResult missing = runShell(std::string(TESSERA_BIN) + " run -- /no/such/program");
  EXPECT_EQ(missing.exitCode, 127) << missing.output;
  EXPECT_NE(missing.output.find("tessera: run: cannot run '/no/such/program'"), std::string::npos)
      << missing.output;
}

TEST(Run, AReportThatCannotBeWrittenSaysSoOnceAndTheProgramCarriesOn) {
  // Set directly (tessera run would refuse the directory): a path below a regular file.
  const fs::path dir = freshDir("unwritable");
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  const CommandResult r = runShell("env LD_LIBRARY_PATH=" + std::string(TESSERA_GL_LIB_DIR) +
                                   " TESSERA_REPORT_DIR=" + (dir / "file" / "reports").string() +
                                   " " + GL_FRAMES_PROGRAM + " 3");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("gl_frames_program: 3 frames"), std::string::npos) << r.output;
  const auto first = r.output.find("tessera: report: ");
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("tessera: report: ", first + 1), std::string::npos) << "one line only:\n"
                                                                              << r.output;
  // A bad frame range set by hand is reported the same way.
  const CommandResult frames = runShell("env LD_LIBRARY_PATH=" + std::string(TESSERA_GL_LIB_DIR) +
                                        " TESSERA_REPORT_DIR=" + dir.string() +
                                        " TESSERA_REPORT_FRAMES=x " + GL_FRAMES_PROGRAM + " 1");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("tessera: report: bad TESSERA_REPORT_FRAMES 'x'"), std::string::npos)
      << frames.output;
}

}  // namespace
