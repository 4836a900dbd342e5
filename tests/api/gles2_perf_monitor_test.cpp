// AMD_performance_monitor on the GLES2 state machine: the groups and counters the pipe offers,
// their strings, types and ranges, monitors counting a frame (checked against the pixels drawn,
// the pipe's occlusion counter and the draw calls made), result availability and layout, and
// every error.
#include <GLES2/gl2.h>

#include <cfloat>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "api/gles2/gl_enums.h"
#include "api/gles2_fixture.h"

namespace tessera::gles2 {
namespace {

constexpr int kSize = 64;

struct Sample {
  GLuint group, counter;
  double value;
};

struct Fixture : Gles2Fixture {
  Fixture() : Gles2Fixture(kSize, kSize, true) {
    gl.viewport(0, 0, kSize, kSize);
    // pos * 0.5 + pos * 0.5 is pos exactly, and takes a register (vs_registers is nonzero).
    gl.useProgram(
        program("attribute vec4 pos; void main() { gl_Position = pos * 0.5 + pos * 0.5; }\n",
                "precision mediump float; void main() { gl_FragColor = vec4(1.0); }\n", "pos"));
  }
  void rect(float x0, float y0, float x1, float y1) {
    const std::array<float, 8> v = {x0, y0, x1, y0, x0, y1, x1, y1};
    gl.vertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v.data());
    gl.enableVertexAttribArray(0, true);
    gl.drawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  std::string groupName(GLuint group) {
    char s[64] = {};
    gl.getPerfMonitorGroupString(group, sizeof s, nullptr, s);
    return s;
  }
  std::string counterName(GLuint group, GLuint counter) {
    char s[64] = {};
    gl.getPerfMonitorCounterString(group, counter, sizeof s, nullptr, s);
    return s;
  }
  // The ids of "group.counter".
  std::pair<GLuint, GLuint> find(const std::string& group, const std::string& counter) {
    GLint groups = 0;
    gl.getPerfMonitorGroups(&groups, 0, nullptr);
    for (GLuint g = 0; g < GLuint(groups); ++g) {
      if (groupName(g) != group) continue;
      GLint n = 0;
      gl.getPerfMonitorCounters(g, &n, nullptr, 0, nullptr);
      for (GLuint c = 0; c < GLuint(n); ++c)
        if (counterName(g, c) == counter) return {g, c};
    }
    ADD_FAILURE() << group << "." << counter << " not found";
    return {0, 0};
  }
  GLuint monitor() {
    GLuint m = 0;
    gl.genPerfMonitors(1, &m);
    return m;
  }
  void select(GLuint m, std::pair<GLuint, GLuint> id, bool enable = true) {
    gl.selectPerfMonitorCounters(m, enable ? GL_TRUE : GL_FALSE, id.first, 1, &id.second);
  }
  GLuint data(GLuint m, GLenum pname) {
    GLuint v = 12345;
    GLint written = -1;
    gl.getPerfMonitorCounterData(m, pname, sizeof v, &v, &written);
    EXPECT_EQ(written, GLint{sizeof v});
    return v;
  }
  // PERFMON_RESULT_AMD as (group, counter, value) tuples; floats for FLOAT counters.
  std::vector<Sample> results(GLuint m, GLsizei bytes = 1024) {
    std::vector<GLuint> words(256, 0xdeadbeef);
    GLint written = -1;
    gl.getPerfMonitorCounterData(m, kPerfmonResult, bytes, words.data(), &written);
    std::vector<Sample> out;
    for (size_t w = 0; w * 4 < size_t(written);) {
      Sample s{words[w], words[w + 1], 0};
      GLenum type = 0;
      gl.getPerfMonitorCounterInfo(s.group, s.counter, kCounterType, &type);
      if (type == GL_FLOAT) {
        float f;
        std::memcpy(&f, &words[w + 2], 4);
        s.value = f;
        w += 3;
      } else {
        uint64_t u;
        std::memcpy(&u, &words[w + 2], 8);
        s.value = double(u);
        w += 4;
      }
      out.push_back(s);
    }
    return out;
  }
};

TEST(Gles2PerfMonitor, GroupsAndCountersComeFromThePipe) {
  Fixture f;
  const std::string ext = reinterpret_cast<const char*>(f.gl.getString(GL_EXTENSIONS));
  EXPECT_NE(ext.find("GL_AMD_performance_monitor"), std::string::npos);
  const auto list = f.gl.pipe().counterList();
  std::vector<std::string> names;
  for (const auto& c : list)
    if (names.empty() || names.back() != c.group) names.push_back(c.group);
  GLint groups = 0;
  f.gl.getPerfMonitorGroups(&groups, 0, nullptr);
  ASSERT_EQ(size_t(groups), names.size());
  EXPECT_EQ(f.groupName(0), "cp");
  EXPECT_EQ(f.groupName(GLuint(groups - 1)), "driver");
  // Group ids are indices; only groupsSize of them are written.
  GLuint ids[4] = {99, 99, 99, 99};
  f.gl.getPerfMonitorGroups(nullptr, 2, ids);
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(ids[1], 1u);
  EXPECT_EQ(ids[2], 99u);
  // Every counter of the list, once, in order, and all of a group may be active at once.
  size_t total = 0;
  for (GLuint g = 0; g < GLuint(groups); ++g) {
    GLint n = 0, maxActive = 0;
    f.gl.getPerfMonitorCounters(g, &n, &maxActive, 0, nullptr);
    EXPECT_EQ(maxActive, n);
    std::vector<GLuint> counters(size_t(n) + 1, 99);
    f.gl.getPerfMonitorCounters(g, nullptr, nullptr, n, counters.data());
    for (GLuint c = 0; c < GLuint(n); ++c) {
      EXPECT_EQ(counters[c], c);
      EXPECT_EQ(f.groupName(g), list[total].group);
      EXPECT_EQ(f.counterName(g, c), list[total].name);
      ++total;
    }
    EXPECT_EQ(counters[size_t(n)], 99u);
  }
  EXPECT_EQ(total, list.size());
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2PerfMonitor, StringsTypesAndRanges) {
  Fixture f;
  const auto [g, c] = f.find("rb", "samples_passed");
  GLsizei length = -1;
  f.gl.getPerfMonitorCounterString(g, c, 0, &length, nullptr);  // the length only
  EXPECT_EQ(length, GLsizei(std::strlen("samples_passed")));
  char text[8];
  std::memset(text, '#', sizeof text);
  f.gl.getPerfMonitorCounterString(g, c, 3, &length, text);  // at most bufSize characters
  EXPECT_EQ(length, 3);
  EXPECT_EQ(std::string(text, 4), "sam#");
  f.gl.getPerfMonitorGroupString(g, sizeof text, &length, text);
  EXPECT_EQ(length, 2);
  EXPECT_STREQ(text, "rb");
  GLenum type = 0;
  f.gl.getPerfMonitorCounterInfo(g, c, kCounterType, &type);
  EXPECT_EQ(type, kUnsignedInt64);
  uint64_t range[2] = {7, 7};
  f.gl.getPerfMonitorCounterInfo(g, c, kCounterRange, range);
  EXPECT_EQ(range[0], 0u);
  EXPECT_EQ(range[1], std::numeric_limits<uint64_t>::max());
  const auto [dg, dc] = f.find("driver", "vs_registers");  // an average
  f.gl.getPerfMonitorCounterInfo(dg, dc, kCounterType, &type);
  EXPECT_EQ(type, GLenum(GL_FLOAT));
  float frange[2] = {7, 7};
  f.gl.getPerfMonitorCounterInfo(dg, dc, kCounterRange, frange);
  EXPECT_EQ(frange[0], 0.0f);
  EXPECT_EQ(frange[1], FLT_MAX);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2PerfMonitor, AFrameCountsWhatItDrew) {
  Fixture f;
  const auto samples = f.find("rb", "samples_passed");
  const auto shaded = f.find("fragment", "fragments_shaded");
  const auto draws = f.find("driver", "draw_calls");
  const auto registers = f.find("driver", "vs_registers");
  const GLuint m = f.monitor();
  for (const auto& id : {draws, shaded, samples, registers}) f.select(m, id);
  // Never begun: every result query answers one zero.
  EXPECT_EQ(f.data(m, kPerfmonResultAvailable), 0u);
  EXPECT_EQ(f.data(m, kPerfmonResult), 0u);
  // The pipe's occlusion counter over the same draws.
  pipe::Context& pipe = f.gl.pipe();
  const pipe::QueryId occlusion = pipe.createQuery(pipe::QueryType::OcclusionCounter);
  f.gl.beginPerfMonitor(m);
  EXPECT_EQ(f.data(m, kPerfmonResultSize), 0u);  // running: not ended
  pipe.beginQuery(occlusion);
  f.gl.clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  f.rect(-1, -1, 0, 1);  // the left half and the right half: every pixel once
  f.rect(0, -1, 1, 1);
  pipe.endQuery(occlusion);
  f.gl.endPerfMonitor(m);
  EXPECT_EQ(f.data(m, kPerfmonResultAvailable), 0u);  // the frame is not flushed yet
  f.gl.finish();
  EXPECT_EQ(f.data(m, kPerfmonResultAvailable), 1u);
  // Three 64-bit counts and a float: (4 + 4 + 8) × 3 + (4 + 4 + 4) bytes.
  EXPECT_EQ(f.data(m, kPerfmonResultSize), 60u);
  const std::vector<Sample> r = f.results(m);
  ASSERT_EQ(r.size(), 4u);
  // In (group, counter) order.
  for (size_t i = 1; i < r.size(); ++i)
    EXPECT_LT(std::make_pair(r[i - 1].group, r[i - 1].counter),
              std::make_pair(r[i].group, r[i].counter));
  const uint64_t occluded = pipe.queryResult(occlusion, true).value;
  for (const Sample& s : r) {
    const std::pair<GLuint, GLuint> id{s.group, s.counter};
    if (id == samples) {
      EXPECT_EQ(s.value, double(kSize * kSize));
      EXPECT_EQ(s.value, double(occluded));
    } else if (id == shaded) {
      EXPECT_EQ(s.value, double(kSize * kSize));
    } else if (id == draws) {
      EXPECT_EQ(s.value, 2.0);
    } else {
      EXPECT_EQ(id, registers);
      EXPECT_GT(s.value, 0.0);
    }
  }
  // Only whole tuples that fit are written.
  const std::vector<Sample> first = f.results(m, 20);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].group, r[0].group);
  GLuint word = 5;
  GLint written = -1;
  f.gl.getPerfMonitorCounterData(m, kPerfmonResult, 3, &word, &written);  // not one value
  EXPECT_EQ(written, 0);
  EXPECT_EQ(word, 5u);
  pipe.destroyQuery(occlusion);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
}

