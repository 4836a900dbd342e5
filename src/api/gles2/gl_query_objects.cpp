// Query objects: occlusion queries (EXT_occlusion_query_boolean) and timer queries
// (EXT_disjoint_timer_query), with the asynchronous-query rules of the OpenGL ES 3.0 spec §2.14
// that both take. Names from glGenQueriesEXT become query objects at their first
// glBeginQueryEXT or glQueryCounterEXT, which fixes their target; one query per kind runs at a
// time (the two occlusion targets are one kind: both count samples). Counting and timing are
// the driver's (driver/query.h): exact across bins and batches.
#include <algorithm>
#include <limits>

#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"

namespace tessera::gles2 {
namespace {

// Which running query a BeginQueryEXT/EndQueryEXT target uses, if it is one.
std::optional<QueryKind> queryKind(GLenum target) {
  switch (target) {
    case kAnySamplesPassed:
    case kAnySamplesPassedConservative:
      return QueryKind::Occlusion;
    case kTimeElapsed:
      return QueryKind::Time;
    default:
      return std::nullopt;
  }
}

pipe::QueryType pipeQueryType(GLenum target) {
  switch (target) {
    case kAnySamplesPassed:
      return pipe::QueryType::OcclusionPredicate;
    case kAnySamplesPassedConservative:
      return pipe::QueryType::OcclusionConservative;
    case kTimeElapsed:
      return pipe::QueryType::TimeElapsed;
    default:
      return pipe::QueryType::Timestamp;
  }
}

template <typename T>
T clampTo(uint64_t v) {
  return static_cast<T>(std::min<uint64_t>(v, std::numeric_limits<T>::max()));
}

}  // namespace

void Context::genQueries(GLsizei n, GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) names[i] = queries_.create();
}

void Context::deleteQueries(GLsizei n, const GLuint* names) {
  if (n < 0) return error(GL_INVALID_VALUE);
  for (GLsizei i = 0; i < n; ++i) {
    QueryObject* q = names[i] ? queries_.find(names[i]) : nullptr;
    if (!q) continue;  // unused names and 0 are ignored
    // §2.14: an active query's name becomes unused at once, its object lives until it ends.
    bool active = false;
    for (ActiveQuery& a : activeQueries_) {
      if (a.name != names[i]) continue;
      a.name = 0;
      active = true;
    }
    if (!active && q->query) pipe_.destroyQuery(q->query);
    queries_.erase(names[i]);
  }
}

GLboolean Context::isQuery(GLuint name) {
  const QueryObject* q = name ? queries_.find(name) : nullptr;
  return q && q->target ? GL_TRUE : GL_FALSE;
}

void Context::beginQuery(GLenum target, GLuint name) {
  const std::optional<QueryKind> kind = queryKind(target);  // TIMESTAMP_EXT is not one
  if (!kind) return error(GL_INVALID_ENUM);
  ActiveQuery& active = activeQuery(*kind);
  if (active.query || name == 0) return error(GL_INVALID_OPERATION);
  // A name that is active for any kind may not start another query (EXT_disjoint_timer_query).
  for (const ActiveQuery& a : activeQueries_)
    if (a.name == name) return error(GL_INVALID_OPERATION);
  QueryObject* q = queries_.find(name);
  if (!q || (q->target && q->target != target)) return error(GL_INVALID_OPERATION);
  if (!q->target) {
    q->target = target;
    q->query = pipe_.createQuery(pipeQueryType(target));
  }
  pipe_.beginQuery(q->query);
  active = {name, target, q->query};
}

void Context::endQuery(GLenum target) {
  const std::optional<QueryKind> kind = queryKind(target);
  if (!kind) return error(GL_INVALID_ENUM);
  ActiveQuery& active = activeQuery(*kind);
  if (!active.query || active.target != target) return error(GL_INVALID_OPERATION);
  pipe_.endQuery(active.query);
  if (!active.name) pipe_.destroyQuery(active.query);  // deleted while it ran
  active = {};
}

void Context::queryCounter(GLuint name, GLenum target) {
  if (target != kTimestamp) return error(GL_INVALID_ENUM);
  QueryObject* q = name ? queries_.find(name) : nullptr;
  // Unused names are errors, as for BeginQueryEXT (§2.14). An active query's target is never
  // TIMESTAMP_EXT, so "in use inside a BeginQueryEXT/EndQueryEXT" is caught here too.
  if (!q || (q->target && q->target != kTimestamp)) return error(GL_INVALID_OPERATION);
  if (!q->target) {
    q->target = kTimestamp;
    q->query = pipe_.createQuery(pipe::QueryType::Timestamp);
  }
  pipe_.recordTimestamp(q->query);
}

void Context::getQueryiv(GLenum target, GLenum pname, GLint* params) {
  const std::optional<QueryKind> kind = queryKind(target);
  if (!kind && target != kTimestamp) return error(GL_INVALID_ENUM);
  switch (pname) {
    case kCurrentQuery: {  // a timestamp is never current
      const ActiveQuery* a = kind ? &activeQuery(*kind) : nullptr;
      *params = a && a->target == target ? static_cast<GLint>(a->name) : 0;
      return;
    }
    case kQueryCounterBits:
      // The predicates hold one bit (as Mesa reports); times are 64-bit nanoseconds.
      *params = kind == QueryKind::Occlusion ? 1 : 64;
      return;
    default:
      error(GL_INVALID_ENUM);
  }
}

std::optional<uint64_t> Context::queryObjectValue(GLuint name, GLenum pname) {
  if (pname != kQueryResult && pname != kQueryResultAvailable) {
    error(GL_INVALID_ENUM);
    return std::nullopt;
  }
  const QueryObject* q = name ? queries_.find(name) : nullptr;
  const bool active = std::any_of(activeQueries_.begin(), activeQueries_.end(),
                                  [&](const ActiveQuery& a) { return a.name == name; });
  if (!q || !q->target || active) {
    error(GL_INVALID_OPERATION);
    return std::nullopt;
  }
  // QUERY_RESULT waits for the result (flushing what it needs); AVAILABLE never blocks.
  const pipe::QueryResult r = pipe_.queryResult(q->query, pname == kQueryResult);
  return pname == kQueryResult ? r.value : uint64_t{r.available};
}

void Context::getQueryObjectiv(GLuint name, GLenum pname, GLint* params) {
  if (const auto v = queryObjectValue(name, pname)) *params = clampTo<GLint>(*v);
}

void Context::getQueryObjectuiv(GLuint name, GLenum pname, GLuint* params) {
  if (const auto v = queryObjectValue(name, pname)) *params = clampTo<GLuint>(*v);
}

void Context::getQueryObjecti64v(GLuint name, GLenum pname, GLint64* params) {
  if (const auto v = queryObjectValue(name, pname)) *params = clampTo<GLint64>(*v);
}

void Context::getQueryObjectui64v(GLuint name, GLenum pname, GLuint64* params) {
  if (const auto v = queryObjectValue(name, pname)) *params = *v;
}

std::optional<int64_t> Context::timerState(GLenum pname) {
  switch (pname) {
    case kTimestamp:  // the GPU clock after the work submitted so far (not waiting for it)
      return clampTo<int64_t>(pipe_.gpuTimeNs());
    case kGpuDisjoint:  // reading it clears it
      return pipe_.takeDisjoint() ? 1 : 0;
    default:
      return std::nullopt;
  }
}

}  // namespace tessera::gles2
