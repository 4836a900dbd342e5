// How a GL entry point reaches the calling thread's current context (without one, calls do
// nothing and queries return `fallback`). Failures below the GL layer (out of GPU memory, a
// faulting submission) become GL_OUT_OF_MEMORY and a message on stderr; nothing escapes into
// the application. A lost context (EXT_robustness: guilty of a GPU reset) fails quietly.
#pragma once
#include <GLES2/gl2.h>

#include <cstdio>
#include <exception>

#include "api/gles2/gl_context.h"

namespace tessera::gles2 {

template <typename R, typename F>
R forward(R fallback, F&& body) {
  Context* c = current();
  if (!c) return fallback;
  try {
    return body(c);
  } catch (const std::exception& e) {
    if (c->lost()) return fallback;
    std::fprintf(stderr, "tessera: %s\n", e.what());
    c->error(GL_OUT_OF_MEMORY);
    return fallback;
  }
}

// Entry points without a result.
template <typename F>
void run(F&& body) {
  forward(0, [&](Context* c) {
    body(c);
    return 0;
  });
}

// The query and performance-monitor entry points by name (entry_points_queries.cpp), or null.
void* queryProcAddress(const char* name);
// The EXT_robustness entry points by name (entry_points_robustness.cpp), or null.
void* robustnessProcAddress(const char* name);

}  // namespace tessera::gles2
