#include "gpu/preset/preset_field.h"

#include <array>
#include <charconv>
#include <system_error>
#include <type_traits>
#include <variant>

#include "common/error.h"

namespace tessera::gpu {
namespace {

constexpr PresetField kFields[] = {
    {"gmemBytes", "bytes", "tile memory size", &Preset::gmemBytes},
    {"gmemPageAlign", "bytes", "each buffer's GMEM slice starts on this boundary",
     &Preset::gmemPageAlign},
    {"gmemAlignW", "pixels", "tiled area's left edge is rounded down to this", &Preset::gmemAlignW},
    {"gmemAlignH", "pixels", "tiled area's top edge is rounded down to this", &Preset::gmemAlignH},
    {"binAlignW", "pixels", "bin widths are multiples of this", &Preset::binAlignW},
    {"binAlignH", "pixels", "bin heights are multiples of this", &Preset::binAlignH},
    {"maxBinW", "pixels", "widest bin", &Preset::maxBinW},
    {"maxBinH", "pixels", "tallest bin", &Preset::maxBinH},
    {"vscPipes", "count", "visibility-stream pipes", &Preset::vscPipes},
    {"vscPipeBytes", "bytes", "initial size of one pipe's visibility-stream buffer",
     &Preset::vscPipeBytes},
    {"sysmemOnly", "-", "never tiles: renders straight to memory", &Preset::sysmemOnly},
    {"shaderCores", "count", "SIMT cores, one warp instruction per core per cycle",
     &Preset::shaderCores},
    {"warpsPerCore", "count", "warp slots per core", &Preset::warpsPerCore},
    {"lanesPerWarp", "count", "threads per warp", &Preset::lanesPerWarp},
    {"registersPerCore", "registers", "32-bit registers per lane shared by a core's warps",
     &Preset::registersPerCore},
    {"aluLatency", "cycles", "integer/logic result latency", &Preset::aluLatency},
    {"fpuLatency", "cycles", "fp32 add/mul/mad result latency", &Preset::fpuLatency},
    {"sfuLatency", "cycles", "special-function result latency", &Preset::sfuLatency},
    {"clockMHz", "MHz", "core clock", &Preset::clockMHz},
    {"busBytesPerCycle", "bytes/cycle", "memory bus bandwidth", &Preset::busBytesPerCycle},
    {"rasterPixelsPerCycle", "pixels/cycle", "rasterizer coverage output",
     &Preset::rasterPixelsPerCycle},
    {"ropSamplesPerCycle", "samples/cycle", "depth/stencil/blend throughput",
     &Preset::ropSamplesPerCycle},
    {"texelsPerCycle", "texels/cycle", "texture filtering throughput", &Preset::texelsPerCycle},
    {"binnerTrianglesPerCycle", "triangles/cycle", "binner triangle setup",
     &Preset::binnerTrianglesPerCycle},
    {"binnerCyclesPerBinTouched", "cycles", "extra binner time per bin a triangle touches",
     &Preset::binnerCyclesPerBinTouched},
    {"cpCyclesPerPacket", "cycles", "command-processor parse cost of one packet",
     &Preset::cpCyclesPerPacket},
    {"vfdBytesPerCycle", "bytes/cycle", "vertex-fetch attribute bandwidth",
     &Preset::vfdBytesPerCycle},
    {"setupCyclesPerTriangle", "cycles", "rasterizer triangle setup",
     &Preset::setupCyclesPerTriangle},
    {"texLatency", "cycles", "texture sample latency seen by a warp", &Preset::texLatency},
    {"busLatency", "cycles", "first byte of a blit from system memory", &Preset::busLatency},
    {"gmemBytesPerCycle", "bytes/cycle", "tile-memory port for clear, restore and resolve",
     &Preset::gmemBytesPerCycle},
    {"tileBuffers", "count", "1: restore, render, resolve in turn; 2: double-buffered tile memory",
     &Preset::tileBuffers},
    {"lrz", "-", "low-resolution Z in binning batches whose draws allow it", &Preset::lrz},
    {"queryAccumulate", "-", "occlusion queries accumulate on the GPU instead of per bin",
     &Preset::queryAccumulate},
    {"resolveBlock", "pixels", "block side of rendering interleaved with resolve (4, 8, 16; 0 off)",
     &Preset::resolveBlock},
    {"texCacheBytes", "bytes", "texture cache capacity (0: none, every fetch goes to memory)",
     &Preset::texCacheBytes},
    {"texCacheLineBytes", "bytes", "texture cache line: what one miss fetches",
     &Preset::texCacheLineBytes},
    {"texCacheWays", "count", "texture cache lines per set (LRU)", &Preset::texCacheWays},
};

template <typename T>
T parseNumber(std::string_view key, std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    throw Error("preset field '" + std::string(key) + "': '" + std::string(text) +
                "' is not a valid " + (std::is_same_v<T, double> ? "number" : "unsigned integer"));
  }
  return value;
}

bool parseFlag(std::string_view key, std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw Error("preset field '" + std::string(key) + "': '" + std::string(text) +
              "' is not true/false");
}

}  // namespace

std::span<const PresetField> presetFields() {
  return kFields;
}

const PresetField& findPresetField(std::string_view key) {
  for (const PresetField& f : presetFields()) {
    if (f.key == key) return f;
  }
  std::string known;
  for (const PresetField& f : presetFields()) {
    if (!known.empty()) known += ", ";
    known += f.key;
  }
  throw Error("unknown preset field '" + std::string(key) + "'; known fields: " + known);
}

std::string presetFieldValue(const Preset& preset, const PresetField& field) {
  return std::visit(
      [&](auto member) -> std::string {
        const auto& value = preset.*member;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) {
          return value ? "true" : "false";
        } else {
          std::array<char, 32> buf{};
          auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
          return std::string(buf.data(), ptr);
        }
      },
      field.member);
}

void setPresetField(Preset& preset, std::string_view key, std::string_view value) {
  const PresetField& field = findPresetField(key);
  std::visit(
      [&](auto member) {
        auto& slot = preset.*member;
        using T = std::decay_t<decltype(slot)>;
        if constexpr (std::is_same_v<T, bool>) {
          slot = parseFlag(key, value);
        } else {
          slot = parseNumber<T>(key, value);
        }
      },
      field.member);
}

void applyPresetOverride(Preset& preset, std::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    throw Error("preset override '" + std::string(assignment) + "' is not of the form key=value");
  }
  setPresetField(preset, assignment.substr(0, eq), assignment.substr(eq + 1));
}

}  // namespace tessera::gpu
