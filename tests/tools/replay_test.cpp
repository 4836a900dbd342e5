// `tessera replay` of a trace the test records (glmark2-es2 on llvmpipe): every frame replayed
// on Tessera has its report and image and matches llvmpipe's replay of the same frame within the
// oracle tolerance; bad traces, frame ranges, presets and parameters are refused before anything
// runs, with exit code 1 and no output folder. A sweep over the trace replays it once per value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/tessera_cli.h"
// After gtest and the CLI helpers: it includes Xlib.
#include "tools/recorded_trace.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tessera::test::CommandResult;
using tessera::test::readAll;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-replay", name);
}

const std::string& traceOrSkip() {
  return tessera::test::glmark2Trace().path;
}

#define NEED_TRACE()                                                                \
  if (traceOrSkip().empty()) GTEST_SKIP() << tessera::test::glmark2Trace().problem; \
  const std::string& trace = traceOrSkip()

std::string frameFile(int frame, const char* ext) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "frame-%05d.%s", frame, ext);
  return buf;
}

TEST(Replay, FramesMatchLlvmpipeAndEachHasAReport) {
  NEED_TRACE();
  const fs::path dir = scratch("glmark2");
  const CommandResult r =
      tessera("replay " + trace + " --frames 1-3 --compare-llvmpipe --report " + dir.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("3 of 3 frames match llvmpipe"), std::string::npos) << r.output;
  for (int f = 1; f <= 3; ++f) {
    const json report = json::parse(readAll(dir / frameFile(f, "json")));
    EXPECT_EQ(report["frame"], f);
    EXPECT_EQ(report["size"], json::array({160, 120}));
    EXPECT_GT(report["draws"].get<int>(), 0);
    EXPECT_GT(report["timing"]["cycles"].get<double>(), 0);
    EXPECT_GT(report["bytes"]["total_gpu_bytes"].get<uint64_t>(), 0u);
    EXPECT_TRUE(report["bins"].is_object());
    EXPECT_TRUE(fs::exists(dir / frameFile(f, "png"))) << f;
    EXPECT_TRUE(fs::exists(dir / "llvmpipe" / frameFile(f, "png"))) << f;
  }
  EXPECT_FALSE(fs::exists(dir / frameFile(4, "json")));  // replay stopped after frame 3
  const json compare = json::parse(readAll(dir / "compare.json"));
  ASSERT_EQ(compare["frames"].size(), 3u);
  for (const json& f : compare["frames"]) {
    EXPECT_TRUE(f["matches"].get<bool>()) << f.dump();
    EXPECT_GE(f["fraction_within"].get<double>(), 0.995) << f.dump();
  }
  // The match means something: the frame is not empty.
  const std::string png = readAll(dir / "llvmpipe" / frameFile(3, "png"));
  EXPECT_GT(png.size(), 1000u);
  // No staging folder left beside the reports.
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".glmark2.partial"), std::string::npos);
}

TEST(Replay, EveryFrameByDefault) {
  NEED_TRACE();
  const fs::path dir = scratch("all");
  const CommandResult r = tessera("replay " + trace + " --mode sysmem --report " + dir.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json summary = json::parse(readAll(dir / "summary.json"));
  const int frames = summary["frames_written"].get<int>();
  EXPECT_GE(frames, 2);
  EXPECT_EQ(summary["mode"], "sysmem");
  for (int f = 1; f <= frames; ++f) EXPECT_TRUE(fs::exists(dir / frameFile(f, "json"))) << f;
  EXPECT_NE(r.output.find("frames 1-" + std::to_string(frames) + " of " + std::to_string(frames)),
            std::string::npos)
      << r.output;
}

TEST(Replay, BadInputIsRefusedWithoutOutputs) {
  NEED_TRACE();
  const fs::path foreign = scratch("model.obj"), truncated = scratch("cut.trace");
  std::ofstream(foreign) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const std::string whole = readAll(trace);
  std::ofstream(truncated, std::ios::binary) << whole.substr(0, whole.size() / 2);
  const fs::path out = scratch("bad-out");
  struct Case {
    std::string args, message;
  } cases[] = {
      {"/no/such.trace", "trace '/no/such.trace' does not exist"},
      {foreign.string(), "is not an apitrace trace"},
      {truncated.string(), "is truncated"},
      {fs::path(trace).parent_path().string(), "is a folder"},
      {trace + " --frames 2-100000", "are outside trace"},
      {trace + " --frames 100000", "are outside trace"},
      {trace + " --frames 3-2", "bad frames '3-2'"},
      {trace + " --preset nope", "unknown preset 'nope'"},
      {trace + " --mode tiled", "unknown mode 'tiled'"},
      {trace + " --set nosuch=1", "unknown preset field 'nosuch'"},
      {trace + " --set tileBuffers=3", "tileBuffers must"},
  };
  for (const Case& c : cases) {
    const CommandResult r = tessera("replay " + c.args + " --report " + out.string());
    EXPECT_EQ(r.exitCode, 1) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.args;
  }
}

TEST(Replay, SweepOverTheTrace) {
  NEED_TRACE();
  const fs::path csv = scratch("trace-sweep.csv");
  const CommandResult r = tessera("sweep " + trace +
                                  " --frames 1-2 --param maxBinW --param maxBinH --values 32,64 "
                                  "--no-cache --csv " +
                                  csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("0 cached, 2 rendered"), std::string::npos) << r.output;
  const std::string text = readAll(csv);
  EXPECT_EQ(text.rfind("maxBinW+maxBinH,bins,", 0), 0u) << text;
  EXPECT_NE(text.find("\n32,"), std::string::npos) << text;
  EXPECT_NE(text.find("\n64,"), std::string::npos) << text;
}

}  // namespace
