// The work each hardware block did over one stretch of a submission (a bin, the binning pass,
// a sysmem pass), in the units the block's rate is given in. The functional model counts it;
// the timing model (timing_model.h) turns it into cycles. Nothing here affects a pixel.
#pragma once
#include <array>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace tessera::gpu::perf {

// The blocks the timing model charges, in report order. Names follow the hardware: CP (command
// processor), VFD (vertex fetch), SP (shader processor), VSC (binner writing visibility
// streams), RAS (triangle setup and rasterizer), TEX (texture unit), RB (render backend, the
// ROP), GMEM (tile-memory blit engine: clear, restore, resolve), BUS (the memory interface).
enum class Block : uint8_t { Cp, Vfd, Sp, Vsc, Ras, Tex, Rb, Gmem, Bus, Count };
inline constexpr size_t kBlocks = static_cast<size_t>(Block::Count);
inline constexpr std::array<std::string_view, kBlocks> kBlockNames = {
    "cp", "vfd", "sp", "vsc", "ras", "tex", "rb", "gmem", "bus"};

constexpr std::string_view blockName(Block b) {
  return kBlockNames[static_cast<size_t>(b)];
}

// Cumulative counters sampled from the blocks; a stretch's work is the difference of two
// samples. Every field is a plain count so that subtraction is field by field.
struct BlockWork {
  // CP: packets parsed and dwords fetched (ring, IB1, IB2).
  uint64_t cpPackets = 0, cpDwords = 0;
  // VFD: vertices fetched and their attribute bytes.
  uint64_t vertices = 0, attributeBytes = 0;
  // SP: warps run and warp-instructions issued per execution unit; warpRegisters is the sum
  // over warps of their program's registers per thread (it sets how many warps fit a core).
  uint64_t warps = 0, warpRegisters = 0;
  uint64_t aluInstructions = 0, fpuInstructions = 0, sfuInstructions = 0, texInstructions = 0,
           flowInstructions = 0;
  // VSC: primitives the binner set up, (primitive, bin) hits it wrote and (triangle, block)
  // entries of the interleaved resolve's block table it updated.
  uint64_t binnedPrimitives = 0, binHits = 0, blockUpdates = 0;
  // RAS: window triangles set up and quads emitted.
  uint64_t triangles = 0, quads = 0;
  // TEX: texels filtered.
  uint64_t texels = 0;
  // RB: pixels through depth/stencil and colour.
  uint64_t ropSamples = 0;
  // GMEM: tile-memory bytes cleared, restored (system memory → GMEM) and resolved (GMEM →
  // system memory).
  uint64_t clearBytes = 0, restoreBytes = 0, resolveBytes = 0;
  // BUS: every byte the GPU moved to or from system memory, the blits' included.
  uint64_t busBytes = 0;

  // Applies `op` to each pair of fields (this, other).
  template <class Op>
  void forEachField(const BlockWork& o, Op&& op);

  BlockWork operator-(const BlockWork& o) const {
    BlockWork d = *this;
    d.forEachField(o, [](uint64_t& x, uint64_t y) { x -= y; });
    return d;
  }
  BlockWork& operator+=(const BlockWork& o) {
    forEachField(o, [](uint64_t& x, uint64_t y) { x += y; });
    return *this;
  }
  bool operator==(const BlockWork&) const = default;
};

// Every field once, with the name reports use: arithmetic and the JSON reports walk this list.
struct WorkField {
  std::string_view name;
  uint64_t BlockWork::*member;
};
inline constexpr WorkField kWorkFields[] = {
    {"cp_packets", &BlockWork::cpPackets},
    {"cp_dwords", &BlockWork::cpDwords},
    {"vertices", &BlockWork::vertices},
    {"attribute_bytes", &BlockWork::attributeBytes},
    {"warps", &BlockWork::warps},
    {"warp_registers", &BlockWork::warpRegisters},
    {"alu_instructions", &BlockWork::aluInstructions},
    {"fpu_instructions", &BlockWork::fpuInstructions},
    {"sfu_instructions", &BlockWork::sfuInstructions},
    {"tex_instructions", &BlockWork::texInstructions},
    {"flow_instructions", &BlockWork::flowInstructions},
    {"binned_primitives", &BlockWork::binnedPrimitives},
    {"bin_hits", &BlockWork::binHits},
    {"block_updates", &BlockWork::blockUpdates},
    {"triangles", &BlockWork::triangles},
    {"quads", &BlockWork::quads},
    {"texels", &BlockWork::texels},
    {"rop_samples", &BlockWork::ropSamples},
    {"clear_bytes", &BlockWork::clearBytes},
    {"restore_bytes", &BlockWork::restoreBytes},
    {"resolve_bytes", &BlockWork::resolveBytes},
    {"bus_bytes", &BlockWork::busBytes},
};
static_assert(sizeof(BlockWork) == std::size(kWorkFields) * sizeof(uint64_t),
              "a BlockWork field is missing from kWorkFields");

// Bytes the interleaved resolve copied out of a bin while it rendered (US 8,902,228): the copy
// could start once the bin had rasterized `quadsBefore` of its quads.
struct ResolveSlice {
  uint64_t quadsBefore = 0, bytes = 0;
};

template <class Op>
void BlockWork::forEachField(const BlockWork& o, Op&& op) {
  for (const WorkField& f : kWorkFields) op(this->*f.member, o.*f.member);
}

}  // namespace tessera::gpu::perf
