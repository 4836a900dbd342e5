// EXT_occlusion_query_boolean on the GLES2 state machine: what passes and what does not, result
// availability, and every error the extension (with OpenGL ES 3.0 §2.14) defines.
#include <GLES2/gl2.h>

#include "api/gles2/gl_enums.h"
#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(16, 16, true) {
    gl.viewport(0, 0, 16, 16);
    const GLuint p =
        program("attribute vec4 pos; void main() { gl_Position = pos; }\n",
                "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n", "pos");
    gl.useProgram(p);
  }
  // A quad over the left half of the window at depth z (window depth (z + 1) / 2).
  void quad(float z) {
    const std::array<float, 12> v = {-1, -1, z, 0, -1, z, -1, 1, z, 0, 1, z};
    gl.vertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, v.data());
    gl.enableVertexAttribArray(0, true);
    gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  GLuint query() {
    GLuint q = 0;
    gl.genQueries(1, &q);
    return q;
  }
  GLuint get(GLuint q, GLenum pname) {
    GLuint v = 12345;
    gl.getQueryObjectuiv(q, pname, &v);
    return v;
  }
};

TEST(Gles2Query, AnySamplesPassedFollowsTheDepthTest) {
  Fixture f;
  f.gl.clearDepth(1.0f);
  f.gl.clear(GL_DEPTH_BUFFER_BIT);
  f.gl.enable(GL_DEPTH_TEST, true);
  const GLuint front = f.query(), behind = f.query();
  EXPECT_FALSE(f.gl.isQuery(front));  // a name only, until it is begun
  f.gl.beginQuery(kAnySamplesPassed, front);
  EXPECT_TRUE(f.gl.isQuery(front));
  GLint current = 0;
  f.gl.getQueryiv(kAnySamplesPassed, kCurrentQuery, &current);
  EXPECT_EQ(GLuint(current), front);
  f.quad(0.0f);
  f.gl.endQuery(kAnySamplesPassed);
  // Not flushed yet: not available, and asking does not block.
  EXPECT_EQ(f.get(front, kQueryResultAvailable), GLuint(GL_FALSE));
  f.gl.beginQuery(kAnySamplesPassedConservative, behind);
  f.quad(0.5f);  // behind the first quad: fails LESS everywhere
  f.gl.endQuery(kAnySamplesPassedConservative);
  EXPECT_EQ(f.get(front, kQueryResult), 1u);
  EXPECT_EQ(f.get(front, kQueryResultAvailable), GLuint(GL_TRUE));
  EXPECT_EQ(f.get(behind, kQueryResult), 0u);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.getQueryiv(kAnySamplesPassed, kCurrentQuery, &current);
  EXPECT_EQ(current, 0);
}

TEST(Gles2Query, ErrorsFollowTheSpec) {
  Fixture f;
  const GLuint q = f.query(), other = f.query();
  GLuint names[1];
  f.gl.genQueries(-1, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.deleteQueries(-1, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.beginQuery(GL_TEXTURE_2D, q);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.beginQuery(kAnySamplesPassed, 0);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.beginQuery(kAnySamplesPassed, 777);  // never generated
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endQuery(kAnySamplesPassed);  // none active
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.getQueryObjectuiv(q, kQueryResult, names);  // not yet a query object
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.beginQuery(kAnySamplesPassed, q);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.beginQuery(kAnySamplesPassedConservative, other);  // one occlusion query at a time
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.getQueryObjectuiv(q, kQueryResultAvailable, names);  // active
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endQuery(kAnySamplesPassedConservative);  // the other target is not active
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endQuery(kAnySamplesPassed);
  f.gl.beginQuery(kAnySamplesPassedConservative, q);  // its target is fixed
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.getQueryObjectuiv(q, GL_TEXTURE_2D, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  GLint current = 0;
  f.gl.getQueryiv(kAnySamplesPassed, kQueryResult, &current);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  f.gl.getQueryiv(GL_TEXTURE_2D, kCurrentQuery, &current);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  // Deleting the active query frees its name at once; EndQuery still ends it.
  f.gl.beginQuery(kAnySamplesPassed, other);
  f.gl.deleteQueries(1, &other);
  EXPECT_FALSE(f.gl.isQuery(other));
  f.gl.endQuery(kAnySamplesPassed);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.deleteQueries(1, &q);
  EXPECT_FALSE(f.gl.isQuery(q));
  const GLuint unused[2] = {0, 4242};
  f.gl.deleteQueries(2, unused);  // unused names are ignored
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

}  // namespace
}  // namespace tessera::gles2
