// Fault recovery (REFERENCES.md §2): a context that faults the GPU goes through replay, skip IB,
// skip command, skip to end of frame and invalidation; other contexts' work is replayed and
// comes out exactly as without the faulting context; each fault leaves a snapshot.
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "kmd/recovery_policy.h"
#include "kmd/snapshot.h"
#include "kmd_fixture.h"

namespace tessera::kmd::test {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The line of `text` that carries the fault mark, or "".
std::string markedLine(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("<== fault") != std::string::npos) return line;
  return {};
}

std::vector<RecoveryAction> actions(const std::vector<FaultRecord>& faults) {
  std::vector<RecoveryAction> out;
  for (const FaultRecord& f : faults) out.push_back(f.action);
  return out;
}

TEST(RecoveryPolicy, StepsInOrderAndStartOverAfterACleanFrame) {
  RecoveryState s;
  EXPECT_EQ(s.onFault(true), RecoveryAction::Replay);
  EXPECT_EQ(s.onFault(true), RecoveryAction::SkipIb);
  s.onEndOfFrame();  // the frame had faults: no reset
  EXPECT_EQ(s.onFault(true), RecoveryAction::SkipCommand);
  EXPECT_EQ(s.onFault(true), RecoveryAction::SkipFrame);
  s.onEndOfFrame();
  s.onEndOfFrame();  // a clean frame
  EXPECT_EQ(s.onFault(true), RecoveryAction::Replay);
  EXPECT_EQ(s.onFault(false), RecoveryAction::SkipIb);
  RecoveryState t;
  EXPECT_EQ(t.onFault(false), RecoveryAction::SkipIb);  // replay disabled: the next step
  for (int i = 0; i < 3; ++i) t.onFault(true);
  EXPECT_EQ(t.onFault(true), RecoveryAction::Invalidate);
  EXPECT_EQ(t.onFault(true), RecoveryAction::Invalidate);
}

TEST(RecoveryPolicy, MoreThanThreeFaultsInThreeSecondsDisableReplay) {
  FaultWindow w;
  const TimePoint t0{};
  EXPECT_TRUE(w.recordFault(t0));
  EXPECT_TRUE(w.recordFault(t0 + 1s));
  EXPECT_TRUE(w.recordFault(t0 + 2s));
  EXPECT_FALSE(w.recordFault(t0 + 2500ms));  // the 4th inside 3 s
  EXPECT_TRUE(w.recordFault(t0 + 5600ms));   // the window slid past the others
  EXPECT_EQ(w.recentFaults(), 1u);
}

TEST(Snapshot, MarksTheFaultingPacketEvenForRegisterWrites) {
  const std::string listing =
      "0000100000: CP_NOP\n    0000200000: CP_SCRATCH[0] = 0x1\n    0000200004: X = 0x2\n";
  EXPECT_NE(markedLine(markFaultingPacket(listing, 0x100000, "boom")).find("CP_NOP"),
            std::string::npos);
  // A type-4 packet's header at 0x1ffffc is listed by its first register line.
  EXPECT_NE(markedLine(markFaultingPacket(listing, 0x1ffffc, "boom")).find("CP_SCRATCH"),
            std::string::npos);
  EXPECT_NE(markFaultingPacket(listing, 0x900000, "boom").find("not in the captured"),
            std::string::npos);
}

// Two well-behaved contexts, each writing per-command values and counting its commands on the
// GPU, optionally beside a third that submits, in turn with them, an IB that calls itself, an IB
// outside memory, random packets and the self-calling IB again.
struct Outcome {
  std::vector<uint32_t> values[2];
  uint64_t counts[2] = {0, 0};
  std::vector<FaultRecord> faults;
  ResetStatus badStatus = ResetStatus::None;
  bool laterSubmitRefused = false;
  WaitResult lastBadWait = WaitResult::Timeout;
};

