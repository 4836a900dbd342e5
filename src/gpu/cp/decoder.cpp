#include "gpu/cp/decoder.h"

#include <bit>
#include <cstdio>
#include <sstream>

#include "gpu/cp/opcodes.h"
#include "gpu/cp/packet.h"
#include "gpu/cp/registers.h"

namespace tessera::gpu::cp {
namespace {

std::string fmt(const char* f, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

bool looksFloat(std::string_view desc) {
  return desc.find("(fp32)") != std::string_view::npos;
}

class Decoder {
 public:
  explicit Decoder(const Capture& c) : c_(c) {}

  void buffer(GpuAddress addr, uint32_t dwords, int depth) {
    const uint32_t* w = c_.find(addr, dwords);
    const std::string ind(depth * 4, ' ');
    if (!w) {
      out_ << ind
           << fmt("!! buffer 0x%llx (+%u dwords) was not captured\n", (unsigned long long)addr,
                  dwords);
      return;
    }
    for (uint32_t pos = 0; pos < dwords;) {
      const GpuAddress at = addr + uint64_t{pos} * 4;
      auto h = parseHeader(w[pos]);
      if (!h) {
        out_ << ind
             << fmt("%010llx: !! malformed packet header 0x%08x, decode stops\n",
                    (unsigned long long)at, w[pos]);
        return;
      }
      if (h->count > dwords - pos - 1) {
        out_ << ind
             << fmt("%010llx: !! packet of %u dwords runs past the buffer end\n",
                    (unsigned long long)at, h->count);
        return;
      }
      const uint32_t* p = w + pos + 1;
      if (h->type == kType4) {
        for (uint32_t i = 0; i < h->count; ++i) {
          const uint32_t off = h->reg + i;
          auto ref = lookupRegister(off);
          std::string val = fmt("0x%08x", p[i]);
          if (ref && looksFloat(ref->info->description))
            val += fmt(" (%g)", static_cast<double>(std::bit_cast<float>(p[i])));
          out_ << ind << fmt("%010llx: ", (unsigned long long)(at + 4 + i * 4)) << registerName(off)
               << " = " << val << (ref ? "" : "   !! unknown register") << "\n";
        }
      } else {
        type7(h->opcode, p, h->count, at, depth, ind);
      }
      pos += 1 + h->count;
    }
  }

  std::string text() const { return out_.str(); }

 private:
  void type7(uint8_t opcode, const uint32_t* p, uint32_t n, GpuAddress at, int depth,
             const std::string& ind) {
    const OpcodeInfo* info = lookupOpcode(opcode);
    out_ << ind << fmt("%010llx: ", (unsigned long long)at);
    if (!info) {
      out_ << fmt("!! unknown opcode 0x%02x (%u dwords)\n", opcode, n);
      return;
    }
    out_ << info->name;
    for (uint32_t i = 0; i < n && i < 16; ++i) out_ << fmt(" %08x", p[i]);
    if (n > 16) out_ << fmt(" ... (%u dwords)", n);
    if (static_cast<Opcode>(opcode) == Opcode::CP_EVENT_WRITE && n >= 1) {
      const EventInfo* ev = lookupEvent(p[0] & 0xff);
      out_ << "   ; " << (ev ? ev->name : "!! unknown event");
    } else if (static_cast<Opcode>(opcode) == Opcode::CP_SET_MARKER && n == 1) {
      static constexpr const char* kModes[] = {"sysmem", "binning", "gmem"};
      out_ << "   ; " << ((p[0] & 0xf) < 3 ? kModes[p[0] & 0xf] : "!! bad mode");
    } else if (static_cast<Opcode>(opcode) == Opcode::CP_SET_BIN && n == 3) {
      out_ << fmt("   ; bin (%u,%u)-(%u,%u)", p[1] & 0xffff, p[1] >> 16, p[2] & 0xffff, p[2] >> 16);
    } else if (static_cast<Opcode>(opcode) == Opcode::CP_DRAW_INDX && n >= 2) {
      static constexpr const char* kPrims[] = {"points",    "lines",     "line_strip", "line_loop",
                                               "triangles", "tri_strip", "tri_fan"};
      static constexpr const char* kIdx[] = {"auto", "u8", "u16", "u32"};
      const uint32_t prim = p[0] & 0xf;
      out_ << "   ; " << (prim < 7 ? kPrims[prim] : "!! bad prim") << " " << kIdx[(p[0] >> 4) & 3]
           << " count=" << p[1];
    }
    out_ << "\n";
    if (static_cast<Opcode>(opcode) == Opcode::CP_INDIRECT_BUFFER && n == 3) {
      if (depth >= 2) {
        out_ << ind << "    !! IB nesting deeper than 2, not followed\n";
        return;
      }
      buffer(GpuAddress{p[0]} | (GpuAddress{p[1]} << 32), p[2], depth + 1);
    }
  }

  const Capture& c_;
  std::ostringstream out_;
};

}  // namespace

std::string decodeCapture(const Capture& capture) {
  Decoder d(capture);
  d.buffer(capture.ring, capture.ringDwords, 0);
  return d.text();
}

}  // namespace tessera::gpu::cp
