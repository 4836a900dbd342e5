// Vertex attribute formats the fetch unit converts to fp32 (GLES 2.0 §2.8, table 2.4/2.9):
// one table gives each format's size and conversion.
#pragma once
#include <cstdint>
#include <string_view>

namespace tessera::gpu::vfd {

enum class VertexFormat : uint8_t {
  Float32,
  Float16,
  Unorm8,
  Snorm8,
  Uint8,
  Sint8,
  Unorm16,
  Snorm16,
  Uint16,
  Sint16,
  Uint32,
  Sint32,
  Count
};

struct VertexFormatInfo {
  std::string_view name;
  uint8_t componentBytes;
};

inline constexpr VertexFormatInfo kVertexFormats[] = {
    {"float32", 4}, {"float16", 2}, {"unorm8", 1}, {"snorm8", 1}, {"uint8", 1},  {"sint8", 1},
    {"unorm16", 2}, {"snorm16", 2}, {"uint16", 2}, {"sint16", 2}, {"uint32", 4}, {"sint32", 4}};
static_assert(std::size(kVertexFormats) == static_cast<size_t>(VertexFormat::Count));

constexpr const VertexFormatInfo& formatInfo(VertexFormat f) {
  return kVertexFormats[static_cast<size_t>(f)];
}

// Converts one component at `src` to fp32.
float convertComponent(VertexFormat f, const uint8_t* src);

}  // namespace tessera::gpu::vfd