TEST(Gles2PerfMonitor, SelectingResetsTheResults) {
  Fixture f;
  const auto draws = f.find("driver", "draw_calls");
  const auto shaded = f.find("fragment", "fragments_shaded");
  const GLuint m = f.monitor(), empty = f.monitor(), other = f.monitor();
  f.select(m, draws);
  f.gl.beginPerfMonitor(m);
  f.gl.beginPerfMonitor(empty);  // several monitors may run at once
  f.gl.beginPerfMonitor(other);
  f.rect(-1, -1, 1, 1);
  // Selecting on a running monitor starts its counting afresh, with the new selection.
  f.select(m, shaded);
  f.rect(-1, -1, 0, 0);
  f.gl.endPerfMonitor(m);
  f.gl.endPerfMonitor(empty);
  f.gl.finish();
  std::vector<Sample> r = f.results(m);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].value, double(kSize * kSize / 4));  // fragment comes before driver
  EXPECT_EQ(r[1].value, 1.0);
  // Nothing selected: never available, no result.
  EXPECT_EQ(f.data(empty, kPerfmonResultAvailable), 0u);
  EXPECT_EQ(f.data(empty, kPerfmonResultSize), 0u);
  EXPECT_TRUE(f.results(empty).empty());
  // Selecting on a stopped monitor drops its results until it runs again.
  f.select(m, shaded, false);
  EXPECT_EQ(f.data(m, kPerfmonResultAvailable), 0u);
  EXPECT_EQ(f.data(m, kPerfmonResultSize), 0u);
  EXPECT_TRUE(f.results(m).empty());
  f.gl.beginPerfMonitor(m);
  f.rect(-1, -1, 1, 1);
  f.gl.endPerfMonitor(m);
  r = f.results(m);  // waits for the counts
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].value, 1.0);
  // A running monitor may be deleted.
  f.gl.deletePerfMonitors(1, &other);
  EXPECT_EQ(f.err(), GLenum(GL_NO_ERROR));
  f.gl.endPerfMonitor(other);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
}

