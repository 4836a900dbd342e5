#include "report/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

namespace tessera::report {
namespace {

// One colour per series, segment or pass kind, in order; distinguishable in print as well.
constexpr std::array<std::string_view, 8> kPalette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                      "#9467bd", "#8c564b", "#17becf", "#7f7f7f"};

std::string_view colour(size_t i) {
  return kPalette[i % kPalette.size()];
}

// Past the palette a line series is told apart by its dash as well: solid for the first eight,
// then dashed, dotted, dash-dotted.
constexpr std::array<std::string_view, 4> kDashes = {"", "7 4", "2 3", "9 3 2 3"};

std::string dashAttribute(size_t i) {
  const std::string_view dash = kDashes[(i / kPalette.size()) % kDashes.size()];
  return dash.empty() ? std::string() : " stroke-dasharray=\"" + std::string(dash) + "\"";
}

// Coordinates with one decimal: enough for a screen, and the files stay small.
std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

class Svg {
 public:
  Svg(double width, double height) {
    out_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(width) + "\" height=\"" +
           px(height) + "\" viewBox=\"0 0 " + px(width) + " " + px(height) +
           "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  }
  void raw(const std::string& s) { out_ += s; }
  void text(double x, double y, std::string_view s, std::string_view anchor = "start",
            std::string_view extra = {}) {
    out_ += "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + std::string(anchor) +
            "\"" + (extra.empty() ? "" : " " + std::string(extra)) + ">" + xmlEscape(s) +
            "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, std::string_view stroke,
            std::string_view extra = {}) {
    out_ += "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" +
            px(y2) + "\" stroke=\"" + std::string(stroke) + "\"" +
            (extra.empty() ? "" : " " + std::string(extra)) + "/>\n";
  }
  // A rectangle, with a tooltip when `tip` is not empty.
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view cls = {}, std::string_view tip = {}) {
    out_ += "<rect" + (cls.empty() ? std::string() : " class=\"" + std::string(cls) + "\"") +
            " x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(w) + "\" height=\"" + px(h) +
            "\" fill=\"" + std::string(fill) + "\"";
    if (tip.empty())
      out_ += "/>\n";
    else
      out_ += "><title>" + xmlEscape(tip) + "</title></rect>\n";
  }
  std::string finish() { return out_ + "</svg>\n"; }

