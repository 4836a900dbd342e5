// The per-context summary of `tessera run --top` (TESSERA_TOP=1): the kernel-mode layer's context
// table (kmd::Device::contextTable) with each context named as EGL knows it and its GPU time,
// printed to stderr at eglTerminate and at exit.
#pragma once
#include <string>

#include "api/egl/egl_objects.h"

namespace tessera::egl {

// TESSERA_TOP=1 in the environment.
bool topRequested();
// Keeps `c`'s row before its driver context, and with it its kernel context, goes: the kernel
// forgets a destroyed context once its work drained. Called with the display lock held.
void rememberContext(Display& d, const Context& c);
// The table: the display's live kernel contexts and those destroyed since the last summary, one
// line each after a header, led by the GPU time (the timing model's cycles at the preset's clock).
std::string contextSummary(const Display& d);
// Prints a heading naming `when` and the table to stderr if the summary was asked for and
// anything happened since the last one; forgets the destroyed contexts' rows after printing.
void printContextSummary(Display& d, const char* when);

}  // namespace tessera::egl
