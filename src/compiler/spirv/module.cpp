#include "compiler/spirv/module.h"

#include "common/error.h"

namespace tessera::compiler::spirv {
namespace {

uint64_t memberKey(uint32_t id, uint32_t member) {
  return uint64_t{id} << 32 | member;
}

void applyDecoration(Decorations& d, std::span<const uint32_t> words) {
  if (words.empty()) return;
  switch (static_cast<SpvDecoration>(words[0])) {
    case SpvDecorationBuiltIn:
      if (words.size() > 1) d.builtIn = static_cast<SpvBuiltIn>(words[1]);
      break;
    case SpvDecorationLocation:
      if (words.size() > 1) d.location = words[1];
      break;
    case SpvDecorationFlat:
      d.flat = true;
      break;
    case SpvDecorationBlock:
      d.block = true;
      break;
    default:
      break;  // precision, bindings and the like do not change code generation
  }
}

Error malformed(uint32_t offset, const std::string& what) {
  return Error("SPIR-V word " + std::to_string(offset) + ": " + what);
}

}  // namespace

std::string literalString(std::span<const uint32_t> words, size_t first) {
  std::string s;
  for (size_t w = first; w < words.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[w] >> (8 * b)) & 0xff);
      if (c == '\0') return s;
      s.push_back(c);
    }
  }
  return s;
}

Module::Module(std::span<const uint32_t> words) {
  if (words.size() < 5 || words[0] != SpvMagicNumber) throw Error("not a SPIR-V module");
  bound_ = words[3];
  // First pass: split instructions.
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    const auto op = static_cast<SpvOp>(words[pos] & 0xffff);
    if (count == 0 || pos + count > words.size()) {
      throw malformed(static_cast<uint32_t>(pos), "bad instruction length");
    }
    bool hasResult = false, hasType = false;
    SpvHasResultAndType(op, &hasResult, &hasType);
    Instruction in;
    in.op = op;
    in.offset = static_cast<uint32_t>(pos);
    size_t w = pos + 1;
    const size_t end = pos + count;
    if (hasType && w < end) in.type = words[w++];
    if (hasResult && w < end) in.result = words[w++];
    in.operands.assign(words.begin() + static_cast<ptrdiff_t>(w),
                       words.begin() + static_cast<ptrdiff_t>(end));
    instructions_.push_back(std::move(in));
    pos = end;
  }
  // Second pass: module-level facts and the entry function's blocks. Pointers into
  // instructions_ stay valid: the vector no longer changes.
  bool inFunction = false, inEntry = false;
  Block* current = nullptr;
  for (size_t i = 0; i < instructions_.size(); ++i) {
    const Instruction& in = instructions_[i];
    if (in.result) defs_[in.result] = i;
    const auto ops = std::span<const uint32_t>(in.operands);
    switch (in.op) {
      case SpvOpName:
        if (!ops.empty()) names_[ops[0]] = literalString(ops, 1);
        break;
      case SpvOpMemberName:
        if (ops.size() > 1) memberNames_[memberKey(ops[0], ops[1])] = literalString(ops, 2);
        break;
      case SpvOpDecorate:
        if (!ops.empty()) applyDecoration(decorations_[ops[0]], ops.subspan(1));
        break;
      case SpvOpMemberDecorate:
        if (ops.size() > 1) {
          applyDecoration(memberDecorations_[memberKey(ops[0], ops[1])], ops.subspan(2));
        }
        break;
      case SpvOpExtInstImport:
        if (literalString(ops, 0) == "GLSL.std.450") glsl450_ = in.result;
        break;
      case SpvOpEntryPoint: {
        if (entry_) throw malformed(in.offset, "more than one entry point");
        if (ops.size() < 3) throw malformed(in.offset, "short OpEntryPoint");
        model_ = static_cast<SpvExecutionModel>(ops[0]);
        entry_ = ops[1];
        // The name occupies (length + 1) rounded up to words; the interface ids follow.
        const size_t nameWords = literalString(ops, 2).size() / 4 + 1;
        for (size_t w = 2 + nameWords; w < ops.size(); ++w) interface_.push_back(ops[w]);
        break;
      }
      case SpvOpVariable:
        if (!inFunction) {
          globals_.push_back(&in);
        } else if (inEntry) {
          locals_.push_back(&in);
        }
        break;
      case SpvOpFunction:
        inFunction = true;
        inEntry = in.result == entry_;
        break;
      case SpvOpFunctionEnd:
        inFunction = inEntry = false;
        current = nullptr;
        break;
      case SpvOpLabel:
        if (inEntry) {
          blockIndex_[in.result] = blocks_.size();
          blocks_.push_back(Block{in.result, {}, nullptr, nullptr});
          current = &blocks_.back();
        }
        break;
      default:
        break;
    }
    if (!current || in.op == SpvOpLabel) continue;
    if (in.op == SpvOpSelectionMerge || in.op == SpvOpLoopMerge) {
      current->merge = &in;
    } else if (in.op == SpvOpBranch || in.op == SpvOpBranchConditional || in.op == SpvOpSwitch ||
               in.op == SpvOpReturn || in.op == SpvOpReturnValue || in.op == SpvOpKill ||
               in.op == SpvOpUnreachable) {
      current->terminator = &in;
    } else if (in.op != SpvOpVariable) {
      current->body.push_back(&in);
    }
  }
  if (!entry_) throw Error("SPIR-V module has no entry point");
  if (blocks_.empty()) throw Error("SPIR-V module has no code for its entry point");
  for (const Block& b : blocks_) {
    if (!b.terminator)
      throw Error("SPIR-V block %" + std::to_string(b.label) + " has no terminator");
  }
}

const Instruction* Module::def(uint32_t id) const {
  const auto it = defs_.find(id);
  return it == defs_.end() ? nullptr : &instructions_[it->second];
}

const Instruction& Module::defOrThrow(uint32_t id) const {
  const Instruction* in = def(id);
  if (!in) throw Error("SPIR-V id %" + std::to_string(id) + " is used but never defined");
  return *in;
}

std::string Module::name(uint32_t id) const {
  const auto it = names_.find(id);
  return it == names_.end() || it->second.empty() ? "%" + std::to_string(id) : it->second;
}

std::string Module::memberName(uint32_t structId, uint32_t member) const {
  const auto it = memberNames_.find(memberKey(structId, member));
  return it == memberNames_.end() ? std::to_string(member) : it->second;
}

const Decorations& Module::decorations(uint32_t id) const {
  static const Decorations none;
  const auto it = decorations_.find(id);
  return it == decorations_.end() ? none : it->second;
}

const Decorations& Module::memberDecorations(uint32_t structId, uint32_t member) const {
  static const Decorations none;
  const auto it = memberDecorations_.find(memberKey(structId, member));
  return it == memberDecorations_.end() ? none : it->second;
}

const Block& Module::block(uint32_t label) const {
  const auto it = blockIndex_.find(label);
  if (it == blockIndex_.end())
    throw Error("SPIR-V branch to %" + std::to_string(label) + ", not a block");
  return blocks_[it->second];
}

}  // namespace tessera::compiler::spirv
