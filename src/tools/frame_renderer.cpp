#include "tools/frame_renderer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/thread_pool.h"
#include "driver/context.h"
#include "gpu/tex/compressed/encode.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/position_only.h"
#include "report/counters_json.h"
#include "shaders/shaders.h"

namespace tessera::tools {
namespace {

// The scene's enums list the same GL values in the same order as the hardware's encodings.
template <class To, class From>
To same(From f) {
  return static_cast<To>(static_cast<uint8_t>(f));
}
static_assert(static_cast<int>(scene::Compare::Always) ==
              static_cast<int>(pipe::CompareFunc::Always));
static_assert(static_cast<int>(scene::StencilOp::DecrWrap) ==
              static_cast<int>(pipe::StencilOp::DecrWrap));
static_assert(static_cast<int>(scene::BlendFactor::SrcAlphaSaturate) ==
              static_cast<int>(pipe::BlendFactor::SrcAlphaSaturate));
static_assert(static_cast<int>(scene::Wrap::MirroredRepeat) ==
              static_cast<int>(gpu::tex::Wrap::MirroredRepeat));
static_assert(static_cast<int>(scene::MipFilter::Linear) ==
              static_cast<int>(gpu::tex::MipFilter::Linear));

gpu::rb::StencilFace face(const scene::StencilFace& f) {
  return {same<pipe::CompareFunc>(f.func),
          f.ref,
          f.valueMask,
          f.writeMask,
          same<pipe::StencilOp>(f.fail),
          same<pipe::StencilOp>(f.zfail),
          same<pipe::StencilOp>(f.zpass)};
}

struct Programs {
  pipe::ResourceId lit = 0, phong = 0, phongTex = 0, constant = 0;
};

std::vector<uint32_t> assembleShader(std::string_view name) {
  return isa::encode(isa::assemble(shaders::source(name), name));
}

Programs createPrograms(pipe::Context& ctx) {
  Programs p;
  const isa::Program vs = isa::assemble(shaders::source("lit.vs"), "lit.vs");
  p.lit = ctx.createVertexShader(isa::encode(vs), isa::encode(isa::positionOnly(vs)));
  p.phong = ctx.createFragmentShader(assembleShader("phong.fs"));
  p.phongTex = ctx.createFragmentShader(assembleShader("phong_tex.fs"));
  p.constant = ctx.createFragmentShader(assembleShader("constant.fs"));
  return p;
}

struct MeshBuffers {
  pipe::ResourceId positions = 0, normals = 0, texcoords = 0, indices = 0;
  uint32_t count = 0;
};

template <class T>
std::span<const uint8_t> bytes(const std::vector<T>& v) {
  return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

constexpr std::array<std::string_view, 4> kTextureFormatNames = {"rgba8", "etc2", "astc4x4",
                                                                 "astc8x8"};

// The scene's texture in GPU memory: every level as it is, or encoded to blocks.
pipe::ResourceId createSceneTexture(pipe::Context& ctx, const scene::Texture& t,
                                    TextureFormat format) {
  if (t.levels.empty()) throw Error("scene texture without levels");
  bool opaque = true;
  for (const Image& level : t.levels)
    for (size_t i = 3; i < level.rgba.size() && opaque; i += 4) opaque = level.rgba[i] == 255;
  const gpu::tex::TexFormat f = storedFormat(format, opaque);
  const pipe::ResourceId id =
      ctx.createTexture({f, t.levels[0].width, t.levels[0].height, uint32_t(t.levels.size())});
  for (uint32_t l = 0; l < t.levels.size(); ++l) {
    const Image& level = t.levels[l];
    if (f == gpu::tex::TexFormat::RGBA8)
      ctx.uploadTexture(id, 0, l, level.rgba);
    else
      ctx.uploadTexture(id, 0, l, gpu::tex::encodeImage(f, level.rgba, level.width, level.height));
  }
  return id;
}

void drawScene(pipe::Context& ctx, const scene::Scene& s, const Programs& programs,
               const std::vector<MeshBuffers>& meshes,
               const std::vector<pipe::ResourceId>& textures, const pipe::Framebuffer& fb) {
  ctx.setFramebuffer(fb);
  ctx.setViewport({0, 0, float(s.width), float(s.height), 0, 1});
  pipe::RasterizerState rs;
  ctx.setRasterizer(rs);
  // Scenes clear every bit of every buffer; clears honour the write masks as in GL, so the
  // masks are reset first (the previous frame may have ended with some of them off).
  ctx.setBlend(pipe::BlendState{});
  ctx.setDepthStencilAlpha(pipe::DepthStencilAlphaState{});
  ctx.clear(pipe::kClearColor | pipe::kClearDepth | pipe::kClearStencil, s.clearColor, s.clearDepth,
            s.clearStencil);
  for (const scene::Draw& d : s.draws) {
    const scene::RenderState& st = d.state;
    pipe::BlendState b;
    b.enable = st.blend;
    b.srcRgb = same<pipe::BlendFactor>(st.srcRgb);
    b.dstRgb = same<pipe::BlendFactor>(st.dstRgb);
    b.srcAlpha = same<pipe::BlendFactor>(st.srcAlpha);
    b.dstAlpha = same<pipe::BlendFactor>(st.dstAlpha);
    b.eqRgb = same<pipe::BlendEquation>(st.eqRgb);
    b.eqAlpha = same<pipe::BlendEquation>(st.eqAlpha);
    for (int i = 0; i < 4; ++i) b.constant[i] = st.blendColor[i];
    b.colorWriteMask = static_cast<uint8_t>(st.colorMask[0] | st.colorMask[1] << 1 |
                                            st.colorMask[2] << 2 | st.colorMask[3] << 3);
    ctx.setBlend(b);
    pipe::DepthStencilAlphaState z;
    z.depthTest = st.depthTest;
    z.depthWrite = st.depthWrite;
    z.depthFunc = same<pipe::CompareFunc>(st.depthFunc);
    z.stencilTest = st.stencilTest;
    z.front = face(st.front);
    z.back = face(st.back);
    ctx.setDepthStencilAlpha(z);
    rs.cull = st.cull == scene::Cull::Back    ? pipe::CullMode::Back
              : st.cull == scene::Cull::Front ? pipe::CullMode::Front
                                              : pipe::CullMode::None;
    rs.frontCCW = st.frontFaceCCW;
    ctx.setRasterizer(rs);
    const pipe::ResourceId fs = d.shading == scene::Shading::Phong           ? programs.phong
                                : d.shading == scene::Shading::PhongTextured ? programs.phongTex
                                                                             : programs.constant;
    ctx.bindShaders(programs.lit, fs);
    ctx.setConstants(pipe::ShaderStage::Vertex, d.constants);
    ctx.setConstants(pipe::ShaderStage::Fragment, d.constants);
    if (d.texture >= 0) {
      const scene::Texture& t = s.textures.at(size_t(d.texture));
      pipe::SamplerState smp{same<gpu::tex::Wrap>(t.wrapS), same<gpu::tex::Wrap>(t.wrapT),
                             same<gpu::tex::Filter>(t.magFilter),
                             same<gpu::tex::Filter>(t.minFilter),
                             same<gpu::tex::MipFilter>(t.mipFilter)};
      ctx.setTexture(pipe::ShaderStage::Fragment, 0, textures.at(size_t(d.texture)), smp);
    } else {
      ctx.setTexture(pipe::ShaderStage::Fragment, 0, pipe::kNoResource, {});
    }
    const MeshBuffers& m = meshes.at(d.mesh);
    std::vector<pipe::VertexElement> el = {{0, 0, 12, pipe::VertexFormat::Float32, 3},
                                           {1, 0, 12, pipe::VertexFormat::Float32, 3}};
    if (m.texcoords) el.push_back({2, 0, 8, pipe::VertexFormat::Float32, 2});
    ctx.setVertexElements(el);
    ctx.setVertexBuffer(0, m.positions);
    ctx.setVertexBuffer(1, m.normals);
    ctx.setVertexBuffer(2, m.texcoords);
    ctx.draw({pipe::Primitive::Triangles, m.count, m.indices, pipe::IndexSize::U32, 0});
  }
}

}  // namespace

std::string_view textureFormatName(TextureFormat f) {
  return kTextureFormatNames[static_cast<size_t>(f)];
}

std::optional<TextureFormat> parseTextureFormat(std::string_view name) {
  for (size_t i = 0; i < kTextureFormatNames.size(); ++i)
    if (kTextureFormatNames[i] == name) return static_cast<TextureFormat>(i);
  return std::nullopt;
}

TextureFormat requireTextureFormat(std::string_view name) {
  if (const std::optional<TextureFormat> f = parseTextureFormat(name)) return *f;
  std::string known;
  for (std::string_view n : kTextureFormatNames)
    known += (known.empty() ? "" : ", ") + std::string(n);
  throw Error("unknown texture format '" + std::string(name) + "' (known: " + known + ")");
}

gpu::tex::TexFormat storedFormat(TextureFormat f, bool opaque) {
  switch (f) {
    case TextureFormat::Etc2:
      return opaque ? gpu::tex::TexFormat::ETC2_RGB8 : gpu::tex::TexFormat::ETC2_RGBA8;
    case TextureFormat::Astc4x4:
      return gpu::tex::TexFormat::ASTC_4x4;
    case TextureFormat::Astc8x8:
      return gpu::tex::TexFormat::ASTC_8x8;
    case TextureFormat::Rgba8:
      break;
  }
  return gpu::tex::TexFormat::RGBA8;
}

std::string firstDifference(const FrameResult& a, const FrameResult& b, bool counters) {
  if (a.image.width != b.image.width || a.image.height != b.image.height)
    return "image size differs";
  for (size_t i = 0; i < a.image.rgba.size(); ++i) {
    if (a.image.rgba[i] == b.image.rgba[i]) continue;
    const size_t pixel = i / 4;
    return "image differs at pixel (" + std::to_string(pixel % a.image.width) + ", " +
           std::to_string(pixel / a.image.width) + ") channel " + "rgba"[i % 4] + ": " +
           std::to_string(a.image.rgba[i]) + " vs " + std::to_string(b.image.rgba[i]);
  }
  if (!counters) return "";
  if (a.batches.size() != b.batches.size())
    return "batch count differs: " + std::to_string(a.batches.size()) + " vs " +
           std::to_string(b.batches.size());
  for (size_t i = 0; i < a.batches.size(); ++i) {
    const nlohmann::json ja = report::batchJson(a.batches[i]), jb = report::batchJson(b.batches[i]);
    if (ja == jb) continue;
    const nlohmann::json patch = nlohmann::json::diff(ja, jb);
    const std::string path = patch.at(0).at("path");
    const nlohmann::json::json_pointer ptr(path);
    const std::string va = ja.contains(ptr) ? ja.at(ptr).dump() : "(none)";
    const std::string vb = jb.contains(ptr) ? jb.at(ptr).dump() : "(none)";
    return "batch " + std::to_string(i) + " report differs at " + path + ": " + va + " vs " + vb;
  }
  return "";
}

FrameResult renderFrame(const scene::Scene& s, const gpu::Preset& preset,
                        const FrameOptions& options) {
  gpu::Device device(preset, options.threads ? options.threads : defaultThreads());
  device.setTimingModel(options.timingModel);
  driver::DriverOptions dopt;
  dopt.mode = options.mode;
  dopt.captureStreams = options.capture;
  driver::Context ctx(device, dopt);
  const Programs programs = createPrograms(ctx);
  std::vector<MeshBuffers> meshes;
  for (const scene::Mesh& m : s.meshes) {
    MeshBuffers b;
    b.positions = ctx.createBuffer(bytes(m.positions));
    b.normals = ctx.createBuffer(bytes(m.normals));
    if (!m.texcoords.empty()) b.texcoords = ctx.createBuffer(bytes(m.texcoords));
    b.indices = ctx.createBuffer(bytes(m.indices));
    b.count = static_cast<uint32_t>(m.indices.size());
    meshes.push_back(b);
  }
  std::vector<pipe::ResourceId> textures;
  for (const scene::Texture& t : s.textures)
    textures.push_back(createSceneTexture(ctx, t, options.textureFormat));
  pipe::Framebuffer fb;
  fb.color = ctx.createColorSurface(pipe::ColorFormat::RGBA8, s.width, s.height, options.samples);
  fb.depth = ctx.createDepthSurface(pipe::DepthFormat::D24S8, s.width, s.height, options.samples);
  fb.width = s.width;
  fb.height = s.height;

  auto frame = [&] {
    drawScene(ctx, s, programs, meshes, textures, fb);
    if (options.discardDepth) ctx.invalidate(pipe::kClearDepth | pipe::kClearStencil);
    ctx.flushFrame();  // as at a swap: multisample contents need not survive it
  };
  for (uint32_t i = 0; i < options.warmupFrames; ++i) {
    frame();
    ctx.takeReports();
  }
  FrameResult r;
  std::vector<uint32_t> overdraw;
  std::vector<double> times;
  const double timingBefore = device.timingSeconds();
  for (uint32_t i = 0; i < std::max(1u, options.measuredFrames); ++i) {
    // Only the last measured frame is counted.
    const bool count = options.overdraw && i + 1 == std::max(1u, options.measuredFrames);
    if (count) overdraw.assign(size_t{s.width} * s.height, 0);
    device.pipeline().setOverdrawMap(count ? &overdraw : nullptr, s.width, s.height);
    // A flush returns once the kernel has queued the batch; the frame's time runs until its
    // reports are back, that is until the GPU has run it.
    const auto t0 = std::chrono::steady_clock::now();
    frame();
    r.batches = ctx.takeReports();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + long(times.size() / 2), times.end());
  r.cpuMilliseconds = times[times.size() / 2];
  r.timingMilliseconds = (device.timingSeconds() - timingBefore) * 1000.0 / double(times.size());
  device.pipeline().setOverdrawMap(nullptr, 0, 0);
  if (options.overdraw) {
    // GL window rows (bottom first) to image rows (top first), as for the colour buffer below.
    r.overdraw.resize(overdraw.size());
    for (uint32_t y = 0; y < s.height; ++y)
      std::copy_n(overdraw.begin() + std::ptrdiff_t(size_t(s.height - 1 - y) * s.width), s.width,
                  r.overdraw.begin() + std::ptrdiff_t(size_t{y} * s.width));
  }
  r.capture = ctx.lastCapture();
  const std::vector<uint8_t> pixels = ctx.readSurface(fb.color);
  // GL window coordinates put row 0 at the bottom; images put it at the top.
  r.image.width = s.width;
  r.image.height = s.height;
  r.image.rgba.resize(pixels.size());
  const size_t row = size_t{s.width} * 4;
  for (uint32_t y = 0; y < s.height; ++y)
    std::memcpy(r.image.rgba.data() + y * row, pixels.data() + size_t(s.height - 1 - y) * row, row);
  return r;
}

}  // namespace tessera::tools
