// isa::finalize: the one place that knows every rule of a well-formed program. Decoding,
// assembling and position-only derivation all end here, so the shader core can trust its input.
#include <vector>

#include "isa/program.h"

namespace tessera::isa {
namespace {

[[noreturn]] void fail(int index, const std::string& what) {
  throw DecodeError(index, what);
}

int fileLimit(const Program& p, File f) {
  switch (f) {
    case File::Reg:
      return p.regCount;
    case File::Const:
      return kMaxConstants;
    case File::Input:
      return p.numInputs * 4;
    case File::Output:
      return p.numOutputs * 4;
    case File::Sys:
      return kNumSysValues;
    case File::Varying:
      return p.numVaryings * 4;
    case File::Addr:
      return 1;
    case File::Private:
      return p.privateDwords;
    default:
      return 0;
  }
}

const char* fileName(File f) {
  switch (f) {
    case File::None:
      return "none";
    case File::Reg:
      return "general register";
    case File::Const:
      return "constant";
    case File::Imm:
      return "immediate";
    case File::Input:
      return "input";
    case File::Output:
      return "output";
    case File::Sys:
      return "system value";
    case File::Varying:
      return "varying";
    case File::Addr:
      return "address register";
    case File::Private:
      return "private dword";
    default:
      return "unknown file";
  }
}

void checkIndex(const Program& p, int i, const Operand& o) {
  if (o.rel) return;  // relative constant offsets are checked per lane at run time
  int limit = fileLimit(p, o.file);
  if (o.index < 0 || o.index >= limit)
    fail(i, std::string(fileName(o.file)) + " index " + std::to_string(o.index) +
                " out of range (limit " + std::to_string(limit) + ")");
}

void checkSource(const Program& p, int i, const OpInfo& info, const Operand& o, bool varying) {
  if (varying) {
    if (o.file != File::Varying) fail(i, "ipl source must be a varying");
  } else {
    switch (o.file) {
      case File::Reg:
      case File::Const:
      case File::Imm:
      case File::Output:
        break;
      case File::Private:
        if (info.op != Opcode::Mov) fail(i, "private memory is read only by mov");
        break;
      case File::Input:
        if (p.stage != Stage::Vertex) fail(i, "inputs are readable only in vertex shaders");
        break;
      case File::Sys:
        if (p.stage != Stage::Fragment) fail(i, "system values exist only in fragment shaders");
        break;
      default:
        fail(i, std::string("a ") + fileName(o.file) + " cannot be a source here");
    }
  }
  if (o.rel && o.file != File::Const) fail(i, "relative addressing applies only to constants");
  if (o.file == File::Imm) {
    if (o.neg || o.abs) fail(i, "immediates carry no modifiers (fold them into the value)");
    if (o.index != 0) fail(i, "immediate operand has a stray index");
  } else {
    if (o.imm != 0) fail(i, "non-immediate operand has a stray value");
    checkIndex(p, i, o);
  }
  if ((o.neg || o.abs) && (info.type == Type::B || info.type == Type::U || varying))
    fail(i, std::string("modifiers are not allowed on sources of ") + std::string(info.name));
  if (o.rel && (o.index < -32768 || o.index > 32767)) fail(i, "relative offset out of range");
}

void checkOperands(const Program& p, int i, const Instr& in) {
  const OpInfo& info = opInfo(in.op);
  const Shape shape = info.shape;
  if ((info.flags & kFragOnly) && p.stage != Stage::Fragment)
    fail(i, std::string(info.name) + " is only allowed in fragment shaders");
  if (in.sat && !(info.flags & kSatOk)) fail(i, std::string(info.name) + " cannot saturate");
  if (!usesSampler(shape) && in.sampler != 0) fail(i, "stray sampler index");
  if (usesSampler(shape) && in.sampler >= kMaxSamplers) fail(i, "sampler index out of range");
  if (in.texelOffset != std::array<int8_t, 3>{}) {
    if (!(info.flags & kTexelOffsetOk)) fail(i, std::string(info.name) + " takes no texel offset");
    if (in.texelOffset[2] != 0 && !samplesVec(shape))
      fail(i, std::string(info.name) + " takes no texel offset along r");
    for (int8_t o : in.texelOffset)
      if (o < kMinTexelOffset || o > kMaxTexelOffset)
        fail(i, "texel offset " + std::to_string(o) + " outside [" +
                    std::to_string(kMinTexelOffset) + ", " + std::to_string(kMaxTexelOffset) + "]");
  }

  if (!hasDestination(shape)) {
    if (in.dst != Operand{}) fail(i, "instruction takes no destination");
  } else {
    const Operand& d = in.dst;
    if (d.neg || d.abs || d.rel || d.imm != 0) fail(i, "destination carries source modifiers");
    if (shape == Shape::Addr) {
      if (d.file != File::Addr) fail(i, "mova writes a0.x");
    } else if (usesSampler(shape)) {
      if (d.file != File::Reg) fail(i, "a sample writes four general registers");
    } else if (d.file == File::Private) {
      if (in.op != Opcode::Mov || in.sat) fail(i, "private memory is written only by a plain mov");
      if (in.src[0].file == File::Private) fail(i, "a mov between private dwords");
    } else if (d.file != File::Reg && d.file != File::Output) {
      fail(i, "destination must be a general register or an output");
    }
    checkIndex(p, i, d);
    if (usesSampler(shape) && d.index + 4 > p.regCount)
      fail(i, "sample destination r" + std::to_string(d.index) + "..+3 exceeds regCount");
  }
  const int n = sourceCount(shape);
  for (int s = 0; s < 3; ++s) {
    if (s < n)
      checkSource(p, i, info, in.src[s], shape == Shape::Interp);
    else if (in.src[s] != Operand{})
      fail(i, "too many source operands");
  }
  if (samplesCube(shape)) {
    const Operand& dir = in.src[0];
    if (dir.file != File::Reg || dir.neg || dir.abs)
      fail(i, "a cube sample's direction is a plain general register (rD..rD+2)");
    if (dir.index + 3 > p.regCount)
      fail(i, "cube direction r" + std::to_string(dir.index) + "..+2 exceeds regCount");
  }
  if (samplesVec(shape)) {
    const Operand& c = in.src[0];
    if (c.file != File::Reg || c.neg || c.abs)
      fail(i, std::string(info.name) + " coordinates are a plain general register (rC..rC+3)");
    if (c.index + 4 > p.regCount)
      fail(i, "coordinates r" + std::to_string(c.index) + "..+3 exceed regCount");
  }
}

}  // namespace

void finalize(Program& p) {
  if (p.regCount > kMaxRegs) fail(-1, "regCount " + std::to_string(p.regCount) + " > 64");
  if (p.numInputs > kMaxInputs) fail(-1, "too many inputs");
  if (p.numVaryings > kMaxVaryings) fail(-1, "too many varyings");
  if (p.privateDwords > kMaxPrivateDwords)
    fail(-1, "privateDwords " + std::to_string(p.privateDwords) + " > " +
                 std::to_string(kMaxPrivateDwords));
  if (p.stage == Stage::Vertex) {
    if (p.numOutputs < 1 || p.numOutputs > kMaxVsOutputs)
      fail(-1, "a vertex shader has 1..17 outputs (o0 is the clip position)");
    if (p.numVaryings != 0 || p.flatVaryings != 0) fail(-1, "a vertex shader reads no varyings");
    if (p.pointSize != 0 && (p.pointSize - 1 < 4 || p.pointSize - 1 >= p.numOutputs * 4))
      fail(-1, "the point size must be a component of a written varying output (o1..)");
  } else if (p.stage == Stage::Fragment) {
    if (p.numOutputs > kMaxFsOutputs) fail(-1, "a fragment shader has at most one output");
    if (p.numInputs != 0) fail(-1, "a fragment shader reads no vertex inputs");
    if (p.pointSize != 0) fail(-1, "a fragment shader has no point size output");
    if (p.flatVaryings >> p.numVaryings) fail(-1, "a flat varying beyond the varyings read");
  } else {
    fail(-1, "unknown stage");
  }
  if (p.code.empty()) fail(-1, "program has no instructions");
  if (p.code.size() > static_cast<size_t>(kMaxInstructions)) fail(-1, "program too long");

  struct Open {
    Opcode op;
    int at;
  };
  std::vector<Open> open;
  std::vector<int> loops;  // indices into `open` that are loops
  uint8_t flags = 0;
  uint32_t constSpan = 0;
  // A register is defined for every lane by a write outside any construct before the first
  // kill or ret: until then the exec mask there is the warp's whole lane mask, and instructions
  // run in program order. Helper and killed lanes still feed derivatives and texture LOD, so
  // after a lane may have retired, later writes define nothing.
  static_assert(kMaxRegs <= 64, "zeroRegisters has a bit per register");
  uint64_t defined = 0, zeroRegisters = 0;
  bool retiring = false;
  auto rangeBits = [](int first, int width) {
    uint64_t bits = 0;
    for (int r = first; r < first + width && r < kMaxRegs; ++r) bits |= uint64_t{1} << r;
    return bits;
  };
  const int count = static_cast<int>(p.code.size());
  for (int i = 0; i < count; ++i) {
    Instr& in = p.code[i];
    if (static_cast<int>(in.op) >= kNumOpcodes) fail(i, "unknown opcode");
    checkOperands(p, i, in);
    const OpInfo& info = opInfo(in.op);
    for (int k = 0; k < sourceCount(info.shape); ++k)
      if (in.src[k].file == File::Reg)
        zeroRegisters |= rangeBits(in.src[k].index, sourceWidth(info.shape, k)) & ~defined;
    if (hasDestination(info.shape) && in.dst.file == File::Reg && open.empty() && !retiring)
      defined |= rangeBits(in.dst.index, destinationWidth(in.op));
    if (info.flags & kKill || in.op == Opcode::Ret) retiring = true;
    if (info.flags & kKill) flags |= kUsesKill;
    if (info.flags & kDerivative) flags |= kUsesDerivatives;
    if (info.flags & kTexture) flags |= kUsesTexture;
    for (const Operand& s : in.src) {
      if (s.file == File::Sys) {
        const auto v = static_cast<SysValue>(s.index);
        if (v <= SysValue::FragCoordW) flags |= kUsesFragCoord;
        if (v >= SysValue::PointCoordS) flags |= kUsesPointCoord;
      }
      if (s.file != File::Const) continue;
      if (s.rel)
        flags |= kUsesRelativeConstants;
      else if (static_cast<uint32_t>(s.index) + 1 > constSpan)
        constSpan = s.index + 1;
    }
    in.target = 0;
    switch (in.op) {
      case Opcode::If:
      case Opcode::Loop:
        if (open.size() >= static_cast<size_t>(kMaxCfDepth))
          fail(i, "control flow nested too deep");
        if (in.op == Opcode::Loop) loops.push_back(static_cast<int>(open.size()));
        open.push_back({in.op, i});
        break;
      case Opcode::Else:
        if (open.empty() || open.back().op != Opcode::If) fail(i, "else without if");
        p.code[open.back().at].target = i;
        open.back() = {Opcode::Else, i};
        break;
      case Opcode::Endif:
        if (open.empty() || (open.back().op != Opcode::If && open.back().op != Opcode::Else))
          fail(i, "endif without if");
        p.code[open.back().at].target = i;
        open.pop_back();
        break;
      case Opcode::Endloop:
        if (open.empty() || open.back().op != Opcode::Loop) fail(i, "endloop without loop");
        p.code[open.back().at].target = i;
        in.target = open.back().at;
        // Point every break/continue of this loop at the endloop.
        for (int j = open.back().at + 1; j < i; ++j) {
          Instr& b = p.code[j];
          bool jump = b.op == Opcode::Break || b.op == Opcode::Breakif ||
                      b.op == Opcode::Continue || b.op == Opcode::Continueif;
          if (jump && b.target == static_cast<uint32_t>(open.back().at)) b.target = i;
        }
        open.pop_back();
        loops.pop_back();
        break;
      case Opcode::Break:
      case Opcode::Breakif:
      case Opcode::Continue:
      case Opcode::Continueif:
        if (loops.empty()) fail(i, std::string(info.name) + " outside a loop");
        in.target = open[loops.back()].at;  // patched to the endloop when it is reached
        break;
      case Opcode::End:
        if (i != count - 1) fail(i, "end must be the last instruction");
        break;
      default:
        break;
    }
  }
  if (!open.empty()) fail(open.back().at, "construct is never closed");
  if (p.code.back().op != Opcode::End) fail(count - 1, "program must finish with end");
  p.flags = flags;
  p.constSpan = constSpan;
  p.zeroRegisters = zeroRegisters;
}

}  // namespace tessera::isa
