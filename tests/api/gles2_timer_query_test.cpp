// EXT_disjoint_timer_query on the GLES2 state machine: elapsed times that grow with the work,
// monotone timestamps, the GL clock, the 32- and 64-bit result forms, and every error the
// extension (with OpenGL ES 3.0 §2.14) defines.
#include <GLES2/gl2.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "api/gles2/gl_enums.h"
#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr int kSize = 64;

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(kSize, kSize, true) {
    gl.viewport(0, 0, kSize, kSize);
    gl.useProgram(program("attribute vec4 pos; void main() { gl_Position = pos; }\n",
                          "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n",
                          "pos"));
  }
  // A rectangle in clip space, drawn `times` times.
  void rect(float x0, float y0, float x1, float y1, int times = 1) {
    const std::array<float, 8> v = {x0, y0, x1, y0, x0, y1, x1, y1};
    gl.vertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v.data());
    gl.enableVertexAttribArray(0, true);
    for (int i = 0; i < times; ++i) gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  GLuint query() {
    GLuint q = 0;
    gl.genQueries(1, &q);
    return q;
  }
  GLuint64 result(GLuint q, GLenum pname = kQueryResult) {
    GLuint64 v = 12345;
    gl.getQueryObjectui64v(q, pname, &v);
    return v;
  }
  // The elapsed time of drawing `times` rectangles of the given size (a fresh frame each).
  GLuint64 timeDraws(float extent, int times) {
    gl.clear(GL_COLOR_BUFFER_BIT);
    const GLuint q = query();
    gl.beginQuery(kTimeElapsed, q);
    rect(-1, -1, -1 + 2 * extent, -1 + 2 * extent, times);
    gl.endQuery(kTimeElapsed);
    return result(q);
  }
  GLint64 clock() {
    GLint64 t = -1;
    gl.getInteger64v(kTimestamp, &t);
    return t;
  }
};

TEST(Gles2TimerQuery, TheExtensionIsAdvertised) {
  Fixture f;
  const std::string ext = reinterpret_cast<const char*>(f.gl.getString(GL_EXTENSIONS));
  EXPECT_NE(ext.find("GL_EXT_disjoint_timer_query"), std::string::npos);
  EXPECT_NE(ext.find("GL_EXT_occlusion_query_boolean"), std::string::npos);
}

