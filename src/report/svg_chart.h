// Small SVG charts for the architect's reports: a line chart of stacked panels sharing one x axis
// (`tessera sweep --plot`), horizontal bar charts (bytes per bus client, busy cycles per block)
// and a Gantt chart of the engines' timeline (`tessera render --html`). Each returns one
// self-contained <svg> element: inline in an HTML page or written as an .svg file. No scripts,
// no external fonts or stylesheets.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::report {

// Text made safe for XML/HTML content and attribute values (& < > " ').
std::string xmlEscape(std::string_view text);

// A number as a short label: 1536 -> "1.5K", 2097152 -> "2M", 0.25 -> "0.25". Powers of 1024 for
// byte-like magnitudes would mislead for cycles, so K/M/G here are powers of 1000.
std::string compactNumber(double value);

// Bytes with binary prefixes: 1536 -> "1.5 KiB", 100 -> "100 B".
std::string compactBytes(double bytes);

// Round tick values (1, 2 or 5 × 10^k apart) covering [lo, hi] with about `target` ticks; the
// first tick is <= lo and the last >= hi. A degenerate range is widened around its value.
std::vector<double> niceTicks(double lo, double hi, int target);

// True when positive values spread over more than 16× are better read on a log2 axis (bytes of
// tile memory, bin sizes in powers of two).
bool wantsLogScale(std::span<const double> values);

struct ChartSeries {
  std::string name;       // legend entry
  std::vector<double> y;  // one per x value
};

struct ChartPanel {
  std::string yLabel;
  std::vector<ChartSeries> series;
};

// Panels stacked vertically, all plotted against `x`; every data point is a <circle
// class="point"> with a tooltip. Series past the palette's eight colours are also dashed.
struct LineChart {
  std::string title, xLabel;
  std::vector<double> x;
  std::vector<ChartPanel> panels;
  bool logX = false;
  // Series i of every panel is the same thing measured differently (a grid sweep's combination
  // of the other parameters): one colour and dash for it in every panel, and one legend under
  // the chart, wrapped into rows, instead of one per panel.
  bool sharedSeries = false;
};
std::string lineChartSvg(const LineChart& chart);

// Horizontal bars, each the sum of its segments (e.g. read and write bytes), one colour per
// segment with a legend; the total is printed at the bar's end followed by `unit` ("B" prints
// bytes with binary prefixes). Charts meant to be compared can share `scaleMax`.
struct Bar {
  std::string label;
  std::vector<double> segments;
  std::string note;  // printed after the total, e.g. "(42%)"
};
struct BarChart {
  std::string title, unit;
  std::vector<std::string> segmentNames;
  std::vector<Bar> bars;
  double scaleMax = 0;  // the value of a full-width bar; 0: the longest bar's total
};
std::string barChartSvg(const BarChart& chart);

// A timeline: one row per track (an engine), bars at [start, start + length) in cycles. A bar's
// `style` indexes `styleNames` (legend and colour). Bars never shrink below a hairline, so a
// frame of thousands of bins still shows every bin; the chart widens with the bar count (the
// page scrolls it) and drops per-bar tooltips past a few thousand bars to stay small.
struct GanttBar {
  double start = 0, length = 0;
  size_t style = 0;
  std::string tip;
};
struct GanttTrack {
  std::string name;
  std::vector<GanttBar> bars;
};
struct GanttChart {
  std::string title, unit;  // unit of the time axis, e.g. "cycles"
  std::vector<std::string> styleNames;
  std::vector<GanttTrack> tracks;
  double end = 0;  // the axis runs from 0 to at least this
};
std::string ganttSvg(const GanttChart& chart);

}  // namespace tessera::report