 private:
  std::string out_;
};

// Maps [lo, hi] onto [a, b] (the middle for a degenerate range).
struct Scale {
  double lo, hi, a, b;
  double operator()(double v) const {
    if (!(hi > lo)) return (a + b) / 2;
    return a + (v - lo) / (hi - lo) * (b - a);
  }
};

// Width of a label in the 12-pixel sans-serif the charts use, near enough for spacing.
double textWidth(std::string_view s) {
  return 7.0 * double(s.size());
}

std::vector<double> distinctSorted(std::span<const double> v) {
  const std::set<double> s(v.begin(), v.end());
  return {s.begin(), s.end()};
}

}  // namespace

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string compactNumber(double v) {
  if (!std::isfinite(v)) return "?";
  constexpr std::array<std::pair<double, const char*>, 3> kUnits = {
      {{1e9, "G"}, {1e6, "M"}, {1e3, "K"}}};
  char buf[32];
  for (const auto& [scale, suffix] : kUnits)
    if (std::fabs(v) >= scale) {
      std::snprintf(buf, sizeof buf, "%.3g%s", v / scale, suffix);
      return buf;
    }
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string compactBytes(double v) {
  constexpr std::array<std::pair<double, const char*>, 3> kUnits = {
      {{1024.0 * 1024 * 1024, "GiB"}, {1024.0 * 1024, "MiB"}, {1024.0, "KiB"}}};
  char buf[32];
  for (const auto& [scale, suffix] : kUnits)
    if (std::fabs(v) >= scale) {
      std::snprintf(buf, sizeof buf, "%.3g %s", v / scale, suffix);
      return buf;
    }
  std::snprintf(buf, sizeof buf, "%.0f B", v);
  return buf;
}

std::vector<double> niceTicks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  if (lo > hi) std::swap(lo, hi);
  if (!(hi > lo)) {  // one value: widen around it
    const double d = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= d;
    hi += d;
  }
  const double raw = (hi - lo) / std::max(1, target - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
  const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
  std::vector<double> ticks;
  for (double i = first; i <= last; ++i) ticks.push_back(i * step == 0 ? 0.0 : i * step);
  return ticks;
}

bool wantsLogScale(std::span<const double> values) {
  if (values.empty()) return false;
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  return *mn > 0 && *mx / *mn > 16;
}

namespace {

// A shared legend's entries in columns of one width under the chart, row by row; past
// kMaxEntries a note says how many more there are, so a large grid keeps a readable legend.
struct LegendLayout {
  static constexpr size_t kMaxEntries = 48;
  static constexpr double kRow = 18;
  struct Entry {
    double x;
    size_t row;
  };
  std::vector<Entry> entries;
  size_t rows = 0, more = 0;
  double moreX = 0;

  LegendLayout(const std::vector<ChartSeries>& series, double left, double right) {
    const size_t shown = std::min(series.size(), kMaxEntries);
    double column = 0;
    for (size_t i = 0; i < shown; ++i) column = std::max(column, textWidth(series[i].name) + 40);
    const size_t columns = std::max<size_t>(1, size_t((right - left) / std::max(column, 1.0)));
    for (size_t i = 0; i < shown; ++i)
      entries.push_back({left + double(i % columns) * column, i / columns});
    rows = (shown + columns - 1) / columns;
    if (series.size() > shown) {
      more = series.size() - shown;
      moreX = left;
      ++rows;
    }
  }
  double height() const { return rows == 0 ? 0 : double(rows) * kRow + 8; }
};

}  // namespace

std::string lineChartSvg(const LineChart& c) {
  constexpr double kWidth = 760, kLeft = 90, kRight = 30, kTitle = 56, kPanel = 200, kGap = 56,
                   kBottom = 56;
  const size_t panels = std::max<size_t>(1, c.panels.size());
  const double chartBottom = kTitle + panels * kPanel + (panels - 1) * kGap + kBottom;
  const bool shared = c.sharedSeries && !c.panels.empty();
  // The legend starts left of the panels: long combination names then fit two to a row.
  const LegendLayout legend(shared ? c.panels.front().series : std::vector<ChartSeries>{}, 30,
                            kWidth - kRight);
  const double height = chartBottom + legend.height();
  Svg svg(kWidth, height);
  svg.rect(0, 0, kWidth, height, "white");
  svg.text(kWidth / 2, 24, c.title, "middle", "font-size=\"15\" font-weight=\"bold\"");

  // The x axis, shared by the panels. A log axis maps log2(x).
  const bool logX = c.logX && wantsLogScale(c.x);
  auto xt = [&](double v) { return logX ? std::log2(v) : v; };
  const std::vector<double> xs = distinctSorted(c.x);
  const double xlo = xs.empty() ? 0 : xt(xs.front()), xhi = xs.empty() ? 1 : xt(xs.back());
  const Scale sx{xlo, xhi, kLeft + 14, kWidth - kRight - 14};
  std::vector<double> xticks;
  if (xs.size() <= 12) {
    xticks = xs;  // few values: label each one
  } else if (logX) {
    for (double p = std::ceil(xlo); p <= xhi + 1e-9; ++p) xticks.push_back(std::exp2(p));
  } else {
    for (double t : niceTicks(xs.front(), xs.back(), 8))
      if (t >= xs.front() && t <= xs.back()) xticks.push_back(t);
  }

  size_t seriesIndex = 0;
  for (size_t p = 0; p < c.panels.size(); ++p) {
    const ChartPanel& panel = c.panels[p];
    const double top = kTitle + p * (kPanel + kGap), bottom = top + kPanel;
    std::vector<double> ys;
    for (const ChartSeries& s : panel.series) ys.insert(ys.end(), s.y.begin(), s.y.end());
    const auto [ymin, ymax] = ys.empty() ? std::pair(0.0, 1.0)
                                         : std::pair(*std::min_element(ys.begin(), ys.end()),
                                                     *std::max_element(ys.begin(), ys.end()));
    const double pad = 0.04 * (ymax - ymin);  // keeps points off the panel's edges
    const std::vector<double> yticks = niceTicks(ymin - pad, ymax + pad, 5);
    const Scale sy{yticks.front(), yticks.back(), bottom, top};
    svg.rect(kLeft, top, kWidth - kLeft - kRight, kPanel, "#fafafa");
    for (double t : yticks) {
      svg.line(kLeft, sy(t), kWidth - kRight, sy(t), "#ddd");
      svg.text(kLeft - 6, sy(t) + 4, compactNumber(t), "end");
    }
    for (double t : xticks) {
      svg.line(sx(xt(t)), bottom, sx(xt(t)), bottom + 5, "#333");
      svg.line(sx(xt(t)), top, sx(xt(t)), bottom, "#eee");
      svg.text(sx(xt(t)), bottom + 18, compactNumber(t), "middle");
    }
    svg.line(kLeft, top, kLeft, bottom, "#333");
    svg.line(kLeft, bottom, kWidth - kRight, bottom, "#333");
    const double midY = (top + bottom) / 2;
    svg.text(20, midY, panel.yLabel, "middle",
             "transform=\"rotate(-90 20 " + px(midY) + ")\" font-weight=\"bold\"");

    double legendX = kWidth - kRight;
    for (size_t si = 0; si < panel.series.size(); ++si) {
      const ChartSeries& s = panel.series[si];
      const size_t style = shared ? si : seriesIndex;
      const std::string_view col = colour(style);
      // The line joins the points in x order, whatever order the values came in.
      const size_t n = std::min(s.y.size(), c.x.size());
      std::vector<size_t> order(n);
      for (size_t i = 0; i < n; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t i, size_t j) { return c.x[i] < c.x[j]; });
      std::string pts;
      for (size_t i : order) pts += px(sx(xt(c.x[i]))) + "," + px(sy(s.y[i])) + " ";
      svg.raw("<polyline fill=\"none\" stroke=\"" + std::string(col) + "\" stroke-width=\"2\"" +
              dashAttribute(style) + " points=\"" + pts + "\"/>\n");
      for (size_t i = 0; i < n; ++i)
        svg.raw("<circle class=\"point\" cx=\"" + px(sx(xt(c.x[i]))) + "\" cy=\"" + px(sy(s.y[i])) +
                "\" r=\"3.5\" fill=\"" + std::string(col) + "\"><title>" +
                xmlEscape(s.name + " at " + compactNumber(c.x[i]) + ": " + compactNumber(s.y[i])) +
                "</title></circle>\n");
      ++seriesIndex;
      if (shared) continue;
      // The legend, above the panel's right end.
      legendX -= textWidth(s.name) + 30;
      svg.line(legendX, top - 12, legendX + 16, top - 12, col,
               "stroke-width=\"3\"" + dashAttribute(style));
      svg.text(legendX + 20, top - 8, s.name);
    }
  }
  svg.text((kLeft + kWidth - kRight) / 2, chartBottom - 14, c.xLabel + (logX ? " (log scale)" : ""),
           "middle", "font-weight=\"bold\"");
  for (size_t i = 0; i < legend.entries.size(); ++i) {
    const double x = legend.entries[i].x, y = chartBottom + legend.entries[i].row * legend.kRow;
    svg.line(x, y + 2, x + 24, y + 2, colour(i), "stroke-width=\"3\"" + dashAttribute(i));
    svg.text(x + 28, y + 6, c.panels.front().series[i].name, "start", "class=\"legend\"");
  }
  if (legend.more > 0)
    svg.text(legend.moreX, chartBottom + (legend.rows - 1) * legend.kRow + 6,
             "and " + std::to_string(legend.more) + " more series");
  return svg.finish();
}

