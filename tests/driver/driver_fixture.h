// A driver context on a small GPU with the shipped constant-colour shaders and a quad, for tests
// that drive the pipe API directly.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "driver/context.h"
#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/position_only.h"
#include "shaders/shaders.h"

namespace tessera::test {

// A fragment shader that never ends: the warp's instruction budget stops it (a hang).
inline constexpr const char* kEndlessFs = R"(.stage fragment
.regs 0
.outputs 1
.varyings 0
loop
endloop
mov o0.x, c48
mov o0.y, c49
mov o0.z, c50
mov o0.w, c51
end
)";

struct DriverFixture {
  static constexpr uint32_t kW = 640, kH = 480;  // several bins on a320

  explicit DriverFixture(driver::RenderMode mode, const char* preset = "adreno-a320")
      : DriverFixture(mode, gpu::findPreset(preset)) {}
  // `threads`: host threads for the GPU's bins (0: the default).
  DriverFixture(driver::RenderMode mode, const gpu::Preset& preset, unsigned threads = 0)
      : own(std::make_unique<gpu::Device>(preset, threads ? threads : defaultThreads())),
        device(*own),
        ctx(device, {mode, true}) {
    setUp();
  }
  // A context of a kernel-mode device other contexts share.
  DriverFixture(driver::RenderMode mode, kmd::Device& kernel, int priority = 8)
      : device(kernel.gpu()), ctx(kernel, {mode, true, priority}) {
    setUp();
  }

  void setUp() {
    const isa::Program vs = isa::assemble(shaders::source("lit.vs"), "lit.vs");
    vsId = ctx.createVertexShader(isa::encode(vs), isa::encode(isa::positionOnly(vs)));
    fsId = ctx.createFragmentShader(
        isa::encode(isa::assemble(shaders::source("constant.fs"), "constant.fs")));
    fb.color = ctx.createColorSurface(pipe::ColorFormat::RGBA8, kW, kH);
    fb.depth = ctx.createDepthSurface(pipe::DepthFormat::D24S8, kW, kH);
    fb.width = kW;
    fb.height = kH;
    ctx.setFramebuffer(fb);
    ctx.setViewport({0, 0, float(kW), float(kH), 0, 1});
    ctx.bindShaders(vsId, fsId);
    // Clip-space quad over [-0.5, 0.5]² at z = 0.5 (identity matrices).
    const std::vector<float> pos = {-0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0.5f,  0.5f, 0.5f,
                                    -0.5f, -0.5f, 0.5f, 0.5f, 0.5f,  0.5f, -0.5f, 0.5f, 0.5f};
    quad = ctx.createBuffer({reinterpret_cast<const uint8_t*>(pos.data()), pos.size() * 4});
    const std::vector<pipe::VertexElement> el = {{0, 0, 12, pipe::VertexFormat::Float32, 3},
                                                 {0, 0, 12, pipe::VertexFormat::Float32, 3}};
    ctx.setVertexElements(el);
    ctx.setVertexBuffer(0, quad);
    setColor({1, 0, 0, 1});
  }

  void setColor(const std::array<float, 4>& rgba) {
    std::vector<float> c(64, 0.0f);
    for (int i = 0; i < 4; ++i) c[size_t(i * 4 + i)] = 1.0f;       // MVP = identity
    for (int i = 0; i < 4; ++i) c[size_t(16 + i * 4 + i)] = 1.0f;  // MV = identity
    for (int i = 0; i < 4; ++i) c[size_t(48 + i)] = rgba[size_t(i)];
    ctx.setConstants(pipe::ShaderStage::Vertex, c);
    ctx.setConstants(pipe::ShaderStage::Fragment, c);
  }
  void drawQuad() { ctx.draw({pipe::Primitive::Triangles, 6}); }
  const uint8_t* pixel(const std::vector<uint8_t>& surface, uint32_t x, uint32_t y) const {
    return surface.data() + (size_t{y} * kW + x) * 4;
  }
  size_t drawIbDwords() const {
    for (const auto& b : ctx.lastCapture().buffers)
      if (b.name == "draw ib") return b.words.size();
    return 0;
  }

  std::unique_ptr<gpu::Device> own;
  gpu::Device& device;
  driver::Context ctx;
  pipe::ResourceId vsId = 0, fsId = 0, quad = 0;
  pipe::Framebuffer fb;
};

}  // namespace tessera::test
