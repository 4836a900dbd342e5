// Decodes command streams packet by packet with register, opcode and event names from the shared
// tables, following IBs like the CP — what `tessera dump` prints (like freedreno's cffdump).
#pragma once
#include <string>

#include "gpu/cp/capture.h"

namespace tessera::gpu::cp {

// Text listing of the capture's ring and every IB it reaches. A malformed packet is reported
// with its address and ends the decode of that buffer.
std::string decodeCapture(const Capture& capture);

}  // namespace tessera::gpu::cp