class GoodAndBadContexts : public KmdTest {
 protected:
  Outcome run(bool withBad) {
    ModelClock clock;
    start({.clock = clock.clock()});
    constexpr int kCommands = 12;
    ContextId good[2] = {kmd_->createContext(4, "good-a"), kmd_->createContext(4, "good-b")};
    const ContextId bad = withBad ? kmd_->createContext(4, "bad") : 0;
    GpuAddress values[2], counts[2];
    for (int g = 0; g < 2; ++g) {
      values[g] = allocate(kCommands * 4);
      counts[g] = allocate(8);
    }
    const GpuAddress increment = constant64(3);
    const IbRef badIbs[4] = {selfCallingIb(), outsideMemoryIb(), randomPacketsIb(7),
                             selfCallingIb()};
    Timestamp lastGood[2] = {0, 0}, lastBad = 0;
    for (int i = 0; i < kCommands; ++i) {
      for (int g = 0; g < 2; ++g) {
        CommandWriter w;
        memWrite(w, values[g] + 4 * i, 1000 * (g + 1) + i);
        CommandWriter count;
        accumulate(count, counts[g], increment, zero_);
        DrawObject o;
        o.ibs = {ib(w), ib(count)};
        lastGood[g] = kmd_->submit(good[g], std::move(o));
      }
      if (withBad && i < 4) lastBad = kmd_->submit(bad, objectOf(badIbs[i], DrawFlags::EndOfFrame));
    }
    Outcome out;
    for (int g = 0; g < 2; ++g)
      EXPECT_EQ(kmd_->waitTimestamp(good[g], lastGood[g], 10s), WaitResult::Retired);
    if (withBad) {
      out.lastBadWait = kmd_->waitTimestamp(bad, lastBad, 10s);
      try {
        kmd_->submit(bad, writeObject(values[0], 0));
      } catch (const Error&) {
        out.laterSubmitRefused = true;
      }
      out.badStatus = kmd_->resetStatus(bad);
    }
    EXPECT_TRUE(kmd_->waitIdle(10s));
    for (int g = 0; g < 2; ++g) {
      for (int i = 0; i < kCommands; ++i) out.values[g].push_back(read32(values[g] + 4 * i));
      out.counts[g] = read64(counts[g]);
      EXPECT_NE(kmd_->resetStatus(good[g]), ResetStatus::Guilty);
      EXPECT_EQ(kmd_->contextStats(good[g]).retired, uint64_t(kCommands));
    }
    out.faults = kmd_->faults();
    return out;
  }
};

TEST_F(GoodAndBadContexts, GoodResultsAreTheSameWithABadNeighbour) {
  const Outcome clean = run(false);
  TearDown();
  const Outcome dirty = run(true);
  EXPECT_TRUE(clean.faults.empty());
  for (int g = 0; g < 2; ++g) {
    EXPECT_EQ(dirty.values[g], clean.values[g]) << g;
    EXPECT_EQ(clean.counts[g], 12u * 3u);  // every command ran exactly once
    EXPECT_EQ(dirty.counts[g], clean.counts[g]) << g;
    EXPECT_EQ(clean.values[g][5], 1000u * (g + 1) + 5);
  }
  // The bad context climbed the whole policy and was invalidated.
  EXPECT_EQ(actions(dirty.faults),
            (std::vector<RecoveryAction>{RecoveryAction::Replay, RecoveryAction::SkipIb,
                                         RecoveryAction::SkipCommand, RecoveryAction::SkipFrame,
                                         RecoveryAction::Invalidate}));
  ASSERT_EQ(dirty.faults.size(), 5u);
  EXPECT_EQ(dirty.faults[0].fault.kind, gpu::FaultKind::IbLoop);
  EXPECT_TRUE(dirty.faults[0].hang);
  EXPECT_EQ(dirty.faults[2].fault.kind, gpu::FaultKind::PageFault);
  EXPECT_FALSE(dirty.faults[2].hang);
  EXPECT_EQ(dirty.faults[2].ibIndex, 0);
  EXPECT_EQ(dirty.faults[4].timestamp, 4u);
  EXPECT_EQ(dirty.badStatus, ResetStatus::Guilty);
  EXPECT_EQ(dirty.lastBadWait, WaitResult::ContextLost);
  EXPECT_TRUE(dirty.laterSubmitRefused);
  for (const FaultRecord& f : dirty.faults) {
    EXPECT_EQ(f.contextName, "bad");
    EXPECT_TRUE(std::filesystem::exists(f.snapshotPath)) << f.describe();
  }
}

