#include "compiler/lower/layout.h"

#include <algorithm>

#include "common/error.h"
#include "compiler/lower/types.h"
#include "isa/program.h"

namespace tessera::compiler::lower {
namespace {

SpvStorageClass storageOf(const spirv::Instruction& variable) {
  return static_cast<SpvStorageClass>(variable.operand(0));
}

// GL names the leaves of a uniform: struct members "s.m", elements of struct arrays "a[2].m";
// arrays of basic types stay one uniform with an array size.
void addLeaves(const Types& types, const spirv::Module& m, uint32_t typeId, const std::string& name,
               int32_t constant, int32_t sampler, ProgramInterface& out) {
  const spirv::Instruction& t = types.type(typeId);
  const bool structArray = t.op == SpvOpTypeArray && types.type(t.operand(0)).op == SpvOpTypeStruct;
  if (t.op == SpvOpTypeStruct || structArray) {
    int32_t samplersBefore = 0;
    for (uint32_t i = 0; i < types.elementCount(typeId); ++i) {
      const uint32_t child = types.childType(typeId, i);
      const std::string childName = t.op == SpvOpTypeStruct ? name + "." + m.memberName(typeId, i)
                                                            : name + "[" + std::to_string(i) + "]";
      const int32_t childConstant =
          constant < 0 ? -1 : constant + 4 * static_cast<int32_t>(types.childSlotOffset(typeId, i));
      addLeaves(types, m, child, childName, childConstant,
                sampler < 0 ? -1 : sampler + samplersBefore, out);
      if (types.isSampler(child)) samplersBefore += static_cast<int32_t>(types.flatSize(child));
    }
    return;
  }
  UniformInfo u;
  u.name = name;
  u.type = types.shaderType(typeId);
  if (u.type.isSampler()) {
    u.sampler = sampler;
  } else {
    u.constant = constant;
    u.stride = 4 * (u.type.arraySize ? types.slots(types.childType(typeId, 0)) : 0);
  }
  out.uniforms.push_back(u);
}

// Sampler slots a type takes (structs may mix samplers and data; GLSL ES allows that).
uint32_t samplerCount(const Types& types, uint32_t typeId) {
  const spirv::Instruction& t = types.type(typeId);
  if (t.op == SpvOpTypeSampledImage) return 1;
  if (t.op == SpvOpTypeArray) return types.elementCount(typeId) * samplerCount(types, t.operand(0));
  if (t.op == SpvOpTypeStruct) {
    uint32_t n = 0;
    for (uint32_t member : t.operands) n += samplerCount(types, member);
    return n;
  }
  return 0;
}

}  // namespace

std::vector<bool> referencedIds(const spirv::Module& m) {
  std::vector<bool> used(m.bound(), false);
  for (const spirv::Block& b : m.blocks()) {
    auto mark = [&](const spirv::Instruction* in) {
      if (!in) return;
      for (uint32_t w : in->operands) {
        if (w < used.size()) used[w] = true;
      }
    };
    for (const spirv::Instruction* in : b.body) mark(in);
    mark(b.terminator);
  }
  return used;
}

std::optional<SpvBuiltIn> builtInOf(const spirv::Module& m, const spirv::Instruction& variable) {
  if (auto b = m.decorations(variable.result).builtIn) return b;
  const Types types(m);
  const uint32_t pointee = types.pointee(variable.type);
  if (types.type(pointee).op == SpvOpTypeStruct) {
    return m.memberDecorations(pointee, 0).builtIn;
  }
  return std::nullopt;
}

ProgramLayout::ProgramLayout(const std::vector<const spirv::Module*>& modules,
                             const LinkOptions& options) {
  const spirv::Module* vs = nullptr;
  const spirv::Module* fs = nullptr;
  for (const spirv::Module* m : modules) {
    (m->executionModel() == SpvExecutionModelVertex ? vs : fs) = m;
  }
  int32_t nextConstant = 0, nextSampler = 0;
  for (const spirv::Module* m : modules) {
    const Types types(*m);
    const auto used = referencedIds(*m);
    for (const spirv::Instruction* v : m->globals()) {
      if (storageOf(*v) != SpvStorageClassUniformConstant || !used[v->result]) continue;
      const std::string name = m->name(v->result);
      if (constants_.count(name) || samplers_.count(name)) continue;  // shared by the stages
      const uint32_t type = types.pointee(v->type);
      const uint32_t nSamplers = samplerCount(types, type);
      const int32_t constant = nextConstant;
      const int32_t sampler = nSamplers ? nextSampler : -1;
      constants_[name] = constant;
      if (nSamplers) samplers_[name] = sampler;
      const uint32_t dataSlots = nSamplers == types.flatSize(type) ? 0 : types.slots(type);
      nextConstant += 4 * static_cast<int32_t>(dataSlots);
      nextSampler += static_cast<int32_t>(nSamplers);
      addLeaves(types, *m, type, name, dataSlots ? constant : -1, sampler, interface_);
    }
  }
  if (nextConstant > isa::kMaxConstants) {
    throw Error("program uses " + std::to_string(nextConstant / 4) +
                " vec4 uniform slots; Tessera has " + std::to_string(isa::kMaxConstants / 4));
  }
  if (nextSampler > isa::kMaxSamplers) {
    throw Error("program uses " + std::to_string(nextSampler) + " samplers; Tessera has " +
                std::to_string(isa::kMaxSamplers));
  }
  interface_.constantCount = static_cast<uint32_t>(nextConstant);
  interface_.samplerCount = static_cast<uint32_t>(nextSampler);

  if (vs) {
    const Types types(*vs);
    const auto used = referencedIds(*vs);
    std::vector<bool> taken(isa::kMaxInputs, false);
    std::vector<const spirv::Instruction*> unbound;
    auto place = [&](const spirv::Instruction* v, int32_t slot) {
      const uint32_t type = types.pointee(v->type);
      const auto n = static_cast<int32_t>(types.slots(type));
      if (slot < 0 || slot + n > isa::kMaxInputs) {
        throw Error("attribute '" + vs->name(v->result) + "' does not fit in the " +
                    std::to_string(isa::kMaxInputs) + " attribute slots");
      }
      for (int32_t s = slot; s < slot + n; ++s) {
        if (taken[static_cast<size_t>(s)]) {
          throw Error("attribute '" + vs->name(v->result) + "' overlaps another at slot " +
                      std::to_string(s));
        }
        taken[static_cast<size_t>(s)] = true;
      }
      attributes_[vs->name(v->result)] = slot;
      interface_.attributes.push_back({vs->name(v->result), types.shaderType(type), slot});
    };
    for (const spirv::Instruction* v : vs->globals()) {
      if (storageOf(*v) != SpvStorageClassInput || builtInOf(*vs, *v) || !used[v->result]) continue;
      const auto it = options.attributeBindings.find(vs->name(v->result));
      if (it != options.attributeBindings.end()) {
        place(v, it->second);
      } else {
        unbound.push_back(v);
      }
    }
    for (const spirv::Instruction* v : unbound) {
      const auto n = static_cast<int32_t>(types.slots(types.pointee(v->type)));
      int32_t slot = 0;
      while (
          slot + n <= isa::kMaxInputs &&
          std::any_of(taken.begin() + slot, taken.begin() + slot + n, [](bool b) { return b; })) {
        ++slot;
      }
      place(v, slot);
    }
  }

  // Varyings: the fragment shader's inputs decide (a vertex output nobody reads is dropped);
  // a lone vertex shader keeps all its outputs.
  const spirv::Module* reader = fs ? fs : vs;
  const SpvStorageClass cls = fs ? SpvStorageClassInput : SpvStorageClassOutput;
  const Types types(*reader);
  const auto used = referencedIds(*reader);
  int32_t nextVarying = 0;
  for (const spirv::Instruction* v : reader->globals()) {
    if (storageOf(*v) != cls || builtInOf(*reader, *v) || !used[v->result]) continue;
    const std::string name = reader->name(v->result);
    const uint32_t type = types.pointee(v->type);
    const auto n = types.slots(type);
    varyings_[name] = nextVarying;
    interface_.varyings.push_back(
        {name, types.shaderType(type), nextVarying, n, reader->decorations(v->result).flat});
    nextVarying += static_cast<int32_t>(n);
  }
  varyingSlots_ = nextVarying;
  if (nextVarying > isa::kMaxVaryings) {
    throw Error("program uses " + std::to_string(nextVarying) +
                " varying vec4 slots; Tessera has " + std::to_string(isa::kMaxVaryings));
  }
}

int32_t ProgramLayout::pointSizeOutput() const {
  if (varyingSlots_ >= isa::kMaxVaryings) {
    throw Error("gl_PointSize needs an output, but the varyings take all " +
                std::to_string(isa::kMaxVaryings));
  }
  return 4 * (1 + varyingSlots_);
}

int32_t ProgramLayout::find(const std::map<std::string, int32_t>& m, const std::string& name) {
  const auto it = m.find(name);
  return it == m.end() ? -1 : it->second;
}

}  // namespace tessera::compiler::lower
