// Primitive setup after vertex shading: trivial reject, clipping, perspective divide, viewport
// transform and face culling (GLES 2.0 §2.12, §3.5.1). Emits window-space triangles for the
// rasterizer (render pass) or for the binner (binning pass) — both passes run this same code,
// so a triangle lands in exactly the bins whose render pass will draw it.
#pragma once
#include <cstdint>

#include "gpu/pc/clipper.h"
#include "gpu/ras/rasterizer.h"

namespace tessera::gpu::pc {

struct ViewportState {
  float xOffset = 0, xScale = 1, yOffset = 0, yScale = 1, zOffset = 0.5f, zScale = 0.5f;
};

struct CullState {
  bool cullFront = false, cullBack = false, frontCW = false;
};

struct PcStats {
  uint64_t primitivesIn = 0;    // triangles assembled
  uint64_t trivialRejects = 0;  // wholly outside one clip plane
  uint64_t clipped = 0;         // needed clipping (near/far or beyond the guard band)
  uint64_t culled = 0;          // back/front-face culled or zero area
  uint64_t trianglesOut = 0;    // window-space triangles emitted (after clipping)
};

class PrimitiveSetup final {
 public:
  // Window coordinates beyond ±kGuardBand pixels from the viewport are clipped geometrically.
  static constexpr float kGuardBand = 8192.0f;

  void configure(const ViewportState& vp, const CullState& cull);

  // v0..v2 point at clip vertices: position then varyings; `floats` = 4 + 4 × varyings.
  // emit(const ras::Triangle&, const float* const varyings[3]) is called per output triangle;
  // varyings[i] points at vertex i's varyings (valid only during the call).
  template <class Emit>
  void process(const float* v0, const float* v1, const float* v2, int floats, Emit&& emit);

  const PcStats& stats() const { return stats_; }
  void resetStats() { stats_ = {}; }

 private:
  ras::WindowVertex toWindow(const float* p) const {
    const float iw = 1.0f / p[3];
    return {p[0] * iw * vp_.xScale + vp_.xOffset, p[1] * iw * vp_.yScale + vp_.yOffset,
            p[2] * iw * vp_.zScale + vp_.zOffset, iw};
  }
  // Front-facing per GLES 2.0 §3.5.1 from the signed area; nullopt-like false return if culled.
  bool facing(const ras::WindowVertex* w, int n, bool& front);

  ViewportState vp_;
  CullState cull_;
  Clipper clipper_;
  PcStats stats_;
};

template <class Emit>
void PrimitiveSetup::process(const float* v0, const float* v1, const float* v2, int floats,
                             Emit&& emit) {
  ++stats_.primitivesIn;
  const uint32_t c0 = clipper_.outcode(v0), c1 = clipper_.outcode(v1), c2 = clipper_.outcode(v2);
  if (c0 & c1 & c2) {
    ++stats_.trivialRejects;
    return;
  }
  if ((c0 | c1 | c2) == 0) {
    const ras::WindowVertex w[3] = {toWindow(v0), toWindow(v1), toWindow(v2)};
    bool front;
    if (!facing(w, 3, front)) return;
    const float* vary[3] = {v0 + 4, v1 + 4, v2 + 4};
    ++stats_.trianglesOut;
    emit(ras::Triangle{{w[0], w[1], w[2]}, front}, vary);
    return;
  }
  ++stats_.clipped;
  const int n = clipper_.clip(v0, v1, v2, c0 | c1 | c2, floats);
  if (n == 0) return;
  ras::WindowVertex w[kMaxClipPolygon];
  for (int i = 0; i < n; ++i) w[i] = toWindow(clipper_.vertex(i).data());
  bool front;
  if (!facing(w, n, front)) return;
  for (int i = 1; i + 1 < n; ++i) {
    const float* vary[3] = {clipper_.vertex(0).data() + 4, clipper_.vertex(i).data() + 4,
                            clipper_.vertex(i + 1).data() + 4};
    ++stats_.trianglesOut;
    emit(ras::Triangle{{w[0], w[i], w[i + 1]}, front}, vary);
  }
}

}  // namespace tessera::gpu::pc
