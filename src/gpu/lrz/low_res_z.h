// Low-resolution Z (LRZ): one Z16 value per 8×8 pixel block, built by the binning pass and used
// by the same pass to drop hidden triangles from the visibility streams and by the render pass
// to reject hidden triangles and quads before shading (REFERENCES.md §1 "LRZ"; seed on Adreno
// tiling). A block's value bounds from above the depth every pixel of the block will hold once
// an occluder covering the whole block has been drawn, so a fragment farther than it can never
// be seen. Works in one direction (LESS/LEQUAL: nearer is smaller).
//
// Exactness: with every draw of the batch LRZ-compatible (lrzCompatible) the final image does
// not depend on a fragment whose depth is behind its block's value: an opaque occluder that
// writes colour and depth over the whole block wins against it in either order, and nothing
// else (stencil, blending, discard) can observe the fragment. The driver enables LRZ only for
// such batches.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/ras/ras_types.h"
#include "gpu/rb/rb_state.h"

namespace tessera::gpu::lrz {

inline constexpr int kBlock = 8;               // pixels per side of a block
inline constexpr uint16_t kFar = 0xffff;       // nothing known: never rejects
inline constexpr uint32_t kMargin = 2;         // Z16 steps between occluder and reject
inline constexpr uint32_t kBytesPerBlock = 2;  // Z16

// A draw whose state keeps LRZ exact for its batch: depth test LESS or LEQUAL, no stencil test,
// no blending, no polygon offset, a fragment shader that cannot discard, and if it writes depth
// it writes every colour channel too (or there is no colour buffer), so that the colour of a
// pixel always comes from the fragment that set its depth.
bool lrzCompatible(const rb::DepthStencilState& ds, const rb::BlendState& blend, bool hasColor,
                   bool polygonOffset, bool shaderKills);

struct LrzStats {
  uint64_t trianglesCulled = 0;    // binning: left out of the visibility streams
  uint64_t trianglesRejected = 0;  // render pass: not rasterized (quads: FragmentStats)
  uint64_t occluders = 0;          // triangles that lowered at least one block
};

class LowResZ final {
 public:
  // Starts a batch's LRZ over a grid of pitch × rows blocks at `buffer`, every block far; the
  // binning pass writes the buffer as it goes (charged once, at store()).
  void begin(GpuAddress buffer, uint32_t pitch, uint32_t rows);
  bool active() const { return active_; }
  void disable() { active_ = false; }

  // Binning: the triangle lies behind every block its bounding box ∩ clip touches.
  bool hidden(const ras::Triangle& tri, const ras::Scissor& clip) const;
  // Binning, for a triangle that writes depth: marks the pixels of each block (inside `clip`)
  // it surely covers. Once the triangles marked since a block's last update cover all 64 of its
  // pixels, the block drops to the farthest vertex depth among them: every pixel then holds a
  // depth no farther than that, whatever the order the bins draw them in.
  void occlude(const ras::Triangle& tri, const ras::Scissor& clip);
  // End of the binning pass: the buffer is written to memory.
  void store(GpuMemory& memory);
  // A bin of the render pass reads its blocks from memory.
  void load(GpuMemory& memory, const ras::Scissor& bin);
  // A bin worker (gpu/pipeline/bin_jobs.h) reads the buffer `pass` stored: its place and grid,
  // and room for the blocks its bin loads.
  void followBuffer(const LowResZ& pass);
  // Render pass: every covered pixel of the quad at (x, y) is behind its block.
  bool quadHidden(int x, int y, const float z[4], uint8_t coverage) const;

  LrzStats& stats() { return stats_; }

 private:
  uint16_t at(int bx, int by) const { return blocks_[size_t(by) * pitch_ + size_t(bx)]; }
  // Blocks overlapping the half-open pixel rectangle, clamped to the grid.
  bool blockRange(ras::Scissor r, int& bx0, int& by0, int& bx1, int& by1) const;

  bool active_ = false;
  GpuAddress buffer_ = 0;
  uint32_t pitch_ = 0, rows_ = 0;
  std::vector<uint16_t> blocks_;
  // Per block, the pixels covered by occluders since its last update and their farthest depth.
  std::vector<uint64_t> covered_;
  std::vector<uint16_t> coveredFar_;
  LrzStats stats_;
};

}  // namespace tessera::gpu::lrz
