// The `tessera` command as a user runs it: good runs write every output, bad input names what is
// wrong, exits non-zero and leaves no output file behind.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tools/tessera_cli.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-cli", name);
}

TEST(Cli, RenderWritesImageReportHeatmapAndCapture) {
  const auto png = scratch("f.png"), json = scratch("f.json"), heat = scratch("h.png"),
             cap = scratch("f.tcap");
  const CommandResult r = tessera("render default --preset adreno-a320 --size 320x240 --out " +
                                  png.string() + " --report " + json.string() + " --heatmap " +
                                  heat.string() + " --capture " + cap.string() + " --repeat 2");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("(binning)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gmem_resolve"), std::string::npos);
  EXPECT_NE(r.output.find("(median, after a warm-up frame)"), std::string::npos);
  EXPECT_TRUE(fs::exists(png) && fs::exists(heat) && fs::exists(cap));
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["mode"], "binning");
  EXPECT_EQ(j["bins"]["count"], 2);
  EXPECT_EQ(j["triangles"]["per_bin"].size(), 2u);
  EXPECT_GT(j["bytes"]["gmem_resolve"]["write_bytes"].get<uint64_t>(), 0u);
  // The comparison run: sysmem traffic goes through the render backend, never GMEM blits.
  EXPECT_EQ(j["bytes_sysmem_mode"]["gmem_resolve"]["write_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(j["bytes_sysmem_mode"]["render_backend"]["write_bytes"].get<uint64_t>(), 0u);
  // The timing model: frame cycles, and each bin's restore/render/resolve cycles.
  EXPECT_GT(j["timing"]["cycles"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["timing"]["clock_mhz"].get<double>(), 450.0);
  const auto& bin = j["batches"][0]["per_bin"][0];
  EXPECT_GT(bin["render_cycles"].get<double>(), 0.0);
  EXPECT_GT(bin["store_cycles"].get<double>(), 0.0);
  EXPECT_GT(bin["work"]["resolve_bytes"].get<uint64_t>(), 0u);
  EXPECT_NE(r.output.find("GPU time (timing model)"), std::string::npos);

  const CommandResult d = tessera("dump " + cap.string());
  ASSERT_EQ(d.exitCode, 0) << d.output;
  for (const char* s : {"CP_INDIRECT_BUFFER", "CP_SET_MARKER", "; binning", "CP_SET_BIN_DATA",
                        "PC_VSTREAM_CONTROL", "CP_DRAW_INDX", "; RESOLVE"})
    EXPECT_NE(d.output.find(s), std::string::npos) << s;
}

TEST(Cli, RenderWritesATraceOfTheTimingModel) {
  const auto png = scratch("t.png"), trace = scratch("t.json");
  const auto overdraw = scratch("o.png");
  const CommandResult r =
      tessera("render default --preset milo832-kv260 --size 128x64 --out " + png.string() +
              " --trace " + trace.string() + " --overdraw " + overdraw.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(overdraw));
  EXPECT_NE(r.output.find("fragments per covered pixel"), std::string::npos) << r.output;
  std::ifstream in(trace);
  const auto j = nlohmann::json::parse(in);
  std::map<std::string, int> slices;  // on the engine and blit tracks (1 and 2)
  std::set<int> blockTracks;
  double lastStore = -1;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    if (e["tid"].get<int>() > 2)
      blockTracks.insert(e["tid"].get<int>());
    else
      ++slices[name.substr(0, name.find(" bin"))];
    if (name == "GMEM Store") {
      EXPECT_GE(e["ts"].get<double>(), lastStore);  // resolves leave in bin order
      lastStore = e["ts"].get<double>();
    }
  }
  EXPECT_EQ(slices["GMEM"], 8);        // 128x64 in 32x32 tiles
  EXPECT_EQ(slices["GMEM Store"], 8);  // each bin resolves
  EXPECT_EQ(slices["GMEM Load"], 8);   // each bin fast-clears
  EXPECT_EQ(slices["Binning"], 1);
  EXPECT_GE(blockTracks.size(), 8u);  // every block but the binner-free ones shows up
}

TEST(Cli, CompareTabulatesPresetsAndModes) {
  const auto csv = scratch("c.csv");
  const CommandResult r = tessera(
      "compare default --size 96x64 --presets milo832-kv260,sysmem --modes sysmem,binning+lrz+ir "
      "--set tileBuffers=1 --csv " +
      csv.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("milo832-kv260    binning+lrz+ir"), std::string::npos) << r.output;
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // A header and three rows: the sysmem preset never tiles, so it has no binning row.
  ASSERT_EQ(lines.size(), 4u) << r.output;
  EXPECT_EQ(lines[0].rfind(
                "preset,mode,bins,cycles,milliseconds,bytes,fragments_shaded,bound,busy_cp", 0),
            0u);
  EXPECT_EQ(lines[1].rfind("milo832-kv260,sysmem,1,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("milo832-kv260,binning+lrz+ir,6,", 0), 0u) << lines[2];  // 3x2 tiles
  EXPECT_EQ(lines[3].rfind("sysmem,sysmem,1,", 0), 0u) << lines[3];

  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"compare --presets nope", "unknown preset 'nope'"},
           {"compare --modes tiled", "unknown mode 'tiled'"},
           {"compare --modes binning+fast", "unknown option '+fast'"},
           {"compare --modes sysmem+ir", "+lrz and +ir need the binning pass"},
           {"compare --set tileBuffers=3", "tileBuffers must be 1 or 2"},
           {"compare --set nosuchkey=1", "nosuchkey"},
           {"compare --csv /no/such/dir/c.csv", "cannot write '/no/such/dir/c.csv'"}}) {
    const CommandResult bad = tessera(args);
    EXPECT_EQ(bad.exitCode, 1) << args << "\n" << bad.output;
    EXPECT_NE(bad.output.find(message), std::string::npos) << args << "\n" << bad.output;
  }
}

