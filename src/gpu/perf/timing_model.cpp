#include "gpu/perf/timing_model.h"

#include <algorithm>
#include <cmath>

namespace tessera::gpu::perf {
namespace {

constexpr std::array<std::string_view, 4> kPassNames = {"Setup", "Binning", "GMEM", "Bypass"};

double& at(BlockCycles& c, Block b) {
  return c[static_cast<size_t>(b)];
}
double at(const BlockCycles& c, Block b) {
  return c[static_cast<size_t>(b)];
}

Block busiest(const BlockCycles& c) {
  return static_cast<Block>(std::max_element(c.begin(), c.end()) - c.begin());
}

double ratio(uint64_t amount, double perCycle) {
  return static_cast<double>(amount) / perCycle;
}

// The shader processor: each core issues one warp-instruction per cycle, and a warp's next
// instruction waits for its last one's result (latency per execution unit). Resident warps hide
// that latency: as many fit a core as its register file holds at the programs' register count,
// up to the warp slots, and never more than there are warps to run.
double spCycles(const Preset& p, const BlockWork& w) {
  if (w.warps == 0) return 0;
  const uint64_t issued = w.aluInstructions + w.fpuInstructions + w.sfuInstructions +
                          w.texInstructions + w.flowInstructions;
  const double cores = std::min<double>(p.shaderCores, double(w.warps));  // cores with work
  const double regsPerThread = std::max(1.0, double(w.warpRegisters) / double(w.warps));
  const double fit = std::max(1.0, std::floor(p.registersPerCore / regsPerThread));
  const double resident =
      std::min({double(p.warpsPerCore), fit, std::ceil(double(w.warps) / cores)});
  const double chain = double(w.aluInstructions) * p.aluLatency +
                       double(w.fpuInstructions) * p.fpuLatency +
                       double(w.sfuInstructions) * p.sfuLatency +
                       double(w.texInstructions) * p.texLatency + double(w.flowInstructions);
  return std::max(double(issued) / cores, chain / (cores * resident));
}

// Streaming `bytes` between GMEM and the bus: the slower of the tile-memory port and the bus.
double streamCycles(const Preset& p, uint64_t bytes) {
  return std::max(ratio(bytes, p.gmemBytesPerCycle), ratio(bytes, p.busBytesPerCycle));
}

// A blit's cycles: its streaming time plus the bus latency once.
double blitCycles(const Preset& p, uint64_t bytes) {
  return bytes == 0 ? 0 : streamCycles(p, bytes) + p.busLatency;
}

}  // namespace

std::string_view passName(PassKind kind) {
  return kPassNames[static_cast<size_t>(kind)];
}

double SubmissionTiming::busyPercent(Block b) const {
  return cycles > 0 ? 100.0 * at(busy, b) / cycles : 0.0;
}

BlockCycles blockCycles(const Preset& p, const BlockWork& w) {
  BlockCycles c{};
  // The CP fetches a dword per cycle while it parses, and each packet costs a fixed time.
  at(c, Block::Cp) = std::max(double(w.cpPackets) * p.cpCyclesPerPacket, double(w.cpDwords));
  at(c, Block::Vfd) = ratio(w.attributeBytes, p.vfdBytesPerCycle);
  at(c, Block::Sp) = spCycles(p, w);
  at(c, Block::Vsc) = ratio(w.binnedPrimitives, p.binnerTrianglesPerCycle) +
                      double(w.binHits + w.blockUpdates) * p.binnerCyclesPerBinTouched;
  at(c, Block::Ras) = std::max(double(w.triangles) * p.setupCyclesPerTriangle,
                               ratio(4 * w.quads, p.rasterPixelsPerCycle));
  at(c, Block::Tex) = ratio(w.texels, p.texelsPerCycle);
  at(c, Block::Rb) = ratio(w.ropSamples, p.ropSamplesPerCycle);
  at(c, Block::Gmem) = ratio(w.clearBytes + w.restoreBytes + w.resolveBytes, p.gmemBytesPerCycle);
  at(c, Block::Bus) = ratio(w.busBytes, p.busBytesPerCycle);
  return c;
}

namespace {

// The render phase of a bin waits for every block but the blit engine; its bus time is the
// traffic other than the bin's own restore and resolve.
double binRenderCycles(const Preset& p, const BlockWork& w, BlockCycles busy) {
  at(busy, Block::Gmem) = 0;
  at(busy, Block::Bus) = ratio(w.busBytes - w.restoreBytes - w.resolveBytes, p.busBytesPerCycle);
  return *std::max_element(busy.begin(), busy.end());
}

// The resolve of a bin on the blit engine (free from `blit`, which it advances). Blocks the
// interleaved resolve copied while the bin rendered start once rendering reached them, one
// after another; the rest follows the bin's last fragment. The bus latency is paid once.
void resolve(const Preset& p, const PassWork& work, PassTiming& b, double& blit) {
  const BlockWork& w = work.work;
  double t = blit, first = -1;
  uint64_t early = 0;
  for (const ResolveSlice& s : work.earlyResolves) {
    const double done = w.quads ? std::min(1.0, double(s.quadsBefore) / double(w.quads)) : 1.0;
    t = std::max(t, b.render.start + done * b.render.cycles);
    if (first < 0) first = t;
    t += streamCycles(p, s.bytes);
    early += s.bytes;
  }
  const uint64_t rest = w.resolveBytes - std::min(w.resolveBytes, early);
  const double end =
      std::max(t, b.render.end()) + streamCycles(p, rest) + (early + rest > 0 ? p.busLatency : 0.0);
  b.store.start = first >= 0 ? first : std::max(blit, b.render.end());
  b.store.cycles = early + rest > 0 ? end - b.store.start : 0.0;
  blit = b.store.end();
}

// Schedules the bins pass[0..n) of one GMEM pass starting at `engine`, with the blit engine
// free from `blit`. The restore of bin k+1 is placed before the resolve of bin k, so with two
// tile buffers it runs while bin k renders; with one it must wait for bin k's resolve.
void scheduleBins(const Preset& p, std::span<const PassWork> work, std::span<PassTiming> pass,
                  double& engine, double& blit) {
  const size_t buffers = p.tileBuffers > 1 ? 2 : 1;
  std::array<double, 2> bufferFree = {engine, engine};  // each tile buffer's last resolve end
  blit = std::max(blit, engine);
  auto load = [&](size_t k) {
    const BlockWork& w = work[k].work;
    pass[k].load.start = std::max(blit, bufferFree[k % buffers]);
    pass[k].load.cycles = ratio(w.clearBytes, p.gmemBytesPerCycle) + blitCycles(p, w.restoreBytes);
    blit = pass[k].load.end();
  };
  load(0);
  for (size_t k = 0; k < work.size(); ++k) {
    PassTiming& b = pass[k];
    b.render.start = std::max(engine, b.load.end());
    b.render.cycles = binRenderCycles(p, work[k].work, b.busy);
    engine = b.render.end();
    const bool next = k + 1 < work.size();
    if (next && buffers > 1) load(k + 1);
    resolve(p, work[k], b, blit);
    bufferFree[k % buffers] = b.store.end();
    if (next && buffers == 1) load(k + 1);
  }
}

}  // namespace

SubmissionTiming timeSubmission(const Preset& p, std::span<const PassWork> passes) {
  SubmissionTiming t;
  t.clockMHz = p.clockMHz;
  t.passes.resize(passes.size());
  uint64_t bytes = 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    PassTiming& pt = t.passes[i];
    pt.kind = passes[i].kind;
    pt.busy = blockCycles(p, passes[i].work);
    pt.bound = busiest(pt.busy);
    bytes += passes[i].work.busBytes;
    for (size_t b = 0; b < kBlocks; ++b) t.busy[b] += pt.busy[b];
  }
  double engine = 0;  // when the rendering engine (CP through RB) is next free
  double blit = 0;    // when the blit engine is next free
  for (size_t i = 0; i < passes.size();) {
    if (passes[i].kind == PassKind::Bin) {
      size_t j = i;
      while (j < passes.size() && passes[j].kind == PassKind::Bin) ++j;
      scheduleBins(p, passes.subspan(i, j - i), std::span(t.passes).subspan(i, j - i), engine,
                   blit);
      i = j;
      continue;
    }
    // Other passes run on the rendering engine once the blits before them have drained.
    PassTiming& pt = t.passes[i];
    pt.render = {std::max(engine, blit), *std::max_element(pt.busy.begin(), pt.busy.end())};
    engine = pt.render.end();
    ++i;
  }
  // The bus is shared: overlapped phases cannot move more bytes than it carries.
  t.cycles = std::max({engine, blit, ratio(bytes, p.busBytesPerCycle)});
  t.bound = busiest(t.busy);
  return t;
}

void append(SubmissionTiming& a, const SubmissionTiming& b) {
  const double offset = a.cycles;
  a.clockMHz = b.clockMHz;
  for (PassTiming pt : b.passes) {
    for (Phase* ph : {&pt.load, &pt.render, &pt.store}) ph->start += offset;
    a.passes.push_back(pt);
  }
  a.cycles += b.cycles;
  for (size_t i = 0; i < kBlocks; ++i) a.busy[i] += b.busy[i];
  a.bound = busiest(a.busy);
}

}  // namespace tessera::gpu::perf
