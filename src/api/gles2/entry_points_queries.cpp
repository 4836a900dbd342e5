// The query entry points: EXT_occlusion_query_boolean, EXT_disjoint_timer_query (with
// glGetInteger64vEXT) and AMD_performance_monitor. gl2ext.h's prototypes check the signatures.
#define GL_GLEXT_PROTOTYPES 1
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <cstring>

#include "api/gles2/entry_forward.h"
#include "api/gles2/gl_context.h"

using tessera::gles2::Context;
using tessera::gles2::forward;
using tessera::gles2::run;

extern "C" {

GL_APICALL void GL_APIENTRY glGenQueriesEXT(GLsizei n, GLuint* ids) {
  run([&](Context* c) { c->genQueries(n, ids); });
}

GL_APICALL void GL_APIENTRY glDeleteQueriesEXT(GLsizei n, const GLuint* ids) {
  run([&](Context* c) { c->deleteQueries(n, ids); });
}

GL_APICALL GLboolean GL_APIENTRY glIsQueryEXT(GLuint id) {
  return forward<GLboolean>(GL_FALSE, [&](Context* c) -> GLboolean { return c->isQuery(id); });
}

GL_APICALL void GL_APIENTRY glBeginQueryEXT(GLenum target, GLuint id) {
  run([&](Context* c) { c->beginQuery(target, id); });
}

GL_APICALL void GL_APIENTRY glEndQueryEXT(GLenum target) {
  run([&](Context* c) { c->endQuery(target); });
}

GL_APICALL void GL_APIENTRY glQueryCounterEXT(GLuint id, GLenum target) {
  run([&](Context* c) { c->queryCounter(id, target); });
}

GL_APICALL void GL_APIENTRY glGetQueryivEXT(GLenum target, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getQueryiv(target, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetQueryObjectivEXT(GLuint id, GLenum pname, GLint* params) {
  run([&](Context* c) { c->getQueryObjectiv(id, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetQueryObjectuivEXT(GLuint id, GLenum pname, GLuint* params) {
  run([&](Context* c) { c->getQueryObjectuiv(id, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetQueryObjecti64vEXT(GLuint id, GLenum pname, GLint64* params) {
  run([&](Context* c) { c->getQueryObjecti64v(id, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetQueryObjectui64vEXT(GLuint id, GLenum pname, GLuint64* params) {
  run([&](Context* c) { c->getQueryObjectui64v(id, pname, params); });
}

GL_APICALL void GL_APIENTRY glGetInteger64vEXT(GLenum pname, GLint64* data) {
  run([&](Context* c) { c->getInteger64v(pname, data); });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorGroupsAMD(GLint* numGroups, GLsizei groupsSize,
                                                      GLuint* groups) {
  run([&](Context* c) { c->getPerfMonitorGroups(numGroups, groupsSize, groups); });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorCountersAMD(GLuint group, GLint* numCounters,
                                                        GLint* maxActiveCounters,
                                                        GLsizei counterSize, GLuint* counters) {
  run([&](Context* c) {
    c->getPerfMonitorCounters(group, numCounters, maxActiveCounters, counterSize, counters);
  });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorGroupStringAMD(GLuint group, GLsizei bufSize,
                                                           GLsizei* length, GLchar* groupString) {
  run([&](Context* c) { c->getPerfMonitorGroupString(group, bufSize, length, groupString); });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorCounterStringAMD(GLuint group, GLuint counter,
                                                             GLsizei bufSize, GLsizei* length,
                                                             GLchar* counterString) {
  run([&](Context* c) {
    c->getPerfMonitorCounterString(group, counter, bufSize, length, counterString);
  });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorCounterInfoAMD(GLuint group, GLuint counter,
                                                           GLenum pname, void* data) {
  run([&](Context* c) { c->getPerfMonitorCounterInfo(group, counter, pname, data); });
}

GL_APICALL void GL_APIENTRY glGenPerfMonitorsAMD(GLsizei n, GLuint* monitors) {
  run([&](Context* c) { c->genPerfMonitors(n, monitors); });
}

GL_APICALL void GL_APIENTRY glDeletePerfMonitorsAMD(GLsizei n, GLuint* monitors) {
  run([&](Context* c) { c->deletePerfMonitors(n, monitors); });
}

GL_APICALL void GL_APIENTRY glSelectPerfMonitorCountersAMD(GLuint monitor, GLboolean enable,
                                                           GLuint group, GLint numCounters,
                                                           GLuint* counterList) {
  run([&](Context* c) {
    c->selectPerfMonitorCounters(monitor, enable, group, numCounters, counterList);
  });
}

GL_APICALL void GL_APIENTRY glBeginPerfMonitorAMD(GLuint monitor) {
  run([&](Context* c) { c->beginPerfMonitor(monitor); });
}

GL_APICALL void GL_APIENTRY glEndPerfMonitorAMD(GLuint monitor) {
  run([&](Context* c) { c->endPerfMonitor(monitor); });
}

GL_APICALL void GL_APIENTRY glGetPerfMonitorCounterDataAMD(GLuint monitor, GLenum pname,
                                                           GLsizei dataSize, GLuint* data,
                                                           GLint* bytesWritten) {
  run([&](Context* c) {
    c->getPerfMonitorCounterData(monitor, pname, dataSize, data, bytesWritten);
  });
}

}  // extern "C"

namespace tessera::gles2 {

void* queryProcAddress(const char* name) {
  static const struct {
    const char* name;
    void* fn;
  } kProcs[] = {
      {"glGenQueriesEXT", reinterpret_cast<void*>(&glGenQueriesEXT)},
      {"glDeleteQueriesEXT", reinterpret_cast<void*>(&glDeleteQueriesEXT)},
      {"glIsQueryEXT", reinterpret_cast<void*>(&glIsQueryEXT)},
      {"glBeginQueryEXT", reinterpret_cast<void*>(&glBeginQueryEXT)},
      {"glEndQueryEXT", reinterpret_cast<void*>(&glEndQueryEXT)},
      {"glQueryCounterEXT", reinterpret_cast<void*>(&glQueryCounterEXT)},
      {"glGetQueryivEXT", reinterpret_cast<void*>(&glGetQueryivEXT)},
      {"glGetQueryObjectivEXT", reinterpret_cast<void*>(&glGetQueryObjectivEXT)},
      {"glGetQueryObjectuivEXT", reinterpret_cast<void*>(&glGetQueryObjectuivEXT)},
      {"glGetQueryObjecti64vEXT", reinterpret_cast<void*>(&glGetQueryObjecti64vEXT)},
      {"glGetQueryObjectui64vEXT", reinterpret_cast<void*>(&glGetQueryObjectui64vEXT)},
      {"glGetInteger64vEXT", reinterpret_cast<void*>(&glGetInteger64vEXT)},
      {"glGetPerfMonitorGroupsAMD", reinterpret_cast<void*>(&glGetPerfMonitorGroupsAMD)},
      {"glGetPerfMonitorCountersAMD", reinterpret_cast<void*>(&glGetPerfMonitorCountersAMD)},
      {"glGetPerfMonitorGroupStringAMD", reinterpret_cast<void*>(&glGetPerfMonitorGroupStringAMD)},
      {"glGetPerfMonitorCounterStringAMD",
       reinterpret_cast<void*>(&glGetPerfMonitorCounterStringAMD)},
      {"glGetPerfMonitorCounterInfoAMD", reinterpret_cast<void*>(&glGetPerfMonitorCounterInfoAMD)},
      {"glGenPerfMonitorsAMD", reinterpret_cast<void*>(&glGenPerfMonitorsAMD)},
      {"glDeletePerfMonitorsAMD", reinterpret_cast<void*>(&glDeletePerfMonitorsAMD)},
      {"glSelectPerfMonitorCountersAMD", reinterpret_cast<void*>(&glSelectPerfMonitorCountersAMD)},
      {"glBeginPerfMonitorAMD", reinterpret_cast<void*>(&glBeginPerfMonitorAMD)},
      {"glEndPerfMonitorAMD", reinterpret_cast<void*>(&glEndPerfMonitorAMD)},
      {"glGetPerfMonitorCounterDataAMD", reinterpret_cast<void*>(&glGetPerfMonitorCounterDataAMD)},
  };
  for (const auto& p : kProcs) {
    if (std::strcmp(p.name, name) == 0) return p.fn;
  }
  return robustnessProcAddress(name);
}

}  // namespace tessera::gles2