TEST(Gles2TimerQuery, ElapsedTimeGrowsWithTheWork) {
  Fixture f;
  const GLuint64 small = f.timeDraws(0.25f, 1);
  const GLuint64 large = f.timeDraws(1.0f, 8);
  EXPECT_GT(small, 0u);
  EXPECT_GT(large, small);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2TimerQuery, ResultIsAvailableOnceTheWorkIsDone) {
  Fixture f;
  const GLuint q = f.query();
  EXPECT_FALSE(f.gl.isQuery(q));
  f.gl.beginQuery(kTimeElapsed, q);
  EXPECT_TRUE(f.gl.isQuery(q));
  GLint current = 0;
  f.gl.getQueryiv(kTimeElapsed, kCurrentQuery, &current);
  EXPECT_EQ(GLuint(current), q);
  f.gl.getQueryiv(kAnySamplesPassed, kCurrentQuery, &current);
  EXPECT_EQ(current, 0);
  f.rect(-1, -1, 1, 1);
  f.gl.endQuery(kTimeElapsed);
  f.gl.getQueryiv(kTimeElapsed, kCurrentQuery, &current);
  EXPECT_EQ(current, 0);
  EXPECT_EQ(f.result(q, kQueryResultAvailable), GLuint64{GL_FALSE});  // not flushed yet
  f.gl.finish();
  EXPECT_EQ(f.result(q, kQueryResultAvailable), GLuint64{GL_TRUE});
  // Every result form gives the same (small) value, and the same availability.
  const GLuint64 ns = f.result(q);
  GLint i = 0;
  GLuint u = 0;
  GLint64 i64 = 0;
  f.gl.getQueryObjectiv(q, kQueryResult, &i);
  f.gl.getQueryObjectuiv(q, kQueryResult, &u);
  f.gl.getQueryObjecti64v(q, kQueryResult, &i64);
  EXPECT_EQ(GLuint64(i), std::min<GLuint64>(ns, std::numeric_limits<GLint>::max()));
  EXPECT_EQ(GLuint64(u), std::min<GLuint64>(ns, std::numeric_limits<GLuint>::max()));
  EXPECT_EQ(GLuint64(i64), ns);
  f.gl.getQueryObjectiv(q, kQueryResultAvailable, &i);
  EXPECT_EQ(i, GL_TRUE);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2TimerQuery, TimestampsAreMonotone) {
  Fixture f;
  const GLuint t1 = f.query(), t2 = f.query(), t3 = f.query();
  f.gl.clear(GL_COLOR_BUFFER_BIT);
  f.rect(-1, -1, 1, 1);
  f.gl.queryCounter(t1, kTimestamp);
  EXPECT_TRUE(f.gl.isQuery(t1));
  f.gl.flush();
  f.rect(-1, -1, 1, 1, 4);  // a later batch
  f.gl.queryCounter(t2, kTimestamp);
  f.gl.queryCounter(t3, kTimestamp);  // nothing between: not earlier
  const GLuint64 a = f.result(t1), b = f.result(t2), c = f.result(t3);
  EXPECT_GT(a, 0u);
  EXPECT_LT(a, b);
  EXPECT_LE(b, c);
  // The GL clock is past every timestamp of finished work, and does not run backwards.
  f.gl.finish();
  const GLint64 now = f.clock();
  EXPECT_GE(GLuint64(now), c);
  EXPECT_GE(f.clock(), now);
  // Its other forms: GetIntegerv clamps to the 32-bit range, GetBooleanv says whether it is 0.
  GLint asInt = -1;
  f.gl.getIntegerv(kTimestamp, &asInt);
  EXPECT_GE(GLint64{asInt}, std::min<GLint64>(now, std::numeric_limits<GLint>::max()));
  GLboolean asBool = GL_FALSE;
  f.gl.getBooleanv(kTimestamp, &asBool);
  EXPECT_EQ(asBool, GL_TRUE);
  GLfloat asFloat = 0;
  f.gl.getFloatv(kTimestamp, &asFloat);
  EXPECT_GE(double(asFloat), double(now) * 0.999);
  // A timestamp query may be recorded again: its result is the last one.
  f.rect(-1, -1, 1, 1);
  f.gl.queryCounter(t1, kTimestamp);
  EXPECT_GE(f.result(t1), c);
  // The 32-bit result forms clamp what does not fit.
  GLuint u = 0;
  f.gl.getQueryObjectuiv(t2, kQueryResult, &u);
  EXPECT_EQ(GLuint64(u), std::min<GLuint64>(b, std::numeric_limits<GLuint>::max()));
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2TimerQuery, TimerQueriesRunBesideOcclusionQueries) {
  Fixture f;
  const GLuint time = f.query(), samples = f.query();
  f.gl.beginQuery(kTimeElapsed, time);
  f.gl.beginQuery(kAnySamplesPassed, samples);
  f.rect(-1, -1, 1, 1);
  f.gl.endQuery(kAnySamplesPassed);
  f.gl.queryCounter(f.query(), kTimestamp);  // inside a time-elapsed query: allowed
  f.gl.endQuery(kTimeElapsed);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  EXPECT_EQ(f.result(samples), 1u);
  EXPECT_GT(f.result(time), 0u);
}

