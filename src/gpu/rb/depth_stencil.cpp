#include "gpu/rb/depth_stencil.h"

#include <bit>
#include <cstring>

#include "common/lane_count.h"
#include "gpu/rb/render_backend.h"

namespace tessera::gpu::rb {
namespace {

constexpr uint32_t kDepthBytes[] = {0, 2, 4};  // None, D16, D24S8

uint32_t load(const uint8_t* p, uint32_t bytes) {
  uint32_t v = 0;
  std::memcpy(&v, p, bytes);
  return v;
}
void store(uint8_t* p, uint32_t bytes, uint32_t v) {
  std::memcpy(p, &v, bytes);
}

}  // namespace

uint32_t bytesPerPixel(DepthFormat f) {
  return kDepthBytes[static_cast<size_t>(f)];
}

uint8_t RenderBackend::depthStencil(const DepthStencilState& s, DepthFormat f, SurfaceView depth,
                                    int x, int y, uint8_t mask, const float z[4],
                                    bool frontFacing) {
  mask &= 0xf;
  if (mask == 0) return 0;
  const uint64_t live = static_cast<uint64_t>(laneCount(mask));
  ++stats_.quads;
  stats_.samplesTested += live;
  // §4.1.5/4.1.6: without a depth (stencil) buffer the depth (stencil) test always passes and
  // nothing is written.
  const bool depthOn = s.depthTest && f != DepthFormat::None;
  const bool stencilOn = s.stencilTest && f == DepthFormat::D24S8;
  if (!depthOn && !stencilOn) {
    stats_.samplesPassed += live;
    return mask;
  }
  const uint32_t bytes = bytesPerPixel(f);
  const bool d24 = f == DepthFormat::D24S8;
  const uint32_t depthMax = d24 ? kD24Max : kD16Max;
  const StencilFace& face = frontFacing ? s.front : s.back;
  const uint8_t stencilRef = static_cast<uint8_t>(face.ref & face.valueMask);
  const bool writeDepth = depthOn && s.depthWrite;

  uint8_t passed = 0;
  for (int i = 0; i < 4; ++i) {
    if (!((mask >> i) & 1)) continue;
    uint8_t* p = depth.pixel(x + (i & 1), y + (i >> 1), bytes);
    const uint32_t old = load(p, bytes);
    stats_.depthBytesRead += bytes;
    uint32_t storedZ = d24 ? old & kD24Max : old;
    uint8_t stencil = d24 ? static_cast<uint8_t>(old >> kStencilShift) : 0;

    bool pass = true;
    StencilOp op = StencilOp::Keep;
    if (stencilOn && !compare(face.func, stencilRef, stencil & face.valueMask)) {
      pass = false;
      op = face.fail;
    } else {
      const uint32_t fragZ = quantizeDepth(z[i], depthMax);
      if (depthOn && !compare(s.depthFunc, fragZ, storedZ)) {
        pass = false;
        op = face.zfail;
      } else {
        op = face.zpass;
        if (writeDepth) storedZ = fragZ;
      }
    }
    if (stencilOn) {
      const uint8_t v = stencilOp(op, stencil, face.ref);
      stencil = static_cast<uint8_t>((stencil & ~face.writeMask) | (v & face.writeMask));
    }
    const uint32_t now = d24 ? (storedZ | (uint32_t{stencil} << kStencilShift)) : storedZ;
    if (now != old) {
      store(p, bytes, now);
      stats_.depthBytesWritten += bytes;
    }
    if (pass) passed |= static_cast<uint8_t>(1u << i);
  }
  stats_.samplesPassed += static_cast<uint64_t>(laneCount(passed));
  return passed;
}

void RenderBackend::clearDepthStencil(DepthFormat f, SurfaceView v, int x0, int y0, int x1, int y1,
                                      float depth, uint8_t stencil, bool clearDepth,
                                      bool clearStencil, uint8_t stencilWriteMask) {
  if (f == DepthFormat::None || x0 >= x1 || y0 >= y1) return;
  const uint32_t bytes = bytesPerPixel(f);
  if (f == DepthFormat::D16) {
    if (!clearDepth) return;  // no stencil bits to clear
    const uint16_t value = static_cast<uint16_t>(quantizeDepth(depth, kD16Max));
    for (int y = y0; y < y1; ++y) {
      uint8_t* row = v.pixel(x0, y, bytes);
      for (int x = 0; x < x1 - x0; ++x) std::memcpy(row + 2 * x, &value, 2);
    }
    return;
  }
  // GLES 2.0 §4.2.3: the stencil clear writes only the bits of the stencil write mask.
  const uint32_t stencilBits = clearStencil ? uint32_t{stencilWriteMask} << kStencilShift : 0u;
  if (!clearDepth && stencilBits == 0) return;
  // Clear only the selected part of each D24S8 word; both parts is a plain fill.
  const uint32_t keep = (clearDepth ? 0u : kD24Max) | (0xffu << kStencilShift & ~stencilBits);
  const uint32_t value = (clearDepth ? quantizeDepth(depth, kD24Max) : 0u) |
                         (uint32_t{stencil} << kStencilShift & stencilBits);
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = v.pixel(x0, y, bytes);
    for (int x = 0; x < x1 - x0; ++x) {
      uint8_t* p = row + 4 * x;
      store(p, 4, keep == 0 ? value : (load(p, 4) & keep) | value);
    }
  }
}

}  // namespace tessera::gpu::rb
