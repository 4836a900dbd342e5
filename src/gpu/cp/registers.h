// The Tessera register map: the one table of register names, offsets and array shapes that the
// driver's encoder, the command processor and `tessera dump` all read (docs/command-stream.md).
// Names follow the Adreno block prefixes (seed 000: VSC_PIPE[n], PC_VSTREAM_CONTROL ...):
// CP command processor, VFD vertex fetch, SP shader processor, PC primitive control,
// GRAS rasterizer setup, RB render backend, VSC visibility streams.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::gpu::cp {

// X(name, offset, array count, array stride, description)
#define TESSERA_REGISTERS(X)                                                                      \
  X(CP_SCRATCH, 0x0010, 8, 1, "scratch registers (per-bin bases, driver use)")                    \
  X(RBBM_PERFCTR_SEL, 0x0030, 16, 1,                                                              \
    "counter n counts countable GROUP[15:8] INDEX[7:0] (docs/counters.md)")                       \
  X(RBBM_PERFCTR_LO, 0x0040, 16, 2, "counter n value, low (read with CP_REG_TO_MEM)")             \
  X(RBBM_PERFCTR_HI, 0x0041, 16, 2, "counter n value, high")                                      \
  X(RBBM_ALWAYSON_COUNTER_LO, 0x0060, 1, 1, "GPU clock cycles since power-on, low (timing model)") \
  X(RBBM_ALWAYSON_COUNTER_HI, 0x0061, 1, 1, "GPU clock cycles since power-on, high")               \
  X(VFD_CONTROL, 0x0100, 1, 1, "ATTR_COUNT[4:0]: number of vertex attributes fetched")            \
  X(VFD_ATTR_BASE_LO, 0x0110, 16, 4, "attribute n: GPU address of the first element, low")        \
  X(VFD_ATTR_BASE_HI, 0x0111, 16, 4, "attribute n: GPU address, high")                            \
  X(VFD_ATTR_SIZE, 0x0112, 16, 4, "attribute n: bytes readable from BASE (fetches beyond fault)") \
  X(VFD_ATTR_CNTL, 0x0113, 16, 4,                                                                 \
    "attribute n: STRIDE[15:0] FORMAT[19:16] COMPONENTS[21:20] (count-1)")                        \
  X(SP_VS_PROGRAM_LO, 0x0200, 1, 1, "vertex shader binary address, low")                          \
  X(SP_VS_PROGRAM_HI, 0x0201, 1, 1, "vertex shader binary address, high")                         \
  X(SP_VS_PROGRAM_SIZE, 0x0202, 1, 1, "vertex shader binary size in dwords")                      \
  X(SP_BS_PROGRAM_LO, 0x0203, 1, 1, "binning (position-only) vertex shader address, low")         \
  X(SP_BS_PROGRAM_HI, 0x0204, 1, 1, "binning vertex shader address, high")                        \
  X(SP_BS_PROGRAM_SIZE, 0x0205, 1, 1, "binning vertex shader size in dwords")                     \
  X(SP_FS_PROGRAM_LO, 0x0206, 1, 1, "fragment shader binary address, low")                        \
  X(SP_FS_PROGRAM_HI, 0x0207, 1, 1, "fragment shader binary address, high")                       \
  X(SP_FS_PROGRAM_SIZE, 0x0208, 1, 1, "fragment shader binary size in dwords")                    \
  X(SP_VS_CONST_LO, 0x0210, 1, 1, "vertex shader constant buffer (fp32 scalars), low")            \
  X(SP_VS_CONST_HI, 0x0211, 1, 1, "vertex shader constant buffer, high")                          \
  X(SP_VS_CONST_SIZE, 0x0212, 1, 1, "vertex shader constant count (scalars)")                     \
  X(SP_FS_CONST_LO, 0x0213, 1, 1, "fragment shader constant buffer (fp32 scalars), low")          \
  X(SP_FS_CONST_HI, 0x0214, 1, 1, "fragment shader constant buffer, high")                        \
  X(SP_FS_CONST_SIZE, 0x0215, 1, 1, "fragment shader constant count (scalars)")                   \
  X(SP_VS_TEX_LO, 0x0218, 1, 1, "vertex texture descriptor table, low")                           \
  X(SP_VS_TEX_HI, 0x0219, 1, 1, "vertex texture descriptor table, high")                          \
  X(SP_VS_TEX_COUNT, 0x021a, 1, 1, "vertex texture descriptors (8 dwords each)")                  \
  X(SP_FS_TEX_LO, 0x021b, 1, 1, "fragment texture descriptor table, low")                         \
  X(SP_FS_TEX_HI, 0x021c, 1, 1, "fragment texture descriptor table, high")                        \
  X(SP_FS_TEX_COUNT, 0x021d, 1, 1, "fragment texture descriptors (8 dwords each)")                \
  X(SP_VS_PVT_LO, 0x0220, 1, 1, "vertex (and binning) shader private memory, low")                \
  X(SP_VS_PVT_HI, 0x0221, 1, 1, "vertex shader private memory, high")                             \
  X(SP_VS_PVT_SIZE, 0x0222, 1, 1, "vertex shader private memory bytes (dwords x 128, 0: none)")   \
  X(SP_FS_PVT_LO, 0x0223, 1, 1, "fragment shader private memory, low")                            \
  X(SP_FS_PVT_HI, 0x0224, 1, 1, "fragment shader private memory, high")                           \
  X(SP_FS_PVT_SIZE, 0x0225, 1, 1, "fragment shader private memory bytes (dwords x 128, 0: none)") \
  X(PC_VSTREAM_CONTROL, 0x0300, 1, 1, "SIZE[15:0] bins in the current pipe, N[31:16] this bin")   \
  X(PC_PRIM_COUNT_CNTL, 0x0301, 1, 1,                                                             \
    "ENABLE[0]: draws add their primitives to the primitives-generated counter")                  \
  X(GRAS_CL_VPORT_XOFFSET, 0x0400, 1, 1, "viewport x offset (fp32)")                              \
  X(GRAS_CL_VPORT_XSCALE, 0x0401, 1, 1, "viewport x scale (fp32)")                                \
  X(GRAS_CL_VPORT_YOFFSET, 0x0402, 1, 1, "viewport y offset (fp32)")                              \
  X(GRAS_CL_VPORT_YSCALE, 0x0403, 1, 1, "viewport y scale (fp32)")                                \
  X(GRAS_CL_VPORT_ZOFFSET, 0x0404, 1, 1, "depth range offset (fp32)")                             \
  X(GRAS_CL_VPORT_ZSCALE, 0x0405, 1, 1, "depth range scale (fp32)")                               \
  X(GRAS_SU_CNTL, 0x0408, 1, 1, "CULL_FRONT[0] CULL_BACK[1] FRONT_CW[2] POLY_OFFSET[3]")          \
  X(GRAS_SU_POINT_SIZE, 0x0409, 1, 1, "point size when the VS writes none (fp32 pixels)")         \
  X(GRAS_SU_LINE_WIDTH, 0x040a, 1, 1, "line width (fp32 pixels)")                                 \
  X(GRAS_SU_POLY_OFFSET_SCALE, 0x040b, 1, 1, "polygon offset factor (fp32, x max depth slope)")   \
  X(GRAS_SU_POLY_OFFSET_OFFSET, 0x040c, 1, 1, "polygon offset units (fp32, x depth resolution)")  \
  X(GRAS_SC_SCREEN_SCISSOR_TL, 0x0410, 1, 1, "application scissor X[15:0] Y[31:16]")              \
  X(GRAS_SC_SCREEN_SCISSOR_BR, 0x0411, 1, 1, "application scissor X[15:0] Y[31:16], exclusive")   \
  X(GRAS_SC_WINDOW_SCISSOR_TL, 0x0412, 1, 1, "bin scissor X[15:0] Y[31:16] (CP_SET_BIN)")         \
  X(GRAS_SC_WINDOW_SCISSOR_BR, 0x0413, 1, 1, "bin scissor X[15:0] Y[31:16], exclusive")           \
  X(GRAS_LRZ_CNTL, 0x0418, 1, 1, "ENABLE[0]: low-resolution Z for this batch")                    \
  X(GRAS_LRZ_BUFFER_LO, 0x0419, 1, 1, "LRZ buffer (Z16 per 8x8 block, row-major), low")           \
  X(GRAS_LRZ_BUFFER_HI, 0x041a, 1, 1, "LRZ buffer, high")                                         \
  X(GRAS_LRZ_PITCH, 0x041b, 1, 1, "LRZ grid BLOCKS_PER_ROW[15:0] ROWS[31:16]")                    \
  X(GRAS_SAMPLE_CNTL, 0x0420, 1, 1,                                                               \
    "multisample coverage: COVERAGE[0] INVERT[1] ALPHA_TO_COVERAGE[2] VALUE[15:8] (unorm8)")      \
  X(RB_SURFACE_SIZE, 0x0500, 1, 1, "render target WIDTH[15:0] HEIGHT[31:16]")                     \
  X(RB_COLOR_INFO, 0x0501, 1, 1, "FORMAT[3:0] WRITE_MASK[7:4] (0 format: no colour buffer)")      \
  X(RB_COLOR_BASE_LO, 0x0502, 1, 1, "colour surface in system memory, low")                       \
  X(RB_COLOR_BASE_HI, 0x0503, 1, 1, "colour surface in system memory, high")                      \
  X(RB_COLOR_PITCH, 0x0504, 1, 1, "colour surface row pitch in bytes")                            \
  X(RB_DEPTH_INFO, 0x0505, 1, 1, "FORMAT[3:0] (0 none, 1 D16, 2 D24S8)")                          \
  X(RB_DEPTH_BASE_LO, 0x0506, 1, 1, "depth/stencil surface in system memory, low")                \
  X(RB_DEPTH_BASE_HI, 0x0507, 1, 1, "depth/stencil surface in system memory, high")               \
  X(RB_DEPTH_PITCH, 0x0508, 1, 1, "depth/stencil surface row pitch in bytes")                     \
  X(RB_GMEM_COLOR_BASE, 0x0509, 1, 1, "byte offset of the colour slice in GMEM")                  \
  X(RB_GMEM_DEPTH_BASE, 0x050a, 1, 1, "byte offset of the depth/stencil slice in GMEM")           \
  X(RB_BIN_SIZE, 0x050b, 1, 1, "bin WIDTH[15:0] HEIGHT[31:16]: GMEM pitch = width x bpp")         \
  X(RB_MSAA_CNTL, 0x050c, 1, 1,                                                                   \
    "SAMPLES[1:0] log2 of the samples per pixel (0: 1, 1: 2, 2: 4) of the colour and depth "      \
    "buffers")                                                                                    \
  X(RB_DEPTH_CNTL, 0x0510, 1, 1, "TEST[0] WRITE[1] FUNC[6:4]")                                    \
  X(RB_STENCIL_CNTL, 0x0511, 1, 1,                                                                \
    "ENABLE[0] FUNC[6:4] FAIL[10:8] ZFAIL[14:12] ZPASS[18:16] (front); back: FUNC_BF[22:20] "     \
    "FAIL_BF[26:24] ZFAIL_BF[30:28]")                                                             \
  X(RB_STENCIL_CNTL2, 0x0512, 1, 1, "ZPASS_BF[2:0]")                                              \
  X(RB_STENCILREFMASK, 0x0513, 1, 1, "front REF[7:0] MASK[15:8] WRITEMASK[23:16]")                \
  X(RB_STENCILREFMASK_BF, 0x0514, 1, 1, "back REF[7:0] MASK[15:8] WRITEMASK[23:16]")              \
  X(RB_BLEND_CNTL, 0x0518, 1, 1,                                                                  \
    "ENABLE[0] SRC_RGB[7:4] DST_RGB[11:8] SRC_A[15:12] DST_A[19:16] EQ_RGB[21:20] EQ_A[23:22]")   \
  X(RB_BLEND_CONSTANT, 0x0519, 4, 1, "blend constant colour R, G, B, A (fp32)")                   \
  X(RB_CLEAR_CNTL, 0x0520, 1, 1,                                                                  \
    "COLOR[0] DEPTH[1] STENCIL[2]: buffers a CLEAR clears (under the write masks)")               \
  X(RB_CLEAR_COLOR, 0x0521, 4, 1, "clear colour R, G, B, A (fp32)")                               \
  X(RB_CLEAR_DEPTH, 0x0525, 1, 1, "clear depth (fp32)")                                           \
  X(RB_CLEAR_STENCIL, 0x0526, 1, 1, "clear stencil value [7:0]")                                  \
  X(RB_BLIT_CNTL, 0x0530, 1, 1,                                                                   \
    "BUFFER[0] (0 colour, 1 depth/stencil) RESOLVED[1] (system side is the single-sample "        \
    "image at RB_BLIT_DST: RESOLVE averages the samples into it, RESTORE copies it into "         \
    "every sample)")                                                                              \
  X(RB_BLIT_DST_LO, 0x0531, 1, 1, "single-sample resolve target of a RESOLVED blit, low")         \
  X(RB_BLIT_DST_HI, 0x0532, 1, 1, "resolve target, high")                                         \
  X(RB_BLIT_DST_PITCH, 0x0533, 1, 1, "resolve target row pitch in bytes")                         \
  X(RB_SAMPLE_COUNT_ADDR_LO, 0x0540, 1, 1, "where ZPASS_DONE writes the sample counter, low")        \
  X(RB_SAMPLE_COUNT_ADDR_HI, 0x0541, 1, 1, "sample counter address, high")                          \
  X(VSC_BIN_SIZE, 0x0600, 1, 1, "bin WIDTH[15:0] HEIGHT[31:16] for the binning pass")             \
  X(VSC_BIN_COUNT, 0x0601, 1, 1, "bins NX[15:0] NY[31:16]")                                       \
  X(VSC_BIN_ORIGIN, 0x0602, 1, 1, "top-left of bin (0,0): X[15:0] Y[31:16]")                      \
  X(VSC_SIZE_LO, 0x0604, 1, 1, "where binning writes the stream size of each pipe, low")          \
  X(VSC_SIZE_HI, 0x0605, 1, 1, "stream size array address, high")                                 \
  X(VSC_BLOCK_CNTL, 0x0606, 1, 1,                                                                 \
    "interleaved resolve: ENABLE[0] SIZE[2:1] (4/8/16 px) EARLY_COLOR[4] EARLY_DEPTH[5] "         \
    "ZS_STATIC[6] KEEP_FRAGMENTS[7]")                                                                               \
  X(VSC_BLOCK_TABLE_LO, 0x0607, 1, 1, "block table: last and full-cover triangle per bin block")  \
  X(VSC_BLOCK_TABLE_HI, 0x0608, 1, 1, "block table, high")                                        \
  X(VSC_PIPE_CONFIG, 0x0610, 32, 4, "pipe n: X[7:0] Y[15:8] W[23:16] H[31:24] in bins")           \
  X(VSC_PIPE_DATA_LO, 0x0611, 32, 4, "pipe n: visibility stream buffer, low")                     \
  X(VSC_PIPE_DATA_HI, 0x0612, 32, 4, "pipe n: visibility stream buffer, high")                    \
  X(VSC_PIPE_DATA_LENGTH, 0x0613, 32, 4, "pipe n: stream buffer size in bytes")

