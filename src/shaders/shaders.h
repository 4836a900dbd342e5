// The assembly shaders Tessera ships (lit.vs, phong.fs, phong_tex.fs, constant.fs), embedded
// in the library at build time. The constant layout they share is in docs/isa.md.
#pragma once
#include <span>
#include <string_view>

namespace tessera::shaders {

// The assembly text of a shipped shader; throws tessera::Error for an unknown name.
std::string_view source(std::string_view name);
// Every shipped shader's name, e.g. "lit.vs".
std::span<const std::string_view> names();

}  // namespace tessera::shaders
