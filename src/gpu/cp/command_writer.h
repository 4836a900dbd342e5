// Encoder for command streams: what a driver uses to fill a ring or an IB with packets built from
// the same register and opcode tables the CP decodes.
#pragma once
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "gpu/cp/opcodes.h"
#include "gpu/cp/packet.h"
#include "gpu/cp/registers.h"
#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::cp {

class CommandWriter final {
 public:
  void reg(Reg r, uint32_t value, uint32_t index = 0) {
    words_.push_back(type4Header(regOffset(r, index), 1));
    words_.push_back(value);
  }
  void regFloat(Reg r, float value, uint32_t index = 0) {
    reg(r, std::bit_cast<uint32_t>(value), index);
  }
  // Consecutive registers starting at r[index] (only for registers with stride 1 or arrays).
  void regs(Reg r, std::span<const uint32_t> values, uint32_t index = 0) {
    words_.push_back(type4Header(regOffset(r, index), static_cast<uint32_t>(values.size())));
    words_.insert(words_.end(), values.begin(), values.end());
  }
  void address(Reg lo, Reg hi, GpuAddress a, uint32_t index = 0) {
    reg(lo, static_cast<uint32_t>(a), index);
    reg(hi, static_cast<uint32_t>(a >> 32), index);
  }
  void packet(Opcode op, std::initializer_list<uint32_t> payload) {
    words_.push_back(type7Header(static_cast<uint8_t>(op), static_cast<uint32_t>(payload.size())));
    words_.insert(words_.end(), payload.begin(), payload.end());
  }
  void event(Event e) { packet(Opcode::CP_EVENT_WRITE, {static_cast<uint32_t>(e)}); }
  void indirectBuffer(GpuAddress addr, uint32_t dwords) {
    packet(Opcode::CP_INDIRECT_BUFFER,
           {static_cast<uint32_t>(addr), static_cast<uint32_t>(addr >> 32), dwords});
  }

  const std::vector<uint32_t>& words() const { return words_; }
  uint32_t size() const { return static_cast<uint32_t>(words_.size()); }
  bool empty() const { return words_.empty(); }
  void clear() { words_.clear(); }
  void append(const CommandWriter& other) {
    words_.insert(words_.end(), other.words_.begin(), other.words_.end());
  }

 private:
  std::vector<uint32_t> words_;
};

constexpr uint32_t packXY(uint32_t x, uint32_t y) {
  return (x & 0xffff) | (y << 16);
}

}  // namespace tessera::gpu::cp
