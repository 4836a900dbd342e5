// Helpers for the kernel-mode layer's tests: a GPU model under a kmd::Device, and hand-built IBs
// (CommandWriter) whose effects on memory say exactly which commands ran and how often.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include "gpu/cp/command_writer.h"
#include "gpu/device.h"
#include "kmd/device.h"

namespace tessera::kmd::test {

using gpu::GpuAddress;
using gpu::cp::CommandWriter;
using gpu::cp::Opcode;
using namespace std::chrono_literals;

// A model clock: recovery's fault window sees only what the test advances.
struct ModelClock {
  std::shared_ptr<std::atomic<int64_t>> ms = std::make_shared<std::atomic<int64_t>>(0);
  Clock clock() const {
    auto t = ms;
    return [t] { return TimePoint(std::chrono::milliseconds(t->load())); };
  }
  void advance(std::chrono::milliseconds d) { *ms += d.count(); }
};

inline uint32_t lo(GpuAddress a) {
  return static_cast<uint32_t>(a);
}
inline uint32_t hi(GpuAddress a) {
  return static_cast<uint32_t>(a >> 32);
}

// The CP writes `value` at `at`.
inline void memWrite(CommandWriter& w, GpuAddress at, uint32_t value) {
  w.packet(Opcode::CP_MEM_WRITE, {lo(at), hi(at), value});
}
// 64-bit *dst += *a (b must hold 0): counts executions exactly.
inline void accumulate(CommandWriter& w, GpuAddress dst, GpuAddress a, GpuAddress zero) {
  w.packet(Opcode::CP_MEM_TO_MEM, {1, lo(dst), hi(dst), lo(a), hi(a), lo(zero), hi(zero)});
}
// 64-bit *dst = *a: copies a counter.
inline void copy64(CommandWriter& w, GpuAddress dst, GpuAddress a, GpuAddress zero) {
  w.packet(Opcode::CP_MEM_TO_MEM, {0, lo(dst), hi(dst), lo(a), hi(a), lo(zero), hi(zero)});
}

class KmdTest : public ::testing::Test {
 protected:
  void start(DeviceOptions options = {}) {
    if (options.snapshotFolder.empty()) options.snapshotFolder = folder().string();
    kmd_ = std::make_unique<Device>(gpu_, std::move(options));
    auto lock = kmd_->lockMemory();
    zero_ = gpu_.memory().allocate(8, "zero");
    one_ = gpu_.memory().allocate(8, "one");
    gpu_.memory().write64(gpu::BusClient::Host, one_, 1);
    counter_ = gpu_.memory().allocate(8, "sequence counter");
  }
  void TearDown() override {
    kmd_.reset();
    if (!folder_.empty()) std::filesystem::remove_all(folder_);
  }

  // A folder of this test and process for snapshots (CTest runs cases side by side).
  const std::filesystem::path& folder() {
    if (folder_.empty())
      folder_ = std::filesystem::temp_directory_path() /
                ("tessera-kmd-" + std::to_string(getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    return folder_;
  }

  GpuAddress allocate(size_t bytes, const char* name = "buffer") {
    auto lock = kmd_->lockMemory();
    return gpu_.memory().allocate(bytes, name);
  }
  GpuAddress upload(const std::vector<uint32_t>& words) {
    auto lock = kmd_->lockMemory();
    const GpuAddress a = gpu_.memory().allocate(words.size() * 4 + 4, "ib");
    gpu_.memory().write(gpu::BusClient::Host, a, words.data(), words.size() * 4);
    return a;
  }
  IbRef ib(const CommandWriter& w) { return {upload(w.words()), w.size()}; }
  uint32_t read32(GpuAddress a) {
    auto lock = kmd_->lockMemory();
    return gpu_.memory().read32(gpu::BusClient::Host, a);
  }
  uint64_t read64(GpuAddress a) {
    auto lock = kmd_->lockMemory();
    return gpu_.memory().read64(gpu::BusClient::Host, a);
  }
  GpuAddress constant64(uint64_t v) {
    const GpuAddress a = allocate(8, "constant");
    auto lock = kmd_->lockMemory();
    gpu_.memory().write64(gpu::BusClient::Host, a, v);
    return a;
  }

  // One draw object: writes `value` at `at`.
  DrawObject writeObject(GpuAddress at, uint32_t value, DrawFlags flags = DrawFlags::None) {
    CommandWriter w;
    memWrite(w, at, value);
    DrawObject o;
    o.ibs.push_back(ib(w));
    o.flags = flags;
    return o;
  }
  // One draw object: records the device-wide execution order at `slot` (64-bit) and bumps the
  // counter.
  DrawObject sequenceObject(GpuAddress slot) {
    CommandWriter w;
    copy64(w, slot, counter_, zero_);
    accumulate(w, counter_, one_, zero_);
    DrawObject o;
    o.ibs.push_back(ib(w));
    return o;
  }

  // Bad IBs.
  IbRef selfCallingIb() {  // calls itself: the CP's IB nesting limit ends it (a hang)
    const GpuAddress a = allocate(16, "self-calling ib");
    CommandWriter w;
    w.indirectBuffer(a, 4);
    auto lock = kmd_->lockMemory();
    gpu_.memory().write(gpu::BusClient::Host, a, w.words().data(), 16);
    return {a, 4};
  }
  static IbRef outsideMemoryIb() { return {0xdead00000000ull, 64}; }
  IbRef randomPacketsIb(uint32_t seed) {  // noise with valid-looking headers, then a bad opcode
    std::mt19937 rng(seed);
    std::vector<uint32_t> words(8 + rng() % 48);
    for (auto& w : words) {
      const uint32_t r = rng();
      w = (r & 3) == 0   ? gpu::cp::type4Header(r >> 8 & 0x7ff, 1 + (r >> 20 & 3))
          : (r & 3) == 1 ? gpu::cp::type7Header(static_cast<uint8_t>(r >> 8), r >> 16 & 7)
                         : rng();
    }
    words.push_back(gpu::cp::type7Header(0xee, 0));
    return {upload(words), static_cast<uint32_t>(words.size())};
  }
  static DrawObject objectOf(IbRef ref, DrawFlags flags = DrawFlags::None) {
    DrawObject o;
    o.ibs.push_back(ref);
    o.flags = flags;
    return o;
  }

  gpu::Device gpu_{gpu::findPreset("adreno-a630")};
  std::unique_ptr<Device> kmd_;
  GpuAddress zero_ = 0, one_ = 0, counter_ = 0;
  std::filesystem::path folder_;
};

}  // namespace tessera::kmd::test
