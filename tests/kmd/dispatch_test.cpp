// The dispatcher's contract: submit returns at once, waits and fences return when and only when
// the GPU retired the work, priorities order the rings, the draw queue throttles and bounds
// submitters, bursts and in-flight windows follow REFERENCES.md §2.
#include <thread>

#include "common/error.h"
#include "kmd/memstore.h"
#include "kmd/ringbuffer.h"
#include "kmd_fixture.h"

namespace tessera::kmd::test {
namespace {

TEST_F(KmdTest, SubmitReturnsAtOnceAndWaitsReturnOnlyOnceRetired) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(4, "app");
  const GpuAddress out = allocate(4);
  std::vector<RetireStatus> statuses;
  std::vector<uint32_t> seenByCallback;
  DrawObject o = writeObject(out, 0x1234);
  o.onRetire = [&](const Retirement& r) {
    statuses.push_back(r.status);
    seenByCallback.push_back(read32(out));  // no kernel lock is held: the callback may take one
  };
  const Timestamp ts = kmd_->submit(ctx, std::move(o));
  EXPECT_EQ(ts, 1u);
  // Paused: nothing can have run.
  EXPECT_EQ(kmd_->waitTimestamp(ctx, ts, 0ms), WaitResult::Timeout);
  EXPECT_EQ(kmd_->waitTimestamp(ctx, ts, 1ms), WaitResult::Timeout);
  EXPECT_EQ(kmd_->retiredTimestamp(ctx), 0u);
  EXPECT_EQ(read32(out), 0u);
  EXPECT_EQ(kmd_->waitTimestamp(ctx, 0, 0ms), WaitResult::Retired);  // nothing to wait for

  kmd_->resumeDispatcher();
  EXPECT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  EXPECT_EQ(read32(out), 0x1234u);  // retired means the GPU's writes landed
  EXPECT_EQ(kmd_->retiredTimestamp(ctx), ts);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(statuses, std::vector<RetireStatus>{RetireStatus::Retired});
  EXPECT_EQ(seenByCallback, std::vector<uint32_t>{0x1234u});
  EXPECT_EQ(kmd_->resetStatus(ctx), ResetStatus::None);
}

TEST_F(KmdTest, MemstoreHoldsStartAndEndOfPipeTimestamps) {
  start();
  const ContextId ctx = kmd_->createContext(0, "app");
  const GpuAddress out = allocate(16);
  Timestamp ts = 0;
  for (uint32_t i = 0; i < 3; ++i) ts = kmd_->submit(ctx, writeObject(out + 4 * i, i + 1));
  ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  auto lock = kmd_->lockMemory();
  const MemstoreSlot c = kmd_->memstore().read(kmd_->memstore().contextSlot(ctx));
  EXPECT_EQ(c.sop, 3u);
  EXPECT_EQ(c.eop, 3u);
  const MemstoreSlot r = kmd_->memstore().read(kmd_->memstore().ringSlot(0));
  EXPECT_EQ(r.sop, 3u);  // the ring counts its own commands
  EXPECT_EQ(r.eop, 3u);
  EXPECT_EQ(r.currentContext, ctx);
  EXPECT_EQ(r.currentIb, 0u);  // the last command's only IB
}

TEST_F(KmdTest, RingSegmentSizesMatchTheTable) {
  start({.startPaused = true});
  const IbRef ibs[3] = {{0x200000, 4}, {0x300000, 8}, {0x400000, 2}};
  SegmentPlan plan{1, 7, 9, ibs, 0, false};
  EXPECT_EQ(buildSegment(kmd_->memstore(), 0, plan).size(),
            kSegmentFixedDwords + 3 * kSegmentDwordsPerIb);
  plan.skippedIbs = 0b010;
  EXPECT_EQ(buildSegment(kmd_->memstore(), 0, plan).size(),
            kSegmentFixedDwords + 2 * kSegmentDwordsPerIb);
  plan.skipAll = true;
  EXPECT_EQ(buildSegment(kmd_->memstore(), 0, plan).size(), kSegmentFixedDwords);
}

TEST_F(KmdTest, FencesSignalWhenTheirTimestampRetires) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(8, "app");
  const GpuAddress out = allocate(4);
  kmd_->submit(ctx, writeObject(out, 1));
  kmd_->submit(ctx, writeObject(out, 2));
  Fence fence = kmd_->createFence(ctx);
  EXPECT_TRUE(fence.valid());
  EXPECT_EQ(fence.context(), ctx);
  EXPECT_EQ(fence.timestamp(), 2u);
  EXPECT_FALSE(fence.signaled());
  EXPECT_EQ(fence.wait(1ms), WaitResult::Timeout);
  kmd_->resumeDispatcher();
  EXPECT_EQ(fence.wait(10s), WaitResult::Retired);
  EXPECT_TRUE(fence.signaled());
  EXPECT_EQ(read32(out), 2u);
  // The fence outlives its context.
  kmd_->destroyContext(ctx);
  EXPECT_TRUE(fence.signaled());
  EXPECT_THROW(Fence().wait(0ms), Error);
}

