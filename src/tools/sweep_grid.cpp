#include "tools/sweep_grid.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "common/error.h"
#include "gpu/preset/preset_field.h"

namespace tessera::tools {
namespace {

double parseDouble(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw Error(what + ": '" + text + "' is not a number");
  return v;
}

// Digits after the decimal point of a plain decimal ("0.25" -> 2); -1 for exponent notation.
int decimals(const std::string& text) {
  if (text.find_first_of("eE") != std::string::npos) return -1;
  const size_t dot = text.find('.');
  return dot == std::string::npos ? 0 : int(text.size() - dot - 1);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at = text.find(sep); at != std::string::npos; at = text.find(sep, from)) {
    parts.push_back(text.substr(from, at - from));
    from = at + 1;
  }
  parts.push_back(text.substr(from));
  return parts;
}

}  // namespace

std::vector<std::string> expandRange(const std::string& range) {
  const std::string bad = "bad range '" + range + "'";
  const size_t c1 = range.find(':'), c2 = c1 == std::string::npos ? c1 : range.find(':', c1 + 1);
  if (c2 == std::string::npos || range.find(':', c2 + 1) != std::string::npos)
    throw Error(bad + ": expected FROM:TO:STEP");
  const std::string fromText = range.substr(0, c1), toText = range.substr(c1 + 1, c2 - c1 - 1),
                    stepText = range.substr(c2 + 1);
  const double from = parseDouble(fromText, bad), to = parseDouble(toText, bad),
               step = parseDouble(stepText, bad);
  if (step == 0) throw Error(bad + ": STEP must not be 0");
  const double steps = (to - from) / step;
  if (steps < -1e-9) throw Error(bad + ": STEP goes away from TO");
  const double count = std::floor(steps + 1e-9) + 1;
  if (count > double(kMaxAxisValues))
    throw Error(bad + ": more than " + std::to_string(kMaxAxisValues) + " values");
  const int places = std::max(decimals(fromText), decimals(stepText));
  std::vector<std::string> values;
  for (size_t i = 0; i < size_t(count); ++i) {
    const double v = from + double(i) * step;
    char buf[64];
    if (places < 0)
      std::snprintf(buf, sizeof buf, "%.17g", v);
    else
      std::snprintf(buf, sizeof buf, "%.*f", places, v);
    values.push_back(std::string(buf) == "-0" ? "0" : buf);
  }
  return values;
}

std::string SweepAxis::name(const char* sep) const {
  std::string out;
  for (const std::string& p : params) out += (out.empty() ? "" : sep) + p;
  return out;
}

SweepAxis parseAxis(const std::string& text) {
  const std::string bad = "bad axis '" + text + "'";
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw Error(bad +
                ": expected NAME=V1,V2,... or NAME=FROM:TO:STEP (NAME+NAME2 for "
                "parameters set together)");
  SweepAxis axis;
  axis.params = split(text.substr(0, eq), '+');
  for (const std::string& p : axis.params) {
    if (p.empty()) throw Error(bad + ": an empty parameter name");
    try {
      gpu::findPresetField(p);
    } catch (const Error& e) {
      throw Error(bad + ": " + e.what());
    }
  }
  const std::set<std::string> distinct(axis.params.begin(), axis.params.end());
  if (distinct.size() != axis.params.size()) throw Error(bad + ": a parameter given twice");
  const std::string values = text.substr(eq + 1);
  if (values.find(':') != std::string::npos && values.find(',') == std::string::npos) {
    try {
      axis.values = expandRange(values);
    } catch (const Error& e) {
      throw Error(bad + ": " + e.what());
    }
  } else {
    axis.values = split(values, ',');
    for (const std::string& v : axis.values)
      if (v.empty()) throw Error(bad + ": an empty value");
    if (axis.values.size() > kMaxAxisValues)
      throw Error(bad + ": more than " + std::to_string(kMaxAxisValues) + " values");
  }
  return axis;
}

double axisValueX(const std::string& value) {
  if (value == "true") return 1;
  if (value == "false") return 0;
  return parseDouble(value, "value");
}

size_t SweepGrid::size() const {
  size_t n = presets.size() * modes.size();
  for (const SweepAxis& a : axes) {
    n *= a.values.size();
    if (n > kMaxGridPoints) return kMaxGridPoints + 1;
  }
  return std::min(n, kMaxGridPoints + 1);
}

GridPoint SweepGrid::point(size_t index) const {
  GridPoint p;
  p.values.resize(axes.size());
  for (size_t k = axes.size(); k-- > 0;) {
    p.values[k] = index % axes[k].values.size();
    index /= axes[k].values.size();
  }
  p.mode = index % modes.size();
  p.preset = index / modes.size();
  return p;
}

size_t SweepGrid::index(const GridPoint& p) const {
  size_t i = p.preset * modes.size() + p.mode;
  for (size_t k = 0; k < axes.size(); ++k) i = i * axes[k].values.size() + p.values[k];
  return i;
}

std::string SweepGrid::describe(const GridPoint& p, size_t skipAxis) const {
  std::string out;
  auto part = [&](const std::string& key, const std::string& value) {
    out += (out.empty() ? "" : " ") + key + "=" + value;
  };
  if (presets.size() > 1) part("preset", presets[p.preset]);
  if (modes.size() > 1) part("mode", modes[p.mode]);
  for (size_t k = 0; k < axes.size(); ++k)
    if (k != skipAxis) part(axes[k].name(","), axes[k].values[p.values[k]]);
  return out;
}

void checkGrid(const SweepGrid& grid) {
  std::set<std::string> seen;
  for (const SweepAxis& a : grid.axes)
    for (const std::string& p : a.params)
      if (!seen.insert(p).second)
        throw Error("sweep: parameter '" + p + "' is in two axes; give it once");
  if (grid.size() <= kMaxGridPoints) return;
  // The exact count can overflow; the factors say where it comes from.
  double points = double(grid.presets.size() * grid.modes.size());
  std::string factors =
      std::to_string(grid.presets.size()) + " preset" + (grid.presets.size() == 1 ? "" : "s");
  if (grid.modes.size() > 1) factors += " x " + std::to_string(grid.modes.size()) + " modes";
  for (const SweepAxis& a : grid.axes) {
    points *= double(a.values.size());
    factors += " x " + std::to_string(a.values.size()) + " " + a.name("+");
  }
  char count[32];
  std::snprintf(count, sizeof count, "%.0f", points);
  throw Error("sweep: the grid has " + std::string(count) + " points (" + factors + "); at most " +
              std::to_string(kMaxGridPoints));
}

}  // namespace tessera::tools
