// Multisample positions and coverage patterns (ras/): where each sample of a pixel lies, and
// which samples a coverage fraction (glSampleCoverage, alpha to coverage) keeps.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::gpu::ras {

inline constexpr uint32_t kMaxSamples = 4;

// A sample's offset from the pixel centre in 1/16 pixel (the standard D3D/Vulkan patterns; in
// pixel units 2x: (0.75,0.75) (0.25,0.25); 4x: (0.375,0.125) (0.875,0.375) (0.125,0.625)
// (0.625,0.875), y in the surface's row order).
struct SampleOffset {
  int8_t dx, dy;
};
inline constexpr int kSampleGrid = 16;
inline constexpr std::array<SampleOffset, 1> kSamples1 = {{{0, 0}}};
inline constexpr std::array<SampleOffset, 2> kSamples2 = {{{4, 4}, {-4, -4}}};
inline constexpr std::array<SampleOffset, 4> kSamples4 = {{{-2, -6}, {6, -2}, {-6, 2}, {2, 6}}};
// Farthest any sample lies from the centre along x or y, in 1/16 pixel.
inline constexpr int kMaxSampleOffset = 6;

inline const SampleOffset* sampleOffsets(uint32_t samples) {
  return samples == 4 ? kSamples4.data() : samples == 2 ? kSamples2.data() : kSamples1.data();
}

// Quads carry a nibble of sample bits per pixel: bit 4*i + s is sample s of pixel i.
inline constexpr uint16_t kPixelSampleBits = 4;
// The sample bits that exist for each pixel at a sample count.
inline constexpr uint16_t allSamples(uint32_t samples) {
  return static_cast<uint16_t>((1u << samples) - 1u);
}
// Every existing sample of the pixels in `pixels` (bit i: pixel i).
inline constexpr uint16_t expandPixels(uint8_t pixels, uint32_t samples) {
  uint16_t m = 0;
  for (int i = 0; i < 4; ++i)
    if ((pixels >> i) & 1)
      m |= static_cast<uint16_t>(allSamples(samples) << (kPixelSampleBits * i));
  return m;
}
// Pixels with at least one sample bit set.
inline constexpr uint8_t pixelsOf(uint16_t sampleMask) {
  uint8_t p = 0;
  for (int i = 0; i < 4; ++i)
    if ((sampleMask >> (kPixelSampleBits * i)) & 0xf) p |= static_cast<uint8_t>(1u << i);
  return p;
}

// The samples a coverage of n out of `samples` keeps: a fixed pattern, spread over the pixel
// (GLES 2.0 §4.1.3 leaves the choice to the implementation but asks that it not depend on
// anything but the fraction). Indexed [n] for 2x and 4x.
inline constexpr std::array<uint8_t, 3> kCoverage2 = {0b00, 0b01, 0b11};
inline constexpr std::array<uint8_t, 5> kCoverage4 = {0b0000, 0b0001, 0b1001, 0b1011, 0b1111};

// The pattern for a fraction in [0,1] (clamped; NaN reads 0): round(fraction × samples) samples.
inline uint8_t coveragePattern(float fraction, uint32_t samples) {
  const float f = fraction > 0.0f ? (fraction < 1.0f ? fraction : 1.0f) : 0.0f;
  const uint32_t n = static_cast<uint32_t>(f * static_cast<float>(samples) + 0.5f);
  if (samples == 4) return kCoverage4[n > 4 ? 4 : n];
  if (samples == 2) return kCoverage2[n > 2 ? 2 : n];
  return 1;
}
// The same pattern repeated for the four pixels of a quad.
inline uint16_t quadPattern(uint8_t pixelPattern) {
  return static_cast<uint16_t>(pixelPattern * 0x1111u);
}

}  // namespace tessera::gpu::ras
