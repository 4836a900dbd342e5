// The kernel-mode layer's limits: one table of the numbers KGSL's dispatcher uses
// (REFERENCES.md §2; seed 004 for the queues they bound). Everything in src/kmd reads them here.
#pragma once
#include <chrono>
#include <cstdint>

namespace tessera::kmd {

// Ringbuffers and priorities: 16 context priorities (0 is the highest, as KGSL) spread over 4
// ringbuffers; a context's ringbuffer is priority / (levels per ringbuffer).
inline constexpr int kRingbuffers = 4;
inline constexpr int kPriorityLevels = 16;
inline constexpr int kPrioritiesPerRing = kPriorityLevels / kRingbuffers;

// Per-context draw queue: its capacity, and the depth at which a submitter starts to wait for
// the dispatcher (and for how long before the submit fails).
inline constexpr uint32_t kDrawQueueSize = 128;
inline constexpr uint32_t kThrottleQueued = 50;
inline constexpr std::chrono::milliseconds kThrottleTimeout{10000};

// Dispatch: commands taken from one context per turn, and the commands a ringbuffer may hold in
// flight (written, not retired): many when one context owns it, few when contexts share it so
// that none waits long behind another.
inline constexpr uint32_t kContextBurst = 5;
inline constexpr uint32_t kInflightOneContext = 15;
inline constexpr uint32_t kInflightShared = 4;

// Fault recovery: more than this many faults inside the window disables replay.
inline constexpr uint32_t kMaxFaultsInWindow = 3;
inline constexpr std::chrono::milliseconds kFaultWindow{3000};

// Sizes of the GPU-side structures.
inline constexpr uint32_t kMaxContexts = 64;          // memstore slots for contexts
inline constexpr uint32_t kMaxIbsPerDrawObject = 32;  // bounded so a ring segment is bounded
inline constexpr uint32_t kRingDwords = 16384;        // each ringbuffer: 64 KiB

// Ring segment of one draw object (ringbuffer.cpp): SOP writes, one IB marker + CP_INDIRECT_BUFFER
// per IB, two CACHE_FLUSH_TS end-of-pipe writes.
inline constexpr uint32_t kSegmentFixedDwords = 6 + 4 + 5 + 5;
inline constexpr uint32_t kSegmentDwordsPerIb = 4 + 4;
inline constexpr uint32_t kMaxSegmentDwords =
    kSegmentFixedDwords + kSegmentDwordsPerIb * kMaxIbsPerDrawObject;

static_assert(kPriorityLevels % kRingbuffers == 0);
static_assert(kThrottleQueued < kDrawQueueSize);
static_assert(kInflightShared <= kInflightOneContext);
static_assert(kMaxIbsPerDrawObject <= 32, "skipped IBs are a 32-bit mask");
// A whole turn (at most one full in-flight window, plus replays of the previous one) fits in the
// ring without wrapping inside the turn.
static_assert(2 * kInflightOneContext * kMaxSegmentDwords <= kRingDwords);

}  // namespace tessera::kmd
