// The command processor must survive any stream (DESIGN.md "Command stream"): random dwords,
// truncated packets, unknown opcodes and registers, IBs out of range or nested into loops all
// end in a reported fault naming the packet, never a crash or a hang.
#include <gtest/gtest.h>

#include <random>

#include "gpu/cp/command_writer.h"
#include "gpu/cp/decoder.h"
#include "gpu/device.h"
#include "gpu/pipeline/countables.h"

namespace tessera::gpu {
namespace {

using cp::CommandWriter;
using cp::Opcode;
using cp::Reg;

struct Gpu {
  Device device{findPreset("adreno-a630")};
  GpuAddress upload(const std::vector<uint32_t>& words) {
    const GpuAddress a = device.memory().allocate(words.size() * 4 + 4, "stream");
    if (!words.empty()) device.memory().write(BusClient::Host, a, words.data(), words.size() * 4);
    return a;
  }
  std::optional<cp::CpFault> run(const std::vector<uint32_t>& words) {
    return device.submit(upload(words), static_cast<uint32_t>(words.size()));
  }
};

TEST(CommandProcessor, ExecutesRegisterWritesAndTimestamps) {
  Gpu g;
  const GpuAddress fence = g.device.memory().allocate(16, "fence");
  CommandWriter w;
  w.reg(Reg::CP_SCRATCH, 40, 2);
  w.packet(Opcode::CP_REG_WRITE_ADD,
           {cp::regOffset(Reg::CP_SCRATCH, 3), cp::regOffset(Reg::CP_SCRATCH, 2), 2});
  w.packet(Opcode::CP_EVENT_WRITE,
           {static_cast<uint32_t>(cp::Event::CACHE_FLUSH_TS), static_cast<uint32_t>(fence),
            static_cast<uint32_t>(fence >> 32), 7});
  EXPECT_FALSE(g.run(w.words()));
  EXPECT_EQ(g.device.commandProcessor().registers().get(Reg::CP_SCRATCH, 3), 42u);
  EXPECT_EQ(g.device.memory().read32(BusClient::Host, fence), 7u);
  EXPECT_EQ(g.device.memory().stats()[BusClient::CommandProcessor].readBytes, w.size() * 4u);
}

TEST(CommandProcessor, CondExecSkipsPackets) {
  Gpu g;
  const GpuAddress flag = g.device.memory().allocate(4, "flag");  // zero
  CommandWriter w;
  w.packet(Opcode::CP_COND_EXEC,
           {static_cast<uint32_t>(flag), static_cast<uint32_t>(flag >> 32), 2});
  w.reg(Reg::CP_SCRATCH, 5);
  w.reg(Reg::CP_SCRATCH, 6, 1);
  EXPECT_FALSE(g.run(w.words()));
  EXPECT_EQ(g.device.commandProcessor().registers().get(Reg::CP_SCRATCH, 0), 0u);
  EXPECT_EQ(g.device.commandProcessor().registers().get(Reg::CP_SCRATCH, 1), 6u);
}

TEST(CommandProcessor, RegToMemCopiesRegistersAndCounters) {
  Gpu g;
  const GpuAddress out = g.device.memory().allocate(64, "out");
  const uint32_t lo = static_cast<uint32_t>(out), hi = static_cast<uint32_t>(out >> 32);
  const uint32_t packets = counterSelect(*findCountable("cp.packets"));
  CommandWriter w;
  w.reg(Reg::CP_SCRATCH, 0x1234, 5);
  w.reg(Reg::RBBM_PERFCTR_SEL, packets, 3);
  // Two plain registers, then counter 3 (cp.packets) as a LO, HI pair.
  w.packet(Opcode::CP_REG_TO_MEM, {cp::regOffset(Reg::CP_SCRATCH, 5) | 2u << 16, lo, hi});
  w.packet(Opcode::CP_REG_TO_MEM, {cp::regOffset(Reg::RBBM_PERFCTR_LO, 3) | 2u << 16, lo + 8, hi});
  // Relative to CP_SCRATCH[1]:[0].
  w.reg(Reg::CP_SCRATCH, lo + 16, 0);
  w.reg(Reg::CP_SCRATCH, hi, 1);
  w.packet(Opcode::CP_REG_TO_MEM,
           {cp::regOffset(Reg::RBBM_ALWAYSON_COUNTER_LO) | 2u << 16 | 1u << 31, 8, 0});
  EXPECT_FALSE(g.run(w.words()));
  GpuMemory& m = g.device.memory();
  EXPECT_EQ(m.read32(BusClient::Host, out), 0x1234u);
  EXPECT_EQ(m.read32(BusClient::Host, out + 4), 0u);
  EXPECT_EQ(m.read64(BusClient::Host, out + 8), 4u);  // the packets before this one's
  // The GPU clock at the end of a submission that started at 0 and is all setup work.
  const uint64_t clock = m.read64(BusClient::Host, out + 24);
  EXPECT_GT(clock, 0u);
  EXPECT_LE(clock, g.device.clockCycles());

  // A counter read without its HI half, or from the HI half, or with no countable selected.
  auto fault = [&](std::vector<uint32_t> words) {
    const auto f = g.run(words);
    return f ? f->message : std::string();
  };
  EXPECT_NE(
      fault({cp::type7Header(0x3e, 3), cp::regOffset(Reg::RBBM_PERFCTR_LO, 0) | 1u << 16, lo, hi})
          .find("LO, HI"),
      std::string::npos);
  EXPECT_NE(
      fault({cp::type7Header(0x3e, 3), cp::regOffset(Reg::RBBM_PERFCTR_HI, 0) | 2u << 16, lo, hi})
          .find("LO, HI"),
      std::string::npos);
  EXPECT_NE(
      fault({cp::type4Header(cp::regOffset(Reg::RBBM_PERFCTR_SEL, 0), 1), 0xff00,
             cp::type7Header(0x3e, 3), cp::regOffset(Reg::RBBM_PERFCTR_LO, 0) | 2u << 16, lo, hi})
          .find("selects no countable"),
      std::string::npos);
  EXPECT_NE(fault({cp::type7Header(0x3e, 3), 0x7ff | 1u << 16, lo, hi}).find("unknown register"),
            std::string::npos);
}

// CP_MEM_TO_MEM of a clock read waits for the submission's timing; a bad destination faults at
// the packet, and the clock read before it is still written.
TEST(CommandProcessor, MemToMemOfAClockIntoABadAddressFaultsAtThePacket) {
  Gpu g;
  const GpuAddress out = g.device.memory().allocate(16, "out");
  const uint32_t lo = static_cast<uint32_t>(out), hi = static_cast<uint32_t>(out >> 32);
  CommandWriter w;
  w.packet(Opcode::CP_REG_TO_MEM,
           {cp::regOffset(Reg::RBBM_ALWAYSON_COUNTER_LO) | 2u << 16, lo, hi});
  const size_t memToMem = w.size();
  w.packet(Opcode::CP_MEM_TO_MEM, {0, 0x4f, 0, lo, hi, lo + 8, hi});
  const std::vector<uint32_t> words = w.words();
  const GpuAddress at = g.upload(words);
  const auto f = g.device.submit(at, static_cast<uint32_t>(words.size()));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->packetAddress, at + memToMem * 4) << f->describe();
  EXPECT_NE(f->describe().find("0x4f"), std::string::npos) << f->describe();
  EXPECT_GT(g.device.memory().read64(BusClient::Host, out), 0u);
}

TEST(CommandProcessor, FaultsNameThePacket) {
  Gpu g;
  CommandWriter w;
  w.reg(Reg::CP_SCRATCH, 1);
  w.packet(Opcode::CP_NOP, {});
  std::vector<uint32_t> words = w.words();
  words.push_back(cp::type7Header(0xee, 0));  // unknown opcode
  const GpuAddress at = g.upload(words);
  auto f = g.device.submit(at, static_cast<uint32_t>(words.size()));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FaultKind::BadPacket);
  EXPECT_EQ(f->packetAddress, at + 3 * 4);
  EXPECT_NE(f->describe().find("unknown opcode"), std::string::npos);
}

