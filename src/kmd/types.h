// What a user-mode driver hands the kernel-mode layer and what it gets back: draw objects (lists
// of IB references, KGSL's kgsl_drawobj, seed 004), per-context timestamps, and the outcomes of
// waits, retirement and fault recovery (REFERENCES.md §2).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "gpu/cp/command_processor.h"
#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu {
class Device;
}

namespace tessera::kmd {

using ContextId = uint32_t;
// Per-context, counting the context's draw objects from 1; 0 means "nothing submitted".
using Timestamp = uint32_t;

// True when `ts` is at or before `reached`, modulo 2^32 (timestamps wrap, as KGSL's do).
constexpr bool timestampReached(Timestamp reached, Timestamp ts) {
  return static_cast<int32_t>(reached - ts) >= 0;
}

// An indirect buffer the user-mode driver wrote: the ring calls it with CP_INDIRECT_BUFFER.
struct IbRef {
  gpu::GpuAddress address = 0;
  uint32_t dwords = 0;
};

enum class DrawFlags : uint32_t {
  None = 0,
  EndOfFrame = 1u << 0,  // the last command of a frame: bounds "skip to the end of frame"
};
constexpr DrawFlags operator|(DrawFlags a, DrawFlags b) {
  return static_cast<DrawFlags>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
constexpr bool hasFlag(DrawFlags set, DrawFlags f) {
  return (static_cast<uint32_t>(set) & static_cast<uint32_t>(f)) != 0;
}

// How a draw object left the kernel.
enum class RetireStatus : uint8_t {
  Retired,    // every IB ran and its end-of-pipe timestamp landed
  Skipped,    // fault recovery skipped some or all of its IBs; its timestamp still retired
  Lost,       // its context was invalidated before it completed
  Discarded,  // the device shut down before it ran
};

struct Retirement {
  ContextId context = 0;
  Timestamp timestamp = 0;
  RetireStatus status = RetireStatus::Retired;
  double gpuCycles = 0;  // timing-model cycles of every run of it (replays included)
  uint32_t faults = 0;   // runs of it that faulted the GPU
};

struct DrawObject {
  std::vector<IbRef> ibs;  // at most kMaxIbsPerDrawObject
  DrawFlags flags = DrawFlags::None;
  // Called once, on the dispatcher thread with no kmd lock held (it may take lockMemory() to
  // free the command buffers, or submit), never from inside submit(). Must not throw, nor wait
  // for a timestamp (the dispatcher would wait on itself).
  std::function<void(const Retirement&)> onRetire;
  // Called around each GPU run of this object (replays too), on the dispatcher thread with the
  // memory lock held, like KGSL's profiling pre/post IB processing (seed 004): the place to reset
  // and read the GPU's per-block counters, and to see the run's fault. Must not take
  // lockMemory(), submit or wait.
  std::function<void(gpu::Device&)> beforeRun;
  std::function<void(gpu::Device&, const std::optional<gpu::cp::CpFault>&)> afterRun;
};

enum class WaitResult : uint8_t { Retired, Timeout, ContextLost };

// GL_EXT_robustness-style reset status of a context.
enum class ResetStatus : uint8_t {
  None,      // no fault touched it
  Guilty,    // it faulted until recovery gave up: invalidated
  Innocent,  // another context's fault forced its in-flight work to be replayed
};

// The recovery policy's steps, tried in this order for a faulting context (REFERENCES.md §2).
enum class RecoveryAction : uint8_t { Replay, SkipIb, SkipCommand, SkipFrame, Invalidate };

constexpr std::string_view retireStatusName(RetireStatus s) {
  constexpr std::string_view kNames[] = {"retired", "skipped", "lost", "discarded"};
  return kNames[static_cast<size_t>(s)];
}
constexpr std::string_view waitResultName(WaitResult r) {
  constexpr std::string_view kNames[] = {"retired", "timeout", "context lost"};
  return kNames[static_cast<size_t>(r)];
}
constexpr std::string_view resetStatusName(ResetStatus s) {
  constexpr std::string_view kNames[] = {"none", "guilty", "innocent"};
  return kNames[static_cast<size_t>(s)];
}
constexpr std::string_view recoveryActionName(RecoveryAction a) {
  constexpr std::string_view kNames[] = {"replay", "skip the faulting IB", "skip the command",
                                         "skip to the end of frame", "invalidate the context"};
  return kNames[static_cast<size_t>(a)];
}

}  // namespace tessera::kmd
