// glmark2-es2 (Debian's X11 build, unmodified) on Tessera's libEGL/libGLESv2 under Xvfb, which the
// test starts itself: each scene's --validate verdict must be llvmpipe's (Success, or Unknown
// where glmark2 has no reference image).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "glmark2/default_scenes.h"
#include "glmark2/xvfb.h"  // after gtest (Xlib's macros)

namespace {

tessera::test::Xvfb& server() {
  static tessera::test::Xvfb x;
  return x;
}

// The "Validation: ..." verdict of one scene, or what went wrong.
std::string verdict(const std::string& scene, const std::string& env) {
  const std::string cmd = "env DISPLAY=" + server().display() + " " + env +
                          " timeout 120 glmark2-es2 --validate -s 320x240 -b '" + scene + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "popen failed";
  std::string out;
  std::array<char, 512> buf;
  while (fgets(buf.data(), buf.size(), p)) out += buf.data();
  pclose(p);
  const auto at = out.find("Validation: ");
  if (at == std::string::npos) return "no verdict:\n" + out;
  return out.substr(at + 12, out.find('\n', at) - at - 12);
}

class Glmark2Validate : public ::testing::TestWithParam<std::string> {};

TEST_P(Glmark2Validate, SucceedsWhereLlvmpipeDoes) {
  ASSERT_FALSE(server().display().empty()) << "Xvfb did not start";
  const std::string scene = GetParam();
  const std::string mesa = verdict(scene, "LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe");
  const std::string ours = verdict(scene, std::string("LD_LIBRARY_PATH=") + TESSERA_GL_LIB_DIR);
  RecordProperty("llvmpipe", mesa);
  RecordProperty("tessera", ours);
  // Success where llvmpipe succeeds; where glmark2 has no reference ("Unknown") the scene must
  // still run to its verdict.
  EXPECT_EQ(ours, mesa) << scene;
}

INSTANTIATE_TEST_SUITE_P(Scenes, Glmark2Validate,
                         ::testing::ValuesIn(tessera::test::glmark2DefaultScenes()),
                         [](const auto& p) { return tessera::test::glmark2TestName(p.param); });

}  // namespace
