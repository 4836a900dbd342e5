#include "shadertest/shader_test.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "common/error.h"

namespace tessera::shadertest {
namespace {

uint32_t hashName(const std::string& s) {  // FNV-1a: stable across runs and machines
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

bool parseSize(const std::string& text, uint32_t& w, uint32_t& h) {
  const auto x = text.find('x');
  if (x == std::string::npos) return false;
  try {
    w = static_cast<uint32_t>(std::stoul(text.substr(0, x)));
    h = static_cast<uint32_t>(std::stoul(text.substr(x + 1)));
  } catch (const std::exception&) {
    return false;
  }
  return w > 0 && h > 0 && w <= 4096 && h <= 4096;
}

// clang-format off
constexpr TexelFormatInfo kFormats[] = {
  {TexelFormat::RGBA8,    "rgba8",    4, 8,  false, false, false},
  {TexelFormat::Depth16,  "depth16",  1, 16, false, false, true},
  {TexelFormat::Depth24,  "depth24",  1, 32, false, false, true},  // 24 depth + 8 stencil bits
  {TexelFormat::R8I,      "r8i",      1, 8,  true,  true,  false},
  {TexelFormat::R8UI,     "r8ui",     1, 8,  false, true,  false},
  {TexelFormat::RG8I,     "rg8i",     2, 8,  true,  true,  false},
  {TexelFormat::RG8UI,    "rg8ui",    2, 8,  false, true,  false},
  {TexelFormat::RGBA8I,   "rgba8i",   4, 8,  true,  true,  false},
  {TexelFormat::RGBA8UI,  "rgba8ui",  4, 8,  false, true,  false},
  {TexelFormat::R16I,     "r16i",     1, 16, true,  true,  false},
  {TexelFormat::R16UI,    "r16ui",    1, 16, false, true,  false},
  {TexelFormat::RGBA16I,  "rgba16i",  4, 16, true,  true,  false},
  {TexelFormat::RGBA16UI, "rgba16ui", 4, 16, false, true,  false},
  {TexelFormat::R32I,     "r32i",     1, 32, true,  true,  false},
  {TexelFormat::R32UI,    "r32ui",    1, 32, false, true,  false},
  {TexelFormat::RGBA32I,  "rgba32i",  4, 32, true,  true,  false},
  {TexelFormat::RGBA32UI, "rgba32ui", 4, 32, false, true,  false},
};
// clang-format on
constexpr const char* kCompareNames[] = {"never",   "less",     "equal",  "lequal",
                                         "greater", "notequal", "gequal", "always"};

}  // namespace

const TexelFormatInfo& formatInfo(TexelFormat f) {
  return kFormats[static_cast<size_t>(f)];
}

ShaderTest parse(const std::string& text, const std::string& name) {
  ShaderTest t;
  t.name = name;
  std::istringstream in(text);
  std::string line, section;
  int number = 0;
  auto fail = [&](const std::string& what) -> Error {
    return Error(name + ":" + std::to_string(number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line[0] == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      if (section.rfind("texture ", 0) == 0) {
        TextureSpec spec;
        try {
          spec.unit = static_cast<uint32_t>(std::stoul(section.substr(8)));
        } catch (const std::exception&) {
          throw fail("texture unit must be a number");
        }
        t.textures.push_back(spec);
        section = "texture";
      } else if (section != "config" && section != "vertex shader" &&
                 section != "fragment shader" && section != "uniforms") {
        throw fail("unknown section [" + section + "]");
      }
      continue;
    }
    if (section == "vertex shader") {
      t.vertex += line + "\n";
      continue;
    }
    if (section == "fragment shader") {
      t.fragment += line + "\n";
      continue;
    }
    std::istringstream words(line);
    std::string key;
    if (!(words >> key) || key[0] == '#') continue;
    if (section == "config") {
      std::string value;
      words >> value;
      if (key == "size") {
        if (!parseSize(value, t.width, t.height)) throw fail("size must look like 64x64");
      } else if (key == "exact") {
        t.exact = true;
      } else if (key == "grid") {
        try {
          t.grid = static_cast<uint32_t>(std::stoul(value));
        } catch (const std::exception&) {
          throw fail("grid must be a number");
        }
        if (t.grid == 0 || t.grid > 256) throw fail("grid must be 1..256");
      } else {
        throw fail("unknown config key '" + key + "'");
      }
    } else if (section == "uniforms") {
      UniformValue u;
      u.name = key;
      float v;
      while (words >> v) u.values.push_back(v);
      if (u.values.empty()) throw fail("uniform '" + key + "' has no values");
      t.uniforms.push_back(u);
    } else if (section == "texture") {
      TextureSpec& spec = t.textures.back();
      std::string value;
      words >> value;
      if (key == "size") {
        if (!parseSize(value, spec.width, spec.height)) throw fail("size must look like 64x64");
      } else if (key == "pattern") {
        if (value == "checker")
          spec.pattern = Pattern::Checker;
        else if (value == "gradient")
          spec.pattern = Pattern::Gradient;
        else if (value == "noise")
          spec.pattern = Pattern::Noise;
        else
          throw fail("pattern must be checker, gradient or noise");
      } else if (key == "filter") {
        if (value != "nearest" && value != "linear" && value != "trilinear") {
          throw fail("filter must be nearest, linear or trilinear");
        }
        spec.linear = value != "nearest";
        spec.mipmaps = value == "trilinear";
      } else if (key == "type") {
        if (value != "2d" && value != "cube" && value != "3d" && value != "2darray")
          throw fail("type must be 2d, cube, 3d or 2darray");
        spec.cube = value == "cube";
        spec.volume = value == "3d";
        spec.array = value == "2darray";
        if (spec.cube && spec.width != spec.height) throw fail("cube faces must be square");
      } else if (key == "depth") {
        try {
          spec.depth = static_cast<uint32_t>(std::stoul(value));
        } catch (const std::exception&) {
          throw fail("depth must be a number");
        }
        if (spec.depth == 0 || spec.depth > 256) throw fail("depth must be 1..256");
      } else if (key == "format") {
        const auto it = std::find_if(std::begin(kFormats), std::end(kFormats),
                                     [&](const TexelFormatInfo& f) { return value == f.name; });
        if (it == std::end(kFormats)) throw fail("unknown texture format '" + value + "'");
        spec.format = it->format;
      } else if (key == "compare") {
        const auto it = std::find(std::begin(kCompareNames), std::end(kCompareNames), value);
        if (it == std::end(kCompareNames)) throw fail("unknown compare function '" + value + "'");
        spec.compare = true;
        spec.compareFunc = static_cast<CompareFunc>(it - std::begin(kCompareNames));
      } else if (key == "wrap") {
        if (value != "repeat" && value != "clamp") throw fail("wrap must be repeat or clamp");
        spec.clamp = value == "clamp";
      } else {
        throw fail("unknown texture key '" + key + "'");
      }
    } else {
      throw fail("text outside a section");
    }
  }
  if (t.vertex.empty() || t.fragment.empty()) {
    throw Error(name + ": needs a [vertex shader] and a [fragment shader] section");
  }
  return t;
}

ShaderTest load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(path + ": cannot open");
  std::stringstream s;
  s << f.rdbuf();
  return parse(s.str(), path);
}

Grid makeGrid(uint32_t quads) {
  Grid g;
  const uint32_t n = quads + 1;
  for (uint32_t y = 0; y < n; ++y) {
    for (uint32_t x = 0; x < n; ++x) {
      const float s = static_cast<float>(x) / static_cast<float>(quads);
      const float t = static_cast<float>(y) / static_cast<float>(quads);
      g.position.insert(g.position.end(), {2 * s - 1, 2 * t - 1});
      g.texcoord.insert(g.texcoord.end(), {s, t});
    }
  }
  for (uint32_t y = 0; y < quads; ++y) {
    for (uint32_t x = 0; x < quads; ++x) {
      const uint32_t a = y * n + x, b = a + 1, c = a + n, d = c + 1;
      g.indices.insert(g.indices.end(), {a, b, d, a, d, c});
    }
  }
  return g;
}

std::vector<float> attributeData(const std::string& name, const Grid& grid) {
  const bool isPosition =
      name.find("position") != std::string::npos || name.find("vertex") != std::string::npos;
  const bool isTexcoord =
      name.find("texcoord") != std::string::npos || name.find("tex_coord") != std::string::npos;
  const float phase = static_cast<float>(hashName(name) % 1000) / 1000.0f * 6.28f;
  std::vector<float> out;
  for (uint32_t v = 0; v < grid.vertices(); ++v) {
    const float x = grid.position[2 * v], y = grid.position[2 * v + 1];
    if (isPosition) {
      out.insert(out.end(), {x, y, 0.0f, 1.0f});
    } else if (isTexcoord) {
      out.insert(out.end(), {grid.texcoord[2 * v], grid.texcoord[2 * v + 1], 0.0f, 1.0f});
    } else {
      for (int c = 0; c < 4; ++c) {
        out.push_back(0.5f + 0.5f * std::sin(3.0f * x + 2.0f * y + static_cast<float>(c) + phase));
      }
    }
  }
  return out;
}

std::vector<float> autoUniform(const std::string& name, VarType type) {
  std::vector<float> v;
  const uint32_t h = hashName(name);
  for (uint32_t k = 0; k < type.components(); ++k) {
    const uint32_t bits = (h ^ (k * 2654435761u)) * 2246822519u;
    const float unit = static_cast<float>(bits % 2001) / 1000.0f - 1.0f;  // [-1, 1]
    switch (type.kind) {
      case Kind::Int:
        v.push_back(static_cast<float>(bits % 5));
        break;
      case Kind::Bool:
        v.push_back(static_cast<float>(bits & 1));
        break;
      default:
        if (type.columns > 1) {  // near identity, so positions stay on screen
          const bool diagonal = k / type.rows == k % type.rows;
          v.push_back((diagonal ? 1.0f : 0.0f) + 0.2f * unit);
        } else {
          v.push_back(unit);
        }
        break;
    }
  }
  return v;
}

const UniformValue* findUniform(const ShaderTest& t, const std::string& element) {
  const auto bracket = element.find('[');
  const bool first = bracket != std::string::npos && element.substr(bracket) == "[0]";
  for (const UniformValue& u : t.uniforms) {
    if (u.name == element || (first && u.name == element.substr(0, bracket))) return &u;
  }
  return nullptr;
}

uint32_t autoSamplerUnit(const std::string& name, std::vector<std::string> samplerNames) {
  std::sort(samplerNames.begin(), samplerNames.end());
  const auto it = std::find(samplerNames.begin(), samplerNames.end(), name);
  return static_cast<uint32_t>(it - samplerNames.begin());
}

TextureSpec textureFor(const ShaderTest& t, uint32_t unit) {
  for (const TextureSpec& spec : t.textures) {
    if (spec.unit == unit) return spec;
  }
  // Smooth, so that programs which compute coordinates from texels (dependent reads) stay
  // well-conditioned: a last-bit difference must not jump across a checker edge.
  TextureSpec spec;
  spec.unit = unit;
  spec.pattern = Pattern::Gradient;
  spec.mipmaps = true;
  return spec;
}

std::vector<std::vector<uint8_t>> textureLevels(const TextureSpec& t, uint32_t face) {
  std::vector<std::vector<uint8_t>> levels;
  std::vector<uint8_t> base(size_t{t.width} * t.height * 4);
  for (uint32_t y = 0; y < t.height; ++y) {
    for (uint32_t x = 0; x < t.width; ++x) {
      uint8_t* p = &base[(size_t{y} * t.width + x) * 4];
      switch (t.pattern) {
        case Pattern::Checker: {
          const bool on = ((x / 8) + (y / 8)) % 2 == 0;
          p[0] = on ? 230 : 20, p[1] = on ? 180 : 60, p[2] = on ? 40 : 200, p[3] = 255;
          break;
        }
        case Pattern::Gradient:
          p[0] = static_cast<uint8_t>(x * 255 / std::max(1u, t.width - 1));
          p[1] = static_cast<uint8_t>(y * 255 / std::max(1u, t.height - 1));
          p[2] = 128, p[3] = static_cast<uint8_t>(255 - p[0] / 2);
          break;
        case Pattern::Noise: {
          const uint32_t h = (x * 73856093u) ^ (y * 19349663u);
          p[0] = static_cast<uint8_t>(h), p[1] = static_cast<uint8_t>(h >> 8);
          p[2] = static_cast<uint8_t>(h >> 16), p[3] = 255;
          break;
        }
      }
      if (t.cube) p[face % 3] = static_cast<uint8_t>(40 * face + 20);  // tells the faces apart
    }
  }
  levels.push_back(std::move(base));
  uint32_t w = t.width, h = t.height;
  while (t.mipmaps && (w > 1 || h > 1)) {
    const uint32_t nw = std::max(1u, w / 2), nh = std::max(1u, h / 2);
    const std::vector<uint8_t>& src = levels.back();
    std::vector<uint8_t> dst(size_t{nw} * nh * 4);
    for (uint32_t y = 0; y < nh; ++y) {
      for (uint32_t x = 0; x < nw; ++x) {
        for (int c = 0; c < 4; ++c) {
          uint32_t sum = 0;
          for (uint32_t dy = 0; dy < 2; ++dy) {
            for (uint32_t dx = 0; dx < 2; ++dx) {
              const uint32_t sx = std::min(w - 1, 2 * x + dx), sy = std::min(h - 1, 2 * y + dy);
              sum += src[(size_t{sy} * w + sx) * 4 + static_cast<size_t>(c)];
            }
          }
          dst[(size_t{y} * nw + x) * 4 + static_cast<size_t>(c)] =
              static_cast<uint8_t>((sum + 2) / 4);
        }
      }
    }
    levels.push_back(std::move(dst));
    w = nw, h = nh;
  }
  return levels;
}

uint32_t levelCount(const TextureSpec& t) {
  if (!t.mipmaps) return 1;
  uint32_t largest = std::max({t.width, t.height, t.volume ? t.depth : 1u}), n = 1;
  while (largest >>= 1) ++n;
  return n;
}

namespace {

// One level as channel values (4 per texel, x fastest, then y, then z) in the format's own
// range: 0..255 for RGBA8, the depth integer, or the integer channel values.
struct Block {
  uint32_t w, h, d;
  std::vector<int64_t> v;
};

Block baseLevel(const TextureSpec& t, uint32_t layer) {
  const TexelFormatInfo& f = formatInfo(t.format);
  TextureSpec flat = t;
  flat.mipmaps = false;
  flat.cube = flat.volume = flat.array = false;
  const std::vector<uint8_t> rgba = textureLevels(flat)[0];
  const uint32_t slices = t.volume ? t.depth : 1;
  Block b{t.width, t.height, slices, {}};
  const int64_t depthMax = t.format == TexelFormat::Depth16 ? 65535 : 16777215;
  for (uint32_t z = 0; z < slices; ++z) {
    const uint32_t image = t.volume ? z : layer;
    for (uint32_t y = 0; y < t.height; ++y) {
      for (uint32_t x = 0; x < t.width; ++x) {
        const uint8_t* p = &rgba[(size_t{y} * t.width + x) * 4];
        int64_t c[4] = {p[0], p[1], p[2], p[3]};
        // Slices ramp blue smoothly along r (filtering blends them); layers and faces are tinted.
        if (t.volume) c[2] = z * 255 / std::max(1u, slices - 1);
        if (t.array || t.cube) c[image % 3] = (40 * image + 20) % 256;
        if (f.isDepth) {
          // A depth surface: a mix of the pattern's red and green, shifted per image.
          const double unit = std::fmod(
              (0.7 * static_cast<double>(c[0]) + 0.3 * static_cast<double>(c[1])) / 255.0 +
                  0.13 * image,
              1.0);
          const auto depth = static_cast<int64_t>(unit * static_cast<double>(depthMax) + 0.5);
          c[0] = c[1] = c[2] = depth, c[3] = 0;
        } else if (f.isInteger) {
          for (int64_t& v : c) {
            if (f.bits == 8) v = f.isSigned ? v - 128 : v;
            if (f.bits == 16) v = f.isSigned ? v * 257 - 32768 : v * 257;
            if (f.bits == 32) v = f.isSigned ? (v - 128) * 16000000 : v * 16843009;
          }
        }
        b.v.insert(b.v.end(), c, c + 4);
      }
    }
  }
  return b;
}

// The next level: the mean of each 2x2 (3D: 2x2x2) box, truncated toward zero.
Block halve(const Block& src, bool volume) {
  Block dst{std::max(1u, src.w / 2),
            std::max(1u, src.h / 2),
            volume ? std::max(1u, src.d / 2) : src.d,
            {}};
  for (uint32_t z = 0; z < dst.d; ++z) {
    for (uint32_t y = 0; y < dst.h; ++y) {
      for (uint32_t x = 0; x < dst.w; ++x) {
        for (uint32_t c = 0; c < 4; ++c) {
          int64_t sum = 0, n = 0;
          for (uint32_t dz = 0; dz < (volume ? 2u : 1u); ++dz) {
            for (uint32_t dy = 0; dy < 2; ++dy) {
              for (uint32_t dx = 0; dx < 2; ++dx) {
                const uint32_t sx = std::min(src.w - 1, 2 * x + dx);
                const uint32_t sy = std::min(src.h - 1, 2 * y + dy);
                const uint32_t sz = volume ? std::min(src.d - 1, 2 * z + dz) : z;
                sum += src.v[((size_t{sz} * src.h + sy) * src.w + sx) * 4 + c];
                ++n;
              }
            }
          }
          dst.v.push_back(sum / n);
        }
      }
    }
  }
  return dst;
}

std::vector<uint8_t> pack(const Block& b, const TexelFormatInfo& f) {
  std::vector<uint8_t> out;
  out.reserve(b.v.size() / 4 * f.bytesPerTexel());
  auto put = [&](uint64_t v, uint32_t bytes) {
    for (uint32_t k = 0; k < bytes; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
  };
  for (size_t i = 0; i < b.v.size(); i += 4) {
    if (f.format == TexelFormat::Depth24) {
      put(static_cast<uint64_t>(b.v[i]) << 8, 4);  // GL_UNSIGNED_INT_24_8: stencil 0
    } else if (f.isDepth) {
      put(static_cast<uint64_t>(b.v[i]), 2);
    } else {
      for (uint32_t c = 0; c < f.channels; ++c) put(static_cast<uint64_t>(b.v[i + c]), f.bits / 8);
    }
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint8_t>> textureData(const TextureSpec& t, uint32_t layer) {
  if (t.format == TexelFormat::RGBA8 && !t.volume && !t.array) return textureLevels(t, layer);
  const TexelFormatInfo& f = formatInfo(t.format);
  std::vector<std::vector<uint8_t>> levels;
  Block b = baseLevel(t, layer);
  for (uint32_t l = 0, n = levelCount(t); l < n; ++l) {
    if (l > 0) b = halve(b, t.volume);
    levels.push_back(pack(b, f));
  }
  return levels;
}

}  // namespace tessera::shadertest
