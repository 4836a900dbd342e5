// Primitive setup after vertex shading: trivial reject, clipping, perspective divide, viewport
// transform, face culling and polygon offset (GLES 2.0 §2.12, §3.5.1, §3.5.2); points and lines
// are expanded into window-space quads (§3.3, §3.4). Emits window-space triangles for the
// rasterizer (render pass) or for the binner (binning pass) — both passes run this same code,
// so a primitive lands in exactly the bins whose render pass will draw it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include "common/counter_sum.h"

#include "gpu/pc/clipper.h"
#include "gpu/ras/rasterizer.h"

namespace tessera::gpu::pc {

struct ViewportState {
  float xOffset = 0, xScale = 1, yOffset = 0, yScale = 1, zOffset = 0.5f, zScale = 0.5f;
};

struct CullState {
  bool cullFront = false, cullBack = false, frontCW = false;
};

// The largest point size and line width the setup unit draws (GL_ALIASED_POINT_SIZE_RANGE and
// GL_ALIASED_LINE_WIDTH_RANGE report 1 to these).
inline constexpr float kMaxPointSize = 1024.0f;
inline constexpr float kMaxLineWidth = 16.0f;

// GRAS_SU_POINT_SIZE, GRAS_SU_LINE_WIDTH, GRAS_SU_POLY_OFFSET_* and the vertex shader's
// point-size output.
struct PrimitiveState {
  float pointSize = 1, lineWidth = 1;
  int pointSizeFloat = -1;  // index of gl_PointSize in a shaded vertex's floats; -1: none
  bool polygonOffset = false;
  float offsetFactor = 0, offsetUnits = 0;
  float depthResolution = 0;  // r of §3.5.2: the depth buffer's smallest step
  // The fragment shader's flat varyings (kept from the provoking vertex).
  uint16_t flatVaryings = 0;
};

struct PcStats {
  uint64_t primitivesIn = 0;    // primitives assembled (points, lines and triangles)
  uint64_t points = 0;          // of which points
  uint64_t lines = 0;           // of which lines
  uint64_t trivialRejects = 0;  // wholly outside one clip plane
  uint64_t clipped = 0;         // needed clipping (near/far or beyond the guard band)
  uint64_t culled = 0;          // back/front-face culled or zero area
  uint64_t trianglesOut = 0;    // window-space triangles emitted (after clipping)
};

class PrimitiveSetup final {
 public:
  // Window coordinates beyond ±kGuardBand pixels from the viewport are clipped geometrically.
  static constexpr float kGuardBand = 8192.0f;

  void configure(const ViewportState& vp, const CullState& cull, const PrimitiveState& prim);

  // v0..v2 point at clip vertices: position then varyings; `floats` = 4 + 4 × varyings.
  // emit(const ras::Triangle&, const float* const varyings[3]) is called per output triangle;
  // varyings[i] points at vertex i's varyings (valid only during the call).
  template <class Emit>
  void process(const float* v0, const float* v1, const float* v2, int floats, Emit&& emit);
  // A point becomes the two triangles of its sprite square, a line those of its parallelogram.
  template <class Emit>
  void processPoint(const float* v, Emit&& emit);
  template <class Emit>
  void processLine(const float* v0, const float* v1, int floats, Emit&& emit);
  // Any primitive of 1, 2 or 3 vertices.
  template <class Emit>
  void processPrimitive(const float* const* v, int vertices, int floats, Emit&& emit) {
    if (vertices == 1) return processPoint(v[0], emit);
    if (vertices == 2) return processLine(v[0], v[1], floats, emit);
    process(v[0], v[1], v[2], floats, emit);
  }

  const PcStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const PcStats& s) { addCounters(stats_, s); }
  void resetStats() { stats_ = {}; }

 private:
  ras::WindowVertex toWindow(const float* p) const {
    const float iw = 1.0f / p[3];
    return {p[0] * iw * vp_.xScale + vp_.xOffset, p[1] * iw * vp_.yScale + vp_.yOffset,
            p[2] * iw * vp_.zScale + vp_.zOffset, iw};
  }
  // Front-facing per GLES 2.0 §3.5.1 from the signed area; nullopt-like false return if culled.
  bool facing(const ras::WindowVertex* w, int n, bool& front);
  // Adds the polygon offset of §3.5.2 to the window z of the polygon's vertices.
  void offsetDepth(ras::WindowVertex* w, int n) const;
  // Point sprite side length: the shader's gl_PointSize or the register, clamped to the range.
  float pointSize(const float* v) const;

