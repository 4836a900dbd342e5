// Performance monitors (AMD_performance_monitor) over the pipe's counters: the groups are the
// GPU blocks of the countable table (gpu/pipeline/countables.h), then "driver" (the driver's own
// counters), in the order of pipe::Context::counterList(); group and counter ids are indices.
// A monitor is a selection of counters; glBeginPerfMonitorAMD starts a pipe Counters query of
// the selection, and the result is one (group, counter, value) tuple per counter.
//
// Where the extension leaves a behaviour open, Tessera does what Mesa does: several monitors may
// run at once; any group's counters may all be selected; the string queries copy up to bufSize
// characters (no terminator when the string fills the buffer); a monitor not ended since its
// last begin answers every result query with one zero value; a monitor with nothing selected
// never has a result available.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"

namespace tessera::gles2 {
namespace {

// What a counter holds: counts are unsigned 64-bit integers, ratios (averages) floats.
GLenum counterType(const pipe::CounterInfo& c) {
  return c.average ? GL_FLOAT : kUnsignedInt64;
}

// Bytes of one value in a PERFMON_RESULT_AMD tuple.
GLsizei valueBytes(GLenum type) {
  return type == GL_FLOAT ? GLsizei{sizeof(GLfloat)} : GLsizei{sizeof(uint64_t)};
}

// The string queries' copy: the length without bufSize, else up to bufSize characters.
void copyString(const std::string& s, GLsizei bufSize, GLsizei* length, GLchar* text) {
  const GLsizei size = static_cast<GLsizei>(s.size());
  if (bufSize <= 0) {
    if (length) *length = size;
    return;
  }
  const GLsizei n = std::min(size, bufSize);
  if (length) *length = n;
  if (!text) return;
  std::memcpy(text, s.data(), static_cast<size_t>(n));
  if (n < bufSize) text[n] = '\0';
}

}  // namespace

const std::vector<PerfGroup>& Context::perfGroups() {
  if (!perfGroups_.empty()) return perfGroups_;
  const std::span<const pipe::CounterInfo> list = pipe_.counterList();
  for (uint32_t i = 0; i < list.size(); ++i) {
    auto g = std::find_if(perfGroups_.begin(), perfGroups_.end(),
                          [&](const PerfGroup& pg) { return pg.name == list[i].group; });
    if (g == perfGroups_.end()) g = perfGroups_.insert(g, PerfGroup{list[i].group, {}});
    g->counters.push_back(i);
  }
  return perfGroups_;
}

PerfMonitor* Context::perfMonitor(GLuint name) {
  PerfMonitor* m = name ? perfMonitors_.find(name) : nullptr;
  if (!m) error(GL_INVALID_VALUE);
  return m;
}

void Context::getPerfMonitorGroups(GLint* numGroups, GLsizei groupsSize, GLuint* groups) {
  const auto& all = perfGroups();
  if (numGroups) *numGroups = static_cast<GLint>(all.size());
  if (!groups) return;
  const size_t n = std::min(all.size(), static_cast<size_t>(std::max(groupsSize, 0)));
  for (size_t i = 0; i < n; ++i) groups[i] = static_cast<GLuint>(i);
}

void Context::getPerfMonitorCounters(GLuint group, GLint* numCounters, GLint* maxActiveCounters,
                                     GLsizei countersSize, GLuint* counters) {
  const auto& all = perfGroups();
  if (group >= all.size()) return error(GL_INVALID_VALUE);
  const GLint count = static_cast<GLint>(all[group].counters.size());
  if (numCounters) *numCounters = count;
  // Every counter of a group can be counted at once (the driver samples them pass by pass).
  if (maxActiveCounters) *maxActiveCounters = count;
  if (!counters) return;
  const GLint n = std::min(count, std::max(countersSize, 0));
  for (GLint i = 0; i < n; ++i) counters[i] = static_cast<GLuint>(i);
}

void Context::getPerfMonitorGroupString(GLuint group, GLsizei bufSize, GLsizei* length,
                                        GLchar* text) {
  const auto& all = perfGroups();
  if (group >= all.size()) return error(GL_INVALID_VALUE);
  copyString(all[group].name, bufSize, length, text);
}

void Context::getPerfMonitorCounterString(GLuint group, GLuint counter, GLsizei bufSize,
                                          GLsizei* length, GLchar* text) {
  const auto& all = perfGroups();
  if (group >= all.size() || counter >= all[group].counters.size()) return error(GL_INVALID_VALUE);
  copyString(pipe_.counterList()[all[group].counters[counter]].name, bufSize, length, text);
}

void Context::getPerfMonitorCounterInfo(GLuint group, GLuint counter, GLenum pname, void* data) {
  const auto& all = perfGroups();
  if (group >= all.size() || counter >= all[group].counters.size()) return error(GL_INVALID_VALUE);
  const GLenum type = counterType(pipe_.counterList()[all[group].counters[counter]]);
  switch (pname) {
    case kCounterType:
      *static_cast<GLenum*>(data) = type;
      return;
    case kCounterRange:  // two values of the counter's type: its minimum and maximum
      if (type == GL_FLOAT) {
        const GLfloat range[2] = {0.0f, FLT_MAX};
        std::memcpy(data, range, sizeof range);
      } else {
        const uint64_t range[2] = {0, std::numeric_limits<uint64_t>::max()};
        std::memcpy(data, range, sizeof range);
      }
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

void Context::genPerfMonitors(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = perfMonitors_.create();
}

void Context::deletePerfMonitors(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    // Unlike query names, a name that is not a monitor is an error (and the rest are deleted).
    PerfMonitor* m = perfMonitor(names[i]);
    if (!m) continue;
    if (m->active && m->query) pipe_.endQuery(m->query);  // a running monitor stops first
    if (m->query) pipe_.destroyQuery(m->query);
    perfMonitors_.erase(names[i]);
  }
}

void Context::startPerfMonitor(PerfMonitor& m) {
  if (m.query) pipe_.destroyQuery(m.query);
  m.query = 0;
  m.sampled.assign(m.selected.begin(), m.selected.end());
  if (m.sampled.empty()) return;
  std::vector<uint32_t> indices;
  for (const auto& [group, counter] : m.sampled)
    indices.push_back(perfGroups()[group].counters[counter]);
  m.query = pipe_.createCounterQuery(indices);
  pipe_.beginQuery(m.query);
}

void Context::selectPerfMonitorCounters(GLuint monitor, GLboolean enable, GLuint group,
                                        GLint numCounters, const GLuint* counters) {
  PerfMonitor* m = perfMonitor(monitor);
  if (!m) return;
  const auto& all = perfGroups();
  if (group >= all.size() || numCounters < 0) return error(GL_INVALID_VALUE);
  // Selecting invalidates the monitor's results (even when the list then proves invalid, as in
  // Mesa): a running monitor starts counting afresh, a stopped one has no result until it runs.
  if (m->active) {
    if (m->query) pipe_.endQuery(m->query);
  } else if (m->query) {
    pipe_.destroyQuery(m->query);
    m->query = 0;
    m->sampled.clear();
  }
  bool valid = true;
  for (GLint i = 0; i < numCounters; ++i) valid = valid && counters[i] < all[group].counters.size();
  if (!valid) {
    error(GL_INVALID_VALUE);
  } else {
    for (GLint i = 0; i < numCounters; ++i) {
      if (enable)
        m->selected.insert({group, counters[i]});
      else
        m->selected.erase({group, counters[i]});
    }
  }
  if (m->active) startPerfMonitor(*m);
}

void Context::beginPerfMonitor(GLuint monitor) {
  PerfMonitor* m = perfMonitor(monitor);
  if (!m) return;
  if (m->active) return error(GL_INVALID_OPERATION);
  startPerfMonitor(*m);
  m->active = true;
  m->ended = false;
}

void Context::endPerfMonitor(GLuint monitor) {
  PerfMonitor* m = perfMonitor(monitor);
  if (!m) return;
  if (!m->active) return error(GL_INVALID_OPERATION);
  if (m->query) pipe_.endQuery(m->query);
  m->active = false;
  m->ended = true;
}

void Context::getPerfMonitorCounterData(GLuint monitor, GLenum pname, GLsizei dataSize,
                                        GLuint* data, GLint* bytesWritten) {
  PerfMonitor* m = perfMonitor(monitor);
  if (!m) return;
  if (!data) return error(GL_INVALID_OPERATION);
  if (pname != kPerfmonResultAvailable && pname != kPerfmonResultSize && pname != kPerfmonResult)
    return error(GL_INVALID_ENUM);
  GLint written = 0;
  if (dataSize < GLsizei{sizeof(GLuint)}) {
    // Not even one value fits: nothing is written.
  } else if (!m->ended) {
    *data = 0;
    written = sizeof(GLuint);
  } else if (pname == kPerfmonResultAvailable) {
    *data = m->query && pipe_.queryResult(m->query, false).available ? 1 : 0;
    written = sizeof(GLuint);
  } else if (pname == kPerfmonResultSize) {
    GLsizei size = 0;
    if (m->query)
      for (const auto& [group, counter] : m->sampled)
        size += 2 * GLsizei{sizeof(GLuint)} +
                valueBytes(counterType(pipe_.counterList()[perfGroups_[group].counters[counter]]));
    *data = static_cast<GLuint>(size);
    written = sizeof(GLuint);
  } else if (m->query) {
    // PERFMON_RESULT_AMD waits for the counts (flushing what they need); whole tuples that fit
    // in dataSize are written.
    const pipe::QueryResult r = pipe_.queryResult(m->query, true);
    auto* out = reinterpret_cast<uint8_t*>(data);
    for (size_t i = 0; i < m->sampled.size() && i < r.counters.size(); ++i) {
      const auto [group, counter] = m->sampled[i];
      const GLenum type = counterType(pipe_.counterList()[perfGroups_[group].counters[counter]]);
      if (written + 2 * GLsizei{sizeof(GLuint)} + valueBytes(type) > dataSize) break;
      const GLuint ids[2] = {group, counter};
      std::memcpy(out + written, ids, sizeof ids);
      written += sizeof ids;
      if (type == GL_FLOAT) {
        const GLfloat v = static_cast<GLfloat>(r.counters[i]);
        std::memcpy(out + written, &v, sizeof v);
        written += sizeof v;
      } else {
        const uint64_t v = static_cast<uint64_t>(std::llround(std::max(r.counters[i], 0.0)));
        std::memcpy(out + written, &v, sizeof v);
        written += sizeof v;
      }
    }
  }
  if (bytesWritten) *bytesWritten = written;
}

}  // namespace tessera::gles2
