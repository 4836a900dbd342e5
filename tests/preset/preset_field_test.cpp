#include "gpu/preset/preset_field.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/error.h"

namespace tessera::gpu {
namespace {

std::string errorOf(auto&& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(PresetField, KeysAreUniqueAndDocumented) {
  std::set<std::string_view> keys;
  for (const PresetField& f : presetFields()) {
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    EXPECT_FALSE(f.unit.empty()) << f.key;
    EXPECT_FALSE(f.help.empty()) << f.key;
    EXPECT_EQ(&findPresetField(f.key), &f);
  }
  EXPECT_EQ(keys.size(), 38u);  // every member of Preset but name and description
}

TEST(PresetField, ValuesRoundTripThroughText) {
  for (const Preset& original : allPresets()) {
    Preset copy = findPreset("milo832-de2-115");
    for (const PresetField& f : presetFields()) {
      setPresetField(copy, f.key, presetFieldValue(original, f));
    }
    for (const PresetField& f : presetFields()) {
      EXPECT_EQ(presetFieldValue(copy, f), presetFieldValue(original, f))
          << original.name << " " << f.key;
    }
  }
}

TEST(PresetField, FormatsEachKind) {
  const Preset& a330 = findPreset("adreno-a330");
  EXPECT_EQ(presetFieldValue(a330, findPresetField("gmemBytes")), "1048576");
  EXPECT_EQ(presetFieldValue(a330, findPresetField("clockMHz")), "578");
  EXPECT_EQ(presetFieldValue(a330, findPresetField("sysmemOnly")), "false");
  Preset p = a330;
  setPresetField(p, "clockMHz", "612.5");
  EXPECT_EQ(p.clockMHz, 612.5);
  EXPECT_EQ(presetFieldValue(p, findPresetField("clockMHz")), "612.5");
}

TEST(PresetField, OverridesChangeOneField) {
  Preset p = findPreset("adreno-a320");
  applyPresetOverride(p, "gmemBytes=262144");
  applyPresetOverride(p, "sysmemOnly=true");
  applyPresetOverride(p, "busBytesPerCycle=12.5");
  EXPECT_EQ(p.gmemBytes, 262144u);
  EXPECT_TRUE(p.sysmemOnly);
  EXPECT_EQ(p.busBytesPerCycle, 12.5);
  EXPECT_EQ(p.maxBinW, 992u);
  applyPresetOverride(p, "sysmemOnly=0");
  EXPECT_FALSE(p.sysmemOnly);
  EXPECT_EQ(findPreset("adreno-a320").gmemBytes, 512u * 1024) << "the table is untouched";
}

TEST(PresetField, BadOverridesAreReported) {
  Preset p = findPreset("adreno-a320");
  const Preset before = p;
  EXPECT_EQ(errorOf([&] { applyPresetOverride(p, "gmemBytes"); }),
            "preset override 'gmemBytes' is not of the form key=value");
  EXPECT_NE(errorOf([&] {
              applyPresetOverride(p, "gmemKiB=4");
            }).find("unknown preset field 'gmemKiB'; known fields: gmemBytes, gmemPageAlign"),
            std::string::npos);
  EXPECT_EQ(errorOf([&] { setPresetField(p, "vscPipes", "-1"); }),
            "preset field 'vscPipes': '-1' is not a valid unsigned integer");
  EXPECT_EQ(errorOf([&] { setPresetField(p, "vscPipes", "8x"); }),
            "preset field 'vscPipes': '8x' is not a valid unsigned integer");
  EXPECT_EQ(errorOf([&] { setPresetField(p, "vscPipes", ""); }),
            "preset field 'vscPipes': '' is not a valid unsigned integer");
  EXPECT_EQ(errorOf([&] { setPresetField(p, "vscPipes", "4294967296"); }),
            "preset field 'vscPipes': '4294967296' is not a valid unsigned integer");
  EXPECT_EQ(errorOf([&] { setPresetField(p, "clockMHz", "fast"); }),
            "preset field 'clockMHz': 'fast' is not a valid number");
  EXPECT_EQ(errorOf([&] { setPresetField(p, "sysmemOnly", "yes"); }),
            "preset field 'sysmemOnly': 'yes' is not true/false");
  EXPECT_EQ(p.vscPipes, before.vscPipes);
  EXPECT_EQ(p.clockMHz, before.clockMHz);
}

}  // namespace
}  // namespace tessera::gpu
