#include "gpu/cp/command_processor.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu/cp/command_writer.h"
#include "gpu/cp/packet.h"

namespace tessera::gpu::cp {
namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

[[noreturn]] void fault(FaultKind kind, GpuAddress at, const std::string& what) {
  throw GpuFault(kind, at, BusClient::CommandProcessor, what);
}

// The counter a register belongs to (RBBM_PERFCTR_LO/HI[n] or RBBM_ALWAYSON_COUNTER_LO/HI).
struct CounterRegister {
  uint32_t select;
  bool low;
};

GpuAddress addr64(uint32_t lo, uint32_t hi) {
  return GpuAddress{lo} | (GpuAddress{hi} << 32);
}

std::optional<CounterRegister> counterRegister(const RegisterFile& regs, uint32_t r) {
  const uint32_t alwaysOn = regOffset(Reg::RBBM_ALWAYSON_COUNTER_LO);
  if (r == alwaysOn || r == alwaysOn + 1) return CounterRegister{kAlwaysOnCounter, r == alwaysOn};
  const uint32_t lo = regOffset(Reg::RBBM_PERFCTR_LO), end = regOffset(Reg::RBBM_PERFCTR_LO, 16);
  if (r < lo || r >= end) return std::nullopt;
  return CounterRegister{regs.get(Reg::RBBM_PERFCTR_SEL, (r - lo) / 2), (r - lo) % 2 == 0};
}

}  // namespace

std::string CpFault::describe() const {
  std::string s = "GPU " + std::string(faultKindName(kind)) + " at packet " + hex(packetAddress) +
                  ": " + message;
  if (faultAddress != packetAddress)
    s += " (address " + hex(faultAddress) + ", client " + std::string(busClientName(client)) + ")";
  return s;
}

std::optional<CpFault> CommandProcessor::execute(GpuAddress ring, uint32_t dwords) {
  packetsThisSubmit_ = 0;
  currentPacket_ = ring;
  auto describe = [this](const GpuFault& f) {
    return CpFault{f.kind(), f.packet() ? f.packet() : currentPacket_, f.address(), f.client(),
                   f.what()};
  };
  try {
    runBuffer(ring, dwords, 0);
    backend_.sync();
  } catch (const GpuFault& f) {
    const CpFault own = describe(f);
    // Work the backend accepted before the fault still runs; a fault in it came first.
    try {
      backend_.sync();
    } catch (const GpuFault& earlier) {
      return describe(earlier);
    }
    return own;
  }
  return std::nullopt;
}

void CommandProcessor::runBuffer(GpuAddress addr, uint32_t dwords, int depth) {
  // The CP prefetches the whole buffer; a buffer that is not inside one BO faults here.
  auto bytes = memory_.span(BusClient::CommandProcessor, addr, uint64_t{dwords} * 4);
  memory_.countRead(BusClient::CommandProcessor, bytes.size());
  stats_.dwordsFetched += dwords;
  // Copy: the stream may be rewritten by CP_MEM_WRITE while it executes.
  std::vector<uint32_t> words(dwords);
  if (dwords) std::memcpy(words.data(), bytes.data(), bytes.size());

  uint32_t skip = 0;
  for (uint32_t pos = 0; pos < dwords;) {
    const GpuAddress at = addr + uint64_t{pos} * 4;
    currentPacket_ = at;
    if (++packetsThisSubmit_ > kMaxPacketsPerSubmit)
      fault(
          FaultKind::Runaway, at,
          "runaway command stream: more than " + std::to_string(kMaxPacketsPerSubmit) + " packets");
    auto header = parseHeader(words[pos]);
    if (!header) fault(FaultKind::BadPacket, at, "malformed packet header " + hex(words[pos]));
    const uint32_t count = header->count;
    if (count > dwords - pos - 1)
      fault(FaultKind::BadPacket, at,
            "packet length " + std::to_string(count) + " runs past the end of its buffer (" +
                std::to_string(dwords - pos - 1) + " dwords left)");
    const uint32_t* payload = words.data() + pos + 1;
    pos += 1 + count;
    if (skip > 0) {  // CP_COND_EXEC: skipped packets are parsed (to stay in sync) but not run
      skip = skip > 1 + count ? skip - 1 - count : 0;
      continue;
    }
    ++stats_.packets;
    if (header->type == kType4) {
      for (uint32_t i = 0; i < count; ++i) {
        if (!regs_.write(header->reg + i, payload[i]))
          fault(FaultKind::BadPacket, at, "write to unknown register " + hex(header->reg + i));
      }
      stats_.regWrites += count;
    } else {
      runType7(header->opcode, payload, count, at, depth, skip);
    }
  }
}