TEST_F(KmdTest, HigherPriorityRingRunsFirstWhenBothArePending) {
  start({.startPaused = true});
  const ContextId low = kmd_->createContext(12, "low");   // ringbuffer 3
  const ContextId high = kmd_->createContext(1, "high");  // ringbuffer 0
  const ContextId mid = kmd_->createContext(2, "mid");    // ringbuffer 0, behind "high"
  const GpuAddress last = allocate(4);
  std::vector<ContextId> order;
  std::mutex m;
  auto object = [&](uint32_t value) {
    DrawObject o = writeObject(last, value);
    o.onRetire = [&](const Retirement& r) {
      std::lock_guard<std::mutex> lock(m);
      order.push_back(r.context);
    };
    return o;
  };
  kmd_->submit(low, object(12));  // submitted first, runs last
  kmd_->submit(mid, object(2));
  kmd_->submit(high, object(1));
  kmd_->resumeDispatcher();
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(order, (std::vector<ContextId>{high, mid, low}));
  EXPECT_EQ(read32(last), 12u);  // the GPU saw the same order
  const DeviceStats s = kmd_->stats();
  EXPECT_EQ(s.rings[0].commands, 2u);
  EXPECT_EQ(s.rings[3].commands, 1u);
}

TEST_F(KmdTest, OneContextFillsTheWindowInBursts) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(5, "app");
  const GpuAddress slots = allocate(40 * 8);
  for (int i = 0; i < 40; ++i) kmd_->submit(ctx, sequenceObject(slots + 8 * i));
  kmd_->resumeDispatcher();
  ASSERT_TRUE(kmd_->waitIdle(10s));
  for (int i = 0; i < 40; ++i) EXPECT_EQ(read64(slots + 8 * i), uint64_t(i)) << i;
  const RingStats r = kmd_->stats().rings[1];
  EXPECT_EQ(r.maxInflight, kInflightOneContext);
  EXPECT_EQ(r.turns, 3u);   // 15 + 15 + 10
  EXPECT_EQ(r.bursts, 8u);  // 40 / kContextBurst
  EXPECT_EQ(kmd_->stats().gpuSubmits, 40u);
}

TEST_F(KmdTest, SharedRingbufferAlternatesContextsInSmallWindows) {
  start({.startPaused = true});
  const ContextId a = kmd_->createContext(0, "a");
  const ContextId b = kmd_->createContext(0, "b");
  const GpuAddress slotsA = allocate(10 * 8), slotsB = allocate(10 * 8);
  for (int i = 0; i < 10; ++i) kmd_->submit(a, sequenceObject(slotsA + 8 * i));
  for (int i = 0; i < 10; ++i) kmd_->submit(b, sequenceObject(slotsB + 8 * i));
  kmd_->resumeDispatcher();
  ASSERT_TRUE(kmd_->waitIdle(10s));
  // Windows of kInflightShared: a1-4 b1-4 a5-8 b5-8 a9-10 b9-10.
  const uint64_t expectA[10] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17};
  const uint64_t expectB[10] = {4, 5, 6, 7, 12, 13, 14, 15, 18, 19};
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(read64(slotsA + 8 * i), expectA[i]) << i;
    EXPECT_EQ(read64(slotsB + 8 * i), expectB[i]) << i;
  }
  EXPECT_EQ(kmd_->stats().rings[0].maxInflight, kInflightShared);
  EXPECT_EQ(kmd_->stats().rings[0].turns, 5u);
}

