#include "gpu/vfd/vertex_fetch.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace tessera::gpu::vfd {

uint32_t VertexFetch::readIndices(GpuAddress addr, uint32_t bufferBytes, IndexSize size,
                                  uint32_t count, std::vector<uint32_t>& out) {
  const uint64_t bytes = uint64_t{count} * static_cast<uint32_t>(size);
  if (bytes > bufferBytes)
    throw GpuFault(FaultKind::PageFault, addr + bufferBytes, BusClient::VertexFetch,
                   "index fetch of " + std::to_string(count) + " indices runs past the " +
                       std::to_string(bufferBytes) + "-byte index buffer");
  auto s = memory_.span(BusClient::VertexFetch, addr, bytes);
  out.resize(count);
  uint32_t largest = 0;
  // One pass decodes and finds the largest.
  auto decode = [&](auto word) {
    for (uint32_t i = 0; i < count; ++i) {
      decltype(word) v;
      std::memcpy(&v, s.data() + sizeof v * i, sizeof v);
      out[i] = v;
      largest = std::max<uint32_t>(largest, v);
    }
  };
  switch (size) {
    case IndexSize::U8:
      decode(uint8_t{});
      break;
    case IndexSize::U16:
      decode(uint16_t{});
      break;
    case IndexSize::U32:
      decode(uint32_t{});
      break;
  }
  return largest;
}

void VertexFetch::chargeIndices(IndexSize size, uint64_t count) {
  memory_.countRead(BusClient::VertexFetch, count * static_cast<uint32_t>(size));
  stats_.indices += count;
}

void VertexFetch::fetch(const FetchState& state, std::span<const uint32_t> ids,
                        sp::VertexWarp& warp) {
  const uint32_t n = static_cast<uint32_t>(ids.size());
  warp.laneMask = n >= 32 ? ~0u : ((1u << n) - 1);
  stats_.vertices += n;
  uint32_t maxId = 0;
  for (uint32_t id : ids) maxId = std::max(maxId, id);
  for (uint32_t a = 0; a < state.attributeCount; ++a) {
    const AttributeFetch& f = state.attributes[a];
    const uint32_t compBytes = formatInfo(f.format).componentBytes;
    const uint32_t elemBytes = compBytes * f.components;
    // One mapping per attribute per warp: the whole range the warp touches must be mapped.
    const uint64_t end = uint64_t{maxId} * f.stride + elemBytes;
    if (end > f.size)
      throw GpuFault(FaultKind::PageFault, f.base + uint64_t{maxId} * f.stride,
                     BusClient::VertexFetch,
                     "vertex " + std::to_string(maxId) + " of attribute " + std::to_string(a) +
                         " lies outside its " + std::to_string(f.size) + "-byte buffer");
    const uint8_t* base = memory_.span(BusClient::VertexFetch, f.base, end).data();
    // Components the attribute lacks read (0, 0, 0, 1) (GLES 2.0 §2.7); float components, the
    // common case, are copied without a per-component conversion call.
    const uint32_t components = std::min<uint32_t>(f.components, 4);
    for (uint32_t c = components; c < 4; ++c)
      std::fill(warp.in[a][c], warp.in[a][c] + n, c == 3 ? 1.0f : 0.0f);
    if (f.format == VertexFormat::Float32) {
      // The component count is a constant of each loop, so the copies unroll.
      auto copy = [&]<uint32_t C>() {
        for (uint32_t lane = 0; lane < n; ++lane) {
          const uint8_t* e = base + uint64_t{ids[lane]} * f.stride;
          for (uint32_t c = 0; c < C; ++c) std::memcpy(&warp.in[a][c][lane], e + 4 * c, 4);
        }
      };
      switch (components) {
        case 1:
          copy.template operator()<1>();
          break;
        case 2:
          copy.template operator()<2>();
          break;
        case 3:
          copy.template operator()<3>();
          break;
        case 4:
          copy.template operator()<4>();
          break;
        default:
          break;
      }
    } else {
      for (uint32_t lane = 0; lane < n; ++lane) {
        const uint8_t* e = base + uint64_t{ids[lane]} * f.stride;
        for (uint32_t c = 0; c < components; ++c)
          warp.in[a][c][lane] = convertComponent(f.format, e + c * compBytes);
      }
    }
    memory_.countRead(BusClient::VertexFetch, uint64_t{elemBytes} * n);
    stats_.attributeBytes += uint64_t{elemBytes} * n;
  }
}

}  // namespace tessera::gpu::vfd
