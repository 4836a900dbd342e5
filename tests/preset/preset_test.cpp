#include "gpu/preset/preset.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "common/error.h"
#include "gpu/preset/preset_field.h"

namespace tessera::gpu {
namespace {

std::string readDocs() {
  std::ifstream in(std::string(TESSERA_DOCS_DIR) + "/presets.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Preset, NamesAreTheDocumentedOnes) {
  std::vector<std::string_view> names;
  for (const Preset& p : allPresets()) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"adreno-a320", "adreno-a330", "adreno-a630",
                                                  "milo832-kv260", "milo832-de2-115", "sysmem"}));
}

TEST(Preset, EveryPresetValidates) {
  for (const Preset& p : allPresets()) {
    EXPECT_NO_THROW(validatePreset(p)) << p.name;
    EXPECT_FALSE(p.description.empty()) << p.name;
  }
}

TEST(Preset, FindReturnsTheTableEntry) {
  const Preset& a320 = findPreset("adreno-a320");
  EXPECT_EQ(a320.name, "adreno-a320");
  EXPECT_EQ(a320.gmemBytes, 512u * 1024);
  EXPECT_EQ(a320.gmemPageAlign, 16u * 1024);
  EXPECT_EQ(a320.maxBinW, 992u);
  EXPECT_EQ(a320.maxBinH, 480u);
  EXPECT_EQ(a320.vscPipes, 8u);
  EXPECT_EQ(findPreset("adreno-a330").gmemBytes, 1024u * 1024);
  const Preset& a630 = findPreset("adreno-a630");
  EXPECT_EQ(a630.gmemPageAlign, 8u * 1024);
  EXPECT_EQ(a630.vscPipes, 32u);
  EXPECT_EQ(a630.maxBinW, 1024u);
  EXPECT_EQ(a630.maxBinH, 1008u);
  EXPECT_TRUE(findPreset("sysmem").sysmemOnly);
  EXPECT_EQ(&findPreset("milo832-kv260"), &allPresets()[3]);
}

TEST(Preset, MiloResourcesFollowTheDesign) {
  const Preset& kv = findPreset("milo832-kv260");
  EXPECT_EQ(kv.clockMHz, 100);
  EXPECT_EQ(kv.shaderCores, 2u);
  EXPECT_EQ(kv.warpsPerCore, 8u);
  EXPECT_EQ(kv.busBytesPerCycle, 100);
  EXPECT_EQ(kv.maxBinW, 32u);
  const Preset& de2 = findPreset("milo832-de2-115");
  EXPECT_EQ(de2.clockMHz, 50);
  EXPECT_EQ(de2.shaderCores, 1u);
  EXPECT_EQ(de2.warpsPerCore, 4u);
  EXPECT_EQ(de2.busBytesPerCycle, 8);
  EXPECT_EQ(de2.maxBinW, 16u);
}

TEST(Preset, SysmemDiffersFromA630OnlyInTiling) {
  const Preset& a630 = findPreset("adreno-a630");
  const Preset& sysmem = findPreset("sysmem");
  for (const PresetField& f : presetFields()) {
    if (f.key == "sysmemOnly") {
      EXPECT_NE(presetFieldValue(a630, f), presetFieldValue(sysmem, f));
    } else {
      EXPECT_EQ(presetFieldValue(a630, f), presetFieldValue(sysmem, f)) << f.key;
    }
  }
}

TEST(Preset, UnknownNameListsKnownPresets) {
  try {
    findPreset("adreno-a999");
    FAIL() << "expected tessera::Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "unknown preset 'adreno-a999'; known presets: adreno-a320, adreno-a330, "
                 "adreno-a630, milo832-kv260, milo832-de2-115, sysmem");
  }
  EXPECT_THROW(findPreset(""), Error);
  EXPECT_THROW(findPreset("ADRENO-A320"), Error);
}

TEST(Preset, ValidationNamesTheBrokenRule) {
  Preset p = findPreset("adreno-a320");
  p.maxBinW = 1000;  // not a multiple of the 32-pixel alignment
  try {
    validatePreset(p);
    FAIL() << "expected tessera::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("adreno-a320"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("maxBinW"), std::string::npos) << e.what();
  }
  auto broken = [](auto mutate) {
    Preset q = findPreset("adreno-a630");
    mutate(q);
    return q;
  };
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.gmemBytes = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.gmemPageAlign = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.binAlignH = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.maxBinH = 8; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.vscPipes = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.lanesPerWarp = 64; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.clockMHz = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.busBytesPerCycle = -1; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texelsPerCycle = 0; })), Error);
  // The timing model's fields: rates and costs of zero would divide by zero or cost nothing.
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.vfdBytesPerCycle = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.gmemBytesPerCycle = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.cpCyclesPerPacket = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.setupCyclesPerTriangle = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.tileBuffers = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.tileBuffers = 3; })), Error);
  // The texture cache: a power-of-two line of at least 16 bytes, at least one way, and a
  // capacity of line x ways x a power-of-two number of sets (or 0 for no cache).
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texCacheLineBytes = 8; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texCacheLineBytes = 48; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texCacheWays = 0; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texCacheBytes = 1000; })), Error);
  EXPECT_THROW(validatePreset(broken([](Preset& q) { q.texCacheBytes = 3 * 64 * 8; })), Error);
  EXPECT_NO_THROW(validatePreset(broken([](Preset& q) { q.texCacheBytes = 0; })));
  EXPECT_NO_THROW(validatePreset(broken([](Preset& q) {
    q.texCacheBytes = 16 * 3;  // one set of three 16-byte ways
    q.texCacheLineBytes = 16;
    q.texCacheWays = 3;
  })));
}

TEST(PresetDocs, EveryPresetNameAppears) {
  std::string docs = readDocs();
  ASSERT_FALSE(docs.empty()) << "docs/presets.md is missing";
  for (const Preset& p : allPresets()) {
    EXPECT_NE(docs.find(std::string(p.name)), std::string::npos) << p.name;
  }
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  std::getline(in, cell, '|');  // text before the first '|'
  while (std::getline(in, cell, '|')) {
    size_t b = cell.find_first_not_of(' ');
    size_t e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// The parameter table of docs/presets.md is checked cell by cell against the preset table, so
// the two cannot drift apart.
TEST(PresetDocs, ParameterTableMatchesThePresets) {
  std::stringstream docs(readDocs());
  std::string line;
  std::vector<std::string> header;
  std::map<std::string, int> rowsSeen;
  while (std::getline(docs, line)) {
    if (!header.empty() && line.empty()) break;  // the table ends at the first blank line
    std::vector<std::string> row = cells(line);
    if (row.size() > 2 && row[0] == "parameter" && row[1] == "unit") {
      header = row;
      continue;
    }
    if (header.empty() || row.size() < 2 || row[0].size() < 3 || row[0].front() != '`') continue;
    std::string key = row[0].substr(1, row[0].size() - 2);
    const PresetField& field = findPresetField(key);
    ++rowsSeen[key];
    ASSERT_EQ(row.size(), header.size()) << line;
    EXPECT_EQ(row[1], field.unit) << key;
    for (size_t col = 2; col < header.size(); ++col) {
      const Preset& p = findPreset(header[col]);
      EXPECT_EQ(row[col], presetFieldValue(p, field)) << key << " of " << p.name;
    }
  }
  ASSERT_EQ(header.size(), allPresets().size() + 2) << "every preset needs a column";
  for (const PresetField& f : presetFields()) {
    EXPECT_EQ(rowsSeen[std::string(f.key)], 1) << f.key << " needs exactly one row";
  }
}

}  // namespace
}  // namespace tessera::gpu