TEST_F(KmdTest, FullQueueThrottlesTheSubmitter) {
  start({.throttleTimeout = 1ms, .startPaused = true});
  const ContextId ctx = kmd_->createContext(3, "app");
  const GpuAddress out = allocate(4);
  for (uint32_t i = 0; i < kThrottleQueued; ++i) kmd_->submit(ctx, writeObject(out, i));
  // The dispatcher is paused: the queue never drains, the wait times out with a clear error.
  try {
    kmd_->submit(ctx, writeObject(out, 99));
    FAIL() << "submit past the throttle depth did not wait";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("draw queue still holds 50"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(kmd_->stats().throttledSubmits, 1u);
  EXPECT_EQ(kmd_->submittedTimestamp(ctx), kThrottleQueued);
}

TEST_F(KmdTest, ThrottledSubmitterProceedsOnceTheQueueDrains) {
  start({.startPaused = true});  // default throttle timeout: 10 s
  const ContextId ctx = kmd_->createContext(3, "app");
  const GpuAddress out = allocate(4);
  for (uint32_t i = 0; i < kThrottleQueued; ++i) kmd_->submit(ctx, writeObject(out, i));
  Timestamp got = 0;
  std::thread submitter([&] { got = kmd_->submit(ctx, writeObject(out, 1000)); });
  while (kmd_->stats().throttledSubmits == 0) std::this_thread::yield();  // it is waiting
  kmd_->resumeDispatcher();
  submitter.join();
  EXPECT_EQ(got, kThrottleQueued + 1);
  EXPECT_EQ(kmd_->waitTimestamp(ctx, got, 10s), WaitResult::Retired);
  EXPECT_EQ(read32(out), 1000u);
}

TEST_F(KmdTest, DrawQueueHoldsAtMost128) {
  start({.throttleTimeout = 1ms, .startPaused = true});
  const ContextId ctx = kmd_->createContext(3, "app");
  const GpuAddress out = allocate(4);
  std::vector<DrawObject> many;
  for (int i = 0; i < 100; ++i) many.push_back(writeObject(out, 1));
  EXPECT_EQ(kmd_->submit(ctx, many), 100u);  // above the throttle depth in one go is fine
  EXPECT_THROW(kmd_->submit(ctx, writeObject(out, 2)), Error);  // now throttled
  const ContextId other = kmd_->createContext(3, "other");
  std::vector<DrawObject> tooMany(kDrawQueueSize + 1);
  EXPECT_THROW(kmd_->submit(other, tooMany), Error);
  std::vector<DrawObject> some(40);
  kmd_->submit(other, some);
  EXPECT_THROW(kmd_->submit(other, std::vector<DrawObject>(kDrawQueueSize - 39)), Error);
  EXPECT_EQ(kmd_->submittedTimestamp(other), 40u);
}

TEST_F(KmdTest, RejectsBadArguments) {
  start({.startPaused = true});
  EXPECT_THROW(kmd_->createContext(-1, "x"), Error);
  EXPECT_THROW(kmd_->createContext(kPriorityLevels, "x"), Error);
  EXPECT_THROW(kmd_->submit(77, DrawObject{}), Error);
  const ContextId ctx = kmd_->createContext(0, "app");
  EXPECT_THROW(kmd_->submit(ctx, std::vector<DrawObject>{}), Error);
  DrawObject fat;
  fat.ibs.resize(kMaxIbsPerDrawObject + 1);
  EXPECT_THROW(kmd_->submit(ctx, fat), Error);
  EXPECT_THROW(kmd_->waitTimestamp(ctx, 1, 0ms), Error);  // never submitted: would never retire
  EXPECT_THROW(kmd_->ringbufferAddress(kRingbuffers), Error);
}

TEST_F(KmdTest, ContextSlotsRunOutAndAreReused) {
  start({.startPaused = true});
  std::vector<ContextId> ids;
  for (uint32_t i = 0; i < kMaxContexts; ++i) ids.push_back(kmd_->createContext(0, "c"));
  EXPECT_THROW(kmd_->createContext(0, "one too many"), Error);
  kmd_->destroyContext(ids[5]);
  EXPECT_EQ(kmd_->createContext(0, "again"), ids[5]);
}

TEST_F(KmdTest, DestroyedContextRefusesSubmitsButFinishesItsWork) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(6, "app");
  const GpuAddress out = allocate(4);
  RetireStatus status = RetireStatus::Discarded;
  DrawObject o = writeObject(out, 5);
  o.onRetire = [&](const Retirement& r) { status = r.status; };
  kmd_->submit(ctx, std::move(o));
  Fence fence = kmd_->createFence(ctx);
  kmd_->destroyContext(ctx);
  EXPECT_THROW(kmd_->submit(ctx, writeObject(out, 6)), Error);
  EXPECT_THROW(kmd_->waitTimestamp(ctx, 1, 0ms), Error);
  kmd_->resumeDispatcher();
  EXPECT_EQ(fence.wait(10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(status, RetireStatus::Retired);
  EXPECT_EQ(read32(out), 5u);
  EXPECT_TRUE(kmd_->contextSummaries().empty());  // drained: its slot is free again
}

TEST_F(KmdTest, ShutdownDiscardsWorkThatNeverRan) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(6, "app");
  const GpuAddress out = allocate(4);
  std::vector<RetireStatus> statuses;
  for (int i = 0; i < 3; ++i) {
    DrawObject o = writeObject(out, 1);
    o.onRetire = [&](const Retirement& r) { statuses.push_back(r.status); };
    kmd_->submit(ctx, std::move(o));
  }
  kmd_.reset();
  EXPECT_EQ(statuses, std::vector<RetireStatus>(3, RetireStatus::Discarded));
}

TEST_F(KmdTest, StatsCountPerContextAndFormatATable) {
  start();
  const ContextId a = kmd_->createContext(0, "compositor");
  const ContextId b = kmd_->createContext(9, "game");
  const GpuAddress out = allocate(8);
  int runs = 0;
  DrawObject o = writeObject(out, 1);
  o.beforeRun = [&](gpu::Device&) { ++runs; };
  o.afterRun = [&](gpu::Device& g, const std::optional<gpu::cp::CpFault>& fault) {
    runs += g.commandProcessor().stats().ibs > 0 && !fault ? 10 : 0;
  };
  kmd_->submit(a, std::move(o));
  kmd_->submit(b, writeObject(out + 4, 2));
  const Timestamp tb = kmd_->submit(b, writeObject(out + 4, 3));
  ASSERT_EQ(kmd_->waitTimestamp(b, tb, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(runs, 11);
  const ContextStats sa = kmd_->contextStats(a), sb = kmd_->contextStats(b);
  EXPECT_EQ(sa.submitted, 1u);
  EXPECT_EQ(sa.retired, 1u);
  EXPECT_EQ(sb.submitted, 2u);
  EXPECT_EQ(sb.retired, 2u);
  EXPECT_EQ(sb.faults, 0u);
  EXPECT_GT(sa.gpuCycles, 0.0);
  EXPECT_GT(sb.gpuCycles, sa.gpuCycles);
  const std::string table = kmd_->contextTable();
  EXPECT_NE(table.find("compositor"), std::string::npos) << table;
  EXPECT_NE(table.find("game"), std::string::npos);
  EXPECT_NE(table.find("gpu cycles"), std::string::npos);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3);
}

}  // namespace
}  // namespace tessera::kmd::test
