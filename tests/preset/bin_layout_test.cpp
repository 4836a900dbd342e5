#include "driver/bin_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "common/error.h"

namespace tessera::driver {
namespace {

using gpu::findPreset;
using gpu::Preset;

constexpr uint32_t kKiB = 1024;

// a420 and a530 are not Tessera presets; their layout parameters come from the same reference
// table as the presets' (GMEM size, 16 KiB slices, alignment, largest bin, pipes).
Preset a420() {
  Preset p = findPreset("adreno-a320");
  p.name = "a420";
  p.gmemBytes = 1536 * kKiB;
  p.maxBinW = 1024;
  p.maxBinH = 480;
  return p;
}

Preset a530() {
  Preset p = findPreset("adreno-a320");
  p.name = "a530";
  p.gmemBytes = 1024 * kKiB;
  p.gmemAlignW = p.binAlignW = 64;
  p.gmemAlignH = p.binAlignH = 32;
  p.maxBinW = 1024;
  p.maxBinH = 4064;
  p.vscPipes = 16;
  return p;
}

struct Vector {
  Preset preset;
  uint32_t width, height;
  std::vector<uint32_t> cpp;
  uint32_t binW, binH, nx, ny, perPipeX, perPipeY, pipes;
};

const std::vector<uint32_t> kRgba8D24S8 = {4, 4};
const std::vector<uint32_t> kRgba8 = {4};
const std::vector<uint32_t> kMsaa4x = {16, 16};

// Every row of the reference table of layouts freedreno's algorithm produces.
std::vector<Vector> referenceVectors() {
  const Preset& a320 = findPreset("adreno-a320");
  const Preset& a330 = findPreset("adreno-a330");
  const Preset& a630 = findPreset("adreno-a630");
  return {
      {a320, 1920, 1080, kRgba8D24S8, 384, 160, 5, 7, 5, 1, 7},
      {a320, 1920, 1080, kRgba8, 640, 192, 3, 6, 3, 1, 6},
      {a320, 800, 600, kRgba8D24S8, 288, 224, 3, 3, 2, 1, 6},
      {a320, 640, 480, {2, 2}, 640, 160, 1, 3, 1, 1, 3},
      {a330, 1920, 1080, kRgba8D24S8, 640, 192, 3, 6, 3, 1, 6},
      {a330, 1920, 1080, kRgba8, 640, 384, 3, 3, 2, 1, 6},
      {a330, 800, 600, kRgba8D24S8, 800, 160, 1, 4, 1, 1, 4},
      {a330, 2560, 1440, kRgba8D24S8, 512, 256, 5, 6, 5, 1, 6},
      {a330, 1920, 1080, kMsaa4x, 256, 128, 8, 9, 4, 3, 6},
      {a420(), 1920, 1080, kRgba8D24S8, 640, 288, 3, 4, 2, 1, 8},
      {a530(), 1920, 1080, kRgba8D24S8, 640, 192, 3, 6, 2, 1, 12},
      {a630, 1920, 1080, kRgba8D24S8, 480, 272, 4, 4, 1, 1, 16},
      {a630, 2560, 1440, kRgba8D24S8, 512, 240, 5, 6, 1, 1, 30},
      {a630, 1920, 1080, kMsaa4x, 288, 112, 7, 10, 3, 1, 30},
  };
}

std::string describe(const Vector& v) {
  std::string cpp;
  for (uint32_t c : v.cpp) cpp += std::to_string(c) + " ";
  return std::string(v.preset.name) + " " + std::to_string(v.width) + "x" +
         std::to_string(v.height) + " cpp " + cpp;
}

uint64_t smallestBinBytes(const Preset& preset, const std::vector<uint32_t>& cpp) {
  uint64_t end = 0;
  for (uint32_t c : cpp) {
    end = (end + preset.gmemPageAlign - 1) / preset.gmemPageAlign * preset.gmemPageAlign;
    end += uint64_t(c) * preset.binAlignW * preset.binAlignH;
  }
  return end;
}

// The invariants every layout keeps, whatever the preset and input.
void checkInvariants(const Preset& preset, const BinLayoutInput& in, const BinLayout& l) {
  SCOPED_TRACE(std::string(preset.name) + " area " + std::to_string(in.x) + "," +
               std::to_string(in.y) + " " + std::to_string(in.width) + "x" +
               std::to_string(in.height));
  // The tiled area contains the input and starts on the GMEM grid.
  EXPECT_LE(l.x, in.x);
  EXPECT_LE(l.y, in.y);
  EXPECT_EQ(l.x + l.width, in.x + in.width);
  EXPECT_EQ(l.y + l.height, in.y + in.height);
  if (!preset.sysmemOnly) {
    EXPECT_EQ(l.x % preset.gmemAlignW, 0u);
    EXPECT_EQ(l.y % preset.gmemAlignH, 0u);
    EXPECT_LT(in.x - l.x, preset.gmemAlignW);
    EXPECT_LT(in.y - l.y, preset.gmemAlignH);
    EXPECT_EQ(l.binW % preset.binAlignW, 0u);
    EXPECT_EQ(l.binH % preset.binAlignH, 0u);
    EXPECT_LE(l.binW, preset.maxBinW);
    EXPECT_LE(l.binH, preset.maxBinH);
  }
  // Bins tile the area exactly once: rows are contiguous and stacked, each row spans the area.
  ASSERT_EQ(l.bins.size(), size_t(l.nx) * l.ny);
  uint32_t y = l.y;
  for (uint32_t row = 0; row < l.ny; ++row) {
    uint32_t x = l.x;
    const uint32_t h = l.binAt(0, row).h;
    EXPECT_GT(h, 0u);
    EXPECT_LE(h, l.binH);
    for (uint32_t col = 0; col < l.nx; ++col) {
      const Bin& b = l.binAt(col, row);
      EXPECT_EQ(b.x, x);
      EXPECT_EQ(b.y, y);
      EXPECT_EQ(b.h, h);
      EXPECT_GT(b.w, 0u);
      EXPECT_LE(b.w, l.binW);
      if (col + 1 < l.nx) {
        EXPECT_EQ(b.w, l.binW);
      }
      x += b.w;
    }
    EXPECT_EQ(x, l.x + l.width);
    if (row + 1 < l.ny) {
      EXPECT_EQ(h, l.binH);
    }
    y += h;
  }
  EXPECT_EQ(y, l.y + l.height);
  // GMEM slices are page-aligned, disjoint, in order, and within GMEM.
  ASSERT_EQ(l.gmemBase.size(), in.bufferCpp.size());
  uint64_t end = 0;
  for (size_t i = 0; i < in.bufferCpp.size(); ++i) {
    if (preset.sysmemOnly) break;
    EXPECT_EQ(l.gmemBase[i] % preset.gmemPageAlign, 0u);
    EXPECT_GE(l.gmemBase[i], end);
    EXPECT_LT(l.gmemBase[i] - end, preset.gmemPageAlign);
    end = l.gmemBase[i] + uint64_t(in.bufferCpp[i]) * l.binW * l.binH;
  }
  EXPECT_EQ(l.gmemUsed, end);
  EXPECT_LE(l.gmemUsed, preset.gmemBytes);
  // Pipes: at most vscPipes rectangles inside the bin grid; each bin sits in its pipe's
  // rectangle once, with a slot below the pipe's bin count; every slot of every pipe is used.
  EXPECT_LE(l.pipes.size(), preset.vscPipes);
  std::set<std::pair<uint32_t, uint32_t>> slots;
  for (uint32_t row = 0; row < l.ny; ++row) {
    for (uint32_t col = 0; col < l.nx; ++col) {
      const Bin& b = l.binAt(col, row);
      ASSERT_LT(b.pipe, l.pipes.size());
      const VscPipe& p = l.pipes[b.pipe];
      EXPECT_TRUE(col >= p.x && col < p.x + p.w && row >= p.y && row < p.y + p.h);
      EXPECT_LT(b.slot, p.w * p.h);
      EXPECT_TRUE(slots.insert({b.pipe, b.slot}).second) << "pipe " << b.pipe << " slot " << b.slot;
    }
  }
  size_t pipeBins = 0;
  for (const VscPipe& p : l.pipes) {
    EXPECT_LE(p.x + p.w, l.nx);
    EXPECT_LE(p.y + p.h, l.ny);
    EXPECT_LE(p.w, l.binsPerPipeX);
    EXPECT_LE(p.h, l.binsPerPipeY);
    pipeBins += size_t(p.w) * p.h;
  }
  EXPECT_EQ(pipeBins, l.bins.size());
}

TEST(BinLayout, ReproducesFreedrenoReferenceLayouts) {
  for (const Vector& v : referenceVectors()) {
    SCOPED_TRACE(describe(v));
    BinLayoutInput in{0, 0, v.width, v.height, v.cpp};
    BinLayout l = computeBinLayout(v.preset, in);
    EXPECT_EQ(l.binW, v.binW);
    EXPECT_EQ(l.binH, v.binH);
    EXPECT_EQ(l.nx, v.nx);
    EXPECT_EQ(l.ny, v.ny);
    EXPECT_EQ(l.binsPerPipeX, v.perPipeX);
    EXPECT_EQ(l.binsPerPipeY, v.perPipeY);
    EXPECT_EQ(l.pipes.size(), v.pipes);
    checkInvariants(v.preset, in, l);
  }
}

TEST(BinLayout, ExactlyFullGmemFits) {
  // a330 at 2560x1440: two 512x256x4 slices use all 1,048,576 bytes.
  BinLayout l = computeBinLayout(findPreset("adreno-a330"), {0, 0, 2560, 1440, kRgba8D24S8});
  EXPECT_EQ(l.gmemUsed, 1024u * kKiB);
  EXPECT_EQ(l.gmemBase, (std::vector<uint32_t>{0, 512 * kKiB}));
}

TEST(BinLayout, SlicesStartOnPageBoundaries) {
  // a320 800x600: 288x224x4 = 258,048 bytes, so depth starts at the next 16 KiB page.
  BinLayout l = computeBinLayout(findPreset("adreno-a320"), {0, 0, 800, 600, kRgba8D24S8});
  EXPECT_EQ(l.gmemBase, (std::vector<uint32_t>{0, 16 * 16 * kKiB}));
  EXPECT_EQ(l.gmemUsed, 16u * 16 * kKiB + 288 * 224 * 4);
}

TEST(BinLayout, ScissoredAreaIsTiledFromTheGmemGrid) {
  const Preset& a320 = findPreset("adreno-a320");
  BinLayoutInput in{100, 50, 300, 200, kRgba8D24S8};
  BinLayout l = computeBinLayout(a320, in);
  EXPECT_EQ(l.x, 96u);
  EXPECT_EQ(l.y, 32u);
  EXPECT_EQ(l.width, 304u);
  EXPECT_EQ(l.height, 218u);
  EXPECT_EQ(l.binW, 320u);
  EXPECT_EQ(l.binH, 128u);
  ASSERT_EQ(l.bins.size(), 2u);
  EXPECT_EQ(l.bins[0].x, 96u);
  EXPECT_EQ(l.bins[0].y, 32u);
  EXPECT_EQ(l.bins[0].w, 304u);
  EXPECT_EQ(l.bins[0].h, 128u);
  EXPECT_EQ(l.bins[1].y, 160u);
  EXPECT_EQ(l.bins[1].h, 90u);
  checkInvariants(a320, in, l);

  // The same scissor on a630 snaps to its finer 16x4 grid.
  const Preset& a630 = findPreset("adreno-a630");
  BinLayout fine = computeBinLayout(a630, in);
  EXPECT_EQ(fine.x, 96u);
  EXPECT_EQ(fine.y, 48u);
  checkInvariants(a630, in, fine);
}

TEST(BinLayout, SmallerScissorNeedsFewerBins) {
  const Preset& a320 = findPreset("adreno-a320");
  BinLayout whole = computeBinLayout(a320, {0, 0, 1920, 1080, kRgba8D24S8});
  BinLayout part = computeBinLayout(a320, {640, 320, 256, 256, kRgba8D24S8});
  EXPECT_LT(part.bins.size(), whole.bins.size());
  EXPECT_EQ(part.bins.size(), 1u);  // two 256x256x4 slices fill 512 KiB exactly
  EXPECT_EQ(part.bins[0].x, 640u);
  EXPECT_EQ(part.bins[0].y, 320u);
}

TEST(BinLayout, PropertiesHoldAcrossPresetsAreasAndBuffers) {
  const std::vector<std::vector<uint32_t>> buffers = {{}, {4}, {4, 4}, {2, 2}, {4, 4, 4}, {16, 16}};
  const std::vector<BinLayoutInput> areas = {
      {0, 0, 1, 1},        {0, 0, 33, 17},     {5, 7, 640, 480},   {0, 0, 800, 600},
      {31, 1, 1023, 1009}, {0, 0, 1920, 1080}, {100, 200, 1, 700}, {0, 0, 4096, 64},
  };
  for (const Preset& preset : gpu::allPresets()) {
    for (BinLayoutInput in : areas) {
      for (const auto& cpp : buffers) {
        in.bufferCpp = cpp;
        BinLayout l;
        try {
          l = computeBinLayout(preset, in);
        } catch (const Error&) {
          // Only when even the smallest bin cannot hold the buffers.
          EXPECT_GT(smallestBinBytes(preset, cpp), preset.gmemBytes) << preset.name;
          continue;
        }
        checkInvariants(preset, in, l);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(BinLayout, TinySurfaceIsOneClippedBin) {
  for (const char* name : {"adreno-a320", "adreno-a630", "milo832-kv260", "sysmem"}) {
    const Preset& preset = findPreset(name);
    BinLayout l = computeBinLayout(preset, {0, 0, 1, 1, kRgba8D24S8});
    ASSERT_EQ(l.bins.size(), 1u) << name;
    EXPECT_EQ(l.bins[0].w, 1u);
    EXPECT_EQ(l.bins[0].h, 1u);
    EXPECT_EQ(l.bins[0].pipe, 0u);
    EXPECT_EQ(l.bins[0].slot, 0u);
    EXPECT_EQ(l.pipes.size(), 1u);
  }
  BinLayout a320 = computeBinLayout(findPreset("adreno-a320"), {0, 0, 1, 1, kRgba8D24S8});
  EXPECT_EQ(a320.binW, 32u);
  EXPECT_EQ(a320.binH, 32u);
}

TEST(BinLayout, MiloAlwaysUsesItsFixedTiles) {
  const Preset& kv260 = findPreset("milo832-kv260");
  for (const auto& cpp : {kRgba8D24S8, kRgba8, std::vector<uint32_t>{}}) {
    BinLayout l = computeBinLayout(kv260, {0, 0, 1920, 1080, cpp});
    EXPECT_EQ(l.binW, 32u);
    EXPECT_EQ(l.binH, 32u);
    EXPECT_EQ(l.nx, 60u);
    EXPECT_EQ(l.ny, 34u);
    EXPECT_EQ(l.bins.size(), 2040u);
    EXPECT_LE(l.pipes.size(), 32u);
  }
  const Preset& de2 = findPreset("milo832-de2-115");
  BinLayoutInput vga{0, 0, 640, 480, kRgba8D24S8};
  BinLayout l = computeBinLayout(de2, vga);
  EXPECT_EQ(l.binW, 16u);
  EXPECT_EQ(l.binH, 16u);
  EXPECT_EQ(l.nx, 40u);
  EXPECT_EQ(l.ny, 30u);
  EXPECT_EQ(l.bins.size(), 1200u);
  EXPECT_EQ(l.gmemUsed, 2048u);
  checkInvariants(de2, vga, l);
  // Pipes group whole rows of 40 tiles.
  EXPECT_EQ(l.binsPerPipeX, 40u);
  EXPECT_EQ(l.binsPerPipeY, 1u);
  EXPECT_EQ(l.pipes.size(), 30u);
}

TEST(BinLayout, SysmemIsOneBinWithoutGmem) {
  BinLayoutInput in{8, 4, 1920, 1080, kMsaa4x};
  BinLayout l = computeBinLayout(findPreset("sysmem"), in);
  ASSERT_EQ(l.bins.size(), 1u);
  EXPECT_EQ(l.bins[0].x, 8u);
  EXPECT_EQ(l.bins[0].y, 4u);
  EXPECT_EQ(l.bins[0].w, 1920u);
  EXPECT_EQ(l.bins[0].h, 1080u);
  EXPECT_EQ(l.gmemUsed, 0u);
  EXPECT_EQ(l.gmemBase, (std::vector<uint32_t>{0, 0}));
}

TEST(BinLayout, NothingFitsNamesTheSizes) {
  try {
    computeBinLayout(findPreset("milo832-kv260"), {0, 0, 1920, 1080, kMsaa4x});
    FAIL() << "expected tessera::Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no bin layout fits preset 'milo832-kv260': the smallest bin (32x32 pixels) "
                 "needs 32768 bytes of GMEM for buffers of 16+16 bytes/pixel (slices aligned to "
                 "4096 bytes), but GMEM has 8192 bytes");
  }
  // 33 one-page slices exceed a320's 32 pages of GMEM even though their pixels would fit.
  std::vector<uint32_t> many(33, 4);
  EXPECT_THROW(computeBinLayout(findPreset("adreno-a320"), {0, 0, 64, 64, many}), Error);
  many.pop_back();
  EXPECT_NO_THROW(computeBinLayout(findPreset("adreno-a320"), {0, 0, 64, 64, many}));
  EXPECT_THROW(computeBinLayout(findPreset("adreno-a630"), {0, 0, 64, 64, {2100}}), Error);
}

TEST(BinLayout, BadInputIsReported) {
  const Preset& a630 = findPreset("adreno-a630");
  EXPECT_THROW(computeBinLayout(a630, {0, 0, 0, 1080, kRgba8}), Error);
  EXPECT_THROW(computeBinLayout(a630, {0, 0, 1920, 0, kRgba8}), Error);
  EXPECT_THROW(computeBinLayout(a630, {UINT32_MAX, 0, 2, 2, kRgba8}), Error);
  Preset broken = a630;
  broken.binAlignW = 0;
  EXPECT_THROW(computeBinLayout(broken, {0, 0, 64, 64, kRgba8}), Error);
}

TEST(BinLayout, PipesUseSlotsInRowMajorOrder) {
  // a330 4x MSAA: 8x9 bins in pipes of 4x3.
  BinLayout l = computeBinLayout(findPreset("adreno-a330"), {0, 0, 1920, 1080, kMsaa4x});
  EXPECT_EQ(l.binAt(0, 0).pipe, 0u);
  EXPECT_EQ(l.binAt(4, 0).pipe, 1u);
  EXPECT_EQ(l.binAt(0, 3).pipe, 2u);
  EXPECT_EQ(l.binAt(5, 7).pipe, 5u);
  EXPECT_EQ(l.binAt(5, 7).slot, 1 * 4 + 1u);
  EXPECT_EQ(l.pipes[5].x, 4u);
  EXPECT_EQ(l.pipes[5].y, 6u);
  EXPECT_EQ(l.pipes[5].w, 4u);
  EXPECT_EQ(l.pipes[5].h, 3u);
}

TEST(BinLayout, SerpentineOrderVisitsNeighbours) {
  BinLayout l = computeBinLayout(findPreset("adreno-a320"), {0, 0, 1920, 1080, kRgba8D24S8});
  std::vector<uint32_t> order = serpentineOrder(l);
  ASSERT_EQ(order.size(), l.bins.size());
  EXPECT_EQ(std::set<uint32_t>(order.begin(), order.end()).size(), order.size());
  EXPECT_EQ(order[0], 0u);
  EXPECT_EQ(order[l.nx], 2 * l.nx - 1);  // second row starts at its right end
  for (size_t i = 1; i < order.size(); ++i) {
    const Bin& a = l.bins[order[i - 1]];
    const Bin& b = l.bins[order[i]];
    bool sideBySide = a.y == b.y && (a.x + a.w == b.x || b.x + b.w == a.x);
    bool stacked = a.x == b.x && a.y + a.h == b.y;
    EXPECT_TRUE(sideBySide || stacked) << "step " << i;
  }
}

}  // namespace
}  // namespace tessera::driver
