// Field-by-field access to a Preset: one table naming every numeric parameter with its unit and
// meaning. The command line overrides parameters through it ("gmemBytes=262144"), reports print
// presets through it, and a test keeps docs/presets.md equal to it.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "gpu/preset/preset.h"

namespace tessera::gpu {

struct PresetField {
  using Member = std::variant<uint32_t Preset::*, double Preset::*, bool Preset::*>;
  std::string_view key;   // the member's name, as written in overrides
  std::string_view unit;  // "bytes", "pixels", "cycles", "count", ... ("-" for flags)
  std::string_view help;  // one line
  Member member;
};

// Every parameter of Preset except name and description, in declaration order.
std::span<const PresetField> presetFields();

// The field called `key`; throws tessera::Error listing the known keys if there is none.
const PresetField& findPresetField(std::string_view key);

// The value as text: integers in decimal, doubles in shortest round-trip form, flags as
// "true"/"false". Parsing this text with setPresetField gives the value back.
std::string presetFieldValue(const Preset& preset, const PresetField& field);

// Sets one field from text; throws tessera::Error on an unknown key or a malformed value. The
// caller runs validatePreset() once all overrides are applied.
void setPresetField(Preset& preset, std::string_view key, std::string_view value);

// Applies "key=value"; throws tessera::Error if the '=' is missing or setPresetField fails.
void applyPresetOverride(Preset& preset, std::string_view assignment);

}  // namespace tessera::gpu
