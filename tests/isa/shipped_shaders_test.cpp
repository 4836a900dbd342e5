// Every shipped shader assembles, and round-trips through text and binary.
#include <gtest/gtest.h>

#include "isa/assembler.h"
#include "isa/encoding.h"
#include "shaders/shaders.h"

namespace tessera::isa {
namespace {

TEST(ShippedShaders, ListIsComplete) {
  std::vector<std::string_view> n(shaders::names().begin(), shaders::names().end());
  EXPECT_EQ(n,
            (std::vector<std::string_view>{"lit.vs", "phong.fs", "phong_tex.fs", "constant.fs"}));
  EXPECT_THROW(shaders::source("position.vs"), tessera::Error);
}

TEST(ShippedShaders, AssembleAndRoundTrip) {
  for (std::string_view name : shaders::names()) {
    SCOPED_TRACE(std::string(name));
    Program p = assemble(shaders::source(name), name);
    EXPECT_EQ(p.stage, name.ends_with(".vs") ? Stage::Vertex : Stage::Fragment);
    std::string dis = disassemble(p);
    EXPECT_EQ(assemble(dis, "dis.s"), p) << dis;
    EXPECT_EQ(decode(encode(p)), p);
  }
}

TEST(ShippedShaders, HeadersMatchTheShaderInterface) {
  Program vs = assemble(shaders::source("lit.vs"), "lit.vs");
  EXPECT_EQ(vs.numInputs, 3);
  EXPECT_EQ(vs.numOutputs, 4);
  Program tex = assemble(shaders::source("phong_tex.fs"), "phong_tex.fs");
  EXPECT_EQ(tex.numVaryings, 3);
  EXPECT_TRUE(tex.uses(kUsesTexture));
  Program phong = assemble(shaders::source("phong.fs"), "phong.fs");
  EXPECT_FALSE(phong.uses(kUsesTexture));
  EXPECT_EQ(phong.numOutputs, 1);
}

}  // namespace
}  // namespace tessera::isa
