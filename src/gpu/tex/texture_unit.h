// Texture unit (tex/): samples a texture descriptor for the shader processor's texture
// instructions, a 2x2 quad at a time (implicit LOD from the quad's derivatives) or one sample
// at an explicit LOD. Texels come from GPU memory and every fetched byte is charged to the bus.
#pragma once
#include <array>
#include <cstdint>

#include "gpu/mem/gpu_memory.h"
#include "gpu/tex/quad_filter.h"
#include "gpu/tex/texture_cache.h"
#include "gpu/tex/texture_descriptor.h"

namespace tessera::gpu::tex {

struct TexStats {
  uint64_t quads;         // sampleQuad calls
  uint64_t samples;       // filtered results produced (4 per quad, 1 per explicit-LOD sample)
  uint64_t texelFetches;  // texels read (1 nearest, 4 bilinear, 8 trilinear; x anisotropic probes)
  uint64_t bytesFetched;  // bytes charged to the bus: the misses' lines, or without a cache the
                          // texels' bytes (a compressed texel: its whole block)
  // The texture cache (texture_cache.h); all 0 without one. hits + misses = lookups and
  // missBytes = misses x line size = bytesFetched.
  uint64_t lookups, hits, misses, missBytes;
};

// One pixel's coordinates for the general lookups (sampleQuadVec, sampleLodVec), read by the
// descriptor's target: 2D (s, t); 3D (s, t, r); 2D array (s, t) and the layer r, rounded and
// clamped (OpenGL ES 3.0 §3.8.10); cube map the direction (s, t, r). `ref` is the depth reference
// of a shadow lookup, compared when the descriptor's compare mode is on.
struct TexCoord {
  float s = 0, t = 0, r = 0, ref = 0;
};

class TextureUnit final {
 public:
  explicit TextureUnit(GpuMemory& memory) : memory_(memory) {}

  // Implicit LOD from the quad's derivatives (GLES 2.0 §3.7.7); pixel order TL, TR, BL, BR;
  // out[pixel][channel]. Throws GpuFault when the texture is not inside one buffer object.
  void sampleQuad(const TextureDescriptor&, const float s[4], const float t[4], float lodBias,
                  float out[4][4], TexelOffset offset = {});
  // sampleQuad for every quad q of a warp whose bit is set in `quads`: pixels 4q..4q+3 of s, t
  // and of each channel's row out[channel], bias[q]. The same lookups in the same order, with the
  // texture's set-up paid once; rows of the other quads are left as they are.
  void sampleQuads(const TextureDescriptor&, const float* s, const float* t, const float* bias,
                   uint32_t quads, float* const out[4], TexelOffset offset = {});
  // sampleQuads without a bias or texel offset, with the descriptor of one of the last lookups
  // that had a whole-warp kernel (quad_filter.h, warpFilter): the kernel is called at once, with
  // what sampleQuads had set up; for some of the quads, that set-up's quad kernel. Returns false,
  // having done nothing, otherwise: the caller then takes sampleQuads. The rows `out` may be the
  // rows s and t themselves (a kernel reads a quad's coordinates before it writes the quad).
  bool sampleWarp(const TextureDescriptor&, const float* s, const float* t, uint32_t quads,
                  float* const out[4]);
  // Explicit LOD (no derivatives): the same level selection and filtering with lambda = lod.
  void sampleLod(const TextureDescriptor&, float s, float t, float lod, float out[4],
                 TexelOffset offset = {});
  // Cube maps (descriptor.cube): each pixel's direction (x, y, z) picks a face (GLES 2.0
  // §3.7.5); the quad's LOD uses the directions projected on the first pixel's face.
  void sampleQuadCube(const TextureDescriptor&, const float x[4], const float y[4],
                      const float z[4], float lodBias, float out[4][4]);
  void sampleLodCube(const TextureDescriptor&, float x, float y, float z, float lod, float out[4]);
  // Every target (2D, cube, 3D, 2D array), with an optional depth comparison: `shadow` lookups
  // compare coord.ref with each texel before filtering (OpenGL ES 3.0 §3.8.16) when the
  // descriptor's compare mode is on, and return (c, c, c, 1) with c the filtered result.
  void sampleQuadVec(const TextureDescriptor&, const TexCoord coord[4], bool shadow, float lodBias,
                     float out[4][4], TexelOffset offset = {});
  void sampleLodVec(const TextureDescriptor&, const TexCoord& coord, bool shadow, float lod,
                    float out[4], TexelOffset offset = {});
  // One texel, unfiltered and unwrapped (GLSL ES 3.00 texelFetch): texel (i, j) of layer or slice
  // k of `level` of a 2D, 3D or 2D array texture. Outside the level, beyond the mip chain or
  // incomplete: (0, 0, 0, 0).
  void fetch(const TextureDescriptor&, int32_t i, int32_t j, int32_t k, int32_t level,
             float out[4]);
  void fetch(const TextureDescriptor& d, int32_t i, int32_t j, int32_t level, float out[4]) {
    fetch(d, i, j, 0, level, out);
  }

