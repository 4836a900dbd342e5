#include "gpu/lrz/low_res_z.h"

#include <algorithm>
#include <cmath>

#include "gpu/ras/sure_coverage.h"

namespace tessera::gpu::lrz {
namespace {

constexpr double kZ16 = 65535.0;

double minZ(const ras::Triangle& t) {
  return std::min({double(t.v[0].z), double(t.v[1].z), double(t.v[2].z)});
}

// The pixels the triangle's bounding box touches, ∩ clip.
ras::Scissor pixelBounds(const ras::Triangle& t, const ras::Scissor& clip) {
  double x0 = t.v[0].x, x1 = x0, y0 = t.v[0].y, y1 = y0;
  for (int i = 1; i < 3; ++i) {
    x0 = std::min(x0, double(t.v[i].x));
    x1 = std::max(x1, double(t.v[i].x));
    y0 = std::min(y0, double(t.v[i].y));
    y1 = std::max(y1, double(t.v[i].y));
  }
  auto lo = [](double v, int c) { return std::max(c, int(std::floor(std::max(v, -1e7))) - 1); };
  auto hi = [](double v, int c) { return std::min(c, int(std::ceil(std::min(v, 1e7))) + 1); };
  return {lo(x0, clip.x0), lo(y0, clip.y0), hi(x1, clip.x1), hi(y1, clip.y1)};
}

// The pixels of the 8×8 block at (x0, y0) that the triangle surely covers (bit y×8+x), within
// clip.
uint64_t coveredPixels(const ras::SureCoverage& cover, int x0, int y0, const ras::Scissor& clip) {
  uint64_t mask = 0;
  for (int y = std::max(y0, clip.y0); y < std::min(y0 + kBlock, clip.y1); ++y)
    for (int x = std::max(x0, clip.x0); x < std::min(x0 + kBlock, clip.x1); ++x)
      if (cover.pixel(x, y)) mask |= uint64_t{1} << ((y - y0) * kBlock + (x - x0));
  return mask;
}

}  // namespace

bool lrzCompatible(const rb::DepthStencilState& ds, const rb::BlendState& blend, bool hasColor,
                   bool polygonOffset, bool shaderKills) {
  const bool colourWithDepth = !ds.depthWrite || !hasColor || (blend.colorWriteMask & 0xf) == 0xf;
  return ds.depthTest &&
         (ds.depthFunc == rb::CompareFunc::Less || ds.depthFunc == rb::CompareFunc::LEqual) &&
         !ds.stencilTest && !blend.enable && !polygonOffset && !shaderKills && colourWithDepth;
}

void LowResZ::begin(GpuAddress buffer, uint32_t pitch, uint32_t rows) {
  buffer_ = buffer;
  pitch_ = pitch;
  rows_ = rows;
  blocks_.assign(size_t{pitch} * rows, kFar);
  covered_.assign(blocks_.size(), 0);
  coveredFar_.assign(blocks_.size(), 0);
  active_ = pitch > 0 && rows > 0;
}

bool LowResZ::blockRange(ras::Scissor r, int& bx0, int& by0, int& bx1, int& by1) const {
  bx0 = std::max(0, r.x0 / kBlock);
  by0 = std::max(0, r.y0 / kBlock);
  bx1 = std::min(int(pitch_), (r.x1 + kBlock - 1) / kBlock);
  by1 = std::min(int(rows_), (r.y1 + kBlock - 1) / kBlock);
  return r.x1 > r.x0 && r.y1 > r.y0 && bx1 > bx0 && by1 > by0;
}

bool LowResZ::hidden(const ras::Triangle& tri, const ras::Scissor& clip) const {
  int bx0, by0, bx1, by1;
  if (!active_ || !blockRange(pixelBounds(tri, clip), bx0, by0, bx1, by1)) return false;
  const double z = minZ(tri) * kZ16;
  for (int by = by0; by < by1; ++by)
    for (int bx = bx0; bx < bx1; ++bx)
      if (!(z > double(at(bx, by)) + kMargin)) return false;
  return true;
}

void LowResZ::occlude(const ras::Triangle& tri, const ras::Scissor& clip) {
  if (!active_ || tri.kind != ras::PrimitiveKind::Polygon) return;
  const double zmax = std::max({double(tri.v[0].z), double(tri.v[1].z), double(tri.v[2].z)});
  if (!(zmax >= 0.0 && zmax < 1.0)) return;
  const auto value = static_cast<uint16_t>(std::min(kZ16, std::ceil(zmax * kZ16)));
  int bx0, by0, bx1, by1;
  if (!blockRange(pixelBounds(tri, clip), bx0, by0, bx1, by1)) return;
  const ras::SureCoverage cover(tri);
  bool lowered = false;
  for (int by = by0; by < by1; ++by)
    for (int bx = bx0; bx < bx1; ++bx) {
      const size_t i = size_t(by) * pitch_ + size_t(bx);
      if (value >= blocks_[i]) continue;  // cannot lower this block
      const uint64_t mask = coveredPixels(cover, bx * kBlock, by * kBlock, clip);
      if (!mask) continue;
      covered_[i] |= mask;
      coveredFar_[i] = std::max(coveredFar_[i], value);
      if (covered_[i] != ~uint64_t{0}) continue;
      if (coveredFar_[i] < blocks_[i]) {
        blocks_[i] = coveredFar_[i];
        lowered = true;
      }
      covered_[i] = 0;
      coveredFar_[i] = 0;
    }
  stats_.occluders += lowered;
}

void LowResZ::store(GpuMemory& memory) {
  if (!active_) return;
  memory.write(BusClient::Lrz, buffer_, blocks_.data(), blocks_.size() * kBytesPerBlock);
}

void LowResZ::followBuffer(const LowResZ& pass) {
  active_ = pass.active_;
  buffer_ = pass.buffer_;
  pitch_ = pass.pitch_;
  rows_ = pass.rows_;
  if (active_) blocks_.resize(size_t{pitch_} * rows_);
}

void LowResZ::load(GpuMemory& memory, const ras::Scissor& bin) {
  int bx0, by0, bx1, by1;
  if (!active_ || !blockRange(bin, bx0, by0, bx1, by1)) return;
  const size_t row = size_t(bx1 - bx0) * kBytesPerBlock;
  for (int by = by0; by < by1; ++by) {
    const size_t first = size_t(by) * pitch_ + size_t(bx0);
    memory.read(BusClient::Lrz, buffer_ + first * kBytesPerBlock, blocks_.data() + first, row);
  }
}

bool LowResZ::quadHidden(int x, int y, const float z[4], uint8_t coverage) const {
  if (!active_ || x < 0 || y < 0) return false;
  const int bx = x / kBlock, by = y / kBlock;
  if (bx >= int(pitch_) || by >= int(rows_)) return false;
  const double limit = double(at(bx, by)) + kMargin;
  for (int i = 0; i < 4; ++i)
    if ((coverage >> i & 1) && !(double(z[i]) * kZ16 > limit)) return false;
  return true;
}

}  // namespace tessera::gpu::lrz