TEST(Gles2TimerQuery, CounterBitsAndDisjoint) {
  Fixture f;
  GLint bits = 0;
  f.gl.getQueryiv(kTimeElapsed, kQueryCounterBits, &bits);
  EXPECT_EQ(bits, 64);
  f.gl.getQueryiv(kTimestamp, kQueryCounterBits, &bits);
  EXPECT_EQ(bits, 64);
  f.gl.getQueryiv(kAnySamplesPassed, kQueryCounterBits, &bits);
  EXPECT_EQ(bits, 1);
  GLint current = 7;
  f.gl.getQueryiv(kTimestamp, kCurrentQuery, &current);  // a timestamp is never current
  EXPECT_EQ(current, 0);
  // No GPU fault: no disjoint operation, in every form.
  f.rect(-1, -1, 1, 1);
  f.gl.finish();
  GLint disjoint = 7;
  f.gl.getIntegerv(kGpuDisjoint, &disjoint);
  EXPECT_EQ(disjoint, 0);
  GLint64 disjoint64 = 7;
  f.gl.getInteger64v(kGpuDisjoint, &disjoint64);
  EXPECT_EQ(disjoint64, 0);
  GLboolean b = GL_TRUE;
  f.gl.getBooleanv(kGpuDisjoint, &b);
  EXPECT_EQ(b, GL_FALSE);
  // GetInteger64vEXT answers every state query GetIntegerv does.
  GLint64 viewport[4] = {};
  f.gl.getInteger64v(GL_VIEWPORT, viewport);
  EXPECT_EQ(viewport[2], kSize);
  EXPECT_EQ(viewport[3], kSize);
  GLint64 clear[4] = {};
  f.gl.clearColor(1.0f, 0.0f, 0.0f, 0.0f);
  f.gl.getInteger64v(GL_COLOR_CLEAR_VALUE, clear);
  EXPECT_EQ(clear[0], 2147483647);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.getInteger64v(GL_TEXTURE_2D, viewport);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
}

TEST(Gles2TimerQuery, ErrorsFollowTheSpec) {
  Fixture f;
  const GLuint time = f.query(), other = f.query(), stamp = f.query(), samples = f.query();
  f.gl.beginQuery(kTimestamp, time);  // TIMESTAMP_EXT only records
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.endQuery(kTimestamp);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.endQuery(kTimeElapsed);  // none active
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(stamp, kTimeElapsed);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.queryCounter(0, kTimestamp);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(4242, kTimestamp);  // never generated
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.getQueryObjecti64v(stamp, kQueryResult, nullptr);  // not yet a query object
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(stamp, kTimestamp);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));

  f.gl.beginQuery(kTimeElapsed, time);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.beginQuery(kTimeElapsed, other);  // one per target
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.beginQuery(kAnySamplesPassed, time);  // active as a timer query
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(time, kTimestamp);  // in use inside BeginQueryEXT/EndQueryEXT
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  GLint64 v = 0;
  f.gl.getQueryObjecti64v(time, kQueryResultAvailable, &v);  // active
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endQuery(kAnySamplesPassed);  // the timer is active, not an occlusion query
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endQuery(kTimeElapsed);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));

  f.gl.beginQuery(kTimeElapsed, stamp);  // a timestamp query object
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(time, kTimestamp);  // a time-elapsed query object
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.beginQuery(kAnySamplesPassed, samples);
  f.gl.endQuery(kAnySamplesPassed);
  f.gl.beginQuery(kTimeElapsed, samples);  // an occlusion query object
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.queryCounter(samples, kTimestamp);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));

  GLuint64 u = 0;
  f.gl.getQueryObjectui64v(time, GL_TEXTURE_2D, &u);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.getQueryObjectiv(4242, kQueryResult, nullptr);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  GLint i = 0;
  f.gl.getQueryiv(kTimeElapsed, kQueryResult, &i);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.getQueryiv(GL_TEXTURE_2D, kQueryCounterBits, &i);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));

  // Deleting the active timer query frees its name at once; EndQueryEXT still ends it.
  f.gl.beginQuery(kTimeElapsed, other);
  f.gl.deleteQueries(1, &other);
  EXPECT_FALSE(f.gl.isQuery(other));
  f.gl.getQueryiv(kTimeElapsed, kCurrentQuery, &i);
  EXPECT_EQ(i, 0);
  f.gl.endQuery(kTimeElapsed);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  const GLuint all[3] = {time, stamp, samples};
  f.gl.deleteQueries(3, all);
  EXPECT_FALSE(f.gl.isQuery(stamp));
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

}  // namespace
}  // namespace tessera::gles2
