// Occlusion queries (EXT_occlusion_query_boolean, with the asynchronous-query rules of the
// OpenGL ES 3.0 spec §2.14 that it takes): names from glGenQueriesEXT become query objects at
// their first glBeginQueryEXT, which fixes their target; one occlusion query runs at a time.
// The counting itself is the driver's (driver/query.h): exact across bins and batches.
#include "api/gles2/gl_context.h"
#include "api/gles2/gl_enums.h"

namespace tessera::gles2 {
namespace {

bool occlusionTarget(GLenum target) {
  return target == kAnySamplesPassed || target == kAnySamplesPassedConservative;
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
    if (names[i] == activeQuery_)
      activeQuery_ = 0;
    else if (q->query)
      pipe_.destroyQuery(q->query);
    queries_.erase(names[i]);
  }
}

GLboolean Context::isQuery(GLuint name) {
  const QueryObject* q = name ? queries_.find(name) : nullptr;
  return q && q->target ? GL_TRUE : GL_FALSE;
}

void Context::beginQuery(GLenum target, GLuint name) {
  if (!occlusionTarget(target)) return error(GL_INVALID_ENUM);
  // Both targets count samples: only one of them may be active.
  if (activePipeQuery_ || name == 0) return error(GL_INVALID_OPERATION);
  QueryObject* q = queries_.find(name);
  if (!q || (q->target && q->target != target)) return error(GL_INVALID_OPERATION);
  if (!q->target) {
    q->target = target;
    q->query =
        pipe_.createQuery(target == kAnySamplesPassed ? pipe::QueryType::OcclusionPredicate
                                                      : pipe::QueryType::OcclusionConservative);
  }
  pipe_.beginQuery(q->query);
  activeQuery_ = name;
  activeQueryTarget_ = target;
  activePipeQuery_ = q->query;
}

void Context::endQuery(GLenum target) {
  if (!occlusionTarget(target)) return error(GL_INVALID_ENUM);
  if (!activePipeQuery_ || activeQueryTarget_ != target) return error(GL_INVALID_OPERATION);
  pipe_.endQuery(activePipeQuery_);
  if (!activeQuery_) pipe_.destroyQuery(activePipeQuery_);  // deleted while it ran
  activeQuery_ = 0;
  activeQueryTarget_ = 0;
  activePipeQuery_ = 0;
}

void Context::getQueryiv(GLenum target, GLenum pname, GLint* params) {
  if (!occlusionTarget(target) || pname != kCurrentQuery) return error(GL_INVALID_ENUM);
  *params = activeQueryTarget_ == target ? static_cast<GLint>(activeQuery_) : 0;
}

void Context::getQueryObjectuiv(GLuint name, GLenum pname, GLuint* params) {
  if (pname != kQueryResult && pname != kQueryResultAvailable) return error(GL_INVALID_ENUM);
  const QueryObject* q = name ? queries_.find(name) : nullptr;
  if (!q || !q->target || name == activeQuery_) return error(GL_INVALID_OPERATION);
  // QUERY_RESULT waits for the result (flushing what it needs); AVAILABLE never blocks.
  const pipe::QueryResult r = pipe_.queryResult(q->query, pname == kQueryResult);
  *params = static_cast<GLuint>(pname == kQueryResult ? r.value : r.available);
}

}  // namespace tessera::gles2
