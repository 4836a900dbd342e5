// libFuzzer target for the command processor: every input is a command stream run on a fresh
// GPU from its ring, with a vertex buffer, a texture and a colour surface in memory for it to
// point at. Faults are the expected outcome; a crash, a sanitizer report, a leak or an input
// that runs past libFuzzer's timeout is a bug (DESIGN.md "Command stream": a faulting stream
// faults its context only).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu/device.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::gpu;
  static const Preset preset = findPreset("adreno-a630");
  Device device(preset);
  GpuMemory& memory = device.memory();
  // Buffers a stream may name, at the same addresses for every input (the first BOs of a fresh
  // device: 0x100000, 0x110000, ...), so that the seed streams' addresses reach them.
  static const std::vector<uint8_t> fill = [] {
    std::vector<uint8_t> f(64 * 1024);
    for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<uint8_t>(i * 31);
    return f;
  }();
  for (const char* name : {"vertices", "texture", "colour", "depth"})
    memory.write(BusClient::Host, memory.allocate(fill.size(), name), fill.data(), fill.size());
  const size_t dwords = size / 4;
  if (dwords == 0) return 0;
  const GpuAddress ring = memory.allocate(dwords * 4, "ring");
  memory.write(BusClient::Host, ring, data, dwords * 4);
  device.submit(ring, static_cast<uint32_t>(dwords));
  return 0;
}
