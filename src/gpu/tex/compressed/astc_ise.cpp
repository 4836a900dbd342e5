#include "gpu/tex/compressed/astc_ise.h"

namespace tessera::gpu::tex::astc {
namespace {

uint32_t bit(uint32_t v, uint32_t i) {
  return v >> i & 1;
}

// The five trits packed in an 8-bit T (the specification's trit decoding).
void unpackTrits(uint32_t t, uint32_t out[5]) {
  uint32_t c;
  if ((t >> 2 & 7) == 7) {
    c = (t >> 5 & 7) << 2 | (t & 3);
    out[4] = out[3] = 2;
  } else {
    c = t & 31;
    if ((t >> 5 & 3) == 3) {
      out[4] = 2;
      out[3] = bit(t, 7);
    } else {
      out[4] = bit(t, 7);
      out[3] = t >> 5 & 3;
    }
  }
  if ((c & 3) == 3) {
    out[2] = 2;
    out[1] = bit(c, 4);
    out[0] = bit(c, 3) << 1 | (bit(c, 2) & ~bit(c, 3) & 1);
  } else if ((c >> 2 & 3) == 3) {
    out[2] = out[1] = 2;
    out[0] = c & 3;
  } else {
    out[2] = bit(c, 4);
    out[1] = c >> 2 & 3;
    out[0] = bit(c, 1) << 1 | (bit(c, 0) & ~bit(c, 1) & 1);
  }
}

// The three quints packed in a 7-bit Q.
void unpackQuints(uint32_t q, uint32_t out[3]) {
  if ((q >> 1 & 3) == 3 && (q >> 5 & 3) == 0) {
    out[2] = bit(q, 0) << 2 | (bit(q, 4) & ~bit(q, 0) & 1) << 1 | (bit(q, 3) & ~bit(q, 0) & 1);
    out[1] = out[0] = 4;
    return;
  }
  uint32_t c;
  if ((q >> 1 & 3) == 3) {
    out[2] = 4;
    c = (q >> 3 & 3) << 3 | (~q >> 5 & 3) << 1 | bit(q, 0);
  } else {
    out[2] = q >> 5 & 3;
    c = q & 31;
  }
  if ((c & 7) == 5) {
    out[1] = 4;
    out[0] = c >> 3 & 3;
  } else {
    out[1] = c >> 3 & 3;
    out[0] = c & 7;
  }
}

}  // namespace

void decodeIse(const BitSource& src, uint32_t start, uint32_t count, uint32_t range, uint8_t* out) {
  const IseRange& r = kIseRanges[range];
  const uint32_t n = r.bits;
  uint32_t pos = start;
  if (r.trits) {
    // Per 5 values: m0 T[1:0] m1 T[3:2] m2 T[4] m3 T[6:5] m4 T[7].
    constexpr uint32_t kTBits[5] = {2, 2, 1, 2, 1};
    for (uint32_t i = 0; i < count; i += 5) {
      uint32_t m[5], t = 0, tShift = 0;
      for (uint32_t k = 0; k < 5; ++k) {
        m[k] = src.read(pos, n), pos += n;
        t |= src.read(pos, kTBits[k]) << tShift, pos += kTBits[k], tShift += kTBits[k];
      }
      uint32_t trits[5];
      unpackTrits(t, trits);
      for (uint32_t k = 0; k < 5 && i + k < count; ++k)
        out[i + k] = static_cast<uint8_t>(trits[k] << n | m[k]);
    }
  } else if (r.quints) {
    // Per 3 values: m0 Q[2:0] m1 Q[4:3] m2 Q[6:5].
    constexpr uint32_t kQBits[3] = {3, 2, 2};
    for (uint32_t i = 0; i < count; i += 3) {
      uint32_t m[3], q = 0, qShift = 0;
      for (uint32_t k = 0; k < 3; ++k) {
        m[k] = src.read(pos, n), pos += n;
        q |= src.read(pos, kQBits[k]) << qShift, pos += kQBits[k], qShift += kQBits[k];
      }
      uint32_t quints[3];
      unpackQuints(q, quints);
      for (uint32_t k = 0; k < 3 && i + k < count; ++k)
        out[i + k] = static_cast<uint8_t>(quints[k] << n | m[k]);
    }
  } else {
    for (uint32_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(src.read(pos, n)), pos += n;
  }
}

namespace {

// Replicates the low `from` bits of v to fill `to` bits.
uint32_t replicate(uint32_t v, uint32_t from, uint32_t to) {
  if (from == 0) return 0;
  uint32_t out = 0;
  int32_t shift = static_cast<int32_t>(to) - static_cast<int32_t>(from);
  for (; shift > -static_cast<int32_t>(from); shift -= static_cast<int32_t>(from))
    out |= shift >= 0 ? v << shift : v >> -shift;
  return out & ((1u << to) - 1u);
}

// B of the trit/quint unquantization: the value's bits above bit 0 laid out per the
// specification's tables, written as strings of the bit letters (a is bit 0, '0' a zero).
uint32_t layout(const char* pattern, uint32_t m) {
  uint32_t v = 0;
  for (const char* p = pattern; *p; ++p)
    v = v << 1 | (*p == '0' ? 0 : bit(m, static_cast<uint32_t>(*p - 'a')));
  return v;
}

struct Unquant {
  const char* b;
  uint32_t c;
};

// Colour endpoints (9-bit B): ranges 4 (6 levels) .. 19 (192 levels) that have trits or quints.
Unquant colorUnquant(uint32_t range) {
  switch (range) {
    case 4:
      return {"000000000", 204};
    case 6:
      return {"000000000", 113};
    case 7:
      return {"b000b0bb0", 93};
    case 9:
      return {"b0000bb00", 54};
    case 10:
      return {"cb000cbcb", 44};
    case 12:
      return {"cb0000cbc", 26};
    case 13:
      return {"dcb000dcb", 22};
    case 15:
      return {"dcb0000dc", 13};
    case 16:
      return {"edcb000ed", 11};
    case 18:
      return {"edcb0000e", 6};
    default:
      return {"fedcb000f", 5};  // 19
  }
}
// Weights (7-bit B): ranges 4, 6, 7, 9, 10.
Unquant weightUnquant(uint32_t range) {
  switch (range) {
    case 4:
      return {"0000000", 50};
    case 6:
      return {"0000000", 28};
    case 7:
      return {"b000b0b", 23};
    case 9:
      return {"b0000b0", 13};
    default:
      return {"cb000cb", 11};  // 10
  }
}

}  // namespace

uint8_t unquantizeColor(uint32_t value, uint32_t range) {
  const IseRange& r = kIseRanges[range];
  if (!r.trits && !r.quints) return static_cast<uint8_t>(replicate(value, r.bits, 8));
  const uint32_t m = value & ((1u << r.bits) - 1u), d = value >> r.bits;
  const Unquant u = colorUnquant(range);
  const uint32_t a = (m & 1) ? 0x1ff : 0;
  uint32_t t = d * u.c + layout(u.b, m);
  t ^= a;
  return static_cast<uint8_t>((a & 0x80) | (t >> 2));
}

uint8_t unquantizeWeight(uint32_t value, uint32_t range) {
  const IseRange& r = kIseRanges[range];
  uint32_t t;
  if (!r.trits && !r.quints) {
    t = replicate(value, r.bits, 6);
  } else if (r.bits == 0) {
    // Plain trits and quints spread evenly over 0..63.
    t = r.trits ? (value == 0   ? 0
                   : value == 1 ? 32
                                : 63)
                : (value == 0   ? 0
                   : value == 1 ? 16
                   : value == 2 ? 32
                   : value == 3 ? 47
                                : 63);
  } else {
    const uint32_t m = value & ((1u << r.bits) - 1u), d = value >> r.bits;
    const Unquant u = weightUnquant(range);
    const uint32_t a = (m & 1) ? 0x7f : 0;
    t = d * u.c + layout(u.b, m);
    t ^= a;
    t = (a & 0x20) | (t >> 2);
  }
  return static_cast<uint8_t>(t > 32 ? t + 1 : t);
}

}  // namespace tessera::gpu::tex::astc
