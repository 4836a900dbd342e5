#include "report/html_report.h"

#include <algorithm>
#include <cstdio>

#include "report/data_uri.h"

namespace tessera::report {
namespace {

using gpu::perf::Block;
using gpu::perf::PassKind;
using nlohmann::json;

// Bar styles of the timeline, one per kind of stretch (the legend shows them in this order).
enum Style : size_t { kSetup, kBinning, kBinDraws, kSysmem, kLoad, kStore };

// Tables of more bins than this start collapsed: the charts above them come first.
constexpr size_t kOpenTableBins = 64;

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1400px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
pre { background: #f6f6f6; padding: .8em; overflow-x: auto; font-size: 12px; }
.images { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; flex: 1 1 360px; max-width: 640px; } figcaption { font-size: .9em; color: #555; }
img { width: 100%; height: auto; border: 1px solid #ccc; }
img.small { image-rendering: pixelated; }
.scroll { overflow-x: auto; border: 1px solid #eee; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: right; }
th { background: #eee; cursor: pointer; position: sticky; top: 0; }
td.text { text-align: left; }
.note { color: #555; font-size: .9em; }
)";

// Sorts the per-bin table by a clicked column; marks the page as scripted so a test can tell
// the script ran to its end.
constexpr const char* kScript = R"(
(function () {
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th').forEach(function (th, col) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var down = th.getAttribute('data-order') !== 'desc';
        rows.sort(function (a, b) {
          var x = a.cells[col].textContent, y = b.cells[col].textContent;
          var nx = parseFloat(x), ny = parseFloat(y);
          var d = (isNaN(nx) || isNaN(ny)) ? x.localeCompare(y) : nx - ny;
          return down ? -d : d;
        });
        th.setAttribute('data-order', down ? 'desc' : 'asc');
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  document.body.setAttribute('data-script', 'ok');
})();
)";

std::string cyclesText(double c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", c);
  return buf;
}

std::string cell(const json& v) {
  if (v.is_null()) return "<td></td>";
  if (v.is_string()) return "<td class=\"text\">" + xmlEscape(v.get<std::string>()) + "</td>";
  if (v.is_number_float()) return "<td>" + cyclesText(v.get<double>()) + "</td>";
  return "<td>" + xmlEscape(v.dump()) + "</td>";
}

std::string binTable(const json& rows) {
  constexpr const char* kColumns[] = {"x",
                                      "y",
                                      "w",
                                      "h",
                                      "triangles",
                                      "fragments",
                                      "load_cycles",
                                      "render_cycles",
                                      "store_cycles",
                                      "bound"};
  const size_t n = rows.is_array() ? rows.size() : 0;
  std::string out = "<details";
  if (n <= kOpenTableBins) out += " open";
  out += "><summary>" + std::to_string(n) + " bin" + (n == 1 ? "" : "s") +
         " (click a column heading to sort)</summary>\n";
  out += "<table id=\"bin-table\" class=\"sortable\"><thead><tr><th>bin</th>";
  for (const char* c : kColumns) out += std::string("<th>") + c + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < n && i < kHtmlMaxBinRows; ++i) {
    const json& r = rows[i];
    out += "<tr><td>" + std::to_string(i) + "</td>";
    for (const char* c : kColumns) out += cell(r.contains(c) ? r[c] : json());
    out += "</tr>\n";
  }
  out += "</tbody></table></details>\n";
  if (n > kHtmlMaxBinRows)
    out += "<p class=\"note\">The table shows the first " + std::to_string(kHtmlMaxBinRows) +
           " of " + std::to_string(n) + " bins; the JSON report (--report) has every one.</p>\n";
  return out;
}

std::string figure(const Image& image, const char* id, const char* caption) {
  // Frames smaller than the page's column are enlarged with sharp pixels, so bins stay visible.
  const char* cls = image.width < 640 ? " class=\"small\"" : "";
  return std::string("<figure><img id=\"") + id + "\"" + cls + " src=\"" + pngDataUri(image) +
         "\" alt=\"" + caption + "\" width=\"" + std::to_string(image.width) + "\" height=\"" +
         std::to_string(image.height) + "\"><figcaption>" + caption + "</figcaption></figure>\n";
}

}  // namespace

GanttChart timelineChart(const gpu::perf::SubmissionTiming& t) {
  GanttChart c;
  c.title = "Timeline of the frame (" + cyclesText(t.cycles) + " cycles)";
  c.unit = "cycles";
  if (t.clockMHz > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " at %g MHz: 1 µs = %g cycles", t.clockMHz, t.clockMHz);
    c.unit += buf;
  }
  c.styleNames = {"Setup",           "Binning",   "GMEM (bin draws)",
                  "Bypass (sysmem)", "GMEM Load", "GMEM Store"};
  c.end = t.cycles;
  GanttTrack engine{"Rendering engine", {}}, blit{"Blit engine", {}};
  size_t bin = 0;
  for (const auto& p : t.passes) {
    const std::string bound(gpu::perf::blockName(p.bound));
    if (p.kind == PassKind::Bin) {
      const std::string name = "bin " + std::to_string(bin++);
      if (p.load.cycles > 0)
        blit.bars.push_back({p.load.start, p.load.cycles, kLoad,
                             "GMEM Load " + name + ": " + cyclesText(p.load.cycles) + " cycles"});
      if (p.render.cycles > 0)
        engine.bars.push_back(
            {p.render.start, p.render.cycles, kBinDraws,
             "GMEM " + name + ": " + cyclesText(p.render.cycles) + " cycles, bound by " + bound});
      if (p.store.cycles > 0)
        blit.bars.push_back({p.store.start, p.store.cycles, kStore,
                             "GMEM Store " + name + ": " + cyclesText(p.store.cycles) + " cycles"});
      continue;
    }
    if (p.render.cycles <= 0) continue;
    const size_t style = p.kind == PassKind::Setup     ? kSetup
                         : p.kind == PassKind::Binning ? kBinning
                                                       : kSysmem;
    engine.bars.push_back({p.render.start, p.render.cycles, style,
                           std::string(gpu::perf::passName(p.kind)) + ": " +
                               cyclesText(p.render.cycles) + " cycles, bound by " + bound});
  }
  c.tracks = {std::move(engine), std::move(blit)};
  return c;
}

BarChart busChart(const gpu::BusStats& bus, const std::string& title) {
  BarChart c;
  c.title = title;
  c.unit = "B";
  c.segmentNames = {"read", "write"};
  for (size_t i = 0; i < static_cast<size_t>(gpu::BusClient::Count); ++i) {
    const auto client = static_cast<gpu::BusClient>(i);
    if (client == gpu::BusClient::Host) continue;
    c.bars.push_back({std::string(gpu::busClientName(client)),
                      {double(bus[client].readBytes), double(bus[client].writeBytes)},
                      {}});
  }
  return c;
}

BarChart busyChart(const gpu::perf::SubmissionTiming& t) {
  BarChart c;
  c.title = "Busy cycles per block (bound by " + std::string(gpu::perf::blockName(t.bound)) + ")";
  c.unit = "cycles";
  c.segmentNames = {"busy"};
  for (size_t i = 0; i < gpu::perf::kBlocks; ++i) {
    const auto b = static_cast<Block>(i);
    char note[32];
    std::snprintf(note, sizeof note, "(%.0f%%)", t.busyPercent(b));
    c.bars.push_back({std::string(gpu::perf::blockName(b)), {t.busy[i]}, note});
  }
  return c;
}

std::string htmlReport(const HtmlFrameReport& r) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be fetched: images are data: URIs, style and script are inline.
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src "
       "data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  h += "<title>Tessera frame: " + xmlEscape(r.title) + "</title>\n<style>" + kStyle +
       "</style>\n</head>\n<body>\n";
  h += "<h1>Tessera frame: " + xmlEscape(r.title) + "</h1>\n";
  h += "<section id=\"summary\"><h2>Summary</h2>\n<pre>" + xmlEscape(r.summary) +
       "</pre></section>\n";

  h += "<section id=\"images\"><h2>Frame and heat maps</h2>\n<div class=\"images\">\n";
  h += figure(r.frame, "frame-image", "The frame");
  if (!r.heatmap.rgba.empty())
    h += figure(r.heatmap, "heatmap-image",
                "Triangles per bin: dark blue none, yellow the busiest bin");
  if (!r.overdraw.rgba.empty())
    h += figure(r.overdraw, "overdraw-image",
                "Overdraw: fragments per pixel, blue 1 through red 6, white 7 or more");
  if (!r.resolveOrder.rgba.empty())
    h += figure(r.resolveOrder, "resolve-order-image",
                "Resolve order of each bin's blocks: blue first, red last, black never");
  h += "</div></section>\n";

  h += "<section id=\"bytes\"><h2>Bytes per bus client</h2>\n";
  // One scale for both charts, so their bars compare.
  BarChart bytes = busChart(r.bus, "This frame"),
           sysmemBytes = busChart(r.sysmemBus, "The same frame in sysmem mode");
  for (const BarChart* c : {&bytes, &sysmemBytes})
    for (const Bar& b : c->bars)
      bytes.scaleMax = std::max(bytes.scaleMax, b.segments[0] + b.segments[1]);
  sysmemBytes.scaleMax = bytes.scaleMax;
  h += "<div id=\"bytes-chart\">" + barChartSvg(bytes) + "</div>\n";
  h += "<div id=\"bytes-sysmem-chart\">" + barChartSvg(sysmemBytes) + "</div>\n";
  h += "</section>\n";

  h += "<section id=\"busy\"><h2>Busy cycles per block</h2>\n<div id=\"busy-chart\">" +
       barChartSvg(busyChart(r.timing)) + "</div></section>\n";

  h += "<section id=\"timeline\"><h2>Timeline</h2>\n";
  h += "<p class=\"note\">The rendering engine runs setup, binning and each bin's draws; the blit "
       "engine restores (GMEM Load) and resolves (GMEM Store) bins. Hover a bar for its "
       "cycles.</p>\n";
  h += "<div class=\"scroll\" id=\"timeline-chart\">" + ganttSvg(timelineChart(r.timing)) +
       "</div></section>\n";

  h += "<section id=\"bins\"><h2>Per bin</h2>\n" + binTable(r.perBin) + "</section>\n";
  h += std::string("<script>") + kScript + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace tessera::report
