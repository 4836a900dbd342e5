// Bin layout search. The rules (start from one bin, respect the largest bin, then add rows or
// columns until the buffers fit, then try one reshaping step) follow the layout freedreno uses on
// Adreno, so Tessera's Adreno presets reproduce its bin sizes; see docs/presets.md.
#include "driver/bin_layout.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "common/error.h"

namespace tessera::driver {
namespace {

uint64_t divCeil(uint64_t num, uint64_t denom) {
  return (num + denom - 1) / denom;
}
uint64_t alignUp(uint64_t value, uint64_t align) {
  return divCeil(value, align) * align;
}

struct Area {
  uint32_t x, y, w, h;
};

// Places each buffer's slice for bins of binW x binH, each slice starting on a page boundary.
// Returns the end of the last slice; fills `bases` when given.
uint64_t placeSlices(const gpu::Preset& preset, std::span<const uint32_t> cpp, uint64_t binW,
                     uint64_t binH, std::vector<uint32_t>* bases) {
  uint64_t end = 0;
  for (uint32_t bytesPerPixel : cpp) {
    uint64_t base = alignUp(end, preset.gmemPageAlign);
    if (bases) bases->push_back(static_cast<uint32_t>(base));
    end = base + bytesPerPixel * binW * binH;
  }
  return end;
}

uint64_t binWidthFor(const gpu::Preset& preset, uint32_t width, uint64_t nx) {
  return alignUp(divCeil(width, nx), preset.binAlignW);
}
uint64_t binHeightFor(const gpu::Preset& preset, uint32_t height, uint64_t ny) {
  return alignUp(divCeil(height, ny), preset.binAlignH);
}

struct BinSize {
  uint32_t w, h;
};

// The bin size that nx x ny bins give, if those bins respect the largest bin and fit GMEM.
std::optional<BinSize> tryCounts(const gpu::Preset& preset, const Area& area,
                                 std::span<const uint32_t> cpp, uint32_t nx, uint32_t ny) {
  if (nx == 0 || ny == 0) return std::nullopt;
  uint64_t w = binWidthFor(preset, area.w, nx);
  uint64_t h = binHeightFor(preset, area.h, ny);
  if (w > preset.maxBinW || h > preset.maxBinH) return std::nullopt;
  if (placeSlices(preset, cpp, w, h, nullptr) > preset.gmemBytes) return std::nullopt;
  return BinSize{static_cast<uint32_t>(w), static_cast<uint32_t>(h)};
}

std::string describeCpp(std::span<const uint32_t> cpp) {
  std::string text;
  for (uint32_t c : cpp) {
    if (!text.empty()) text += "+";
    text += std::to_string(c);
  }
  return text;
}

// Bin counts across and down: the search described in docs/presets.md.
std::pair<uint32_t, uint32_t> searchCounts(const gpu::Preset& preset, const Area& area,
                                           std::span<const uint32_t> cpp) {
  uint64_t smallest = placeSlices(preset, cpp, preset.binAlignW, preset.binAlignH, nullptr);
  if (smallest > preset.gmemBytes) {
    throw Error("no bin layout fits preset '" + std::string(preset.name) + "': the smallest bin (" +
                std::to_string(preset.binAlignW) + "x" + std::to_string(preset.binAlignH) +
                " pixels) needs " + std::to_string(smallest) + " bytes of GMEM for buffers of " +
                describeCpp(cpp) + " bytes/pixel (slices aligned to " +
                std::to_string(preset.gmemPageAlign) + " bytes), but GMEM has " +
                std::to_string(preset.gmemBytes) + " bytes");
  }
  uint32_t nx = 1, ny = 1;
  while (binWidthFor(preset, area.w, nx) > preset.maxBinW) ++nx;
  while (binHeightFor(preset, area.h, ny) > preset.maxBinH) ++ny;
  // Terminates: bins shrink as counts grow, and the smallest bin was shown to fit above.
  while (!tryCounts(preset, area, cpp, nx, ny)) {
    if (ny > nx) {
      ++nx;
    } else {
      ++ny;
    }
  }
  // One reshaping step: trade a column for a row (or back) when that means fewer bins tried.
  uint64_t count = uint64_t(nx) * ny;
  if (uint64_t(nx - 1) * (ny + 1) < count && tryCounts(preset, area, cpp, nx - 1, ny + 1)) {
    return {nx - 1, ny + 1};
  }
  if (uint64_t(nx + 1) * (ny - 1) < count && tryCounts(preset, area, cpp, nx + 1, ny - 1)) {
    return {nx + 1, ny - 1};
  }
  return {nx, ny};
}

// Groups bins into pipe rectangles of tppX x tppY bins: taller pipes (by 2 rows at a time) until
// the pipe rows fit the pipe count, then wider pipes until all pipes fit.
void assignPipes(const gpu::Preset& preset, BinLayout& layout) {
  uint32_t tppX = 1, tppY = 1;
  while (divCeil(layout.ny, tppY) > preset.vscPipes) tppY += 2;
  while (divCeil(layout.ny, tppY) * divCeil(layout.nx, tppX) > preset.vscPipes) ++tppX;
  layout.binsPerPipeX = tppX;
  layout.binsPerPipeY = tppY;

  uint32_t pipesAcross = static_cast<uint32_t>(divCeil(layout.nx, tppX));
  for (uint32_t py = 0; py < layout.ny; py += tppY) {
    for (uint32_t px = 0; px < layout.nx; px += tppX) {
      layout.pipes.push_back(
          {px, py, std::min(tppX, layout.nx - px), std::min(tppY, layout.ny - py)});
    }
  }
  for (uint32_t row = 0; row < layout.ny; ++row) {
    for (uint32_t col = 0; col < layout.nx; ++col) {
      Bin& bin = layout.bins[size_t(row) * layout.nx + col];
      bin.pipe = (row / tppY) * pipesAcross + col / tppX;
      const VscPipe& pipe = layout.pipes[bin.pipe];
      bin.slot = (row - pipe.y) * pipe.w + (col - pipe.x);
    }
  }
}

BinLayout sysmemLayout(const BinLayoutInput& input) {
  BinLayout layout{};
  layout.x = input.x;
  layout.y = input.y;
  layout.width = layout.binW = input.width;
  layout.height = layout.binH = input.height;
  layout.nx = layout.ny = layout.binsPerPipeX = layout.binsPerPipeY = 1;
  layout.bins.push_back({input.x, input.y, input.width, input.height, 0, 0});
  layout.pipes.push_back({0, 0, 1, 1});
  layout.gmemBase.assign(input.bufferCpp.size(), 0);
  layout.gmemUsed = 0;
  return layout;
}

}  // namespace

BinLayout computeBinLayout(const gpu::Preset& preset, const BinLayoutInput& input) {
  if (input.width == 0 || input.height == 0) {
    throw Error("bin layout: the tiled area " + std::to_string(input.width) + "x" +
                std::to_string(input.height) + " is empty");
  }
  if (uint64_t(input.x) + input.width > UINT32_MAX ||
      uint64_t(input.y) + input.height > UINT32_MAX) {
    throw Error("bin layout: the tiled area does not fit 32-bit pixel coordinates");
  }
  if (input.samples != 1 && input.samples != 2 && input.samples != 4)
    throw Error("bin layout: " + std::to_string(input.samples) +
                " samples per pixel (1, 2 or 4 allowed)");
  gpu::validatePreset(preset);
  if (preset.sysmemOnly) return sysmemLayout(input);
  // A multisample buffer keeps every sample of a pixel in GMEM.
  std::vector<uint32_t> cpp = input.bufferCpp;
  for (uint32_t& c : cpp) c *= input.samples;

  // Bins start on the GMEM alignment grid, so the area grows left/up to the grid.
  Area area{};
  area.x = input.x - input.x % preset.gmemAlignW;
  area.y = input.y - input.y % preset.gmemAlignH;
  area.w = input.x + input.width - area.x;
  area.h = input.y + input.height - area.y;

  auto [tryX, tryY] = searchCounts(preset, area, cpp);
  BinSize size = *tryCounts(preset, area, cpp, tryX, tryY);

  BinLayout layout{};
  layout.x = area.x;
  layout.y = area.y;
  layout.width = area.w;
  layout.height = area.h;
  layout.binW = size.w;
  layout.binH = size.h;
  // Rounding the bin size up can leave fewer bins than were tried.
  layout.nx = static_cast<uint32_t>(divCeil(area.w, size.w));
  layout.ny = static_cast<uint32_t>(divCeil(area.h, size.h));
  layout.gmemUsed =
      static_cast<uint32_t>(placeSlices(preset, cpp, size.w, size.h, &layout.gmemBase));

  layout.bins.reserve(size_t(layout.nx) * layout.ny);
  for (uint32_t row = 0; row < layout.ny; ++row) {
    uint32_t y = area.y + row * size.h;
    uint32_t h = std::min(size.h, area.y + area.h - y);
    for (uint32_t col = 0; col < layout.nx; ++col) {
      uint32_t x = area.x + col * size.w;
      uint32_t w = std::min(size.w, area.x + area.w - x);
      layout.bins.push_back({x, y, w, h, 0, 0});
    }
  }
  assignPipes(preset, layout);
  return layout;
}

std::vector<uint32_t> serpentineOrder(const BinLayout& layout) {
  std::vector<uint32_t> order;
  order.reserve(layout.bins.size());
  for (uint32_t row = 0; row < layout.ny; ++row) {
    for (uint32_t i = 0; i < layout.nx; ++i) {
      uint32_t col = row % 2 == 0 ? i : layout.nx - 1 - i;
      order.push_back(row * layout.nx + col);
    }
  }
  return order;
}

BinLayoutKey BinLayoutKey::make(const gpu::Preset& preset, const BinLayoutInput& input) {
  BinLayoutKey key;
  key.preset = std::string(preset.name);
  key.presetParams = {
      preset.gmemBytes, preset.gmemPageAlign,       preset.gmemAlignW, preset.gmemAlignH,
      preset.binAlignW, preset.binAlignH,           preset.maxBinW,    preset.maxBinH,
      preset.vscPipes,  preset.sysmemOnly ? 1u : 0u};
  key.x = input.x;
  key.y = input.y;
  key.width = input.width;
  key.height = input.height;
  key.bufferCount = static_cast<uint32_t>(input.bufferCpp.size());
  key.samples = input.samples;
  for (size_t i = 0; i < input.bufferCpp.size() && i < kMaxBuffers; ++i) {
    key.bufferCpp[i] = input.bufferCpp[i];
  }
  return key;
}

size_t BinLayoutKeyHash::operator()(const BinLayoutKey& key) const {
  // FNV-1a over the fields, name first.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint64_t v) {
    h ^= v;
    h *= 1099511628211ull;
  };
  for (char c : key.preset) mix(static_cast<unsigned char>(c));
  for (uint32_t v : key.presetParams) mix(v);
  for (uint32_t v : {key.x, key.y, key.width, key.height, key.bufferCount, key.samples}) mix(v);
  for (uint32_t v : key.bufferCpp) mix(v);
  return static_cast<size_t>(h);
}

std::shared_ptr<const BinLayout> BinLayoutCache::get(const gpu::Preset& preset,
                                                     const BinLayoutInput& input) {
  if (input.bufferCpp.size() > BinLayoutKey::kMaxBuffers) {
    return std::make_shared<const BinLayout>(computeBinLayout(preset, input));
  }
  return cache_.findOrInsert(BinLayoutKey::make(preset, input), [&] {
    return std::make_shared<const BinLayout>(computeBinLayout(preset, input));
  });
}

}  // namespace tessera::driver
