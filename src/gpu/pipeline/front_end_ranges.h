// The binning pass's front end split by ranges (docs/architecture.md, "The binning pass in
// ranges"). A large draw's vertices are shaded in ranges of whole warps, then its primitives are
// set up in ranges, each range on any host thread with a fetch unit, shader core and setup unit
// of its own. The command processor's thread merges the ranges' counters and bus traffic and bins
// their triangles (LRZ, visibility stream, block table) in range order. Ranges of whole warps
// make the same warps as one pass over the draw, every counter is a sum, and each primitive's
// triangles are computed alone, so images and counters are the same as shading and setting up
// the draw on one thread, whatever the number of threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/pc/primitive_setup.h"
#include "gpu/sp/shader_core.h"
#include "gpu/vfd/vertex_fetch.h"

namespace tessera::gpu {

// The least vertices a shading range has and the least primitives a setup range has: enough
// that a range outweighs handing it to another thread, which takes tens of microseconds when the
// thread sleeps. A draw is split when it makes at least kMinRangesToSplit such ranges, into at
// most kRangesPerThread ranges per thread, so that binning can start on the first ranges while
// the later ones are set up, and a thread that wakes late still finds some.
inline constexpr size_t kShadeRangeVertices = 4096;
inline constexpr size_t kSetupRangePrimitives = 2048;
inline constexpr size_t kMinRangesToSplit = 8;
inline constexpr unsigned kRangesPerThread = 4;

// The units one host thread uses for a range at a time.
struct FrontEndUnits {
  explicit FrontEndUnits(GpuMemory& memory) : vfd(memory) {}
  vfd::VertexFetch vfd;
  sp::ShaderCore sp;
  sp::VertexWarp warp{};
  pc::PrimitiveSetup setup;
};

// A window triangle of primitive `primitive` set up by a range, with the pixels it can cover
// inside the screen scissor.
struct SetUpTriangle {
  uint32_t primitive;
  ras::Scissor bounds;
  ras::Triangle triangle;
};

// One range of a draw's vertices (shading) or primitives (setup), and what it produced.
struct FrontEndRange {
  size_t first = 0, last = 0;
  vfd::VfdStats vfd;
  sp::SpStats sp;
  pc::PcStats setup;
  BusStats bus;
  std::exception_ptr error;              // the fault that stopped the range
  std::vector<SetUpTriangle> triangles;  // setup: in primitive order
  std::future<void> done;
};

}  // namespace tessera::gpu