std::string barChartSvg(const BarChart& c) {
  constexpr double kWidth = 760, kLabel = 130, kValue = 190, kRow = 22, kTitle = 30;
  const bool legend = c.segmentNames.size() > 1;
  const double top = kTitle + (legend ? 20 : 0);
  const double height = top + c.bars.size() * kRow + 10;
  Svg svg(kWidth, height);
  svg.text(8, 18, c.title, "start", "font-size=\"14\" font-weight=\"bold\"");
  if (legend) {
    double x = kLabel;
    for (size_t i = 0; i < c.segmentNames.size(); ++i) {
      svg.rect(x, top - 24, 12, 12, colour(i));
      svg.text(x + 16, top - 14, c.segmentNames[i]);
      x += textWidth(c.segmentNames[i]) + 34;
    }
  }
  double maxTotal = c.scaleMax;
  for (const Bar& b : c.bars) {
    double t = 0;
    for (double s : b.segments) t += s;
    maxTotal = std::max(maxTotal, t);
  }
  const double area = kWidth - kLabel - kValue;
  auto quantity = [&](double v) {
    return c.unit == "B" ? compactBytes(v) : compactNumber(v) + " " + c.unit;
  };
  for (size_t r = 0; r < c.bars.size(); ++r) {
    const Bar& b = c.bars[r];
    const double y = top + r * kRow;
    svg.text(kLabel - 6, y + 15, b.label, "end");
    double x = kLabel, total = 0;
    for (size_t s = 0; s < b.segments.size(); ++s) {
      const double w = maxTotal > 0 ? b.segments[s] / maxTotal * area : 0;
      const std::string name = s < c.segmentNames.size() ? c.segmentNames[s] : "";
      if (w > 0)
        svg.rect(x, y + 3, w, kRow - 6, colour(s), "bar",
                 b.label + (name.empty() ? "" : " " + name) + ": " + quantity(b.segments[s]));
      x += w;
      total += b.segments[s];
    }
    svg.text(x + 6, y + 15, quantity(total) + (b.note.empty() ? "" : " " + b.note));
  }
  return svg.finish();
}

