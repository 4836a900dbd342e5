// The command processor: fetches the ring and up to two levels of indirect buffers from GPU
// memory, decodes PM4-like packets, keeps the register file and hands draws, bin setup and events
// to the rest of the GPU through the narrow CpBackend interface. Any malformed stream ends in a
// CpFault naming the packet's address; the process never crashes (DESIGN.md "Command stream").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/cp/opcodes.h"
#include "gpu/cp/register_file.h"
#include "gpu/mem/gpu_memory.h"

namespace tessera::gpu::cp {

struct DrawPacket {
  PrimType prim;
  IndexType indexType;
  uint32_t count;           // vertices (or indices) in the draw
  GpuAddress indexAddress;  // 0 for non-indexed draws
  uint32_t indexBytes;      // size of the index buffer the draw may read
};

struct BinData {
  GpuAddress stream;  // visibility stream of the bin's pipe
  GpuAddress size;    // where the binning pass wrote that stream's size
};

// What the CP drives. Implemented by the GPU's pipeline; tests may implement it directly.
class CpBackend {
 public:
  virtual ~CpBackend() = default;
  virtual void setMode(RenderMode mode, const RegisterFile& regs) = 0;
  virtual void setBin(const RegisterFile& regs) = 0;
  virtual void setBinData(const BinData& data, const RegisterFile& regs) = 0;
  virtual void draw(const DrawPacket& draw, const RegisterFile& regs) = 0;
  virtual void event(Event e, const RegisterFile& regs) = 0;
  // CP_REG_TO_MEM of a counter: write the 64-bit value of countable `select` (RBBM_PERFCTR_SEL
  // encoding, or kAlwaysOnCounter for the GPU clock) to `dst`.
  virtual void counterToMemory(uint32_t select, GpuAddress dst) = 0;
  // CP_MEM_TO_MEM whose operands a counterToMemory has yet to write: true if the backend
  // performs it later, in order, once they are written.
  virtual bool deferMemToMem(uint32_t flags, GpuAddress dst, GpuAddress a, GpuAddress b) = 0;
  // Before the CP touches memory itself (CP_MEM_WRITE, CP_COND_EXEC, CP_REG_TO_MEM,
  // CP_MEM_TO_MEM, CACHE_FLUSH_TS) and when it stops: work the backend has accepted but not yet
  // run (the bins of a render pass, gpu/pipeline/bin_jobs.h) must be done, in order. A fault in
  // that work is thrown from here.
  virtual void sync() {}
};

// CP_MEM_TO_MEM's 64-bit result: (ACCUMULATE ? dst : 0) + a + (NEG_B ? -b : b). The CP and a
// backend that defers the packet (CpBackend::deferMemToMem) both compute it here.
constexpr uint64_t memToMem(uint32_t flags, uint64_t dst, uint64_t a, uint64_t b) {
  return ((flags & 1) ? dst : 0) + a + ((flags & 2) ? 0 - b : b);
}

// The select of RBBM_ALWAYSON_COUNTER for CpBackend::counterToMemory.
inline constexpr uint32_t kAlwaysOnCounter = 0xffffffffu;

struct CpFault {
  FaultKind kind;
  GpuAddress packetAddress;  // the packet that was executing
  GpuAddress faultAddress;   // the memory address at fault (page faults), else the packet
  BusClient client;
  std::string message;
  std::string describe() const;
};

struct CpStats {
  uint64_t packets = 0;    // packets executed
  uint64_t regWrites = 0;  // registers written by type-4 packets
  uint64_t draws = 0;      // CP_DRAW_INDX executed
  uint64_t events = 0;     // CP_EVENT_WRITE executed
  uint64_t ibs = 0;        // indirect buffers entered
  uint64_t dwordsFetched = 0;
};

class CommandProcessor final {
 public:
  static constexpr int kMaxIbDepth = 2;                       // IB1 and IB2, as Adreno
  static constexpr uint64_t kMaxPacketsPerSubmit = 1u << 26;  // runaway-stream budget

  CommandProcessor(GpuMemory& memory, CpBackend& backend) : memory_(memory), backend_(backend) {}

  // Executes `dwords` dwords of ring at `ring`. Returns the fault that stopped it, if any.
  std::optional<CpFault> execute(GpuAddress ring, uint32_t dwords);

  RegisterFile& registers() { return regs_; }
  const CpStats& stats() const { return stats_; }
  void resetStats() { stats_ = {}; }
  RenderMode mode() const { return mode_; }
  // The packet executing now (the backend records it with work it runs later).
  GpuAddress currentPacket() const { return currentPacket_; }

 private:
  void runBuffer(GpuAddress addr, uint32_t dwords, int depth);
  void runType7(uint8_t opcode, const uint32_t* payload, uint32_t count, GpuAddress at, int depth,
                uint32_t& skip);

  GpuMemory& memory_;
  CpBackend& backend_;
  RegisterFile regs_;
  CpStats stats_;
  RenderMode mode_ = RenderMode::Sysmem;
  uint64_t packetsThisSubmit_ = 0;
  GpuAddress currentPacket_ = 0;
};

}  // namespace tessera::gpu::cp
