// The pipe context: what an API layer calls to create resources, set state and record draws;
// one driver (driver/) implements it. Modelled on Gallium's pipe_context (DESIGN.md "pipe/").
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pipe/state.h"

namespace tessera::pipe {

enum class ShaderStage : uint8_t { Vertex, Fragment };

struct TextureDesc {
  TexFormat format = TexFormat::RGBA8;
  uint32_t width = 0, height = 0, levels = 1;
  bool cube = false;    // a cube map: six square faces per level
  bool volume = false;  // a 3D texture of `depth` slices (which halve with each level)
  bool array = false;   // a 2D array texture of `depth` layers (all levels have them all)
  uint32_t depth = 1;
};

// A completed flush: the timestamp its submission writes when it retires.
struct Fence {
  uint64_t timestamp = 0;
};

// Queries (docs/queries.md). Occlusion (EXT_occlusion_query_boolean; the counter as in GL 1.5):
// samples that passed the depth and stencil tests between begin and end, or whether any did; the
// conservative predicate may say true when none did (Tessera's is exact). Time
// (EXT_disjoint_timer_query): GPU nanoseconds between begin and end, summed over the bins that
// ran the draws between them, or the GPU clock when the work recorded before recordTimestamp is
// done. Primitives generated: primitives of the draws between begin and end, before clipping
// and culling. Counters (AMD_performance_monitor): what each chosen counter of counterList()
// counted between begin and end.
enum class QueryType : uint8_t {
  OcclusionCounter,
  OcclusionPredicate,
  OcclusionConservative,
  TimeElapsed,
  Timestamp,
  PrimitivesGenerated,
  Counters
};
using QueryId = uint32_t;
struct QueryResult {
  bool available = false;
  uint64_t value = 0;            // samples, 0/1 for the predicates, nanoseconds, primitives
  std::vector<double> counters;  // Counters: one value per counter, in the order created
};

// A counter a Counters query can sample: a hardware countable (group = the GPU block, as in
// gpu/pipeline/countables.h) or one of the driver's software counters (group "driver").
struct CounterInfo {
  std::string group, name, description;
  bool hardware = true;
  bool average = false;  // a ratio (e.g. registers per draw), not a count
};

class Context {
 public:
  virtual ~Context() = default;

  // Resources. Data is copied; sizes are validated (tessera::Error on misuse).
  virtual ResourceId createBuffer(std::span<const uint8_t> data) = 0;
  // Replaces bytes [offset, offset + data.size()) of a buffer. Work recorded before still sees
  // the old contents (the driver renames the buffer if pending work uses it).
  virtual void updateBuffer(ResourceId buffer, uint64_t offset, std::span<const uint8_t> data) = 0;
  // The resource is gone for the caller; its memory is freed once no pending work can read it.
  virtual void destroyResource(ResourceId id) = 0;
  virtual ResourceId createTexture(const TextureDesc& desc) = 0;
  // One level of one face: 2D textures have face 0, cube maps faces 0..5 (+X -X +Y -Y +Z -Z),
  // 3D textures one face per slice of the level, 2D arrays one per layer.
  virtual void uploadTexture(ResourceId tex, uint32_t face, uint32_t level,
                             std::span<const uint8_t> texels) = 0;
  // Render surfaces with 1, 2 or 4 samples per pixel (docs/msaa.md); a framebuffer's attachments
  // must agree on the count. A multisample surface reads back (readSurface) and is sampled as
  // its resolved image: each pixel the average of its samples (depth/stencil: sample 0).
  virtual ResourceId createColorSurface(ColorFormat format, uint32_t width, uint32_t height,
                                        uint32_t samples = 1) = 0;
  virtual ResourceId createDepthSurface(DepthFormat format, uint32_t width, uint32_t height,
                                        uint32_t samples = 1) = 0;
  // A surface that is one level of one face (3D slice, array layer) of a texture (render to
  // texture): drawing into it writes the texture's texels. Colour for RGBA8, RGB565, RGBA4444 and
  // RGBA5551 textures, depth for D16 and D24S8 ones. The view dies with the texture.
  virtual ResourceId createTextureSurface(ResourceId texture, uint32_t face, uint32_t level) = 0;
  // Shader binaries in the Tessera ISA encoding (isa::encode). A vertex shader is given with
  // its binning-pass (position-only) variant.
  virtual ResourceId createVertexShader(std::span<const uint32_t> binary,
                                        std::span<const uint32_t> positionOnly) = 0;
  virtual ResourceId createFragmentShader(std::span<const uint32_t> binary) = 0;

  // State.
  virtual void setFramebuffer(const Framebuffer& fb) = 0;
  virtual void setBlend(const BlendState& s) = 0;
  virtual void setDepthStencilAlpha(const DepthStencilAlphaState& s) = 0;
  virtual void setRasterizer(const RasterizerState& s) = 0;
  virtual void setScissor(const Scissor& s) = 0;
  virtual void setViewport(const Viewport& v) = 0;
  virtual void setVertexElements(std::span<const VertexElement> elements) = 0;
  virtual void setVertexBuffer(uint32_t slot, ResourceId buffer) = 0;
  virtual void bindShaders(ResourceId vs, ResourceId fs) = 0;
  virtual void setConstants(ShaderStage stage, std::span<const float> constants) = 0;
  virtual void setTexture(ShaderStage stage, uint32_t unit, ResourceId tex,
                          const SamplerState& sampler) = 0;

  // Work.
  virtual void clear(uint32_t buffers, const std::array<float, 4>& color, float depth,
                     uint8_t stencil) = 0;
  virtual void draw(const DrawInfo& info) = 0;
  // The application no longer needs these contents (EXT_discard_framebuffer): no resolve.
  virtual void invalidate(uint32_t buffers) = 0;
  virtual Fence flush() = 0;
  // Flushes and waits until all submitted work is done (glFinish).
  virtual void finish() = 0;

  // Queries (tessera::Error on an unknown id, beginning a running query, ending a stopped one,
  // destroying a running one, or asking for a result of one never begun).
  virtual QueryId createQuery(QueryType type) = 0;
  virtual void destroyQuery(QueryId id) = 0;
  virtual void beginQuery(QueryId id) = 0;
  virtual void endQuery(QueryId id) = 0;
  // Not available while the query runs or its work has not retired; `wait` flushes what the
  // result needs and waits for it instead (a running query still has none).
  virtual QueryResult queryResult(QueryId id, bool wait) = 0;
  // Every counter a Counters query may sample; createCounterQuery takes indices into it.
  virtual std::span<const CounterInfo> counterList() = 0;
  // A Counters query (tessera::Error on an empty list or an index out of range).
  virtual QueryId createCounterQuery(std::span<const uint32_t> counters) = 0;
  // A Timestamp query takes the GPU clock once the work recorded so far is done (glQueryCounter).
  virtual void recordTimestamp(QueryId id) = 0;
  // The GPU clock now, in nanoseconds, after all work submitted so far (GL_TIMESTAMP_EXT).
  virtual uint64_t gpuTimeNs() = 0;
  // Whether the GPU clock's readings since the last call may not be comparable (a GPU fault
  // reset the work), and clears it (GL_GPU_DISJOINT_EXT).
  virtual bool takeDisjoint() = 0;

  // Reads a surface back (after the flush that wrote it).
  virtual std::vector<uint8_t> readSurface(ResourceId surface) = 0;
};

}  // namespace tessera::pipe
