// Type-7 opcodes and CP events: the one table the encoder, the CP's dispatch and `tessera dump`
// share (docs/command-stream.md). Payload layouts are given per opcode.
#pragma once
#include <cstdint>
#include <string_view>

namespace tessera::gpu::cp {

// X(name, value, minimum payload dwords, maximum payload dwords, payload description)
#define TESSERA_OPCODES(X)                                                                       \
  X(CP_NOP, 0x10, 0, 0xffff, "any payload, ignored (padding, markers for tools)")                \
  X(CP_INDIRECT_BUFFER, 0x3f, 3, 3, "ADDR_LO, ADDR_HI, SIZE (dwords): execute an IB (2 levels)") \
  X(CP_SET_MARKER, 0x65, 1, 1, "MODE[3:0]: 0 sysmem (bypass), 1 binning pass, 2 GMEM render")    \
  X(CP_SET_BIN, 0x4c, 3, 3, "0, X1[15:0] Y1[31:16], X2 Y2 (inclusive): bin window + scissor")    \
  X(CP_SET_BIN_DATA, 0x2f, 4, 4,                                                                 \
    "STREAM_LO, STREAM_HI, SIZE_LO, SIZE_HI: visibility stream of this bin's pipe")              \
  X(CP_DRAW_INDX, 0x38, 2, 5,                                                                    \
    "PRIM[3:0] INDEX[5:4] (0 none, 1 u8, 2 u16, 3 u32), COUNT, [INDEX_LO, INDEX_HI, "            \
    "INDEX_BYTES]")                                                                              \
  X(CP_EVENT_WRITE, 0x46, 1, 4, "EVENT[7:0], [ADDR_LO, ADDR_HI, VALUE] for timestamp events")    \
  X(CP_MEM_WRITE, 0x3d, 3, 0xffff, "ADDR_LO, ADDR_HI, VALUE...: CP writes dwords to memory")     \
  X(CP_REG_WRITE_ADD, 0x44, 3, 3,                                                                \
    "DST_REG, SRC_REG, IMM: DST = SRC + IMM (per-bin query bases, seed 002)")                    \
  X(CP_COND_EXEC, 0x84, 3, 3,                                                                    \
    "ADDR_LO, ADDR_HI, DWORDS: skip the next DWORDS if the dword at ADDR is 0")                  \
  X(CP_COND_MODE_EXEC, 0x47, 2, 2,                                                               \
    "MODES (bit m: render mode m), DWORDS: skip the next DWORDS unless the mode is in MODES")     \
  X(CP_MEM_TO_MEM, 0x73, 7, 7,                                                                   \
    "FLAGS (ACCUMULATE[0] NEG_B[1]), DST_LO, DST_HI, A_LO, A_HI, B_LO, B_HI: 64-bit "            \
    "DST = (ACCUMULATE ? DST : 0) + A + (NEG_B ? -B : B)")                                        \
  X(CP_REG_TO_MEM, 0x3e, 3, 3,                                                                   \
    "REG[15:0] CNT[27:16] (dwords) SCRATCH_BASE[31], DST_LO, DST_HI: copy registers to memory "  \
    "(a counter's LO, HI pair gives its 64-bit value); SCRATCH_BASE: DST = CP_SCRATCH[1]:[0] + "  \
    "DST_LO (per-bin query rows)")                                                                \
  X(CP_WAIT_FOR_IDLE, 0x26, 0, 0, "wait until the pipeline drains")

enum class Opcode : uint8_t {
#define TESSERA_OP_ENUM(name, value, minLen, maxLen, desc) name = value,
  TESSERA_OPCODES(TESSERA_OP_ENUM)
#undef TESSERA_OP_ENUM
};

struct OpcodeInfo {
  std::string_view name;
  uint8_t value;
  uint32_t minPayload, maxPayload;
  std::string_view description;
};

inline constexpr OpcodeInfo kOpcodes[] = {
#define TESSERA_OP_INFO(name, value, minLen, maxLen, desc) {#name, value, minLen, maxLen, desc},
    TESSERA_OPCODES(TESSERA_OP_INFO)
#undef TESSERA_OP_INFO
};

constexpr const OpcodeInfo* lookupOpcode(uint32_t value) {
  for (const auto& op : kOpcodes)
    if (op.value == value) return &op;
  return nullptr;
}

// X(name, value, description) — CP_EVENT_WRITE events.
#define TESSERA_EVENTS(X)                                                                    \
  X(CACHE_FLUSH_TS, 0x04, "flush caches, then write VALUE to ADDR (end-of-pipe timestamp)")  \
  X(CLEAR, 0x10, "clear the RB_CLEAR_CNTL buffers over the window, under the write masks")   \
  X(RESTORE, 0x11, "blit the RB_BLIT_CNTL buffer of the current bin: system memory -> GMEM") \
  X(RESOLVE, 0x12, "blit the RB_BLIT_CNTL buffer of the current bin: GMEM -> system memory") \
  X(VSC_FLUSH, 0x13, "end of binning: write each pipe's stream size to VSC_SIZE")            \
  X(FLUSH, 0x14, "flush caches")                                                            \
  X(ZPASS_DONE, 0x15, "write the RB's 64-bit samples-passed counter to RB_SAMPLE_COUNT_ADDR")

enum class Event : uint8_t {
#define TESSERA_EV_ENUM(name, value, desc) name = value,
  TESSERA_EVENTS(TESSERA_EV_ENUM)
#undef TESSERA_EV_ENUM
};

struct EventInfo {
  std::string_view name;
  uint8_t value;
  std::string_view description;
};

inline constexpr EventInfo kEvents[] = {
#define TESSERA_EV_INFO(name, value, desc) {#name, value, desc},
    TESSERA_EVENTS(TESSERA_EV_INFO)
#undef TESSERA_EV_INFO
};

constexpr const EventInfo* lookupEvent(uint32_t value) {
  for (const auto& e : kEvents)
    if (e.value == value) return &e;
  return nullptr;
}

// Render modes selected by CP_SET_MARKER (seed 000: sysmem, binning pass, per-bin render).
enum class RenderMode : uint8_t { Sysmem = 0, Binning = 1, Gmem = 2 };

// Primitive types of CP_DRAW_INDX.
enum class PrimType : uint8_t {
  Points = 0,
  Lines = 1,
  LineStrip = 2,
  LineLoop = 3,
  Triangles = 4,
  TriangleStrip = 5,
  TriangleFan = 6
};
enum class IndexType : uint8_t { None = 0, U8 = 1, U16 = 2, U32 = 3 };

}  // namespace tessera::gpu::cp