  ViewportState vp_;
  CullState cull_;
  PrimitiveState prim_;
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
    ras::WindowVertex w[3] = {toWindow(v0), toWindow(v1), toWindow(v2)};
    bool front;
    if (!facing(w, 3, front)) return;
    if (prim_.polygonOffset) offsetDepth(w, 3);
    const float* vary[3] = {v0 + 4, v1 + 4, v2 + 4};
    ++stats_.trianglesOut;
    emit(ras::Triangle{{w[0], w[1], w[2]}, front}, vary);
    return;
  }
  ++stats_.clipped;
  const int n = clipper_.clip(v0, v1, v2, c0 | c1 | c2, floats);
  if (n == 0) return;
  // GLES 3.0 §2.18: flat varyings come from the provoking vertex, the triangle's last.
  if (prim_.flatVaryings) clipper_.copyFlat(n, v2, prim_.flatVaryings);
  ras::WindowVertex w[kMaxClipPolygon];
  for (int i = 0; i < n; ++i) w[i] = toWindow(clipper_.vertex(i).data());
  bool front;
  if (!facing(w, n, front)) return;
  if (prim_.polygonOffset) offsetDepth(w, n);
  for (int i = 1; i + 1 < n; ++i) {
    const float* vary[3] = {clipper_.vertex(0).data() + 4, clipper_.vertex(i).data() + 4,
                            clipper_.vertex(i + 1).data() + 4};
    ++stats_.trianglesOut;
    emit(ras::Triangle{{w[0], w[i], w[i + 1]}, front}, vary);
  }
}

template <class Emit>
void PrimitiveSetup::processPoint(const float* v, Emit&& emit) {
  ++stats_.primitivesIn;
  ++stats_.points;
  // §2.12: a point inside the clip volume passes unchanged; any other point is discarded.
  const float w = v[3];
  if (!(std::fabs(v[0]) <= w && std::fabs(v[1]) <= w && std::fabs(v[2]) <= w)) {
    ++stats_.trivialRejects;
    return;
  }
  const ras::WindowVertex c = toWindow(v);
  const float size = pointSize(v), h = size * 0.5f;
  // The sprite square (§3.3): fragments whose centres lie inside it; the top-left rule splits
  // the shared diagonal. Points face front (§3.5.1 applies to polygons only).
  const ras::WindowVertex q[4] = {{c.x - h, c.y - h, c.z, c.invW},
                                  {c.x + h, c.y - h, c.z, c.invW},
                                  {c.x + h, c.y + h, c.z, c.invW},
                                  {c.x - h, c.y + h, c.z, c.invW}};
  const float* vary[3] = {v + 4, v + 4, v + 4};
  const float inv = 1.0f / size;
  stats_.trianglesOut += 2;
  emit(ras::Triangle{{q[0], q[1], q[2]}, true, ras::PrimitiveKind::Point, c.x, c.y, inv}, vary);
  emit(ras::Triangle{{q[0], q[2], q[3]}, true, ras::PrimitiveKind::Point, c.x, c.y, inv}, vary);
}

template <class Emit>
void PrimitiveSetup::processLine(const float* v0, const float* v1, int floats, Emit&& emit) {
  ++stats_.primitivesIn;
  ++stats_.lines;
  const uint32_t c0 = clipper_.outcode(v0), c1 = clipper_.outcode(v1);
  if (c0 & c1) {
    ++stats_.trivialRejects;
    return;
  }
  const float *a = v0, *b = v1;
  if (c0 | c1) {
    ++stats_.clipped;
    if (!clipper_.clipLine(v0, v1, c0 | c1, floats)) return;
    if (prim_.flatVaryings) clipper_.copyFlat(2, v1, prim_.flatVaryings);  // provoking: last
    a = clipper_.vertex(0).data();
    b = clipper_.vertex(1).data();
  }
  const ras::WindowVertex wa = toWindow(a), wb = toWindow(b);
  const float dx = wb.x - wa.x, dy = wb.y - wa.y;
  if (!(dx != 0.0f || dy != 0.0f)) {  // zero length (or NaN): no fragments
    ++stats_.culled;
    return;
  }
  // §3.4.2: a non-antialiased line of width w covers w pixels across its minor axis, i.e. the
  // parallelogram whose ends are offset by ±w/2 along the minor axis. With w = 1 that is one
  // fragment per column (x-major) or row (y-major), like the diamond-exit rule away from the
  // ends; the top-left rule makes the ends half-open, so strips never draw a vertex twice.
  const float h = std::clamp(prim_.lineWidth, 1.0f, kMaxLineWidth) * 0.5f;
  const bool xMajor = std::fabs(dx) >= std::fabs(dy);
  const float ox = xMajor ? 0.0f : h, oy = xMajor ? h : 0.0f;
  const ras::WindowVertex am{wa.x - ox, wa.y - oy, wa.z, wa.invW};
  const ras::WindowVertex ap{wa.x + ox, wa.y + oy, wa.z, wa.invW};
  const ras::WindowVertex bm{wb.x - ox, wb.y - oy, wb.z, wb.invW};
  const ras::WindowVertex bp{wb.x + ox, wb.y + oy, wb.z, wb.invW};
  // Barycentrics over the two halves interpolate along the line, perspective-correct; both
  // halves end with the line's provoking vertex b, which flat varyings read.
  const float* va = a + 4;
  const float* vb = b + 4;
  const float* vary0[3] = {va, vb, vb};
  const float* vary1[3] = {va, va, vb};
  stats_.trianglesOut += 2;
  emit(ras::Triangle{{am, bm, bp}, true, ras::PrimitiveKind::Line}, vary0);
  emit(ras::Triangle{{ap, am, bp}, true, ras::PrimitiveKind::Line}, vary1);
}

}  // namespace tessera::gpu::pc