TEST(CommandProcessor, BadStreams) {
  auto fault = [](std::vector<uint32_t> words) {
    Gpu g;
    auto f = g.run(words);
    EXPECT_TRUE(f.has_value());
    return f ? f->kind : FaultKind::BadState;
  };
  EXPECT_EQ(fault({0xdeadbeef}), FaultKind::BadPacket);                    // bad header
  EXPECT_EQ(fault({cp::type4Header(0x7ff, 1), 0}), FaultKind::BadPacket);  // unknown register
  EXPECT_EQ(fault({cp::type7Header(0x10, 5), 0}), FaultKind::BadPacket);   // runs past the end
  EXPECT_EQ(fault({cp::type7Header(0x3f, 3), 0x10, 0, 4}),
            FaultKind::PageFault);                                        // IB outside memory
  EXPECT_EQ(fault({cp::type7Header(0x38, 1), 4}), FaultKind::BadPacket);  // draw too short
  EXPECT_EQ(fault({cp::type7Header(0x65, 1), 9}), FaultKind::BadPacket);  // bad mode
}

TEST(CommandProcessor, IbThatCallsItselfFaultsInsteadOfHanging) {
  Gpu g;
  const GpuAddress ib = g.device.memory().allocate(16, "ib");
  CommandWriter self;
  self.indirectBuffer(ib, 4);
  g.device.memory().write(BusClient::Host, ib, self.words().data(), 16);
  CommandWriter ring;
  ring.indirectBuffer(ib, 4);
  auto f = g.run(ring.words());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FaultKind::IbLoop);
}