void CommandProcessor::runType7(uint8_t opcode, const uint32_t* p, uint32_t count, GpuAddress at,
                                int depth, uint32_t& skip) {
  const OpcodeInfo* info = lookupOpcode(opcode);
  if (!info) fault(FaultKind::BadPacket, at, "unknown opcode " + hex(opcode));
  if (count < info->minPayload || count > info->maxPayload)
    fault(FaultKind::BadPacket, at,
          std::string(info->name) + " with " + std::to_string(count) + " payload dwords (expects " +
              std::to_string(info->minPayload) + ".." + std::to_string(info->maxPayload) + ")");
  switch (static_cast<Opcode>(opcode)) {
    case Opcode::CP_NOP:
    case Opcode::CP_WAIT_FOR_IDLE:
      return;
    case Opcode::CP_INDIRECT_BUFFER: {
      if (depth >= kMaxIbDepth)
        fault(
            FaultKind::IbLoop, at,
            "indirect buffer nested deeper than IB" + std::to_string(kMaxIbDepth) + " (IB loop?)");
      ++stats_.ibs;
      runBuffer(addr64(p[0], p[1]), p[2], depth + 1);
      currentPacket_ = at;
      return;
    }
    case Opcode::CP_SET_MARKER: {
      const uint32_t m = p[0] & 0xf;
      if (m > static_cast<uint32_t>(RenderMode::Gmem))
        fault(FaultKind::BadPacket, at, "CP_SET_MARKER with unknown mode " + std::to_string(m));
      mode_ = static_cast<RenderMode>(m);
      backend_.setMode(mode_, regs_);
      return;
    }
    case Opcode::CP_SET_BIN: {
      const uint32_t x1 = p[1] & 0xffff, y1 = p[1] >> 16, x2 = p[2] & 0xffff, y2 = p[2] >> 16;
      if (x2 < x1 || y2 < y1) fault(FaultKind::BadPacket, at, "CP_SET_BIN with an empty window");
      regs_.set(Reg::GRAS_SC_WINDOW_SCISSOR_TL, p[1]);
      regs_.set(Reg::GRAS_SC_WINDOW_SCISSOR_BR, packXY(x2 + 1, y2 + 1));
      backend_.setBin(regs_);
      return;
    }
    case Opcode::CP_SET_BIN_DATA:
      backend_.setBinData(BinData{addr64(p[0], p[1]), addr64(p[2], p[3])}, regs_);
      return;
    case Opcode::CP_DRAW_INDX: {
      DrawPacket d{};
      const uint32_t prim = p[0] & 0xf, index = (p[0] >> 4) & 0x3;
      if (prim > static_cast<uint32_t>(PrimType::TriangleFan))
        fault(FaultKind::BadPacket, at,
              "CP_DRAW_INDX with unknown primitive type " + std::to_string(prim));
      d.prim = static_cast<PrimType>(prim);
      d.indexType = static_cast<IndexType>(index);
      d.count = p[1];
      if (d.indexType != IndexType::None) {
        if (count != 5) fault(FaultKind::BadPacket, at, "indexed CP_DRAW_INDX needs 5 dwords");
        d.indexAddress = addr64(p[2], p[3]);
        d.indexBytes = p[4];
      }
      ++stats_.draws;
      backend_.draw(d, regs_);
      return;
    }
    case Opcode::CP_EVENT_WRITE: {
      const EventInfo* ev = lookupEvent(p[0] & 0xff);
      if (!ev) fault(FaultKind::BadPacket, at, "unknown event " + hex(p[0] & 0xff));
      ++stats_.events;
      if (static_cast<Event>(ev->value) == Event::CACHE_FLUSH_TS) {
        if (count != 4)
          fault(FaultKind::BadPacket, at, "CACHE_FLUSH_TS needs ADDR_LO, ADDR_HI, VALUE");
        backend_.sync();
        memory_.write32(BusClient::CommandProcessor, addr64(p[1], p[2]), p[3]);
        return;
      }
      backend_.event(static_cast<Event>(ev->value), regs_);
      return;
    }
    case Opcode::CP_MEM_WRITE:
      backend_.sync();
      memory_.write(BusClient::CommandProcessor, addr64(p[0], p[1]), p + 2, (count - 2) * 4);
      return;
    case Opcode::CP_REG_WRITE_ADD: {
      if (!regs_.isValid(p[0]) || !regs_.isValid(p[1]))
        fault(FaultKind::BadPacket, at, "CP_REG_WRITE_ADD names an unknown register");
      regs_.write(p[0], regs_.raw(p[1]) + p[2]);
      return;
    }
    case Opcode::CP_COND_EXEC:
      backend_.sync();
      if (memory_.read32(BusClient::CommandProcessor, addr64(p[0], p[1])) == 0) skip = p[2];
      return;
    case Opcode::CP_COND_MODE_EXEC:
      if (!((p[0] >> static_cast<uint32_t>(mode_)) & 1)) skip = p[1];
      return;
    case Opcode::CP_REG_TO_MEM: {
      backend_.sync();
      const uint32_t first = p[0] & 0xffff, dwords = (p[0] >> 16) & 0xfff;
      // SCRATCH_BASE: relative to the pass's row of a per-bin buffer (seed on Adreno queries).
      const GpuAddress dst =
          (p[0] >> 31) ? addr64(regs_.get(Reg::CP_SCRATCH, 0), regs_.get(Reg::CP_SCRATCH, 1)) + p[1]
                       : addr64(p[1], p[2]);
      for (uint32_t i = 0; i < dwords;) {
        const uint32_t r = first + i;
        if (!regs_.isValid(r))
          fault(FaultKind::BadPacket, at, "CP_REG_TO_MEM reads unknown register " + hex(r));
        const std::optional<CounterRegister> c = counterRegister(regs_, r);
        if (!c) {
          memory_.write32(BusClient::CommandProcessor, dst + 4 * i, regs_.raw(r));
          ++i;
          continue;
        }
        // A counter is a live 64-bit value: its LO, HI pair is read at once.
        if (!c->low || i + 2 > dwords)
          fault(FaultKind::BadPacket, at,
                "CP_REG_TO_MEM must read counter " + registerName(r) + " as a LO, HI pair");
        backend_.counterToMemory(c->select, dst + 4 * i);
        i += 2;
      }
      return;
    }
    case Opcode::CP_MEM_TO_MEM: {
      // 64-bit arithmetic on memory: the GPU-side accumulation of query results.
      const GpuAddress dst = addr64(p[1], p[2]), a = addr64(p[3], p[4]), b = addr64(p[5], p[6]);
      backend_.sync();
      const uint64_t av = memory_.read64(BusClient::CommandProcessor, a);
      const uint64_t bv = memory_.read64(BusClient::CommandProcessor, b);
      const uint64_t base = (p[0] & 1) ? memory_.read64(BusClient::CommandProcessor, dst) : 0;
      // A bad destination faults here, before a deferred write would keep it.
      memory_.span(BusClient::CommandProcessor, dst, 8);
      if (backend_.deferMemToMem(p[0], dst, a, b)) {
        memory_.countWrite(BusClient::CommandProcessor, 8);
        return;
      }
      memory_.write64(BusClient::CommandProcessor, dst, memToMem(p[0], base, av, bv));
      return;
    }
  }
  fault(FaultKind::BadPacket, at, "unhandled opcode " + hex(opcode));
}

}  // namespace tessera::gpu::cp
