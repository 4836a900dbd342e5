#include "gpu/vfd/vertex_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/half_float.h"

namespace tessera::gpu::vfd {

namespace {
template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// GLES 2.0 table 2.9: signed normalized c -> (2c + 1) / (2^b - 1).
float snorm(int32_t c, int bits) {
  return (2.0f * c + 1.0f) / static_cast<float>((1 << bits) - 1);
}
}  // namespace

float convertComponent(VertexFormat f, const uint8_t* s) {
  switch (f) {
    case VertexFormat::Float32:
      return load<float>(s);
    case VertexFormat::Float16:
      return tessera::halfToFloat(load<uint16_t>(s));
    case VertexFormat::Unorm8:
      return s[0] / 255.0f;
    case VertexFormat::Snorm8:
      return snorm(static_cast<int8_t>(s[0]), 8);
    case VertexFormat::Uint8:
      return s[0];
    case VertexFormat::Sint8:
      return static_cast<int8_t>(s[0]);
    case VertexFormat::Unorm16:
      return load<uint16_t>(s) / 65535.0f;
    case VertexFormat::Snorm16:
      return snorm(load<int16_t>(s), 16);
    case VertexFormat::Uint16:
      return load<uint16_t>(s);
    case VertexFormat::Sint16:
      return load<int16_t>(s);
    case VertexFormat::Uint32:
      return static_cast<float>(load<uint32_t>(s));
    case VertexFormat::Sint32:
      return static_cast<float>(load<int32_t>(s));
    case VertexFormat::Count:
      break;
  }
  return 0.0f;
}

}  // namespace tessera::gpu::vfd
