// The driver's resources: buffers, textures and render surfaces, each one GPU buffer object.
// Surfaces carry the validity flag freedreno keeps per resource: contents that were never written
// (or were invalidated) need no restore.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/texture_descriptor.h"
#include "pipe/context.h"

namespace tessera::driver {

enum class ResourceKind : uint8_t {
  Buffer,
  Texture,
  ColorSurface,
  DepthSurface,
  VertexShader,
  FragmentShader,
  Destroyed  // the id stays taken; any use is an error
};

struct Resource {
  ResourceKind kind = ResourceKind::Buffer;
  gpu::GpuAddress address = 0;
  uint64_t size = 0;                          // bytes
  uint32_t width = 0, height = 0, pitch = 0;  // surfaces
  gpu::tex::TextureDescriptor texture;        // textures: base, format, size, levels
  pipe::ColorFormat colorFormat = pipe::ColorFormat::RGBA8;
  pipe::DepthFormat depthFormat = pipe::DepthFormat::None;
  gpu::GpuAddress positionOnly = 0;  // vertex shaders: the binning variant
  uint32_t dwords = 0, positionOnlyDwords = 0;
  uint32_t privateDwords = 0;  // shaders: private memory per thread (both variants of a VS)
  bool kills = false;          // fragment shaders: may discard (no early Z, no LRZ)
  uint32_t registers = 0;      // shaders: general registers per thread (software counters)
  bool valid = false;          // surfaces: contents defined
  // Multisample surfaces (docs/msaa.md): `address` holds the resolved single-sample image,
  // `sampleAddress` every sample (samples × bytes per pixel, a pixel's samples side by side)
  // and `samplesValid` says whether those samples hold the current contents.
  uint32_t samples = 1;
  gpu::GpuAddress sampleAddress = 0;
  uint32_t samplePitch = 0;
  bool samplesValid = false;
  bool view = false;  // a surface inside another resource's BO (a texture level): no BO of its own
  pipe::ResourceId parent = pipe::kNoResource;  // a view's texture
  // Use by the GPU: the batch being recorded references it when batchMark is that batch's
  // serial; lastUse is the kernel timestamp of the last submitted batch that did.
  uint64_t batchMark = 0;
  uint32_t lastUse = 0;
};

class ResourceTable final {
 public:
  explicit ResourceTable(gpu::GpuMemory& memory) : memory_(memory) {}
  pipe::ResourceId add(Resource r) {
    resources_.push_back(r);
    return static_cast<pipe::ResourceId>(resources_.size());
  }
  // Throws tessera::Error when id names no resource of the expected kind.
  Resource& get(pipe::ResourceId id, ResourceKind kind, const char* what);
  Resource& get(pipe::ResourceId id, const char* what);  // any kind
  gpu::GpuMemory& memory() { return memory_; }
  // Frees every resource's buffer objects (the context is going and the GPU is done with them).
  void releaseAll();

 private:
  gpu::GpuMemory& memory_;
  std::vector<Resource> resources_;
};

}  // namespace tessera::driver
