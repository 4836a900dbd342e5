// The batch of the bound framebuffer: the draw IB and what the per-bin decisions need.
#pragma once
#include <cstdint>
#include <vector>

#include "driver/context.h"
#include "driver/query.h"
#include "driver/upload_arena.h"
#include "gpu/cp/command_writer.h"

namespace tessera::driver {

using gpu::cp::CommandWriter;

// The batch of the bound framebuffer (freedreno's fd_batch): the draw IB and what the per-bin
// restore/resolve decisions need.
struct Batch {
  explicit Batch(gpu::GpuMemory& m) : uploads(m), memory(m) {}
  ~Batch() {
    for (gpu::GpuAddress bo : retired) memory.release(bo);
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;
  CommandWriter draws;  // the draw IB, replayed per bin
  UploadArena uploads;  // constants and texture descriptors it points at
  uint32_t drawCount = 0, clearCount = 0;
  uint32_t clearedBeforeDraw = 0;  // buffers wholly cleared before any draw: no restore
  uint32_t written = 0;            // buffers the batch writes: resolve them
  uint32_t invalidated = 0;        // buffers the application discarded: no resolve
  bool usesDepth = false;          // depth/stencil must live in GMEM
  bool blends = false;             // a draw blends into the colour buffer
  // Every draw so far keeps low-resolution Z exact (gpu/lrz: lrzCompatible), and no depth clear
  // followed a draw: the batch may use LRZ.
  bool lrzOk = true;
  // Some draw tests stencil or writes depth: a draw's full cover must then overwrite them.
  bool drawsWriteDepthStencil = false;
  BatchQueries queries;  // sample slots and the queries running in this batch
  bool hasScissorBounds = false;
  PixelRect maxScissor{0, 0, 0, 0};  // union of every scissor used (REFERENCES.md §1)
  // Buffer objects the batch's commands may still read although their resource was renamed
  // or destroyed: released when the batch is gone (submitted or dropped).
  std::vector<gpu::GpuAddress> retired;
  std::vector<pipe::ResourceId> uses;  // resources its commands reference (Context::use)
  gpu::GpuMemory& memory;
};

}  // namespace tessera::driver
