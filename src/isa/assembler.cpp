// isa::assemble: one pass over the text, one line per instruction or directive. Every error
// names file:line:col; rule checks shared with the decoder run in isa::finalize and are mapped
// back to the line of the offending instruction.
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "isa/assembler.h"

namespace tessera::isa {
namespace {

int componentOf(char c) {
  switch (c) {
    case 'x':
      return 0;
    case 'y':
      return 1;
    case 'z':
      return 2;
    case 'w':
      return 3;
    default:
      return -1;
  }
}

class LineParser {
 public:
  LineParser(std::string_view file, int line, std::string_view text)
      : file_(file), line_(line), text_(text) {}

  [[noreturn]] void error(size_t pos, const std::string& what) const {
    throw AsmError(file_, line_, static_cast<int>(pos) + 1, what);
  }
  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }
  size_t pos() const { return pos_; }
  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!accept(c)) error(pos_, std::string("expected ") + what);
  }
  // Identifier-like word: letters, digits, '_' and '.'.
  std::string_view word() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '.'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }
  std::string_view peekRest() const { return text_.substr(pos_); }

  int64_t integer(std::string_view what) {
    skipSpace();
    size_t start = pos_;
    std::string_view w = word();
    if (w.empty()) error(start, std::string("expected ") + std::string(what));
    int64_t v = 0;
    for (char c : w) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || v > (int64_t{1} << 32))
        error(start, "bad " + std::string(what) + " '" + std::string(w) + "'");
      v = v * 10 + (c - '0');
    }
    return v;
  }

  // A source or destination operand. Immediates are typed by the opcode's source type.
  Operand operand(Type type) {
    skipSpace();
    size_t start = pos_;
    bool neg = accept('-');
    skipSpace();
    if (pos_ < text_.size() &&
        (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
      return immediate(type, neg, start);
    bool abs = accept('|');
    Operand o = registerOperand();
    if (abs) expect('|', "closing '|'");
    o.neg = neg;
    o.abs = abs;
    if ((neg || abs) && (type == Type::B || type == Type::U))
      error(start, "modifiers are not allowed on this instruction's sources");
    return o;
  }

  int sampler() {
    skipSpace();
    size_t start = pos_;
    std::string_view w = word();
    if (w.size() < 2 || w[0] != 's') error(start, "expected a sampler sN");
    int n = parseIndex(w.substr(1), start, "sampler");
    if (n >= kMaxSamplers) error(start, "sampler index out of range");
    return n;
  }

  // `offset(u, v)` or `offset(u, v, w)`: a texel offset (range checked by finalize).
  std::array<int8_t, 3> texelOffset() {
    skipSpace();
    const size_t start = pos_;
    if (word() != "offset") error(start, "expected offset(u, v)");
    expect('(', "'('");
    std::array<int8_t, 3> o{};
    for (size_t k = 0; k < 3; ++k) {
      if (k == 2 && !accept(',')) break;  // w is optional
      if (k == 1) expect(',', "','");
      const bool neg = accept('-');
      const int64_t v = integer("texel offset");
      if (v > 8) error(start, "texel offset out of range");
      o[k] = static_cast<int8_t>(neg ? -v : v);
    }
    expect(')', "')'");
    return o;
  }

  int parseIndex(std::string_view digits, size_t at, const char* what) const {
    if (digits.empty() || digits.size() > 5) error(at, std::string("bad ") + what + " index");
    int v = 0;
    for (char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c))) error(at, std::string("bad ") + what);
      v = v * 10 + (c - '0');
    }
    return v;
  }

 private:
  // "<letter><n>.<comp>" vector slot, returning n*4+comp.
  int vectorSlot(std::string_view w, size_t at, const char* what) const {
    size_t dot = w.find('.');
    if (dot == std::string_view::npos || dot + 2 != w.size() || componentOf(w[dot + 1]) < 0)
      error(at, std::string(what) + " needs a component .x/.y/.z/.w");
    return parseIndex(w.substr(1, dot - 1), at, what) * 4 + componentOf(w[dot + 1]);
  }

  Operand registerOperand() {
    skipSpace();
    size_t start = pos_;
    std::string_view w = word();
    if (w.empty()) error(start, "expected an operand");
    Operand o;
    if (w == "c" && accept('[')) {
      o.file = File::Const;
      o.rel = true;
      skipSpace();
      size_t at = pos_;
      if (word() != "a0.x") error(at, "expected a0.x in relative address");
      int sign = 0;
      if (accept('+'))
        sign = 1;
      else if (accept('-'))
        sign = -1;
      if (sign != 0) {
        int64_t off = integer("offset");
        if (off > 32767) error(at, "relative offset out of range");
        o.index = static_cast<int32_t>(sign * off);
      }
      expect(']', "']'");
      return o;
    }
    if (w == "ff") return Operand{File::Sys, false, false, false, 4, 0};
    if (w == "pc.x" || w == "pc.y")  // gl_PointCoord
      return Operand{File::Sys, false, false, false, w[3] == 'x' ? 5 : 6, 0};
    if (w == "a0.x" || w == "a0") return Operand{File::Addr};
    if (w.substr(0, 3) == "fc.") {
      if (w.size() != 4 || componentOf(w[3]) < 0) error(start, "bad fragcoord component");
      return Operand{File::Sys, false, false, false, componentOf(w[3]), 0};
    }
    switch (w[0]) {
      case 'r':
        o.file = File::Reg;
        o.index = parseIndex(w.substr(1), start, "register");
        break;
      case 'p':
        o.file = File::Private;
        o.index = parseIndex(w.substr(1), start, "private dword");
        break;
      case 'c':
        o.file = File::Const;
        o.index = parseIndex(w.substr(1), start, "constant");
        break;
      case 'i':
        o.file = File::Input;
        o.index = vectorSlot(w, start, "input");
        break;
      case 'o':
        o.file = File::Output;
        o.index = vectorSlot(w, start, "output");
        break;
      case 'v':
        o.file = File::Varying;
        o.index = vectorSlot(w, start, "varying");
        break;
      default:
        error(start, "unknown operand '" + std::string(w) + "'");
    }
    return o;
  }

  Operand immediate(Type type, bool neg, size_t start) {
    skipSpace();
    size_t numStart = pos_;
    while (
        pos_ < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
         ((text_[pos_] == '+' || text_[pos_] == '-') && pos_ > numStart &&
          (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E') && text_.substr(numStart, 2) != "0x")))
      ++pos_;
    std::string tok(text_.substr(numStart, pos_ - numStart));
    Operand o;
    o.file = File::Imm;
    bool hex = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
    bool isFloat = !hex && tok.find_first_of(".eE") != std::string::npos;
    char* end = nullptr;
    errno = 0;
    if (hex) {
      unsigned long long v = std::strtoull(tok.c_str() + 2, &end, 16);
      if (*end != '\0' || v > 0xffffffffull) error(start, "bad hex immediate '" + tok + "'");
      if (neg) error(start, "a hex immediate is a bit pattern and takes no sign");
      o.imm = static_cast<uint32_t>(v);
    } else if (isFloat) {
      if (type == Type::I || type == Type::U)
        error(start, "float immediate '" + tok + "' in an integer instruction");
      float f = std::strtof(tok.c_str(), &end);
      if (*end != '\0' || std::isinf(f)) error(start, "bad float immediate '" + tok + "'");
      o.imm = std::bit_cast<uint32_t>(neg ? -f : f);
    } else {
      unsigned long long v = std::strtoull(tok.c_str(), &end, 10);
      if (*end != '\0' || tok.empty() || errno == ERANGE || v > 0xffffffffull)
        error(start, "bad immediate '" + tok + "'");
      if (type == Type::F) {
        float f = static_cast<float>(v);
        o.imm = std::bit_cast<uint32_t>(neg ? -f : f);
      } else {
        if (neg && v > 0x80000000ull) error(start, "immediate out of range");
        if (!neg && type == Type::I && v > 0x7fffffffull) error(start, "immediate out of range");
        o.imm = neg ? static_cast<uint32_t>(-static_cast<int64_t>(v)) : static_cast<uint32_t>(v);
      }
    }
    return o;
  }

  std::string_view file_;
  int line_;
  std::string_view text_;
  size_t pos_ = 0;
};

std::string_view stripComment(std::string_view line) {
  size_t cut = line.find(';');
  size_t slash = line.find("//");
  if (slash < cut) cut = slash;
  return cut == std::string_view::npos ? line : line.substr(0, cut);
}

struct Declared {
  std::optional<int> regs, inputs, outputs, varyings, pointSize, privateDwords;
  uint16_t flat = 0;
  bool stage = false;
};

void directive(LineParser& lp, std::string_view name, size_t at, Program& p, Declared& d) {
  auto count = [&](std::optional<int>& slot, int limit) {
    int64_t v = lp.integer("count");
    if (v > limit)
      lp.error(at,
               std::string(name) + " " + std::to_string(v) + " exceeds " + std::to_string(limit));
    if (slot) lp.error(at, "duplicate " + std::string(name));
    slot = static_cast<int>(v);
  };
  if (name == ".stage") {
    lp.skipSpace();
    size_t s = lp.pos();
    std::string_view w = lp.word();
    if (w == "vertex")
      p.stage = Stage::Vertex;
    else if (w == "fragment")
      p.stage = Stage::Fragment;
    else
      lp.error(s, "stage must be vertex or fragment");
    if (d.stage) lp.error(at, "duplicate .stage");
    d.stage = true;
  } else if (name == ".regs") {
    count(d.regs, kMaxRegs);
  } else if (name == ".inputs") {
    count(d.inputs, kMaxInputs);
  } else if (name == ".outputs") {
    count(d.outputs, kMaxVsOutputs);
  } else if (name == ".varyings") {
    count(d.varyings, kMaxVaryings);
  } else if (name == ".private") {  // .private N: dwords of private memory per thread
    count(d.privateDwords, kMaxPrivateDwords);
  } else if (name == ".flat") {  // .flat v1, v3: varyings taken from the provoking vertex
    do {
      lp.skipSpace();
      const size_t s = lp.pos();
      const std::string_view w = lp.word();
      if (w.size() < 2 || w[0] != 'v') lp.error(s, "expected a varying vN");
      const int v = lp.parseIndex(w.substr(1), s, "varying");
      if (v >= kMaxVaryings) lp.error(s, "varying v" + std::to_string(v) + " does not exist");
      d.flat = static_cast<uint16_t>(d.flat | 1u << v);
      lp.skipSpace();
    } while (lp.accept(','));
  } else if (name == ".pointsize") {  // .pointsize oK.c: the output holding gl_PointSize
    lp.skipSpace();
    const size_t s = lp.pos();
    const Operand o = lp.operand(Type::F);
    if (o.file != File::Output || o.neg || o.abs || o.rel) lp.error(s, "expected an output oK.c");
    if (d.pointSize) lp.error(at, "duplicate .pointsize");
    d.pointSize = o.index;
  } else {
    lp.error(at, "unknown directive '" + std::string(name) + "'");
  }
}

// Highest index+1 used in a file, in vec4 slots for vector files.
int used(const Program& p, File f, int width) {
  int n = 0;
  for (const Instr& in : p.code) {
    auto see = [&](const Operand& o, int count) {
      if (o.file == f && !o.rel && o.index >= 0) n = std::max(n, (o.index + count - 1) / width + 1);
    };
    see(in.dst, destinationWidth(in.op));
    for (int s = 0; s < 3; ++s) see(in.src[s], sourceWidth(opInfo(in.op).shape, s));
  }
  return n;
}

}  // namespace

Program assemble(std::string_view source, std::string_view fileName) {
  Program p;
  Declared declared;
  std::vector<int> lineOf;  // source line of each instruction
  int lineNo = 0;
  size_t cursor = 0;
  while (cursor <= source.size()) {
    size_t nl = source.find('\n', cursor);
    std::string_view raw =
        source.substr(cursor, nl == std::string_view::npos ? std::string_view::npos : nl - cursor);
    cursor = nl == std::string_view::npos ? source.size() + 1 : nl + 1;
    ++lineNo;
    std::string_view text = stripComment(raw);
    LineParser lp(fileName, lineNo, text);
    if (lp.atEnd()) continue;
    size_t at = lp.pos();
    std::string_view head = lp.word();
    if (head.empty()) lp.error(at, "expected an instruction or directive");
    if (head[0] == '.') {
      directive(lp, head, at, p, declared);
    } else {
      std::string_view mnemonic = head;
      bool sat = false;
      if (mnemonic.size() > 4 && mnemonic.substr(mnemonic.size() - 4) == ".sat") {
        sat = true;
        mnemonic.remove_suffix(4);
      }
      std::optional<Opcode> op = findOpcode(mnemonic);
      if (!op) lp.error(at, "unknown instruction '" + std::string(head) + "'");
      const OpInfo& info = opInfo(*op);
      if (sat && !(info.flags & kSatOk)) lp.error(at, std::string(info.name) + " cannot saturate");
      Instr in;
      in.op = *op;
      in.sat = sat;
      bool first = true;
      auto comma = [&] {
        if (!first) lp.expect(',', "','");
        first = false;
      };
      if (hasDestination(info.shape)) {
        comma();
        size_t dpos = lp.pos();
        in.dst = lp.operand(info.type);
        if (in.dst.file == File::Imm || in.dst.neg || in.dst.abs || in.dst.rel)
          lp.error(dpos, "destination must be a plain register");
      }
      for (int s = 0; s < sourceCount(info.shape); ++s) {
        comma();
        in.src[s] = lp.operand(info.type);
      }
      if (usesSampler(info.shape)) {
        comma();
        in.sampler = static_cast<uint8_t>(lp.sampler());
        if ((info.flags & kTexelOffsetOk) && lp.accept(',')) in.texelOffset = lp.texelOffset();
      }
      if (lineOf.size() >= static_cast<size_t>(kMaxInstructions)) lp.error(at, "program too long");
      p.code.push_back(in);
      lineOf.push_back(lineNo);
    }
    if (!lp.atEnd()) lp.error(lp.pos(), "unexpected text '" + std::string(lp.peekRest()) + "'");
  }
  if (!declared.stage) throw AsmError(fileName, 1, 1, "missing .stage directive");
  if (p.code.empty()) throw AsmError(fileName, lineNo, 1, "no instructions");
  p.regCount = static_cast<uint8_t>(declared.regs.value_or(used(p, File::Reg, 1)));
  // Counts not declared are inferred from use; a file the stage does not have stays at 0 so
  // that a misplaced operand is reported at its instruction.
  const bool vs = p.stage == Stage::Vertex;
  p.numInputs = static_cast<uint8_t>(declared.inputs.value_or(vs ? used(p, File::Input, 4) : 0));
  p.numOutputs = static_cast<uint8_t>(
      declared.outputs.value_or(std::max(vs ? 1 : 0, used(p, File::Output, 4))));
  p.numVaryings =
      static_cast<uint8_t>(declared.varyings.value_or(vs ? 0 : used(p, File::Varying, 4)));
  if (declared.pointSize) p.pointSize = static_cast<uint8_t>(*declared.pointSize + 1);
  p.flatVaryings = declared.flat;
  p.privateDwords =
      static_cast<uint16_t>(declared.privateDwords.value_or(used(p, File::Private, 1)));
  try {
    finalize(p);
  } catch (const DecodeError& e) {
    int line = e.instruction() >= 0 ? lineOf[e.instruction()] : 1;
    std::string msg = e.what();
    size_t colon = msg.find(": ");
    throw AsmError(fileName, line, 1, colon == std::string::npos ? msg : msg.substr(colon + 2));
  }
  return p;
}

}  // namespace tessera::isa