  // Mip-chain layouts kept at once: as many as a program has sampler slots (the shader core
  // checks this against the ISA), so a draw's textures never evict each other.
  static constexpr uint32_t kLayoutTables = 16;

  const TexStats& stats() const { return stats_; }
  // A bin worker's counters, merged in bin order (gpu/pipeline/bin_jobs.h).
  void addStats(const TexStats& s);
  // The counters since the last take, which start again from 0; the cache keeps its lines.
  TexStats takeStats() {
    chargeCacheStats();
    const TexStats s = stats_;
    stats_ = {};
    merged_ = {};
    cache_.resetStats();
    return s;
  }
  // The pipeline resets the unit at the start of every submission: the counters, and the
  // texture cache is invalidated, since the host may have written texture memory in between.
  void resetStats() {
    stats_ = {};
    merged_ = {};
    cache_.resetStats();
    cache_.invalidate();
    for (LevelTable& t : tables_) t.texels = nullptr;
    forgetWarps();  // their levels' texels were the submission's
  }

  // Replaces the texture cache (TexCacheConfig::bytes 0: none) and empties it; keeps the cache
  // and its counters when the configuration is unchanged. Throws std::invalid_argument for a
  // configuration texCacheProblem() rejects.
  void configureCache(const TexCacheConfig& config) {
    if (config != cache_.config()) cache_ = TextureCache(config);
    forgetWarps();  // their levels name the cache
  }
  const TextureCache& cache() const { return cache_; }
  // Off: every lookup takes the general filter, which the specialized 2D path of the common
  // formats must match to the bit (the texture tests compare the two).
  void setSpecializedFilters(bool on) {
    useQuad2D_ = on;
    for (LevelTable& t : tables_) t.setUp = false;  // the kept kernels change
    forgetWarps();
  }
  // The anisotropic footprint of a 2D quad (EXT_texture_filter_anisotropic): probes along the
  // major axis of the footprint and the lambda of the minor axis. With maxAnisotropy 1 or a
  // magnified footprint: one probe and quadLod's lambda.
  struct Footprint {
    uint32_t probes;
    float lambda;
    float ds, dt;  // the major axis in s and t (the probes spread along it)
  };
  static Footprint anisotropicFootprint(const TextureDescriptor&, const float s[4],
                                        const float t[4], float bias);

  // The level of detail lambda of a quad (before clamping), in level-0 texel units: log2 of the
  // longer of the x and y derivative vectors plus the bias, from coarse derivatives
  // (TR - TL and BL - TL), so all four pixels share one lambda.
  static float quadLod(const TextureDescriptor&, const float s[4], const float t[4], float bias);
  // The same with the r derivatives of a 3D texture (in units of its depth) in the lengths.
  static float quadLod3(const TextureDescriptor&, const float s[4], const float t[4],
                        const float r[4], float bias);

