#include "compiler/shader_test_runner.h"

#include <bit>
#include <cstring>
#include <map>

#include "common/error.h"
#include "driver/context.h"
#include "gpu/device.h"
#include "isa/encoding.h"

namespace tessera::test {
namespace {

using shadertest::Kind;
using shadertest::VarType;

VarType varType(const compiler::ShaderType& t) {
  switch (t.base) {
    case compiler::BaseType::Float:
      return {Kind::Float, t.rows, t.columns};
    case compiler::BaseType::Int:
    case compiler::BaseType::Uint:
      return {Kind::Int, t.rows, t.columns};
    case compiler::BaseType::Bool:
      return {Kind::Bool, t.rows, t.columns};
    default:
      return {Kind::Sampler, 1, 1};
  }
}

// A uniform component in the constant file's representation (compiler/interface.h).
float constantBits(Kind kind, float value) {
  if (kind == Kind::Int) return std::bit_cast<float>(static_cast<int32_t>(value));
  if (kind == Kind::Bool) return std::bit_cast<float>(value != 0.0f ? 0xffffffffu : 0u);
  return value;
}

template <typename T>
std::span<const uint8_t> bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

// The texture format of each shadertest::TexelFormat, in its order.
constexpr pipe::TexFormat kTexFormats[] = {
    pipe::TexFormat::RGBA8,    pipe::TexFormat::D16,      pipe::TexFormat::D24S8,
    pipe::TexFormat::R8I,      pipe::TexFormat::R8UI,     pipe::TexFormat::RG8I,
    pipe::TexFormat::RG8UI,    pipe::TexFormat::RGBA8I,   pipe::TexFormat::RGBA8UI,
    pipe::TexFormat::R16I,     pipe::TexFormat::R16UI,    pipe::TexFormat::RGBA16I,
    pipe::TexFormat::RGBA16UI, pipe::TexFormat::R32I,     pipe::TexFormat::R32UI,
    pipe::TexFormat::RGBA32I,  pipe::TexFormat::RGBA32UI,
};

// Creates and fills the texture a spec describes: every level of every face or layer, a 3D
// texture's levels slice by slice. Depth 24 comes as GL packs it (depth in bits 8..31) and is
// stored as Tessera's D24S8 (depth in bits 0..23).
pipe::ResourceId uploadTexture(driver::Context& ctx, const shadertest::TextureSpec& spec) {
  const uint32_t levels = shadertest::levelCount(spec);
  pipe::TextureDesc desc{kTexFormats[static_cast<size_t>(spec.format)],
                         spec.width,
                         spec.height,
                         levels,
                         spec.cube,
                         spec.volume,
                         spec.array,
                         spec.volume || spec.array ? spec.depth : 1};
  const pipe::ResourceId tex = ctx.createTexture(desc);
  for (uint32_t layer = 0; layer < spec.layers(); ++layer) {
    auto data = shadertest::textureData(spec, layer);
    for (uint32_t l = 0; l < data.size(); ++l) {
      std::vector<uint8_t>& bytes = data[l];
      if (spec.format == shadertest::TexelFormat::Depth24) {
        for (size_t i = 0; i < bytes.size(); i += 4) {
          uint32_t v;
          std::memcpy(&v, &bytes[i], 4);
          v >>= 8;
          std::memcpy(&bytes[i], &v, 4);
        }
      }
      if (!spec.volume) {
        ctx.uploadTexture(tex, layer, l, bytes);
        continue;
      }
      const uint32_t slices = gpu::tex::levelExtent(spec.depth, l);
      const size_t slice = bytes.size() / slices;
      for (uint32_t z = 0; z < slices; ++z)
        ctx.uploadTexture(tex, z, l, std::span<const uint8_t>(bytes).subspan(z * slice, slice));
    }
  }
  return tex;
}

}  // namespace

struct ShaderTestScene::State {
  State(const gpu::Preset& preset, driver::RenderMode mode)
      : device(preset), ctx(device, driver::DriverOptions{mode, false}) {}
  gpu::Device device;
  driver::Context ctx;
  uint32_t width = 0, height = 0, indexCount = 0;
  pipe::ResourceId indices = pipe::kNoResource;
  pipe::Framebuffer fb;
};

ShaderTestScene::~ShaderTestScene() = default;

ShaderTestScene::ShaderTestScene(const shadertest::ShaderTest& t, const gpu::Preset& preset,
                                 driver::RenderMode mode) {
  program_ = compiler::compileProgram(t.vertex, t.fragment);
  if (!program_.ok) return;
  state_ = std::make_unique<State>(preset, mode);
  driver::Context& ctx = state_->ctx;
  const compiler::ProgramInterface& iface = program_.interface;
  const pipe::ResourceId vs =
      ctx.createVertexShader(isa::encode(program_.vertex), isa::encode(program_.binningVertex));
  const pipe::ResourceId fs = ctx.createFragmentShader(isa::encode(program_.fragment));
  // Attributes: one buffer of 4 floats per vertex for each, on its slot.
  const shadertest::Grid grid = shadertest::makeGrid(t.grid);
  std::vector<pipe::VertexElement> elements(program_.vertex.numInputs,
                                            {0, 0, 16, pipe::VertexFormat::Float32, 4});
  std::vector<std::pair<uint32_t, pipe::ResourceId>> vertexBuffers;
  const pipe::ResourceId zeros = ctx.createBuffer(bytes(std::vector<float>(4 * grid.vertices())));
  for (uint32_t s = 0; s < elements.size(); ++s) {
    elements[s].buffer = s;
    vertexBuffers.emplace_back(s, zeros);
  }
  for (const compiler::AttributeInfo& a : iface.attributes) {
    if (a.type.columns > 1) throw Error("shader test: matrix attributes are not drawn");
    vertexBuffers.at(static_cast<size_t>(a.slot)).second =
        ctx.createBuffer(bytes(shadertest::attributeData(a.name, grid)));
  }

  // Uniforms into the constant file; samplers onto their slots.
  std::vector<float> constants(iface.constantCount, 0.0f);
  std::vector<std::string> samplerNames;
  auto elementName = [](const compiler::UniformInfo& u, uint32_t e) {
    return u.type.arraySize ? u.name + "[" + std::to_string(e) + "]" : u.name;
  };
  for (const compiler::UniformInfo& u : iface.uniforms) {
    for (uint32_t e = 0; e < u.type.elements() && u.type.isSampler(); ++e)
      samplerNames.push_back(elementName(u, e));
  }
  std::map<uint32_t, pipe::ResourceId> textures;
  for (const compiler::UniformInfo& u : iface.uniforms) {
    const VarType vt = varType(u.type);
    for (uint32_t e = 0; e < u.type.elements(); ++e) {
      const std::string name = elementName(u, e);
      std::vector<float> v;
      if (const shadertest::UniformValue* given = shadertest::findUniform(t, name)) {
        v = given->values;
      } else if (vt.kind == Kind::Sampler) {
        v = {static_cast<float>(shadertest::autoSamplerUnit(name, samplerNames))};
      } else {
        v = shadertest::autoUniform(name, vt);
      }
      v.resize(vt.components(), 0.0f);
      if (vt.kind == Kind::Sampler) {
        const auto unit = static_cast<uint32_t>(v[0]);
        shadertest::TextureSpec spec = shadertest::textureFor(t, unit);
        const compiler::SamplerTarget target = compiler::samplerType(u.type.base).target;
        spec.cube = target == compiler::SamplerTarget::Cube;
        spec.volume = target == compiler::SamplerTarget::Tex3D;
        spec.array = target == compiler::SamplerTarget::Array2D;
        if (!textures.count(unit)) textures[unit] = uploadTexture(ctx, spec);
        pipe::SamplerState smp;
        const gpu::tex::Wrap wrap =
            spec.clamp ? gpu::tex::Wrap::ClampToEdge : gpu::tex::Wrap::Repeat;
        smp.wrapS = smp.wrapT = smp.wrapR = wrap;
        smp.magFilter = smp.minFilter =
            spec.linear ? gpu::tex::Filter::Linear : gpu::tex::Filter::Nearest;
        smp.mipFilter = !spec.mipmaps ? gpu::tex::MipFilter::None
                        : spec.linear ? gpu::tex::MipFilter::Linear
                                      : gpu::tex::MipFilter::Nearest;
        smp.compare = spec.compare;
        smp.compareFunc = static_cast<gpu::tex::CompareFunc>(spec.compareFunc);
        const uint32_t slot = static_cast<uint32_t>(u.sampler) + e;
        ctx.setTexture(pipe::ShaderStage::Vertex, slot, textures[unit], smp);
        ctx.setTexture(pipe::ShaderStage::Fragment, slot, textures[unit], smp);
        continue;
      }
      for (uint32_t c = 0; c < vt.columns; ++c) {
        for (uint32_t k = 0; k < vt.rows; ++k) {
          const size_t at = static_cast<size_t>(u.constant) + e * u.stride + 4 * c + k;
          constants.at(at) = constantBits(vt.kind, v[c * vt.rows + k]);
        }
      }
    }
  }

  state_->width = t.width;
  state_->height = t.height;
  pipe::Framebuffer& fb = state_->fb;
  fb.color = ctx.createColorSurface(pipe::ColorFormat::RGBA8, t.width, t.height);
  fb.depth = ctx.createDepthSurface(pipe::DepthFormat::D24S8, t.width, t.height);
  fb.width = t.width;
  fb.height = t.height;
  ctx.bindShaders(vs, fs);
  ctx.setConstants(pipe::ShaderStage::Vertex, constants);
  ctx.setConstants(pipe::ShaderStage::Fragment, constants);
  ctx.setVertexElements(elements);
  for (const auto& [slot, buffer] : vertexBuffers) ctx.setVertexBuffer(slot, buffer);
  state_->indices = ctx.createBuffer(bytes(grid.indices));
  state_->indexCount = static_cast<uint32_t>(grid.indices.size());
}

void ShaderTestScene::draw() {
  driver::Context& ctx = state_->ctx;
  ctx.setFramebuffer(state_->fb);
  ctx.setViewport(
      {0, 0, static_cast<float>(state_->width), static_cast<float>(state_->height), 0, 1});
  ctx.setRasterizer({});
  ctx.setBlend({});
  ctx.setDepthStencilAlpha({});  // depth test off
  ctx.clear(pipe::kClearColor | pipe::kClearDepth, {0, 0, 0, 1}, 1.0f, 0);
  ctx.draw(
      {pipe::Primitive::Triangles, state_->indexCount, state_->indices, pipe::IndexSize::U32, 0});
  ctx.flush();
}

Image ShaderTestScene::readback() {
  const uint32_t w = state_->width, h = state_->height;
  const std::vector<uint8_t> pixels = state_->ctx.readSurface(state_->fb.color);
  Image image = Image::blank(w, h);
  const size_t row = size_t{w} * 4;
  for (uint32_t y = 0; y < h; ++y) {  // GL rows run bottom-up
    std::memcpy(image.rgba.data() + y * row, pixels.data() + size_t(h - 1 - y) * row, row);
  }
  return image;
}

ShaderTestResult renderShaderTest(const shadertest::ShaderTest& t, const gpu::Preset& preset,
                                  driver::RenderMode mode) {
  ShaderTestScene scene(t, preset, mode);
  ShaderTestResult r;
  r.program = scene.program();
  if (!r.program.ok) return r;
  scene.draw();
  r.image = scene.readback();
  return r;
}

}  // namespace tessera::test
