// The clients of the GPU's memory bus. Every byte the model moves between the GPU and system
// memory is charged to exactly one of these, so a report can say who moved it.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace tessera::gpu {

enum class BusClient : uint8_t {
  CommandProcessor,  // ring and IB fetch, CP memory writes (timestamps, VSC sizes)
  VertexFetch,       // vertex attributes and indices
  ShaderFetch,       // shader instructions and constants
  ShaderPrivate,     // per-thread private memory: register spills and fills
  Texture,           // texel fetch
  Visibility,        // visibility-stream writes (binning) and reads (render pass)
  Lrz,               // low-resolution Z: written by binning, read per bin
  GmemRestore,       // system memory -> GMEM (mem2gmem)
  GmemResolve,       // GMEM -> system memory (gmem2mem)
  RenderBackend,     // depth/stencil/colour traffic of the render backend in sysmem mode
  Host,              // CPU uploads and readbacks through the driver (not GPU traffic)
  Count
};

inline constexpr std::array<std::string_view, static_cast<size_t>(BusClient::Count)>
    kBusClientNames = {"cp",           "vertex_fetch",   "shader_fetch", "shader_private",
                       "texture",      "visibility",     "lrz",          "gmem_restore",
                       "gmem_resolve", "render_backend", "host"};

constexpr std::string_view busClientName(BusClient c) {
  return kBusClientNames[static_cast<size_t>(c)];
}

}  // namespace tessera::gpu
