// The binning-pass variant of a vertex shader: only the clip position (o0) is computed. Dead
// code is removed by a backward liveness analysis over the structured control flow.
#pragma once
#include "isa/program.h"

namespace tessera::isa {

// Keeps output 0 only (numOutputs becomes 1), deletes every instruction whose results cannot
// reach o0 on any path, drops if/else/endif constructs left empty, and shrinks regCount to the
// registers still used. Loops are kept even when empty (removing one could end a runaway).
// numInputs is unchanged so the vertex fetch layout stays that of the full shader.
Program positionOnly(const Program& vs);

}  // namespace tessera::isa