TEST_F(KmdTest, InnocentInFlightWorkIsReplayedAndCompletesOnce) {
  start({.startPaused = true});
  const ContextId bad = kmd_->createContext(0, "bad");
  const ContextId good = kmd_->createContext(0, "good");
  const GpuAddress count = allocate(8), inc = constant64(1);
  kmd_->submit(bad, objectOf(outsideMemoryIb()));
  std::vector<RetireStatus> statuses;
  for (int i = 0; i < 3; ++i) {
    CommandWriter w;
    accumulate(w, count, inc, zero_);
    DrawObject o;
    o.ibs.push_back(ib(w));
    o.onRetire = [&](const Retirement& r) { statuses.push_back(r.status); };
    kmd_->submit(good, std::move(o));
  }
  kmd_->resumeDispatcher();  // one turn: bad, then good 1-3 behind it
  ASSERT_EQ(kmd_->waitTimestamp(good, 3, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(read64(count), 3u);
  EXPECT_EQ(statuses, std::vector<RetireStatus>(3, RetireStatus::Retired));
  EXPECT_EQ(kmd_->resetStatus(good), ResetStatus::Innocent);
  EXPECT_EQ(kmd_->resetStatus(bad), ResetStatus::None);  // recovered without invalidation
  EXPECT_EQ(kmd_->contextStats(good).replayed, 6u);      // twice behind the faulting command
  EXPECT_EQ(actions(kmd_->faults()),
            (std::vector<RecoveryAction>{RecoveryAction::Replay, RecoveryAction::SkipIb}));
  EXPECT_EQ(kmd_->contextStats(bad).skipped, 1u);
  EXPECT_EQ(kmd_->contextStats(bad).faults, 2u);
}

TEST_F(KmdTest, SkipIbKeepsTheCommandsOtherIbs) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(0, "app");
  const GpuAddress out = allocate(8);
  CommandWriter before, after;
  memWrite(before, out, 1);
  memWrite(after, out + 4, 2);
  DrawObject o;
  o.ibs = {ib(before), outsideMemoryIb(), ib(after)};
  RetireStatus status = RetireStatus::Lost;
  uint32_t faultsAtRetirement = 0;
  std::vector<gpu::FaultKind> seenAfterRuns;
  o.onRetire = [&](const Retirement& r) {
    status = r.status;
    faultsAtRetirement = r.faults;
  };
  o.afterRun = [&](gpu::Device&, const std::optional<gpu::cp::CpFault>& f) {
    seenAfterRuns.push_back(f ? f->kind : gpu::FaultKind::BadState);
  };
  const Timestamp ts = kmd_->submit(ctx, std::move(o));
  kmd_->resumeDispatcher();
  ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(read32(out + 4), 2u);  // the IB after the bad one ran
  EXPECT_EQ(status, RetireStatus::Skipped);
  EXPECT_EQ(faultsAtRetirement, 2u);
  // Three runs: the fault, its replay, and the run without the bad IB (BadState: no fault).
  EXPECT_EQ(seenAfterRuns,
            (std::vector<gpu::FaultKind>{gpu::FaultKind::PageFault, gpu::FaultKind::PageFault,
                                         gpu::FaultKind::BadState}));
  const auto faults = kmd_->faults();
  ASSERT_EQ(faults.size(), 2u);
  EXPECT_EQ(faults[1].ibIndex, 1);
  EXPECT_EQ(faults[1].action, RecoveryAction::SkipIb);
}

TEST_F(KmdTest, SkipToEndOfFrameSkipsTheRestOfTheFrame) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(0, "app");
  const GpuAddress out = allocate(16);
  std::vector<std::pair<Timestamp, RetireStatus>> log;
  auto logged = [&](DrawObject o) {
    o.onRetire = [&](const Retirement& r) { log.push_back({r.timestamp, r.status}); };
    return o;
  };
  kmd_->submit(ctx, logged(objectOf(selfCallingIb())));    // 1: replay, skip IB
  kmd_->submit(ctx, logged(objectOf(outsideMemoryIb())));  // 2: skip command
  kmd_->submit(ctx, logged(objectOf(outsideMemoryIb())));  // 3: skip to end of frame...
  kmd_->submit(ctx, logged(writeObject(out, 4)));          // 4: ...skipped
  kmd_->submit(ctx, logged(writeObject(out + 4, 5, DrawFlags::EndOfFrame)));  // 5: skipped
  kmd_->submit(ctx, logged(writeObject(out + 8, 6, DrawFlags::EndOfFrame)));  // 6: runs
  kmd_->resumeDispatcher();
  ASSERT_EQ(kmd_->waitTimestamp(ctx, 6, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  EXPECT_EQ(read32(out), 0u);
  EXPECT_EQ(read32(out + 4), 0u);
  EXPECT_EQ(read32(out + 8), 6u);
  using S = RetireStatus;
  EXPECT_EQ(log, (std::vector<std::pair<Timestamp, S>>{{1, S::Skipped},
                                                       {2, S::Skipped},
                                                       {3, S::Skipped},
                                                       {4, S::Skipped},
                                                       {5, S::Skipped},
                                                       {6, S::Retired}}));
  EXPECT_EQ(kmd_->resetStatus(ctx), ResetStatus::None);
}

TEST_F(KmdTest, SkipToEndOfFrameCoversCommandsNotYetSubmitted) {
  start();
  const ContextId ctx = kmd_->createContext(0, "app");
  const GpuAddress out = allocate(8);
  Timestamp ts = 0;
  for (IbRef bad : {selfCallingIb(), outsideMemoryIb(), outsideMemoryIb()}) {
    ts = kmd_->submit(ctx, objectOf(bad));
    ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  }
  // The frame's end was not submitted when recovery chose to skip to it.
  ts = kmd_->submit(ctx, writeObject(out, 1, DrawFlags::EndOfFrame));
  ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  ts = kmd_->submit(ctx, writeObject(out + 4, 2, DrawFlags::EndOfFrame));
  ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  EXPECT_EQ(read32(out), 0u);
  EXPECT_EQ(read32(out + 4), 2u);
  EXPECT_EQ(kmd_->faults().back().action, RecoveryAction::SkipFrame);
}

TEST_F(KmdTest, InvalidatedContextLosesItsQueueAndRefusesSubmits) {
  start({.startPaused = true});
  const ContextId ctx = kmd_->createContext(2, "doomed");
  const GpuAddress out = allocate(4);
  std::vector<RetireStatus> statuses;
  auto logged = [&](DrawObject o) {
    o.onRetire = [&](const Retirement& r) { statuses.push_back(r.status); };
    return o;
  };
  for (int i = 0; i < 5; ++i) kmd_->submit(ctx, logged(objectOf(selfCallingIb())));
  // 5 faults: replay, skip IB (1 runs empty), skip command (2), skip frame (3, 4, 5: no end of
  // frame)... so a 6th command must exist to fault again: none does.
  kmd_->submit(ctx, logged(writeObject(out, 1, DrawFlags::EndOfFrame)));  // 6: skipped
  kmd_->submit(ctx, logged(objectOf(outsideMemoryIb())));                 // 7: invalidates
  kmd_->submit(ctx, logged(writeObject(out, 8)));                         // 8: lost
  Fence fence = kmd_->createFence(ctx);
  kmd_->resumeDispatcher();
  EXPECT_EQ(kmd_->waitTimestamp(ctx, 8, 10s), WaitResult::ContextLost);
  EXPECT_EQ(kmd_->waitTimestamp(ctx, 6, 0ms), WaitResult::Retired);  // retired before the loss
  EXPECT_EQ(fence.wait(0ms), WaitResult::ContextLost);
  EXPECT_TRUE(fence.signaled());
  ASSERT_TRUE(kmd_->waitIdle(10s));
  using S = RetireStatus;
  EXPECT_EQ(statuses, (std::vector<S>{S::Skipped, S::Skipped, S::Skipped, S::Skipped, S::Skipped,
                                      S::Skipped, S::Lost, S::Lost}));
  EXPECT_EQ(kmd_->resetStatus(ctx), ResetStatus::Guilty);
  EXPECT_EQ(read32(out), 0u);
  try {
    kmd_->submit(ctx, writeObject(out, 9));
    FAIL() << "an invalidated context accepted a submit";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("guilty"), std::string::npos) << e.what();
  }
  EXPECT_EQ(kmd_->contextStats(ctx).lost, 2u);
}

TEST_F(KmdTest, FaultStormDisablesReplayUntilTheWindowPasses) {
  ModelClock clock;
  start({.clock = clock.clock()});
  auto faultOnce = [&](const char* name) {
    const ContextId c = kmd_->createContext(0, name);
    const Timestamp ts = kmd_->submit(c, objectOf(outsideMemoryIb()));
    EXPECT_EQ(kmd_->waitTimestamp(c, ts, 10s), WaitResult::Retired);
  };
  faultOnce("first");   // faults 1, 2: replay, skip IB
  faultOnce("second");  // 3, 4: replay, skip IB
  faultOnce("third");   // 5: replay disabled, skip IB at once
  clock.advance(3100ms);
  faultOnce("fourth");  // 6, 7: replay again
  const auto faults = kmd_->faults();
  using A = RecoveryAction;
  EXPECT_EQ(actions(faults), (std::vector<A>{A::Replay, A::SkipIb, A::Replay, A::SkipIb, A::SkipIb,
                                             A::Replay, A::SkipIb}));
  ASSERT_EQ(faults.size(), 7u);
  EXPECT_FALSE(faults[4].replayAllowed);
  EXPECT_TRUE(faults[5].replayAllowed);
}

TEST_F(KmdTest, SnapshotNamesTheFaultingPacket) {
  start();
  const ContextId ctx = kmd_->createContext(0, "app");
  const GpuAddress out = allocate(4);
  CommandWriter w;
  memWrite(w, out, 1);
  std::vector<uint32_t> words = w.words();
  words.push_back(gpu::cp::type7Header(0xee, 0));  // unknown opcode
  DrawObject unknownOpcode;
  unknownOpcode.ibs.push_back({upload(words), static_cast<uint32_t>(words.size())});
  for (DrawObject o : {unknownOpcode, objectOf(outsideMemoryIb()), objectOf(selfCallingIb())}) {
    const Timestamp ts = kmd_->submit(ctx, std::move(o));
    ASSERT_EQ(kmd_->waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  }
  const auto faults = kmd_->faults();
  ASSERT_EQ(faults.size(), 4u);  // replay and skip IB, skip command, skip frame
  for (const FaultRecord& f : faults) {
    ASSERT_FALSE(f.snapshotPath.empty());
    EXPECT_EQ(std::filesystem::path(f.snapshotPath).parent_path(), folder());
    const std::string text = readFile(f.snapshotPath);
    EXPECT_NE(text.find(f.fault.describe()), std::string::npos) << text;
    EXPECT_NE(text.find(recoveryActionName(f.action)), std::string::npos);
    EXPECT_NE(text.find("CP_EVENT_WRITE"), std::string::npos);  // the ring's own packets
  }
  EXPECT_NE(markedLine(readFile(faults[0].snapshotPath)).find("unknown opcode 0xee"),
            std::string::npos)
      << readFile(faults[0].snapshotPath);
  // The IB outside memory: the ring's CP_INDIRECT_BUFFER that calls it is the faulting packet.
  EXPECT_NE(
      markedLine(readFile(faults[2].snapshotPath)).find("CP_INDIRECT_BUFFER 00000000 0000dead"),
      std::string::npos)
      << readFile(faults[2].snapshotPath);
  EXPECT_NE(readFile(faults[2].snapshotPath).find("was not captured"), std::string::npos);
  // The self-calling IB: the call that nests too deep.
  const std::string loop = readFile(faults[3].snapshotPath);
  EXPECT_NE(markedLine(loop).find("CP_INDIRECT_BUFFER"), std::string::npos) << loop;
  EXPECT_NE(loop.find("(hang)"), std::string::npos);
  EXPECT_NE(faults[3].describe().find(faults[3].snapshotPath), std::string::npos);
}

TEST_F(KmdTest, NoSnapshotFolderMeansNoFiles) {
  start({.startPaused = false});
  // start() fills in the test folder; a device built without one writes nothing.
  Device quiet(gpu_, {});
  const ContextId ctx = quiet.createContext(0, "app");
  const Timestamp ts = quiet.submit(ctx, objectOf(outsideMemoryIb()));
  ASSERT_EQ(quiet.waitTimestamp(ctx, ts, 10s), WaitResult::Retired);
  ASSERT_EQ(quiet.faults().size(), 2u);
  EXPECT_TRUE(quiet.faults()[0].snapshotPath.empty());
}

TEST_F(KmdTest, RandomStreamsNeverStopTheDispatcher) {
  start();
  const ContextId good = kmd_->createContext(0, "good");
  const GpuAddress out = allocate(4 * 24);
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const ContextId bad = kmd_->createContext(0, "noise");
    for (int i = 0; i < 6; ++i) kmd_->submit(bad, objectOf(randomPacketsIb(seed * 10 + i)));
    kmd_->submit(good, writeObject(out + 4 * seed, seed + 1));
    kmd_->destroyContext(bad);
  }
  ASSERT_EQ(kmd_->waitTimestamp(good, 24, 10s), WaitResult::Retired);
  ASSERT_TRUE(kmd_->waitIdle(10s));
  for (uint32_t seed = 0; seed < 24; ++seed) EXPECT_EQ(read32(out + 4 * seed), seed + 1);
  // Most streams fault (a random CP_COND_EXEC may skip the final bad packet).
  EXPECT_GT(kmd_->stats().faults, 24u);
  EXPECT_EQ(kmd_->contextSummaries().size(), 1u);  // the destroyed ones drained and left
}

}  // namespace
}  // namespace tessera::kmd::test
