#include "compiler/lower/lowering.h"

#include <functional>

#include "common/error.h"

namespace tessera::compiler::lower {

using ir::File;
using ir::Opcode;
using ir::Operand;

ir::Program lowerModule(const spirv::Module& module, const ProgramLayout& layout) {
  return Lowering(module, layout).run();
}

Lowering::Lowering(const spirv::Module& m, const ProgramLayout& layout)
    : m_(m), layout_(layout), types_(m), b_(p_) {}

void Lowering::unsupported(const spirv::Instruction& in, const std::string& what) const {
  throw Error(std::string(m_.executionModel() == SpvExecutionModelVertex ? "vertex" : "fragment") +
              " shader: " + what + " is not supported (SPIR-V word " + std::to_string(in.offset) +
              ")");
}

ir::Program Lowering::run() {
  const bool vertex = m_.executionModel() == SpvExecutionModelVertex;
  if (!vertex && m_.executionModel() != SpvExecutionModelFragment) {
    throw Error("only vertex and fragment shaders are supported");
  }
  p_.stage = vertex ? isa::Stage::Vertex : isa::Stage::Fragment;
  const auto used = referencedIds(m_);
  for (const spirv::Instruction* v : m_.globals()) {
    if (used[v->result]) setUpVariable(*v);
  }
  for (const spirv::Instruction* v : m_.locals()) setUpVariable(*v);
  if (vertex) {
    p_.numOutputs = 1;
    for (const VaryingInfo& v : layout_.interface().varyings) {
      p_.numOutputs = static_cast<uint8_t>(std::max<int>(p_.numOutputs, 1 + v.slot + v.slots));
    }
    if (p_.pointSize)
      p_.numOutputs = static_cast<uint8_t>(std::max<int>(p_.numOutputs, p_.pointSize / 4 + 1));
    for (const AttributeInfo& a : layout_.interface().attributes) {
      p_.numInputs = static_cast<uint8_t>(
          std::max<int>(p_.numInputs, a.slot + std::max<int>(1, a.type.columns)));
    }
  } else {
    for (const VaryingInfo& v : layout_.interface().varyings) {
      p_.numVaryings = static_cast<uint8_t>(std::max<int>(p_.numVaryings, v.slot + v.slots));
      for (uint32_t k = 0; v.flat && k < v.slots; ++k)
        p_.flatVaryings = static_cast<uint16_t>(p_.flatVaryings | 1u << (v.slot + k));
    }
  }
  region(m_.blocks().front().label, 0);
  foldConditionalFlow(p_.code);
  if (!p_.code.empty() && p_.code.back().op == Opcode::Ret) {
    p_.code.pop_back();  // the outputs were written just before it
  } else {
    writeOutputs();
  }
  b_.flow(Opcode::End);
  return std::move(p_);
}

const Vals& Lowering::value(uint32_t id) {
  const auto it = values_.find(id);
  if (it != values_.end()) return it->second;
  const spirv::Instruction& in = m_.defOrThrow(id);
  switch (in.op) {
    case SpvOpConstant:
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpConstantComposite:
    case SpvOpConstantNull:
    case SpvOpUndef:
      return values_[id] = constantValue(in);
    case SpvOpPhi: {
      Vals regs;
      for (uint32_t k = 0; k < types_.flatSize(in.type); ++k)
        regs.push_back(ir::vreg(b_.newVreg()));
      canonical_.insert(id);
      return values_[id] = regs;
    }
    default:
      throw Error("SPIR-V id %" + std::to_string(id) + " (" + m_.name(id) +
                  ") is used before it is computed");
  }
}

Vals Lowering::constantValue(const spirv::Instruction& in) {
  switch (in.op) {
    case SpvOpConstant:
      return {ir::immBits(in.operand(0))};
    case SpvOpConstantTrue:
      return {ir::immBits(0xffffffffu)};
    case SpvOpConstantFalse:
      return {ir::immBits(0)};
    case SpvOpConstantComposite: {
      Vals v;
      for (uint32_t part : in.operands) {
        const Vals& p = value(part);
        v.insert(v.end(), p.begin(), p.end());
      }
      return v;
    }
    default:  // OpConstantNull, OpUndef: zero of every component
      return Vals(types_.flatSize(in.type), ir::immBits(0));
  }
}

void Lowering::define(uint32_t id, Vals v) {
  values_[id] = std::move(v);
}

// Outputs live in registers while the shader runs (it may read back what it wrote) and go to the
// output file when a lane finishes, so the binning variant sees only the final position writes.
void Lowering::writeOutputs() {
  for (const auto& [out, reg] : outputCopies_) b_.mov(out, reg);
}

// A block can be lowered more than once (a loop's continue construct is repeated at each
// `continue`). The first lowering's registers stay the id's home; later ones copy into them, so
// a use anywhere sees the value of the path its lane took.
void Lowering::defineNew(uint32_t id, Vals v) {
  if (canonical_.count(id)) {
    const Vals& home = values_[id];
    for (size_t k = 0; k < v.size() && k < home.size(); ++k) {
      if (ir::isVreg(home[k]) && !(home[k] == v[k])) b_.mov(home[k], v[k]);
    }
    return;
  }
  canonical_.insert(id);
  values_[id] = std::move(v);
}

int Lowering::samplerOf(uint32_t id) const {
  const auto it = samplers_.find(id);
  if (it == samplers_.end()) {
    throw Error("SPIR-V id %" + std::to_string(id) + " is not a sampler with a known slot");
  }
  return it->second;
}

void Lowering::setUpVariable(const spirv::Instruction& v) {
  const auto cls = static_cast<SpvStorageClass>(v.operand(0));
  const uint32_t type = types_.pointee(v.type);
  const uint32_t n = types_.flatSize(type);
  const std::string name = m_.name(v.result);
  Storage s;
  std::vector<int32_t> table;
  types_.slotTable(type, 0, table);
  auto slotOperands = [&](File file, int32_t base) {
    for (int32_t t : table) s.elems.push_back(Operand{file, false, false, false, base + t, 0});
  };
  const auto builtIn = builtInOf(m_, v);
  const bool vertex = p_.stage == isa::Stage::Vertex;
  switch (cls) {
    case SpvStorageClassFunction:
    case SpvStorageClassPrivate:
      for (uint32_t k = 0; k < n; ++k) s.elems.push_back(ir::vreg(b_.newVreg()));
      break;
    case SpvStorageClassUniformConstant: {
      s.home = Home::Constants;
      const int32_t base = layout_.uniformConstant(name);
      const int32_t sampler = layout_.samplerSlot(name);
      if (base < 0) throw Error("uniform '" + name + "' has no place in the layout");
      slotOperands(File::Const, base);
      // Samplers inside the type take consecutive slots in flattened order.
      int32_t next = sampler;
      std::vector<bool> isSampler;
      std::function<void(uint32_t)> walk = [&](uint32_t t) {
        const spirv::Instruction& ti = types_.type(t);
        if (ti.op == SpvOpTypeSampledImage) {
          isSampler.push_back(true);
        } else if (ti.op == SpvOpTypeArray || ti.op == SpvOpTypeStruct ||
                   ti.op == SpvOpTypeMatrix || ti.op == SpvOpTypeVector) {
          for (uint32_t i = 0; i < types_.elementCount(t); ++i) walk(types_.childType(t, i));
        } else {
          isSampler.push_back(false);
        }
      };
      walk(type);
      for (bool smp : isSampler) s.sampler.push_back(smp ? next++ : -1);
      break;
    }
    case SpvStorageClassInput:
      if (vertex) {
        if (builtIn) throw Error("vertex shader built-in input is not supported");
        s.home = Home::Inputs;
        slotOperands(File::Input, 4 * layout_.attributeSlot(name));
      } else if (builtIn == SpvBuiltInFragCoord) {
        s.home = Home::Inputs;
        for (int c = 0; c < 4; ++c)
          s.elems.push_back(Operand{File::Sys, false, false, false, c, 0});
      } else if (builtIn == SpvBuiltInFrontFacing) {
        s.home = Home::Inputs;
        s.elems.push_back(Operand{File::Sys, false, false, false,
                                  static_cast<int32_t>(isa::SysValue::FrontFacing), 0});
      } else if (builtIn == SpvBuiltInPointCoord) {
        s.home = Home::Inputs;
        for (isa::SysValue c : {isa::SysValue::PointCoordS, isa::SysValue::PointCoordT})
          s.elems.push_back(Operand{File::Sys, false, false, false, static_cast<int32_t>(c), 0});
      } else if (builtIn) {
        throw Error("fragment shader: built-in input " + name + " is not supported yet");
      } else {
        const int32_t slot = layout_.varyingSlot(name);
        if (slot < 0) throw Error("varying '" + name + "' is not written by the vertex shader");
        s.home = Home::Varyings;
        slotOperands(File::Varying, 4 * slot);
      }
      break;
    case SpvStorageClassOutput:
      s.home = Home::Regs;
      if (vertex && builtIn) {
        s.elems = builtInOutputs(v, type);
      } else if (vertex) {
        const int32_t slot = layout_.varyingSlot(name);
        if (slot < 0) {
          s.home = Home::Sink;  // no fragment shader reads it
          s.elems = Vals(n);
        } else {
          slotOperands(File::Output, 4 * (1 + slot));
        }
      } else {
        // gl_FragColor, gl_FragData[0] or the one `out vec4` of GLSL ES 3.00: colour output 0;
        // further gl_FragData elements have no render target.
        for (uint32_t k = 0; k < n; ++k) {
          s.elems.push_back(
              k < 4 ? Operand{File::Output, false, false, false, static_cast<int32_t>(k), 0}
                    : Operand{});
        }
        p_.numOutputs = 1;
      }
      break;
    default:
      unsupported(v, "variable storage class " + std::to_string(static_cast<int>(cls)));
  }
  if (cls == SpvStorageClassOutput) {
    for (Operand& e : s.elems) {
      if (e.file != File::Output) continue;
      const Operand reg = ir::vreg(b_.newVreg());
      outputCopies_.emplace_back(e, reg);
      e = reg;
    }
  }
  if (s.sampler.empty()) s.sampler.assign(n, -1);
  storage_[v.result] = std::move(s);
  pointers_[v.result] = Pointer{v.result, type, 0, {}};
  if (v.operands.size() > 1) store(pointers_[v.result], value(v.operand(1)));  // initializer
}

// gl_Position goes to o0; gl_PointSize to the output after the varyings, which the program
// header names for primitive setup. Both may come as the members of a gl_PerVertex block.
Vals Lowering::builtInOutputs(const spirv::Instruction& v, uint32_t type) {
  auto place = [&](std::optional<SpvBuiltIn> b, uint32_t components, Vals& out) {
    if (b == SpvBuiltInPosition) {
      for (uint32_t c = 0; c < components; ++c)
        out.push_back(Operand{File::Output, false, false, false, static_cast<int32_t>(c), 0});
    } else if (b == SpvBuiltInPointSize) {
      const int32_t o = layout_.pointSizeOutput();
      p_.pointSize = static_cast<uint8_t>(o + 1);
      out.push_back(Operand{File::Output, false, false, false, o, 0});
    } else {
      out.resize(out.size() + components);  // written nowhere (no other vertex built-in)
    }
  };
  Vals elems;
  const spirv::Instruction& t = types_.type(type);
  if (t.op == SpvOpTypeStruct) {
    for (uint32_t i = 0; i < types_.elementCount(type); ++i)
      place(m_.memberDecorations(type, i).builtIn, types_.flatSize(types_.childType(type, i)),
            elems);
  } else {
    place(builtInOf(m_, v), types_.flatSize(type), elems);
  }
  return elems;
}

Lowering::Storage& Lowering::storage(uint32_t var) {
  return storage_.at(var);
}

Lowering::Pointer Lowering::pointer(uint32_t id) const {
  const auto it = pointers_.find(id);
  if (it == pointers_.end()) {
    throw Error("SPIR-V id %" + std::to_string(id) + " is not a pointer this compiler tracks");
  }
  return it->second;
}

void Lowering::accessChain(const spirv::Instruction& in) {
  Pointer p = pointer(in.operand(0));
  for (size_t k = 1; k < in.operands.size(); ++k) {
    const uint32_t indexId = in.operands[k];
    const spirv::Instruction* def = m_.def(indexId);
    if (def && def->op == SpvOpConstant) {
      const uint32_t i = def->operand(0);
      if (i >= types_.elementCount(p.type)) unsupported(in, "an out-of-range constant index");
      p.flat += types_.childFlatOffset(p.type, i);
      p.type = types_.childType(p.type, i);
      continue;
    }
    const uint32_t child = types_.childType(p.type, 0);
    p.dynamic.push_back({value(indexId).at(0), types_.elementCount(p.type), types_.flatSize(child),
                         types_.type(p.type).op == SpvOpTypeVector ? 0 : types_.slots(child)});
    p.type = child;
  }
  pointers_[in.result] = p;
}

Vals Lowering::loadStatic(const Storage& s, uint32_t first, uint32_t n) {
  Vals out;
  for (uint32_t k = first; k < first + n; ++k) {
    const Operand& e = s.elems.at(k);
    if (s.sampler.at(k) >= 0) {
      out.push_back(Operand{});  // a sampler has no register value; samplers_ tracks it
    } else if (e.file == File::Varying) {
      out.push_back(b_.ipl(e.index / 4, e.index % 4));
    } else if (s.home == Home::Sink || e.file == File::None) {
      out.push_back(ir::immBits(0));
    } else if (s.home == Home::Regs) {
      out.push_back(b_.op(Opcode::Mov, e));  // a load is a snapshot: later stores must not show
    } else {
      out.push_back(e);
    }
  }
  return out;
}

Vals Lowering::load(const Pointer& p) {
  const Storage& s = storage(p.var);
  const uint32_t n = types_.flatSize(p.type);
  if (p.dynamic.empty()) return loadStatic(s, p.flat, n);
  if (s.home == Home::Constants && !types_.isSampler(p.type)) {
    // Relative constant addressing: a0.x = sum of index * stride, then c[a0.x + offset].
    Operand addr{};
    for (const DynamicIndex& d : p.dynamic) {
      const uint32_t stride = d.slotStride ? 4 * d.slotStride : 1;
      const Operand scaled =
          stride == 1 ? d.index
                      : b_.op(Opcode::Imul, d.index, ir::immInt(static_cast<int32_t>(stride)));
      addr = addr.file == File::None ? scaled : b_.op(Opcode::Iadd, addr, scaled);
    }
    b_.mova(addr);
    Vals out;
    for (uint32_t k = 0; k < n; ++k) {
      Operand c = s.elems.at(p.flat + k);
      c.rel = true;
      out.push_back(b_.op(Opcode::Mov, c));
    }
    return out;
  }
  // Anything else: a select over every element the first dynamic index can reach.
  Pointer rest = p;
  const DynamicIndex d = rest.dynamic.front();
  rest.dynamic.erase(rest.dynamic.begin());
  Vals result;
  for (uint32_t e = 0; e < d.count; ++e) {
    Pointer at = rest;
    at.flat += e * d.flatStride;
    Vals v = load(at);
    if (e == 0) {
      result = v;
      continue;
    }
    const Operand hit = b_.op(Opcode::Ieq, d.index, ir::immInt(static_cast<int32_t>(e)));
    for (uint32_t k = 0; k < n; ++k) result[k] = b_.op(Opcode::Sel, hit, v[k], result[k]);
  }
  return result;
}

void Lowering::storeStatic(Storage& s, uint32_t first, const Vals& v) {
  if (s.home == Home::Sink) return;
  if (s.home != Home::Regs) {
    throw Error("store to a read-only variable");
  }
  for (size_t k = 0; k < v.size(); ++k) {
    const Operand& dst = s.elems.at(first + k);
    if (dst.file != File::None) b_.mov(dst, v[k]);
  }
}

void Lowering::store(const Pointer& p, const Vals& v) {
  Storage& s = storage(p.var);
  if (p.dynamic.empty()) return storeStatic(s, p.flat, v);
  if (s.home == Home::Sink) return;
  // Every element the index can reach keeps its value unless the index selects it.
  Pointer rest = p;
  const DynamicIndex d = rest.dynamic.front();
  rest.dynamic.erase(rest.dynamic.begin());
  for (uint32_t e = 0; e < d.count; ++e) {
    Pointer at = rest;
    at.flat += e * d.flatStride;
    const Vals old = load(at);
    const Operand hit = b_.op(Opcode::Ieq, d.index, ir::immInt(static_cast<int32_t>(e)));
    Vals merged;
    for (size_t k = 0; k < v.size(); ++k) merged.push_back(b_.op(Opcode::Sel, hit, v[k], old[k]));
    store(at, merged);
  }
}

bool Lowering::memoryOp(const spirv::Instruction& in) {
  switch (in.op) {
    case SpvOpVariable:
      return true;  // set up before the code
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
      accessChain(in);
      return true;
    case SpvOpLoad: {
      const Pointer p = pointer(in.operand(0));
      if (types_.isSampler(in.type)) {
        if (!p.dynamic.empty())
          unsupported(in, "indexing a sampler array with a non-constant index");
        samplers_[in.result] = storage(p.var).sampler.at(p.flat);
        define(in.result, {Operand{}});
        return true;
      }
      defineNew(in.result, load(p));
      return true;
    }
    case SpvOpStore:
      store(pointer(in.operand(0)), value(in.operand(1)));
      return true;
    case SpvOpCopyMemory:
      store(pointer(in.operand(0)), load(pointer(in.operand(1))));
      return true;
    default:
      return false;
  }
}

}  // namespace tessera::compiler::lower
