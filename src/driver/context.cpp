#include "driver/context.h"
#include "driver/batch.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "gpu/pipeline/tex_const.h"
#include "gpu/vsc/visibility_stream.h"
#include "isa/encoding.h"

namespace tessera::driver {

using gpu::GpuAddress;
using gpu::cp::CommandWriter;
using gpu::cp::Event;
using gpu::cp::Opcode;
using gpu::cp::packXY;
using gpu::cp::Reg;

namespace {

// General registers per thread of a shader binary (0 if it does not decode: it faults when drawn).
uint32_t registersOf(std::span<const uint32_t> binary) {
  try {
    return isa::decode(binary).regCount;
  } catch (const isa::DecodeError&) {
    return 0;
  }
}

}  // namespace

Context::Context(gpu::Device& device, std::unique_ptr<kmd::Device> own, kmd::Device* kernel,
                 DriverOptions options)
    : ownKernel_(std::move(own)),
      kernel_(kernel ? kernel : ownKernel_.get()),
      device_(device),
      memory_(device.memory()),
      options_(options),
      resources_(device.memory()) {
  kernelContext_ = kernel_->createContext(options.priority, "driver context");
  vscSizes_ = memory_.allocate(4 * gpu::vsc::kMaxPipes, "vsc sizes");
}

Context::Context(kmd::Device& kernel, DriverOptions options)
    : Context(kernel.gpu(), nullptr, &kernel, options) {}

Context::Context(gpu::Device& device, DriverOptions options)
    : Context(device, std::make_unique<kmd::Device>(device, kmd::optionsFromEnvironment()), nullptr,
              options) {}

Context::~Context() {
  // The dispatcher calls back into this context until its batches have left the kernel (every
  // one does: it retires, is lost with a guilty context or is discarded at shutdown).
  reap(true);
  kernel_->destroyContext(kernelContext_);
  // Nothing runs for this context any more: its buffers go back (the batch being recorded, never
  // submitted, frees its own).
  resources_.releaseAll();
  for (gpu::GpuAddress bo : vscData_) memory_.release(bo);
  for (gpu::GpuAddress bo : {vscSizes_, lrz_, blockTable_, private_[0], private_[1]})
    if (bo != 0) memory_.release(bo);
}

// ---- resources -------------------------------------------------------------------------------

pipe::ResourceId Context::createBuffer(std::span<const uint8_t> data) {
  Resource r;
  r.kind = ResourceKind::Buffer;
  r.size = data.size();
  r.address = memory_.allocate(std::max<size_t>(data.size(), 4), "buffer");
  if (!data.empty()) memory_.write(gpu::BusClient::Host, r.address, data.data(), data.size());
  return resources_.add(r);
}

void Context::updateBuffer(pipe::ResourceId id, uint64_t offset, std::span<const uint8_t> data) {
  Resource& r = resources_.get(id, ResourceKind::Buffer, "updateBuffer");
  if (offset > r.size || data.size() > r.size - offset)
    throw Error("updateBuffer: bytes " + std::to_string(offset) + ".." +
                std::to_string(offset + data.size()) + " are outside the buffer's " +
                std::to_string(r.size));
  ++software_.uploads;
  if (busy(r)) {
    ++software_.bufferRenames;
    // A batch recorded or still on the GPU may read the old contents: give the buffer a new BO
    // (a rename, as freedreno does for a busy resource) and keep the old one until no batch can
    // use it.
    const gpu::GpuAddress fresh = memory_.allocate(std::max<uint64_t>(r.size, 4), "buffer");
    std::vector<uint8_t> old(r.size);
    if (r.size) memory_.read(gpu::BusClient::Host, r.address, old.data(), r.size);
    if (r.size) memory_.write(gpu::BusClient::Host, fresh, old.data(), r.size);
    releaseLater(r.address);
    r.address = fresh;
    r.batchMark = 0;
    r.lastUse = 0;
    dirty_ |= kDirtyVertex;  // vertex buffer addresses are emitted with the vertex state
  }
  if (!data.empty())
    memory_.write(gpu::BusClient::Host, r.address + offset, data.data(), data.size());
}

void Context::destroyResource(pipe::ResourceId id) {
  Resource& r = resources_.get(id, "destroyResource");
  if (r.kind == ResourceKind::Destroyed)
    throw Error("destroyResource: resource " + std::to_string(id) + " is already destroyed");
  const bool inUse = busy(r);
  for (gpu::GpuAddress bo :
       {r.view ? gpu::GpuAddress{0} : r.address, r.positionOnly, r.sampleAddress}) {
    if (bo == 0) continue;
    if (inUse) {
      releaseLater(bo);
    } else {
      memory_.release(bo);
    }
  }
  r = Resource{};
  r.kind = ResourceKind::Destroyed;
}

pipe::ResourceId Context::createTexture(const pipe::TextureDesc& desc) {
  if (desc.width == 0 || desc.height == 0 || desc.width > 4096 || desc.height > 4096)
    throw Error("texture size " + std::to_string(desc.width) + "x" + std::to_string(desc.height) +
                " is outside 1..4096");
  if (int{desc.cube} + int{desc.volume} + int{desc.array} > 1)
    throw Error("a texture is at most one of cube map, 3D and 2D array");
  const bool layered = desc.volume || desc.array;
  // GL_MAX_3D_TEXTURE_SIZE and GL_MAX_ARRAY_TEXTURE_LAYERS (OpenGL ES 3.0 Table 6.28 minimums).
  if (layered ? desc.depth == 0 || desc.depth > 256 : desc.depth != 1)
    throw Error("texture depth " + std::to_string(desc.depth) +
                (layered ? " is outside 1..256" : ": only 3D and array textures have depth"));
  uint32_t maxLevels = 1;
  const uint32_t largest =
      std::max({desc.width, desc.height, desc.volume ? desc.depth : uint32_t{1}});
  while ((largest >> maxLevels) > 0) ++maxLevels;
  if (desc.levels == 0 || desc.levels > maxLevels)
    throw Error("texture with " + std::to_string(desc.levels) + " levels (1.." +
                std::to_string(maxLevels) + " allowed)");
  // The compressed formats are 2D block formats: 3D textures would need 3D blocks.
  if (desc.volume && gpu::tex::isCompressedFormat(desc.format))
    throw Error("a 3D texture cannot have a compressed format");
  if (desc.cube && desc.width != desc.height)
    throw Error("cube map faces must be square, got " + std::to_string(desc.width) + "x" +
                std::to_string(desc.height));
  Resource r;
  r.kind = ResourceKind::Texture;
  r.texture.cube = desc.cube;
  r.texture.volume = desc.volume;
  r.texture.array = desc.array;
  r.texture.depth = desc.depth;
  r.texture.format = desc.format;
  r.texture.width = desc.width;
  r.texture.height = desc.height;
  r.texture.levels = desc.levels;
  r.size = gpu::tex::totalBytes(r.texture);
  r.address = r.texture.base = memory_.allocate(r.size, "texture");
  return resources_.add(r);
}

void Context::uploadTexture(pipe::ResourceId id, uint32_t face, uint32_t level,
                            std::span<const uint8_t> texels) {
  Resource& r = resources_.get(id, ResourceKind::Texture, "uploadTexture");
  if (level >= r.texture.levels)
    throw Error("uploadTexture: level " + std::to_string(level) + " does not exist");
  if (face >= gpu::tex::layerCount(r.texture, level))
    throw Error("uploadTexture: face " + std::to_string(face) + " does not exist");
  const gpu::tex::TextureDescriptor& d = r.texture;
  const uint64_t offset = gpu::tex::faceOffset(d, level, face);
  // Compressed formats: the level's rows of blocks, as the application gives them.
  const uint64_t bytes = gpu::tex::imageBytes(d.format, gpu::tex::levelExtent(d.width, level),
                                              gpu::tex::levelExtent(d.height, level));
  if (texels.size() != bytes)
    throw Error("uploadTexture: level " + std::to_string(level) + " needs " +
                std::to_string(bytes) + " bytes, got " + std::to_string(texels.size()));
  // Draws recorded before the upload see the old texels: they run first, and the CPU writes in
  // place once no batch uses the texture (textures are not renamed: surfaces view them).
  waitIdle(id);
  memory_.write(gpu::BusClient::Host, r.address + offset, texels.data(), bytes);
  ++software_.uploads;
}

Resource Context::allocateSurface(ResourceKind kind, uint32_t bytesPerPixel, uint32_t w, uint32_t h,
                                  const char* name, uint32_t samples) {
  if (w == 0 || h == 0 || w > 8192 || h > 8192)
    throw Error("surface size " + std::to_string(w) + "x" + std::to_string(h) +
                " is outside 1..8192");
  if (samples != 1 && samples != 2 && samples != 4)
    throw Error("surface with " + std::to_string(samples) + " samples (1, 2 or 4 allowed)");
  Resource r;
  r.kind = kind;
  r.width = w;
  r.height = h;
  r.pitch = w * bytesPerPixel;
  r.size = uint64_t{r.pitch} * h;
  r.address = memory_.allocate(r.size, name);
  // The samples get their own buffer object: the resolved image is what is read and sampled.
  r.samples = samples;
  if (samples > 1) {
    r.samplePitch = r.pitch * samples;
    r.sampleAddress = memory_.allocate(uint64_t{r.samplePitch} * h, "multisample surface");
  }
  return r;
}

pipe::ResourceId Context::createColorSurface(pipe::ColorFormat f, uint32_t w, uint32_t h,
                                             uint32_t samples) {
  Resource r = allocateSurface(ResourceKind::ColorSurface, gpu::rb::bytesPerPixel(f), w, h,
                               "colour surface", samples);
  r.colorFormat = f;
  return resources_.add(r);
}

pipe::ResourceId Context::createTextureSurface(pipe::ResourceId texture, uint32_t face,
                                               uint32_t level) {
  const Resource& t = resources_.get(texture, ResourceKind::Texture, "createTextureSurface");
  const gpu::tex::TextureDescriptor& d = t.texture;
  if (level >= d.levels || face >= gpu::tex::layerCount(d, level))
    throw Error("createTextureSurface: level " + std::to_string(level) + " face " +
                std::to_string(face) + " does not exist");
  // Colour formats become colour surfaces, depth formats depth surfaces (same texel layout).
  Resource r;
  r.view = true;
  r.parent = texture;
  r.kind = ResourceKind::ColorSurface;
  switch (d.format) {
    case gpu::tex::TexFormat::RGBA8:
      r.colorFormat = pipe::ColorFormat::RGBA8;
      break;
    case gpu::tex::TexFormat::RGB565:
      r.colorFormat = pipe::ColorFormat::RGB565;
      break;
    case gpu::tex::TexFormat::RGBA4444:
      r.colorFormat = pipe::ColorFormat::RGBA4444;
      break;
    case gpu::tex::TexFormat::RGBA5551:
      r.colorFormat = pipe::ColorFormat::RGBA5551;
      break;
    case gpu::tex::TexFormat::D16:
      r.kind = ResourceKind::DepthSurface;
      r.depthFormat = pipe::DepthFormat::D16;
      break;
    case gpu::tex::TexFormat::D24S8:
      r.kind = ResourceKind::DepthSurface;
      r.depthFormat = pipe::DepthFormat::D24S8;
      break;
    default:
      // Compressed textures are sampled from their blocks; the render backend writes texels.
      throw Error(gpu::tex::isCompressedFormat(d.format)
                      ? "createTextureSurface: a compressed texture cannot be a render target"
                      : "createTextureSurface: the texture's format cannot be rendered to");
  }
  const uint32_t bpp = r.kind == ResourceKind::DepthSurface ? gpu::rb::bytesPerPixel(r.depthFormat)
                                                            : gpu::rb::bytesPerPixel(r.colorFormat);
  r.width = gpu::tex::levelExtent(d.width, level);
  r.height = gpu::tex::levelExtent(d.height, level);
  r.pitch = r.width * bpp;
  r.size = uint64_t{r.pitch} * r.height;
  r.address = d.base + gpu::tex::faceOffset(d, level, face);
  r.valid = true;  // the texels are the surface's contents
  return resources_.add(r);
}

pipe::ResourceId Context::createDepthSurface(pipe::DepthFormat f, uint32_t w, uint32_t h,
                                             uint32_t samples) {
  if (f == pipe::DepthFormat::None) throw Error("createDepthSurface: no format");
  Resource r = allocateSurface(ResourceKind::DepthSurface, gpu::rb::bytesPerPixel(f), w, h,
                               "depth surface", samples);
  r.depthFormat = f;
  return resources_.add(r);
}

pipe::ResourceId Context::createVertexShader(std::span<const uint32_t> binary,
                                             std::span<const uint32_t> positionOnly) {
  Resource r;
  r.kind = ResourceKind::VertexShader;
  r.dwords = static_cast<uint32_t>(binary.size());
  r.address = memory_.allocate(binary.size_bytes(), "vertex shader");
  memory_.write(gpu::BusClient::Host, r.address, binary.data(), binary.size_bytes());
  r.positionOnlyDwords = static_cast<uint32_t>(positionOnly.size());
  r.registers = registersOf(binary);
  r.privateDwords = std::max(isa::privateDwordsOf(binary), isa::privateDwordsOf(positionOnly));
  r.positionOnly = memory_.allocate(positionOnly.size_bytes(), "binning shader");
  memory_.write(gpu::BusClient::Host, r.positionOnly, positionOnly.data(),
                positionOnly.size_bytes());
  return resources_.add(r);
}

pipe::ResourceId Context::createFragmentShader(std::span<const uint32_t> binary) {
  Resource r;
  r.kind = ResourceKind::FragmentShader;
  r.dwords = static_cast<uint32_t>(binary.size());
  try {
    const isa::Program program = isa::decode(binary);
    r.kills = program.uses(isa::kUsesKill);
    r.registers = program.regCount;
  } catch (const isa::DecodeError&) {
    r.kills = true;  // the GPU faults on it when drawn; until then assume the worst
  }
  r.privateDwords = isa::privateDwordsOf(binary);
  r.address = memory_.allocate(binary.size_bytes(), "fragment shader");
  memory_.write(gpu::BusClient::Host, r.address, binary.data(), binary.size_bytes());
  return resources_.add(r);
}

// ---- state -----------------------------------------------------------------------------------

void Context::setFramebuffer(const pipe::Framebuffer& fb) {
  if (fb == fb_) return;
  // A batch belongs to one framebuffer: switching render targets ends it (seed 000,
  // "Performance Notes").
  submitBatch();
  if (fb.color) {
    auto& c = resources_.get(fb.color, ResourceKind::ColorSurface, "setFramebuffer colour");
    if (c.width != fb.width || c.height != fb.height)
      throw Error("setFramebuffer: colour surface size differs");
  }
  if (fb.depth) {
    auto& d = resources_.get(fb.depth, ResourceKind::DepthSurface, "setFramebuffer depth");
    if (d.width != fb.width || d.height != fb.height)
      throw Error("setFramebuffer: depth surface size differs");
    if (fb.color &&
        resources_.get(fb.color, ResourceKind::ColorSurface, "setFramebuffer").samples != d.samples)
      throw Error("setFramebuffer: colour and depth surfaces differ in samples per pixel");
  }
  fb_ = fb;
  dirty_ = kDirtyAll;
}

void Context::setVertexElements(std::span<const pipe::VertexElement> e) {
  if (e.size() > gpu::vfd::kMaxAttributes) throw Error("more than 16 vertex elements");
  for (const auto& el : e)
    if (el.components < 1 || el.components > 4 || el.buffer >= vertexBuffers_.size() ||
        el.stride > 0xffff)
      throw Error("vertex element with bad components, buffer slot or stride");
  update(elements_, std::vector<pipe::VertexElement>(e.begin(), e.end()), kDirtyVertex);
}

void Context::setVertexBuffer(uint32_t slot, pipe::ResourceId buffer) {
  if (slot >= vertexBuffers_.size())
    throw Error("vertex buffer slot " + std::to_string(slot) + " >= 16");
  if (buffer) resources_.get(buffer, ResourceKind::Buffer, "setVertexBuffer");
  update(vertexBuffers_[slot], buffer, kDirtyVertex);
}

void Context::bindShaders(pipe::ResourceId vs, pipe::ResourceId fs) {
  resources_.get(vs, ResourceKind::VertexShader, "bindShaders vertex");
  resources_.get(fs, ResourceKind::FragmentShader, "bindShaders fragment");
  update(vs_, vs, kDirtyProgram);
  update(fs_, fs, kDirtyProgram);
}

void Context::setConstants(pipe::ShaderStage stage, std::span<const float> constants) {
  update(constants_[static_cast<int>(stage)],
         std::vector<float>(constants.begin(), constants.end()),
         stage == pipe::ShaderStage::Vertex ? kDirtyVsConst : kDirtyFsConst);
}

void Context::setTexture(pipe::ShaderStage stage, uint32_t unit, pipe::ResourceId tex,
                         const pipe::SamplerState& sampler) {
  if (unit >= 16) throw Error("texture unit " + std::to_string(unit) + " >= 16");
  if (tex) resources_.get(tex, ResourceKind::Texture, "setTexture");
  update(textures_[static_cast<int>(stage)][unit], TextureBinding{tex, sampler, true},
         stage == pipe::ShaderStage::Vertex ? kDirtyVsTex : kDirtyFsTex);
}

Context::Rect Context::scissorRect() const {
  if (!raster_.scissor) return {0, 0, fb_.width, fb_.height};
  const uint32_t x0 = std::min(scissor_.x, fb_.width), y0 = std::min(scissor_.y, fb_.height);
  return {x0, y0, std::min(fb_.width, x0 + scissor_.width),
          std::min(fb_.height, y0 + scissor_.height)};
}

void Context::growMaxScissor(const Rect& r) {
  Batch& b = *batch_;
  if (!b.hasScissorBounds) {
    b.maxScissor = r;
    b.hasScissorBounds = true;
  } else {
    b.maxScissor = {std::min(b.maxScissor.x0, r.x0), std::min(b.maxScissor.y0, r.y0),
                    std::max(b.maxScissor.x1, r.x1), std::max(b.maxScissor.y1, r.y1)};
  }
}

}  // namespace tessera::driver
