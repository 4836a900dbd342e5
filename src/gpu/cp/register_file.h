// The CP's register file: plain dwords, written by type-4 packets and CP_REG_WRITE_ADD and read
// by the blocks when a draw or event starts. A write to an offset that names no register faults
// (the stream is corrupt), so a decoder can always print a name.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "gpu/cp/registers.h"
#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::cp {

class RegisterFile final {
 public:
  uint32_t get(Reg r, uint32_t index = 0) const { return regs_[regOffset(r, index)]; }
  float getFloat(Reg r, uint32_t index = 0) const { return std::bit_cast<float>(get(r, index)); }
  GpuAddress getAddress(Reg lo, Reg hi, uint32_t index = 0) const {
    return GpuAddress{get(lo, index)} | (GpuAddress{get(hi, index)} << 32);
  }
  uint32_t raw(uint32_t offset) const { return regs_[offset]; }
  void set(Reg r, uint32_t value, uint32_t index = 0) {
    regs_[regOffset(r, index)] = value;
    ++generation_;
  }
  // Writes by offset, as a type-4 packet does; false if the offset names no register.
  bool write(uint32_t offset, uint32_t value) {
    if (offset >= kRegisterFileSize || !valid_[offset]) return false;
    regs_[offset] = value;
    ++generation_;
    return true;
  }
  bool isValid(uint32_t offset) const { return offset < kRegisterFileSize && valid_[offset]; }
  // Bumped on every write: blocks cache state decoded from registers until it changes.
  uint64_t generation() const { return generation_; }
  void reset() {
    regs_.fill(0);
    ++generation_;
  }

  RegisterFile();

 private:
  std::array<uint32_t, kRegisterFileSize> regs_{};
  std::array<bool, kRegisterFileSize> valid_{};
  uint64_t generation_ = 1;
};

}  // namespace tessera::gpu::cp