TEST(Cli, BadInputNamesTheProblemAndWritesNothing) {
  const auto png = scratch("bad.png");
  struct Case {
    std::string args, message;
    int exitCode;  // 1: bad input found while running, 2: a command-line usage error
  } cases[] = {
      {"render --size 12x", "bad size '12x'", 1},
      {"render --size 0x10", "bad size '0x10'", 1},
      {"render --preset adreno-a999", "unknown preset 'adreno-a999'", 1},
      {"render --mode tiled", "unknown mode 'tiled'", 1},
      {"render /no/such/model.obj", "/no/such/model.obj", 1},
      {"render --report /no/such/dir/r.json", "cannot write '/no/such/dir/r.json'", 1},
      {"render --capture /no/such/c.tcap", "cannot write '/no/such/c.tcap'", 1},
      {"render --overdraw /no/such/o.png", "cannot write '/no/such/o.png'", 1},
      {"render --repeat 0", "--repeat", 2},
      {"render --threads 0", "--threads", 2},
      {"render --threads 257", "--threads", 2},
      {"render --no-such-option", "--no-such-option", 2},
  };
  for (const auto& c : cases) {
    const CommandResult r = tessera(c.args + " --out " + png.string());
    EXPECT_EQ(r.exitCode, c.exitCode) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(png)) << c.args;
  }
  // A thread count from the environment is checked too.
  const CommandResult t =
      tessera::test::runShell("TESSERA_THREADS=lots " + std::string(TESSERA_BIN) +
                              " render --size 16x16 --out " + png.string());
  EXPECT_EQ(t.exitCode, 1) << t.output;
  EXPECT_NE(t.output.find("TESSERA_THREADS=lots: expected a thread count from 1 to 256"),
            std::string::npos)
      << t.output;
  EXPECT_FALSE(fs::exists(png));
  const auto junk = scratch("junk.tcap");
  std::ofstream(junk) << "not a capture";
  const CommandResult d = tessera("dump " + junk.string());
  EXPECT_EQ(d.exitCode, 1);
  EXPECT_NE(d.output.find("not a Tessera command-stream capture"), std::string::npos) << d.output;
  EXPECT_NE(tessera("dump /no/such.tcap").exitCode, 0);
  EXPECT_EQ(tessera("frobnicate").exitCode, 2);
  EXPECT_EQ(tessera("--help").exitCode, 0);
}

TEST(Cli, RenderAndCompareTakeASampleCount) {
  const fs::path out = scratch("msaa.png");
  const CommandResult r = tessera("render default --size 64x48 --samples 4 --out " + out.string() +
                                  " --counter gmem.sample_resolves");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("gmem.sample_resolves"), std::string::npos);
  EXPECT_EQ(r.output.find("gmem.sample_resolves         0\n"), std::string::npos) << r.output;
  const CommandResult c =
      tessera("compare default --size 64x48 --presets adreno-a630 --modes sysmem --samples 2");
  ASSERT_EQ(c.exitCode, 0) << c.output;
  EXPECT_NE(c.output.find("at 2x MSAA"), std::string::npos);
  EXPECT_EQ(tessera("render default --samples 3").exitCode, 2);
}

TEST(Cli, CompilePrintsIsaAndFigures) {
  const auto vs = scratch("shade.vert"), fs = scratch("shade.frag");
  std::ofstream(vs)
      << "attribute vec4 p;\nvarying vec2 uv;\nvoid main() { gl_Position = p; uv = p.xy; }\n";
  std::ofstream(fs) << "precision mediump float;\nuniform sampler2D t;\nvarying vec2 uv;\n"
                       "void main() { gl_FragColor = texture2D(t, uv) * 0.5; }\n";
  const CommandResult one = tessera("compile " + fs.string());
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_NE(one.output.find("sam r"), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("; textures 1"), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("; registers "), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("estimated cycles"), std::string::npos) << one.output;
  const CommandResult both = tessera("compile --stats " + vs.string() + " " + fs.string());
  EXPECT_EQ(both.exitCode, 0) << both.output;
  EXPECT_NE(both.output.find("binning pass"), std::string::npos) << both.output;
  EXPECT_EQ(both.output.find(".stage"), std::string::npos) << "--stats alone prints no ISA";

  const auto bad = scratch("bad.frag"), odd = scratch("shader.glsl");
  std::ofstream(bad) << "void main() { gl_FragColor = nope; }\n";
  std::ofstream(odd) << "void main() {}\n";
  const CommandResult b = tessera("compile " + bad.string());
  EXPECT_EQ(b.exitCode, 1);
  EXPECT_NE(b.output.find("ERROR: 0:1"), std::string::npos) << b.output;
  const CommandResult o = tessera("compile " + odd.string());
  EXPECT_EQ(o.exitCode, 1);
  EXPECT_NE(o.output.find(".vert or .frag"), std::string::npos) << o.output;
  EXPECT_EQ(tessera("compile /no/such.frag").exitCode, 1);
  EXPECT_EQ(tessera("compile " + fs.string() + " " + fs.string()).exitCode, 1);
  EXPECT_EQ(tessera("compile").exitCode, 2);
}

}  // namespace
