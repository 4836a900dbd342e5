// Rasterizer (ras/) input and output types: the primitive-assembly stage hands over triangles in
// window coordinates; the rasterizer hands 2x2 pixel quads to early-Z, the shader and the RB.
#pragma once
#include <cstdint>

namespace tessera::gpu::ras {

// Vertex positions snap to 1/256 pixel before the edge functions are set up.
inline constexpr int kSubpixelBits = 8;
inline constexpr int64_t kSubpixelScale = int64_t{1} << kSubpixelBits;
// Vertices are clamped to +-2^20 pixels (far beyond any guard band) so that every edge
// function over the clamped range fits comfortably in 64 bits (|E| < 2^61).
inline constexpr double kMaxCoordinate = 1048576.0;
// Hierarchical walk granularity: blocks of kBlockSize x kBlockSize pixels are rejected or
// trivially accepted from the edge functions at their corners before quads are visited.
inline constexpr int kBlockSize = 8;
static_assert(kBlockSize % 2 == 0, "blocks hold whole quads");

// Window coordinates: pixels with pixel centres at +0.5, z in [0,1], invW = 1/w_clip.
struct WindowVertex {
  float x, y, z, invW;
};

// What a window triangle was before setup: a polygon, half of a wide line's parallelogram or
// half of a point sprite's square (primitive setup expands lines and points into quads).
enum class PrimitiveKind : uint8_t { Polygon, Line, Point };

// Either winding is accepted (orientation comes from the signed area). For the top-left fill
// rule "top" means smaller window y: the rule is stated in the surface's row order.
struct Triangle {
  WindowVertex v[3];
  bool frontFacing;
  PrimitiveKind kind = PrimitiveKind::Polygon;
  // Point sprites: the window-space centre and 1/size, from which each fragment's
  // gl_PointCoord follows (GLES 2.0 §3.3.1).
  float pointX = 0, pointY = 0, pointInvSize = 0;
};

// Half-open [x0,x1) x [y0,y1) in window pixels.
struct Scissor {
  int x0, y0, x1, y1;
  bool operator==(const Scissor&) const = default;
};

// A 2x2 pixel quad; pixel i = (x + (i&1), y + (i>>1)). Attributes are filled for all four
// pixels, covered or not, because helper pixels feed derivatives.
struct Quad {
  int x, y;            // even-aligned top-left pixel
  uint8_t coverage;    // bit i: pixel i covered (and inside the scissor)
  float z[4];          // window z per pixel (screen-space linear interpolation)
  float invW[4];       // interpolated 1/w per pixel
  float b1[4], b2[4];  // perspective-correct barycentrics of v1 and v2 (b0 = 1-b1-b2)
  // Multisample rasterization only (sample_positions.h): bit 4*i + s set when sample s of
  // pixel i is covered (coverage then marks the pixels with any sample covered), and the
  // window z at each sample. The attributes above stay at the pixel centres: the fragment
  // shader runs once per pixel.
  uint16_t sampleCoverage;
  float sampleZ[4][4];
};

struct RasStats {
  uint64_t triangles;       // triangles submitted
  uint64_t trianglesEmpty;  // triangles that produced no quad
  uint64_t quads;           // quads emitted (at least one covered pixel)
  uint64_t pixelsCovered;   // covered pixels over all emitted quads
  uint64_t helperPixels;    // uncovered pixels of emitted quads (derivative helpers)
  uint64_t samplesCovered;  // covered samples (multisample) or pixels (single sample)
};

}  // namespace tessera::gpu::ras
