// `tessera render --html` and `--set`: the page holds the frame, the heat map, the charts, the
// timeline and a row per bin; it loads in headless Chromium with its script run to the end and
// no console error (a blocked fetch would be one: the page forbids any); preset overrides change
// what the timing model reports, and bad ones are refused before rendering.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tools/tessera_cli.h"
#include "tools/xml_check.h"

namespace {

namespace fs = std::filesystem;
using tessera::test::CommandResult;
using tessera::test::countOf;
using tessera::test::readAll;
using tessera::test::runShell;
using tessera::test::tessera;

fs::path scratch(const std::string& name) {
  return tessera::test::scratch("tessera-html", name);
}

// 128x64 on the KV260: 4x2 tiles of 32x32.
fs::path renderPage(const std::string& name) {
  const auto html = scratch(name), png = scratch(name + ".png");
  const CommandResult r = tessera("render default --preset milo832-kv260 --size 128x64 --out " +
                                  png.string() + " --html " + html.string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("HTML report"), std::string::npos) << r.output;
  return html;
}

TEST(HtmlPage, RenderWritesOneSelfContainedPage) {
  const std::string page = readAll(renderPage("frame.html"));
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* s :
       {"id=\"frame-image\"", "id=\"heatmap-image\"", "data:image/png;base64,",
        "id=\"bytes-chart\"", "id=\"busy-chart\"", "id=\"timeline-chart\"", "Rendering engine",
        "Blit engine", "GMEM Store bin 7", "id=\"bin-table\"", "milo832-kv260", "<details open>"})
    EXPECT_NE(page.find(s), std::string::npos) << s;
  EXPECT_EQ(countOf(page, "<tr>"), 9u);  // the heading and 8 bins
  EXPECT_EQ(countOf(page, "<svg"), 4u);
  EXPECT_EQ(page.find("href="), std::string::npos);
  // Every chart is well-formed SVG on its own.
  for (size_t p = page.find("<svg"); p != std::string::npos; p = page.find("<svg", p + 1)) {
    const size_t end = page.find("</svg>", p) + 6;
    EXPECT_EQ(tessera::test::xmlProblem(page.substr(p, end - p)), "");
  }
}

TEST(HtmlPage, LoadsInHeadlessChromiumWithoutErrors) {
  if (runShell("command -v chromium").exitCode != 0)
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  const fs::path html = renderPage("chromium.html");
  const fs::path profile = scratch("chromium-profile");
  // --no-sandbox: the sandbox refuses to run as root (CI containers); a fresh profile folder
  // keeps runs apart; the timeout bounds a hung browser.
  const CommandResult r = runShell(
      "timeout 60 chromium --headless --disable-gpu --no-sandbox --no-first-run "
      "--user-data-dir=" +
      profile.string() + " --enable-logging=stderr --v=0 --dump-dom file://" +
      fs::absolute(html).string());
  fs::remove_all(profile);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // The DOM after loading: the script ran to its last line, every part is there.
  EXPECT_NE(r.output.find("data-script=\"ok\""), std::string::npos) << r.output.substr(0, 2000);
  for (const char* s : {"id=\"frame-image\"", "id=\"heatmap-image\"", "id=\"bin-table\"",
                        "id=\"timeline-chart\"", "id=\"busy-chart\"", "id=\"bytes-chart\""})
    EXPECT_NE(r.output.find(s), std::string::npos) << s;
  // No console message at all: no uncaught exception, no fetch blocked by the page's policy.
  EXPECT_EQ(r.output.find("Uncaught"), std::string::npos) << r.output.substr(0, 4000);
  EXPECT_EQ(r.output.find("Content Security Policy"), std::string::npos);
  EXPECT_EQ(r.output.find(":CONSOLE"), std::string::npos) << r.output.substr(0, 4000);
}

double frameCycles(const std::string& extra) {
  const auto png = scratch("set.png"), json = scratch("set.json");
  const CommandResult r = tessera("render default --preset milo832-kv260 --size 96x64 --out " +
                                  png.string() + " --report " + json.string() + " " + extra);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  std::ifstream in(json);
  return nlohmann::json::parse(in)["timing"]["cycles"].get<double>();
}

TEST(RenderSet, OverridesChangeTheTimingAndBadOnesFail) {
  // One tile buffer serialises restore, render and resolve: slower than the KV260's two.
  const double two = frameCycles(""), one = frameCycles("--set tileBuffers=1");
  EXPECT_GT(one, two);
  EXPECT_DOUBLE_EQ(frameCycles("--set tileBuffers=2"), two);
  const auto png = scratch("set-out.png");
  const CommandResult ok =
      tessera("render --size 32x32 --set clockMHz=50 --set tileBuffers=1 --out " + png.string());
  EXPECT_NE(ok.output.find("preset overrides             clockMHz=50 tileBuffers=1"),
            std::string::npos)
      << ok.output;
  EXPECT_NE(ok.output.find("at 50 MHz"), std::string::npos) << ok.output;

  const auto bad = scratch("set-bad.png"), html = scratch("set-bad.html");
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--set nosuchkey=1", "unknown preset field 'nosuchkey'"},
           {"--set tileBuffers=3", "tileBuffers must be 1 or 2"},
           {"--set tileBuffers", "is not of the form key=value"},
           {"--set gmemBytes=lots", "'lots' is not a valid unsigned integer"},
           {"--html /no/such/dir/r.html", "cannot write '/no/such/dir/r.html'"}}) {
    const bool ownHtml = args.rfind("--html", 0) == 0;
    const CommandResult r = tessera("render --size 32x32 " + args + " --out " + bad.string() +
                                    (ownHtml ? "" : " --html " + html.string()));
    EXPECT_EQ(r.exitCode, 1) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(bad) || fs::exists(html)) << args;
  }
}

}  // namespace