TEST(Gles2PerfMonitor, ErrorsFollowTheSpec) {
  Fixture f;
  GLint groups = 0;
  f.gl.getPerfMonitorGroups(&groups, 0, nullptr);
  const GLuint bad = GLuint(groups);
  GLint n = 0;
  GLsizei length = 0;
  char text[8];
  GLenum type = 0;
  f.gl.getPerfMonitorCounters(bad, &n, nullptr, 0, nullptr);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorGroupString(bad, sizeof text, &length, text);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounterString(bad, 0, sizeof text, &length, text);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounters(0, &n, nullptr, 0, nullptr);
  f.gl.getPerfMonitorCounterString(0, GLuint(n), sizeof text, &length, text);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounterInfo(bad, 0, kCounterType, &type);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounterInfo(0, GLuint(n), kCounterType, &type);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounterInfo(0, 0, GL_TEXTURE_2D, &type);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));

  GLuint names[2] = {0, 0};
  f.gl.genPerfMonitors(-1, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.deletePerfMonitors(-1, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  const GLuint m = f.monitor();
  const GLuint counter = 0;
  f.gl.selectPerfMonitorCounters(4242, GL_TRUE, 0, 1, &counter);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.selectPerfMonitorCounters(m, GL_TRUE, bad, 1, &counter);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.selectPerfMonitorCounters(m, GL_TRUE, 0, -1, &counter);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  const GLuint outOfRange[2] = {0, GLuint(n)};
  f.gl.selectPerfMonitorCounters(m, GL_TRUE, 0, 2, outOfRange);  // nothing is selected
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.beginPerfMonitor(4242);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.endPerfMonitor(m);  // not started
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.beginPerfMonitor(m);
  f.gl.beginPerfMonitor(m);  // already started
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endPerfMonitor(m);
  f.gl.endPerfMonitor(m);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.endPerfMonitor(4242);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  EXPECT_EQ(f.data(m, kPerfmonResultSize), 0u);  // the invalid list selected nothing

  GLuint word = 0;
  GLint written = 0;
  f.gl.getPerfMonitorCounterData(4242, kPerfmonResultSize, 4, &word, &written);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.getPerfMonitorCounterData(m, kPerfmonResultSize, 4, nullptr, &written);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_OPERATION));
  f.gl.getPerfMonitorCounterData(m, GL_TEXTURE_2D, 4, &word, &written);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_ENUM));
  // Deleting an unknown name is an error; the known ones are still deleted.
  names[0] = 4242, names[1] = m;
  f.gl.deletePerfMonitors(2, names);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
  f.gl.beginPerfMonitor(m);
  EXPECT_EQ(f.err(), GLenum(GL_INVALID_VALUE));
}

}  // namespace
}  // namespace tessera::gles2
