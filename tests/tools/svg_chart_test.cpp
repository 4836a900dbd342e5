// The report views' builders on their own: chart SVG is well-formed with one mark per datum,
// tick and label helpers give round numbers, images become data: URIs that decode to the same
// pixels, and the HTML page holds every section without referring to anything outside itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/image.h"
#include "report/data_uri.h"
#include "report/html_report.h"
#include "report/svg_chart.h"
#include "tools/xml_check.h"

namespace {

using namespace tessera;
using test::countOf;
using test::xmlProblem;

TEST(SvgChart, XmlCheckerCatchesBrokenMarkup) {
  // The checker the chart tests rely on must fail on the mistakes a writer makes.
  EXPECT_EQ(xmlProblem("<svg><g a=\"1\"/><text>a &amp; b</text></svg>"), "");
  EXPECT_NE(xmlProblem("<svg><g></svg>"), "");
  EXPECT_NE(xmlProblem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(xmlProblem("<svg a=1></svg>"), "");
  EXPECT_NE(xmlProblem("<svg></svg><svg></svg>"), "");
  EXPECT_NE(xmlProblem("<svg a=\"<\"></svg>"), "");
}

TEST(SvgChart, EscapesAndLabels) {
  EXPECT_EQ(report::xmlEscape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(report::compactNumber(0), "0");
  EXPECT_EQ(report::compactNumber(1500), "1.5K");
  EXPECT_EQ(report::compactNumber(2e6), "2M");
  EXPECT_EQ(report::compactNumber(0.25), "0.25");
  EXPECT_EQ(report::compactBytes(100), "100 B");
  EXPECT_EQ(report::compactBytes(1536), "1.5 KiB");
  EXPECT_EQ(report::compactBytes(3 * 1048576.0), "3 MiB");
}

TEST(SvgChart, NiceTicksCoverTheRangeInRoundSteps) {
  EXPECT_EQ(report::niceTicks(0, 10, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  const auto t = report::niceTicks(137, 1234, 5);  // step 200 or 500
  ASSERT_GE(t.size(), 2u);
  EXPECT_LE(t.front(), 137);
  EXPECT_GE(t.back(), 1234);
  const double step = t[1] - t[0];
  EXPECT_TRUE(step == 200 || step == 500) << step;
  const auto one = report::niceTicks(5, 5, 5);  // one value: widened around it
  EXPECT_LT(one.front(), 5);
  EXPECT_GT(one.back(), 5);
  EXPECT_TRUE(report::wantsLogScale(std::vector<double>{65536, 2097152}));
  EXPECT_FALSE(report::wantsLogScale(std::vector<double>{64, 128, 256}));
  EXPECT_FALSE(report::wantsLogScale(std::vector<double>{0, 1000}));
}

TEST(SvgChart, LineChartHasOnePointPerValueInEachPanel) {
  report::LineChart c;
  c.title = "cycles & bytes <per> bin size";
  c.xLabel = "maxBinW";
  c.x = {8, 16, 64, 128, 256};
  c.panels = {{"frame cycles", {{"cycles", {9, 7, 5, 4, 4}}}},
              {"MiB", {{"MiB", {3, 2.5, 2, 2, 2}}, {"MiB sysmem", {6, 6, 6, 6, 6}}}}};
  c.logX = true;
  const std::string svg = report::lineChartSvg(c);
  EXPECT_EQ(xmlProblem(svg), "") << svg;
  EXPECT_EQ(countOf(svg, "<circle class=\"point\""), 15u);
  EXPECT_EQ(countOf(svg, "<polyline"), 3u);
  EXPECT_NE(svg.find("cycles &amp; bytes &lt;per&gt; bin size"), std::string::npos);
  EXPECT_NE(svg.find("maxBinW (log scale)"), std::string::npos);
  EXPECT_NE(svg.find(">MiB sysmem</text>"), std::string::npos);  // the legend
  EXPECT_NE(svg.find(">256</text>"), std::string::npos);         // x ticks at the values
}

TEST(SvgChart, LineJoinsPointsInXOrder) {
  report::LineChart c{"t", "x", {4, 1, 2}, {{"y", {{"y", {40, 10, 20}}}}}, false};
  const std::string svg = report::lineChartSvg(c);
  const size_t at = svg.find("points=\"");
  ASSERT_NE(at, std::string::npos);
  std::istringstream pts(svg.substr(at + 8, svg.find('"', at + 8) - at - 8));
  std::vector<double> xs;
  double x, y;
  char comma;
  while (pts >> x >> comma >> y) xs.push_back(x);
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_TRUE(std::is_sorted(xs.begin(), xs.end()));
}

TEST(SvgChart, SharedSeriesHaveOneStyleAndOneLegend) {
  // A grid sweep's plot: the same three combinations in both panels.
  report::LineChart c;
  c.title = "grid";
  c.xLabel = "gmemBytes";
  c.x = {1, 2, 4};
  const std::vector<report::ChartSeries> series = {
      {"lrz=0 <a>", {1, 2, 3}}, {"lrz=1", {2, 3, 4}}, {"lrz=2", {3, 4, 5}}};
  c.panels = {{"frame cycles", series}, {"MiB", series}};
  c.sharedSeries = true;
  const std::string svg = report::lineChartSvg(c);
  EXPECT_EQ(xmlProblem(svg), "") << svg;
  EXPECT_EQ(countOf(svg, "<polyline"), 6u);
  EXPECT_EQ(countOf(svg, "<circle class=\"point\""), 18u);
  EXPECT_EQ(countOf(svg, "class=\"legend\""), 3u);  // once per series, not per panel
  EXPECT_EQ(countOf(svg, ">lrz=0 &lt;a&gt;</text>"), 1u);
  // Series 1 has the same colour in both panels (each panel's second line).
  EXPECT_EQ(countOf(svg, "<polyline fill=\"none\" stroke=\"#d62728\""), 2u);
  EXPECT_EQ(countOf(svg, "stroke-dasharray"), 0u);  // few series: solid lines

  // More series than colours: dashed too; past the legend's limit a note counts the rest.
  c.panels = {{"frame cycles", {}}};
  for (int i = 0; i < 60; ++i)
    c.panels[0].series.push_back({"series " + std::to_string(i), {1.0 * i, 2, 3}});
  const std::string many = report::lineChartSvg(c);
  EXPECT_EQ(xmlProblem(many), "");
  EXPECT_EQ(countOf(many, "<polyline"), 60u);
  EXPECT_EQ(countOf(many, "class=\"legend\""), 48u);
  EXPECT_NE(many.find(">and 12 more series</text>"), std::string::npos);
  // Eight colours times four dashes: series 0 and 32 are the solid ones of the first colour.
  EXPECT_EQ(countOf(many, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points"),
            2u);
  EXPECT_GT(countOf(many, "stroke-dasharray=\"7 4\""), 0u);
  // The legend's rows make the chart taller than the one without a shared legend.
  c.sharedSeries = false;
  const auto heightOf = [](const std::string& svgText) {
    const size_t at = svgText.find("height=\"") + 8;
    return std::stod(svgText.substr(at, svgText.find('"', at) - at));
  };
  EXPECT_GT(heightOf(many), heightOf(report::lineChartSvg(c)));
}

TEST(SvgChart, BarAndGanttCharts) {
  report::BarChart b{
      "bytes", "B", {"read", "write"}, {{"texture", {2048, 0}, {}}, {"cp", {1, 1}, "(x)"}}};
  const std::string bars = report::barChartSvg(b);
  EXPECT_EQ(xmlProblem(bars), "") << bars;
  EXPECT_EQ(countOf(bars, "class=\"bar\""), 3u);  // the zero write segment draws nothing
  EXPECT_NE(bars.find("2 KiB"), std::string::npos);
  EXPECT_NE(bars.find("2 B (x)"), std::string::npos);

  // Thousands of bins: every one drawn (at least a hairline), tooltips dropped to stay small.
  report::GanttChart g{"timeline", "cycles", {"draws", "store"}, {{"engine", {}}, {"blit", {}}}, 0};
  for (int i = 0; i < 3000; ++i) {
    g.tracks[0].bars.push_back({i * 10.0, 9.0, 0, "bin"});
    g.tracks[1].bars.push_back({i * 10.0 + 9, 0.01, 1, "store"});
  }
  const std::string gantt = report::ganttSvg(g);
  EXPECT_EQ(xmlProblem(gantt), "");
  EXPECT_EQ(countOf(gantt, "class=\"span"), 6000u);
  EXPECT_EQ(countOf(gantt, "<title>"), 0u);
  EXPECT_EQ(countOf(gantt, "width=\"0.0\""), 0u);
  g.tracks[0].bars.resize(3);
  g.tracks[1].bars.resize(3);
  EXPECT_EQ(countOf(report::ganttSvg(g), "<title>"), 6u);
}

TEST(DataUri, Base64AndPngRoundTrip) {
  const auto b64 = [](const std::string& s) {
    return report::base64({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
  };
  EXPECT_EQ(b64(""), "");  // RFC 4648 §10 test vectors
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");

  Image img = Image::blank(5, 3);
  for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = static_cast<uint8_t>(i * 7);
  const std::vector<uint8_t> png = encodePng(img);
  const auto path = std::filesystem::path(::testing::TempDir()) / "tessera-data-uri.png";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
  EXPECT_EQ(readPng(path.string()), img);
  EXPECT_EQ(report::pngDataUri(img).rfind("data:image/png;base64,iVBORw0KGgo", 0), 0u);
  EXPECT_THROW(encodePng(Image{}), Error);
}

TEST(HtmlReport, HasEverySectionAndNothingExternal) {
  report::HtmlFrameReport r;
  r.title = "scene <1> on preset";
  r.summary = "bins 2 & more";
  r.frame = Image::blank(8, 4);
  r.heatmap = Image::blank(8, 4);
  r.bus[gpu::BusClient::Texture].readBytes = 4096;
  r.bus[gpu::BusClient::Host].writeBytes = 1 << 20;  // not GPU traffic: no bar
  r.timing.clockMHz = 100;
  r.timing.cycles = 300;
  gpu::perf::PassTiming bin;
  bin.kind = gpu::perf::PassKind::Bin;
  bin.load = {0, 50};
  bin.render = {50, 200};
  bin.store = {250, 50};
  r.timing.passes = {bin};
  r.timing.busy[static_cast<size_t>(gpu::perf::Block::Ras)] = 200;
  r.timing.bound = gpu::perf::Block::Ras;
  r.perBin = nlohmann::json::array();
  for (int i = 0; i < 70; ++i)
    r.perBin.push_back({{"x", i},
                        {"y", 0},
                        {"w", 4},
                        {"h", 4},
                        {"triangles", 3},
                        {"fragments", 9},
                        {"load_cycles", 50.0},
                        {"render_cycles", 200.0},
                        {"store_cycles", 50.0},
                        {"bound", "ras"}});
  const std::string html = report::htmlReport(r);
  for (const char* s :
       {"<!DOCTYPE html>", "Content-Security-Policy", "id=\"frame-image\" class=\"small\"",
        "id=\"heatmap-image\"", "id=\"bytes-chart\"", "id=\"busy-chart\"", "id=\"timeline-chart\"",
        "id=\"bin-table\"", "scene &lt;1&gt; on preset", "bins 2 &amp; more", "GMEM bin 0",
        "GMEM Store bin 0", "bound by ras", "70 bins", "<script>"})
    EXPECT_NE(html.find(s), std::string::npos) << s;
  EXPECT_EQ(countOf(html, "<svg"), 4u);  // bytes, bytes in sysmem mode, busy, timeline
  EXPECT_EQ(countOf(html, "<tr>"), 71u);
  EXPECT_EQ(html.find("<details open"), std::string::npos);  // many bins: table collapsed
  EXPECT_EQ(countOf(html, ">host<"), 0u);
  // Self-contained: no link, stylesheet or script file, no URL but the SVG namespace.
  for (const char* s : {"<link", "src=\"http", "href=", "url(", "<script src"})
    EXPECT_EQ(html.find(s), std::string::npos) << s;
  EXPECT_EQ(countOf(html, "http://"), countOf(html, "xmlns=\"http://www.w3.org/2000/svg\""));
}

}  // namespace