TEST(CommandProcessor, DrawWithoutStateFaultsCleanly) {
  Gpu g;
  CommandWriter w;
  w.packet(Opcode::CP_SET_MARKER, {0});
  w.packet(Opcode::CP_DRAW_INDX, {4, 3});
  auto f = g.run(w.words());
  ASSERT_TRUE(f);  // no surface, no shaders: a BadState fault, not a crash
  // A draw of 2^32 - 1 vertices is refused before the model lists them (found by the fuzzer).
  CommandWriter huge;
  huge.packet(Opcode::CP_SET_MARKER, {0});
  huge.packet(Opcode::CP_DRAW_INDX, {4, 0xffffffffu});
  f = g.run(huge.words());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FaultKind::BadState);
  EXPECT_NE(f->message.find("vertices is more than the 16777216"), std::string::npos) << f->message;
}

// Random streams and every truncation of a real frame's stream end in a fault or in success,
// never a crash or hang (run under ASan/UBSan in CI).
TEST(CommandProcessor, RandomAndTruncatedStreamsNeverCrash) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 300; ++i) {
    Gpu g;
    std::vector<uint32_t> words(1 + rng() % 64);
    for (auto& w : words) {
      // Mix valid-looking headers into the noise so that decoding gets past the first dword.
      const uint32_t r = rng();
      w = (r & 3) == 0   ? cp::type4Header(r >> 8 & 0x7ff, 1 + (r >> 20 & 3))
          : (r & 3) == 1 ? cp::type7Header(static_cast<uint8_t>(r >> 8), r >> 16 & 7)
                         : rng();
    }
    g.run(words);
  }
  // A valid stream cut short anywhere.
  CommandWriter w;
  w.reg(Reg::RB_SURFACE_SIZE, cp::packXY(64, 64));
  w.packet(Opcode::CP_SET_MARKER, {0});
  w.packet(Opcode::CP_SET_BIN, {0, 0, cp::packXY(63, 63)});
  w.packet(Opcode::CP_DRAW_INDX, {4, 3});
  std::vector<bool> boundary(w.size() + 1, false);
  for (size_t pos = 0; pos < w.size(); pos += 1 + cp::parseHeader(w.words()[pos])->count)
    boundary[pos] = true;
  for (size_t n = 1; n < w.size(); ++n) {
    Gpu g;
    std::vector<uint32_t> cut(w.words().begin(), w.words().begin() + long(n));
    const auto f = g.run(cut);
    // A cut inside a packet leaves a packet that runs past its buffer.
    if (!boundary[n]) {
      ASSERT_TRUE(f.has_value()) << "cut at " << n;
      EXPECT_EQ(f->kind, FaultKind::BadPacket);
    }
  }
}

TEST(Decoder, NamesRegistersOpcodesAndReportsGarbage) {
  CommandWriter w;
  w.reg(Reg::VSC_PIPE_CONFIG, 0x01020304, 3);
  w.packet(Opcode::CP_SET_MARKER, {2});
  w.packet(Opcode::CP_DRAW_INDX, {4, 36});
  cp::Capture c;
  c.ring = 0x100000;
  c.ringDwords = w.size() + 1;
  auto words = w.words();
  words.push_back(0x12345678);
  c.buffers.push_back({"ring", c.ring, words});
  const std::string text = cp::decodeCapture(c);
  EXPECT_NE(text.find("VSC_PIPE_CONFIG[3] = 0x01020304"), std::string::npos) << text;
  EXPECT_NE(text.find("CP_SET_MARKER"), std::string::npos);
  EXPECT_NE(text.find("gmem"), std::string::npos);
  EXPECT_NE(text.find("triangles auto count=36"), std::string::npos);
  EXPECT_NE(text.find("malformed packet header"), std::string::npos);
}

}  // namespace
}  // namespace tessera::gpu
