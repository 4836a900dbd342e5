#include "kmd/snapshot.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "gpu/cp/decoder.h"
#include "gpu/cp/opcodes.h"
#include "gpu/cp/packet.h"

namespace tessera::kmd {

using gpu::GpuAddress;

namespace {

// Larger buffers are left out: a snapshot is for reading, and a bogus IB size must not make the
// kernel copy gigabytes.
constexpr uint32_t kMaxCapturedDwords = 1u << 20;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

class CaptureBuilder {
 public:
  explicit CaptureBuilder(gpu::GpuMemory& memory) : memory_(memory) {}

  // Copies [addr, addr + dwords) if it lies in one buffer object; false if it does not.
  bool add(const std::string& name, GpuAddress addr, uint32_t dwords, bool followIbs) {
    if (dwords == 0 || dwords > kMaxCapturedDwords || !seen_.insert({addr, dwords}).second)
      return false;
    std::vector<uint32_t> words(dwords);
    try {
      // A debugging read: not charged to the bus, like the decoder's own view of a capture.
      auto bytes = memory_.span(gpu::BusClient::Host, addr, uint64_t{dwords} * 4);
      std::memcpy(words.data(), bytes.data(), bytes.size());
    } catch (const gpu::GpuFault&) {
      return false;
    }
    if (followIbs) addNestedIbs(name, words);
    capture_.buffers.push_back({name, addr, std::move(words)});
    return true;
  }

  gpu::cp::Capture take() { return std::move(capture_); }

 private:
  // IB2s called from an IB1, found by walking its packets as the CP does.
  void addNestedIbs(const std::string& name, const std::vector<uint32_t>& words) {
    for (size_t pos = 0; pos < words.size();) {
      auto h = gpu::cp::parseHeader(words[pos]);
      if (!h || h->count > words.size() - pos - 1) return;
      if (h->type == gpu::cp::kType7 &&
          h->opcode == static_cast<uint8_t>(gpu::cp::Opcode::CP_INDIRECT_BUFFER) && h->count == 3) {
        const GpuAddress ib = GpuAddress{words[pos + 1]} | (GpuAddress{words[pos + 2]} << 32);
        add(name + " IB2", ib, words[pos + 3], false);
      }
      pos += 1 + h->count;
    }
  }

  gpu::GpuMemory& memory_;
  gpu::cp::Capture capture_;
  std::set<std::pair<GpuAddress, uint32_t>> seen_;
};

// The address a decoder line starts with ("    0000123450: ..."), or nothing.
std::optional<GpuAddress> lineAddress(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos) return std::nullopt;
  const size_t colon = line.find(": ", i);
  if (colon == std::string::npos || colon == i || colon - i > 16) return std::nullopt;
  GpuAddress a = 0;
  for (; i < colon; ++i) {
    const char c = line[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return std::nullopt;
    a = a << 4 | static_cast<GpuAddress>(d);
  }
  return a;
}

}  // namespace

gpu::cp::Capture captureAroundFault(gpu::GpuMemory& memory,
                                    std::span<const SnapshotCommand> commands) {
  CaptureBuilder b(memory);
  if (commands.empty()) return b.take();
  const GpuAddress start = commands.front().segment.address;
  const uint32_t dwords = static_cast<uint32_t>((commands.back().segment.end() - start) / 4);
  b.add("ring", start, dwords, false);
  for (const SnapshotCommand& c : commands)
    for (size_t i = 0; i < c.ibs.size(); ++i)
      b.add("ctx " + std::to_string(c.context) + " ts " + std::to_string(c.timestamp) + " IB " +
                std::to_string(i),
            c.ibs[i].address, c.ibs[i].dwords, true);
  gpu::cp::Capture capture = b.take();
  capture.ring = start;
  capture.ringDwords = dwords;
  return capture;
}

std::string markFaultingPacket(const std::string& listing, GpuAddress packet,
                               const std::string& what) {
  // A type-4 packet is listed by its register lines (header + 4 onwards).
  for (const GpuAddress at : {packet, packet + 4}) {
    std::istringstream in(listing);
    std::string out, line;
    bool marked = false;
    while (std::getline(in, line)) {
      if (lineAddress(line) == at) {
        line += "   <== fault: " + what;
        marked = true;
      }
      out += line + "\n";
    }
    if (marked) return out;
  }
  return listing + "!! the faulting packet " + hex(packet) + " is not in the captured buffers\n";
}

std::string faultSnapshotText(gpu::GpuMemory& memory, const SnapshotInput& in) {
  const FaultRecord& r = *in.record;
  std::ostringstream s;
  s << "Tessera GPU fault snapshot " << r.sequence << "\n";
  s << "context:   " << r.context << " \"" << r.contextName << "\" on ringbuffer " << r.ring
    << "\n";
  s << "command:   timestamp " << r.timestamp << ", IB "
    << (r.ibIndex >= 0 ? std::to_string(r.ibIndex) : std::string("none")) << "\n";
  s << "fault:     " << r.fault.describe() << "\n";
  s << "kind:      " << gpu::faultKindName(r.fault.kind) << (r.hang ? " (hang)" : "") << "\n";
  s << "recovery:  " << recoveryActionName(r.action)
    << (r.replayAllowed ? "" : " (replay disabled by the fault rate)") << "\n";
  s << "memstore:  ring sop " << in.ringSlot.sop << " eop " << in.ringSlot.eop << " context "
    << in.ringSlot.currentContext << " ib "
    << (in.ringSlot.currentIb == kNoIb ? std::string("none")
                                       : std::to_string(in.ringSlot.currentIb))
    << "; context sop " << in.contextSlot.sop << " eop " << in.contextSlot.eop << "\n";
  s << "commands in the listing:";
  for (const SnapshotCommand& c : in.commands)
    s << " ctx " << c.context << " ts " << c.timestamp << " at " << hex(c.segment.address) << ";";
  s << "\n\n";
  const gpu::cp::Capture capture = captureAroundFault(memory, in.commands);
  s << markFaultingPacket(gpu::cp::decodeCapture(capture), r.fault.packetAddress,
                          r.fault.describe());
  return s.str();
}

std::string writeFaultSnapshot(gpu::GpuMemory& memory, const std::string& folder,
                               const SnapshotInput& in) {
  try {
    std::filesystem::create_directories(folder);
    const std::filesystem::path path =
        std::filesystem::path(folder) / ("fault-" + std::to_string(in.record->sequence) + "-ctx" +
                                         std::to_string(in.record->context) + ".txt");
    std::ofstream out(path);
    out << faultSnapshotText(memory, in);
    out.close();
    return out ? path.string() : std::string();
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace tessera::kmd