enum class Reg : uint32_t {
#define TESSERA_REG_ENUM(name, offset, count, stride, desc) name = offset,
  TESSERA_REGISTERS(TESSERA_REG_ENUM)
#undef TESSERA_REG_ENUM
};

struct RegisterInfo {
  std::string_view name;
  uint32_t offset, count, stride;
  std::string_view description;
};

inline constexpr RegisterInfo kRegisters[] = {
#define TESSERA_REG_INFO(name, offset, count, stride, desc) {#name, offset, count, stride, desc},
    TESSERA_REGISTERS(TESSERA_REG_INFO)
#undef TESSERA_REG_INFO
};

// Size of the register file; every table entry must lie inside it.
inline constexpr uint32_t kRegisterFileSize = 0x800;

constexpr uint32_t regOffset(Reg r, uint32_t index = 0) {
  for (const auto& info : kRegisters)
    if (info.offset == static_cast<uint32_t>(r)) return info.offset + index * info.stride;
  return 0;
}

// The register (and array index) at an offset, if the offset names one.
struct RegisterRef {
  const RegisterInfo* info;
  uint32_t index;
};
std::optional<RegisterRef> lookupRegister(uint32_t offset);
std::string registerName(uint32_t offset);  // "VSC_PIPE_CONFIG[3]" or "0x0abc" for unknown

}  // namespace tessera::gpu::cp
