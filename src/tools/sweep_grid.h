// The points of `tessera sweep`: every combination of the presets, the render modes and one value
// of each axis (a preset parameter, or several set to the same value such as maxBinW and
// maxBinH). Points are numbered with the presets outermost and the last axis fastest, so a
// one-axis sweep's point i is its value i; a Slurm array task's id is this number.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace tessera::tools {

inline constexpr size_t kMaxAxisValues = 1000;
inline constexpr size_t kMaxGridPoints = 10000;

// The values of `FROM:TO:STEP`: FROM, FROM+STEP, ... up to TO inclusive, printed with as many
// decimals as FROM and STEP have (so 0.1 steps stay "0.3", not "0.30000000000000004"). Throws
// tessera::Error on a malformed range, a zero step, a step that never reaches TO or more than
// kMaxAxisValues values.
std::vector<std::string> expandRange(const std::string& range);

struct SweepAxis {
  std::vector<std::string> params;  // preset fields set to each value together
  std::vector<std::string> values;  // as setPresetField takes them
  // The parameters joined by `sep`: "maxBinW,maxBinH" in progress lines and messages,
  // "maxBinW+maxBinH" as a CSV column and in plot file names.
  std::string name(const char* sep = ",") const;
};

// `NAME[+NAME2...]=V1,V2,...` or `NAME[+NAME2...]=FROM:TO:STEP`. Flags may be swept (0/1 or
// false/true). Throws tessera::Error naming the axis on a malformed axis, an unknown parameter,
// an empty value or more than kMaxAxisValues values; the values themselves are checked per point.
SweepAxis parseAxis(const std::string& text);

// A value's place on a plot's x axis: the number, or 0/1 for a flag's false/true.
double axisValueX(const std::string& value);

// One point of the grid: an index into the presets, the modes and each axis's values.
struct GridPoint {
  size_t preset = 0, mode = 0;
  std::vector<size_t> values;  // one per axis
};

struct SweepGrid {
  std::vector<std::string> presets;  // at least one
  std::vector<std::string> modes;    // at least one; "" is the preset's own mode
  std::vector<SweepAxis> axes;       // at least one

  // The number of points, saturated at kMaxGridPoints + 1.
  size_t size() const;
  GridPoint point(size_t index) const;
  size_t index(const GridPoint& p) const;
  // "preset=a mode=sysmem gmemBytes=65536 lrz=1": the preset and the mode only when the grid
  // has several of them; without axis `skipAxis` (when it is one) for a plot's series.
  std::string describe(const GridPoint& p, size_t skipAxis = size_t(-1)) const;
  std::string describe(size_t index) const { return describe(point(index)); }
};

// Throws tessera::Error when a parameter is in two axes (the later would silently win) or the
// grid has more than kMaxGridPoints points, naming how many and the factors.
void checkGrid(const SweepGrid& grid);

}  // namespace tessera::tools