std::string ganttSvg(const GanttChart& c) {
  constexpr double kLabel = 130, kRight = 40, kTrack = 26, kTitle = 30, kAxis = 44;
  constexpr size_t kMaxTooltips = 4000;
  size_t bars = 0, busiest = 0;
  double end = c.end;
  for (const GanttTrack& t : c.tracks) {
    bars += t.bars.size();
    busiest = std::max(busiest, t.bars.size());
    for (const GanttBar& b : t.bars) end = std::max(end, b.start + b.length);
  }
  if (!(end > 0)) end = 1;
  // About three pixels per bar on the busiest track keeps thousands of bins apart.
  const double plot = std::clamp(3.0 * busiest, 900.0, 16000.0);
  const double width = kLabel + plot + kRight;
  const double top = kTitle + 22;
  const double height = top + c.tracks.size() * kTrack + kAxis;
  Svg svg(width, height);
  svg.raw("<style>.odd { fill-opacity: 0.7; }</style>\n");
  svg.text(8, 18, c.title, "start", "font-size=\"14\" font-weight=\"bold\"");
  double lx = kLabel;
  for (size_t i = 0; i < c.styleNames.size(); ++i) {
    svg.rect(lx, kTitle - 4, 12, 12, colour(i));
    svg.text(lx + 16, kTitle + 6, c.styleNames[i]);
    lx += textWidth(c.styleNames[i]) + 34;
  }
  const std::vector<double> ticks = niceTicks(0, end, std::max(4, int(plot / 110)));
  const Scale sx{0, ticks.back(), kLabel, kLabel + plot};
  const double axisY = top + c.tracks.size() * kTrack;
  for (double t : ticks) {
    svg.line(sx(t), top, sx(t), axisY + 5, "#e4e4e4");
    svg.text(sx(t), axisY + 18, compactNumber(t), "middle");
  }
  svg.line(kLabel, axisY, kLabel + plot, axisY, "#333");
  svg.text(kLabel + plot / 2, axisY + 36, c.unit, "middle", "font-weight=\"bold\"");
  for (size_t r = 0; r < c.tracks.size(); ++r) {
    const GanttTrack& t = c.tracks[r];
    const double y = top + r * kTrack;
    svg.text(kLabel - 6, y + 17, t.name, "end");
    svg.rect(kLabel, y + 2, plot, kTrack - 4, "#f4f4f4");
    for (size_t i = 0; i < t.bars.size(); ++i) {
      const GanttBar& b = t.bars[i];
      // A hairline at least, so a bin too short for a pixel still shows; every other bar is
      // lighter, so back-to-back bins of one kind stay apart.
      const double w = std::max(0.6, sx(b.start + b.length) - sx(b.start));
      svg.rect(sx(b.start), y + 4, w, kTrack - 8, colour(b.style), i % 2 ? "span odd" : "span",
               bars <= kMaxTooltips ? std::string_view(b.tip) : std::string_view());
    }
  }
  return svg.finish();
}

}  // namespace tessera::report
