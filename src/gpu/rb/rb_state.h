// Render backend (rb/) state: surface formats, the depth/stencil and blend state the driver
// programs, and the view of the surface (GMEM or system memory) the RB reads and writes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tessera::gpu::rb {

enum class ColorFormat : uint8_t { RGBA8, RGB565, RGBA4444, RGBA5551 };  // RGBA8 = bytes R,G,B,A
// D24S8: one little-endian uint32 per pixel, depth in bits 0..23, stencil in bits 24..31.
enum class DepthFormat : uint8_t { None, D16, D24S8 };
uint32_t bytesPerPixel(ColorFormat);
uint32_t bytesPerPixel(DepthFormat);

enum class CompareFunc : uint8_t { Never, Less, Equal, LEqual, Greater, NotEqual, GEqual, Always };
enum class StencilOp : uint8_t { Keep, Zero, Replace, Incr, Decr, Invert, IncrWrap, DecrWrap };
enum class BlendFactor : uint8_t {
  Zero,
  One,
  SrcColor,
  OneMinusSrcColor,
  DstColor,
  OneMinusDstColor,
  SrcAlpha,
  OneMinusSrcAlpha,
  DstAlpha,
  OneMinusDstAlpha,
  ConstantColor,
  OneMinusConstantColor,
  ConstantAlpha,
  OneMinusConstantAlpha,
  SrcAlphaSaturate
};
enum class BlendEquation : uint8_t { Add, Subtract, ReverseSubtract };

struct StencilFace {
  CompareFunc func = CompareFunc::Always;
  uint8_t ref = 0, valueMask = 0xff, writeMask = 0xff;
  StencilOp fail = StencilOp::Keep, zfail = StencilOp::Keep, zpass = StencilOp::Keep;
  bool operator==(const StencilFace&) const = default;
};

struct DepthStencilState {
  bool depthTest = false;
  bool depthWrite = true;
  CompareFunc depthFunc = CompareFunc::Less;
  bool stencilTest = false;
  StencilFace front, back;
  bool operator==(const DepthStencilState&) const = default;
};

struct BlendState {
  bool enable = false;
  BlendFactor srcRgb = BlendFactor::One, dstRgb = BlendFactor::Zero;
  BlendFactor srcAlpha = BlendFactor::One, dstAlpha = BlendFactor::Zero;
  BlendEquation eqRgb = BlendEquation::Add, eqAlpha = BlendEquation::Add;
  float constant[4] = {0, 0, 0, 0};
  uint8_t colorWriteMask = 0xf;  // bit0 R .. bit3 A
  // Multisample fragment operations (GLES 2.0 §4.1.3), applied only to multisample targets:
  // SAMPLE_ALPHA_TO_COVERAGE, and SAMPLE_COVERAGE with its value and invert flag.
  bool alphaToCoverage = false;
  bool sampleCoverage = false;
  bool sampleCoverageInvert = false;
  float sampleCoverageValue = 1.0f;
  bool operator==(const BlendState&) const = default;
};

// A surface the RB writes: GMEM (origin = bin origin) or system memory (origin 0,0). Pixel (x,y)
// in window coordinates lives at base + (y-originY)*pitch + (x-originX)*bytesPerPixel. A
// multisample surface keeps a pixel's samples side by side: sample s of pixel (x,y) is element
// x*samples + s of row y, and originX counts elements (the bin's x × samples).
struct SurfaceView {
  uint8_t* base = nullptr;
  uint32_t pitch = 0;
  int originX = 0, originY = 0;

  uint8_t* pixel(int x, int y, uint32_t bpp) const {
    return base + static_cast<std::ptrdiff_t>(y - originY) * static_cast<std::ptrdiff_t>(pitch) +
           static_cast<std::ptrdiff_t>(x - originX) * static_cast<std::ptrdiff_t>(bpp);
  }
};

}  // namespace tessera::gpu::rb