 private:
  const uint8_t* map(const TextureDescriptor&);
  bool incomplete(const TextureDescriptor&, float (*out)[4], int pixels);
  void chargeFetches();
  struct LevelChoice {
    uint32_t level[2];
    int count;      // 1, or 2 for a blend between mip levels
    Filter filter;  // within a level
    float blend;    // weight of level[1]
    uint64_t offset[2], faceBytes[2];
    int32_t width[2], height[2], depth[2];
    // What one kernel call shares: the same levels filtered alike (the rest follows from them).
    // A value of scalars, so that a loop keeps the current run's in registers: comparing with a
    // copy stored a moment before would wait on store forwarding.
    // The blend between the levels is each quad's own (QuadLookup::blend).
    struct Key {
      uint32_t level0, level1;
      int count;
      Filter filter;
      bool operator==(const Key& o) const {
        return level0 == o.level0 && count == o.count && filter == o.filter &&
               (count == 1 || level1 == o.level1);
      }
    };
    Key key() const { return {level[0], level[1], count, filter}; }
  };
  LevelChoice chooseLevels(const TextureDescriptor&, float lambda);
  // The layout of a texture's mip chain, computed once per texture and kept for the textures a
  // draw samples: every quad's lookup needs it.
  static constexpr uint32_t kTableLevels = 16;
  struct LevelTable {
    TextureDescriptor key;  // only its layout fields count (sameLayout)
    uint64_t total = 0;     // bytes of the whole chain
    uint32_t count = 0;     // levels tabled: min(levels, kTableLevels)
    uint64_t offset[kTableLevels], faceBytes[kTableLevels];
    int32_t width[kTableLevels], height[kTableLevels], depth[kTableLevels];
    // The chain's bytes, once looked up in this submission (or bin): a GPU run pins the buffer
    // objects it sees, so the pointer stays good until the unit is reset for the next one.
    const uint8_t* texels = nullptr;
    // The set-up of warp lookups (sampleQuads) with descriptor `sampler` (valid when it equals
    // the lookup's whole descriptor): the quad kernels of its format, and without a level of
    // detail the draw's one choice of levels.
    bool setUp = false;
    TextureDescriptor sampler;
    QuadFilterFn kernels[2];
    bool lodMatters;
    LevelChoice fixed;
  };
  LevelTable& levelTable(const TextureDescriptor&);
  // The texture's bytes through its table (map() with the table looked up).
  const uint8_t* mapTable(const TextureDescriptor&, LevelTable&);
  // The table with its warp set-up for `d`, made when the descriptor changed.
  LevelTable& warpSetup(const TextureDescriptor& d);
  // The same into `lc`, with the descriptor's table already looked up (a warp's quads share it).
  void chooseLevels(const TextureDescriptor&, const LevelTable&, float lambda, LevelChoice& lc);
  // `face`: the cube face or array layer; `r`: the 3D coordinate; `ref`: the depth reference
  // to compare each texel with, or null.
  void sample(const TextureDescriptor&, const uint8_t* texels, const LevelChoice&, uint32_t face,
              float s, float t, float r, const float* ref, TexelOffset offset, float out[4]);
  // The same for `pixels` pixels of one lookup (a quad's): the levels are set up once.
  void samplePixels(const TextureDescriptor&, const uint8_t* texels, const LevelChoice&,
                    uint32_t face, int pixels, const float* s, const float* t, float r,
                    const float* ref, TexelOffset offset, float (*out)[4]);
  // The levels a choice filters, of cube face or array layer `face`.
  void levelsOf(const TextureDescriptor&, const uint8_t* texels, const LevelChoice&, uint32_t face,
                Level out[2]);
  // The specialized quad lookup of the descriptor's format with `filter`, or null.
  QuadFilterFn quadKernel(const TextureDescriptor&, Filter filter) const;
  // Counts `fetched` texels and adds their bus bytes: the cache's misses since it had missed
  // `missBytes`, or without a cache the texels themselves.
  void chargeTexels(const TextureDescriptor&, uint32_t fetched, uint64_t missBytes);
  // One kernel call of every quad's lookup from the same levels, and its counts: the call's
  // fetches reach the bus together (the counters are byte sums, so one charge counts what a
  // charge per quad would).
  void callKernel(const TextureDescriptor&, QuadFilterFn kernel, const QuadLookup& lookup);
  void sampleOne(const TextureDescriptor&, const uint8_t* texels, const LevelChoice&,
                 const TexCoord&, bool shadow, TexelOffset offset, float out[4]);
  // The average of `fp.probes` sampleOne results spread along the footprint's major axis.
  void sampleProbes(const TextureDescriptor&, const uint8_t* texels, const LevelChoice&,
                    const Footprint& fp, const TexCoord&, bool shadow, TexelOffset offset,
                    float out[4]);
  void chargeCacheStats();

  // The set-ups of the last lookups that had a whole-warp kernel (sampleWarp): descriptor,
  // kernels and level, for as many textures as a shader commonly samples in turn. Kept while the
  // GPU run pins the texels.
  struct WarpLookup {
    TextureDescriptor sampler;
    QuadFilterFn kernel = nullptr;      // all eight quads
    QuadFilterFn quadKernel = nullptr;  // some of them
    Level level;
  };
  static constexpr uint32_t kWarpLookups = 4;
  std::array<WarpLookup, kWarpLookups> warps_{};
  uint32_t nextWarp_ = 0;
  void forgetWarps() {
    for (WarpLookup& w : warps_) w.kernel = nullptr;
  }
  const WarpLookup* keepsWarp(const TextureDescriptor& d) const {
    for (const WarpLookup& w : warps_)
      if (w.kernel != nullptr && w.sampler == d) return &w;
    return nullptr;
  }

  GpuMemory& memory_;
  TexStats stats_{};
  TexCacheStats merged_{};     // cache counters of merged bin workers
  uint64_t fetchedBytes_ = 0;  // charged to the bus once per call
  TextureCache cache_;
  std::array<LevelTable, kLayoutTables> tables_{};
  bool useQuad2D_ = true;
  uint32_t tablesUsed_ = 0, nextTable_ = 0, lastTable_ = 0;
};

}  // namespace tessera::gpu::tex
