// EGL_KHR_fence_sync and EGL_KHR_wait_sync on Tessera's libEGL (linked directly), through a
// surfaceless pbuffer context: a fence after rendering is signalled once its batch retired,
// its attributes, waits, destruction, and every error of the extensions.
#define GL_GLEXT_PROTOTYPES 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>

#include "api/egl_pbuffer.h"

namespace {

class EglFenceSync : public ::testing::Test {
 protected:
  void SetUp() override {
    egl_ = tessera::test::makePbufferContext(16, 16);
    ASSERT_TRUE(egl_.error.empty()) << egl_.error;
  }
  void TearDown() override { tessera::test::destroyPbufferContext(egl_); }
  EGLDisplay dpy() const { return egl_.display; }
  // Some work for the fence to follow: a clear, which the driver submits as a batch.
  void render() {
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  tessera::test::PbufferContext egl_;
};

// A handle no sync object has.
EGLSyncKHR bogusSync() {
  static int notASync;
  return static_cast<EGLSyncKHR>(&notASync);
}
EGLDisplay bogusDisplay() {
  static int notADisplay;
  return static_cast<EGLDisplay>(&notADisplay);
}

TEST_F(EglFenceSync, IsListedAndReachedThroughGetProcAddress) {
  const std::string ext = eglQueryString(dpy(), EGL_EXTENSIONS);
  EXPECT_NE(ext.find("EGL_KHR_fence_sync"), std::string::npos) << ext;
  EXPECT_NE(ext.find("EGL_KHR_wait_sync"), std::string::npos) << ext;
  const std::string gl = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  EXPECT_NE(gl.find("GL_OES_EGL_sync"), std::string::npos) << gl;
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglCreateSyncKHR")),
            reinterpret_cast<void*>(&eglCreateSyncKHR));
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglDestroySyncKHR")),
            reinterpret_cast<void*>(&eglDestroySyncKHR));
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglClientWaitSyncKHR")),
            reinterpret_cast<void*>(&eglClientWaitSyncKHR));
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglGetSyncAttribKHR")),
            reinterpret_cast<void*>(&eglGetSyncAttribKHR));
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglWaitSyncKHR")),
            reinterpret_cast<void*>(&eglWaitSyncKHR));
  EXPECT_EQ(eglGetProcAddress("eglSignalSyncKHR"), nullptr);  // no reusable syncs
}

TEST_F(EglFenceSync, FenceAfterRenderingIsSignalledAndWaitsAreSatisfied) {
  render();
  const EGLSyncKHR sync = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr);
  ASSERT_NE(sync, EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_SUCCESS);
  EGLint v = 0;
  ASSERT_TRUE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_TYPE_KHR, &v));
  EXPECT_EQ(v, EGL_SYNC_FENCE_KHR);
  ASSERT_TRUE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_CONDITION_KHR, &v));
  EXPECT_EQ(v, EGL_SYNC_PRIOR_COMMANDS_COMPLETE_KHR);
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR),
            EGL_CONDITION_SATISFIED_KHR);
  EXPECT_EQ(eglGetError(), EGL_SUCCESS);
  ASSERT_TRUE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_STATUS_KHR, &v));
  EXPECT_EQ(v, EGL_SIGNALED_KHR);
  // A zero timeout only tests the status; a signalled fence stays signalled.
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, 0, 0), EGL_CONDITION_SATISFIED_KHR);
  EXPECT_EQ(eglWaitSyncKHR(dpy(), sync, 0), EGL_TRUE);
  EXPECT_EQ(eglGetError(), EGL_SUCCESS);
  // The clear the fence followed is done.
  std::array<uint8_t, 4> px{};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  EXPECT_EQ(px, (std::array<uint8_t, 4>{0, 255, 0, 255}));
  EXPECT_TRUE(eglDestroySyncKHR(dpy(), sync));
  EXPECT_EQ(eglGetError(), EGL_SUCCESS);
  // Destroyed: the handle is no longer a sync object.
  EXPECT_FALSE(eglDestroySyncKHR(dpy(), sync));
  EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, 0, 0), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
}

TEST_F(EglFenceSync, FenceWithNothingSubmittedAndEmptyAttributeListIsSignalled) {
  const EGLint empty[] = {EGL_NONE};
  const EGLSyncKHR sync = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, empty);
  ASSERT_NE(sync, EGL_NO_SYNC_KHR);
  EGLint v = 0;
  ASSERT_TRUE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_STATUS_KHR, &v));
  EXPECT_EQ(v, EGL_SIGNALED_KHR);
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, 0, 1000000), EGL_CONDITION_SATISFIED_KHR);
  EXPECT_TRUE(eglDestroySyncKHR(dpy(), sync));
}

TEST_F(EglFenceSync, SeveralFencesAreIndependent) {
  render();
  const EGLSyncKHR a = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr);
  render();
  const EGLSyncKHR b = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr);
  ASSERT_NE(a, EGL_NO_SYNC_KHR);
  ASSERT_NE(b, EGL_NO_SYNC_KHR);
  EXPECT_NE(a, b);
  EXPECT_TRUE(eglDestroySyncKHR(dpy(), a));
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), b, 0, EGL_FOREVER_KHR), EGL_CONDITION_SATISFIED_KHR);
  EXPECT_TRUE(eglDestroySyncKHR(dpy(), b));
}

TEST_F(EglFenceSync, CreateErrors) {
  EXPECT_EQ(eglCreateSyncKHR(bogusDisplay(), EGL_SYNC_FENCE_KHR, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  EXPECT_EQ(eglCreateSyncKHR(EGL_NO_DISPLAY, EGL_SYNC_FENCE_KHR, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  // Only fence syncs exist; a fence takes no attributes.
  EXPECT_EQ(eglCreateSyncKHR(dpy(), EGL_SYNC_REUSABLE_KHR, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(eglCreateSyncKHR(dpy(), 0x1234, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  const EGLint attribs[] = {EGL_SYNC_STATUS_KHR, EGL_SIGNALED_KHR, EGL_NONE};
  EXPECT_EQ(eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, attribs), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  // No current context: nothing to put the fence in.
  ASSERT_TRUE(eglMakeCurrent(dpy(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_EQ(eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_BAD_MATCH);
  ASSERT_TRUE(eglMakeCurrent(dpy(), egl_.surface, egl_.surface, egl_.context));
}

TEST_F(EglFenceSync, HandleAndAttributeErrors) {
  const EGLSyncKHR sync = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr);
  ASSERT_NE(sync, EGL_NO_SYNC_KHR);
  for (EGLSyncKHR bad : {EGL_NO_SYNC_KHR, bogusSync()}) {
    EXPECT_FALSE(eglDestroySyncKHR(dpy(), bad));
    EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
    EXPECT_EQ(eglClientWaitSyncKHR(dpy(), bad, 0, EGL_FOREVER_KHR), EGL_FALSE);
    EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
    EGLint v = 77;
    EXPECT_FALSE(eglGetSyncAttribKHR(dpy(), bad, EGL_SYNC_STATUS_KHR, &v));
    EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
    EXPECT_EQ(v, 77);
    EXPECT_EQ(eglWaitSyncKHR(dpy(), bad, 0), EGL_FALSE);
    EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
  }
  // A bad display comes before a bad handle.
  EXPECT_FALSE(eglDestroySyncKHR(bogusDisplay(), sync));
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  EXPECT_EQ(eglClientWaitSyncKHR(bogusDisplay(), sync, 0, 0), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  EGLint v = 77;
  EXPECT_FALSE(eglGetSyncAttribKHR(bogusDisplay(), sync, EGL_SYNC_TYPE_KHR, &v));
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  EXPECT_EQ(eglWaitSyncKHR(bogusDisplay(), sync, 0), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_BAD_DISPLAY);
  // Attributes: an unknown one is BAD_ATTRIBUTE and leaves *value; no value is BAD_PARAMETER.
  EXPECT_FALSE(eglGetSyncAttribKHR(dpy(), sync, EGL_WIDTH, &v));
  EXPECT_EQ(eglGetError(), EGL_BAD_ATTRIBUTE);
  EXPECT_EQ(v, 77);
  EXPECT_FALSE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_STATUS_KHR, nullptr));
  EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
  // eglWaitSyncKHR: no flags are defined, and it needs a current context.
  EXPECT_EQ(eglWaitSyncKHR(dpy(), sync, 1), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
  ASSERT_TRUE(eglMakeCurrent(dpy(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_EQ(eglWaitSyncKHR(dpy(), sync, 0), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_BAD_MATCH);
  // A client wait needs no context, and FLUSH_COMMANDS without one is harmless.
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, EGL_SYNC_FLUSH_COMMANDS_BIT_KHR, EGL_FOREVER_KHR),
            EGL_CONDITION_SATISFIED_KHR);
  ASSERT_TRUE(eglMakeCurrent(dpy(), egl_.surface, egl_.surface, egl_.context));
  EXPECT_TRUE(eglDestroySyncKHR(dpy(), sync));
}

TEST_F(EglFenceSync, TerminateDestroysSyncsAndUninitializedDisplaysRefuse) {
  const EGLSyncKHR sync = eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr);
  ASSERT_NE(sync, EGL_NO_SYNC_KHR);
  ASSERT_TRUE(eglMakeCurrent(dpy(), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  ASSERT_TRUE(eglTerminate(dpy()));
  EGLint v = 0;
  EXPECT_FALSE(eglGetSyncAttribKHR(dpy(), sync, EGL_SYNC_STATUS_KHR, &v));
  EXPECT_EQ(eglGetError(), EGL_NOT_INITIALIZED);
  EXPECT_EQ(eglCreateSyncKHR(dpy(), EGL_SYNC_FENCE_KHR, nullptr), EGL_NO_SYNC_KHR);
  EXPECT_EQ(eglGetError(), EGL_NOT_INITIALIZED);
  EXPECT_EQ(eglClientWaitSyncKHR(dpy(), sync, 0, 0), EGL_FALSE);
  EXPECT_EQ(eglGetError(), EGL_NOT_INITIALIZED);
  EXPECT_FALSE(eglDestroySyncKHR(dpy(), sync));
  EXPECT_EQ(eglGetError(), EGL_NOT_INITIALIZED);
  // Initialized again, the display no longer knows the old sync.
  ASSERT_TRUE(eglInitialize(dpy(), nullptr, nullptr));
  EXPECT_FALSE(eglDestroySyncKHR(dpy(), sync));
  EXPECT_EQ(eglGetError(), EGL_BAD_PARAMETER);
  egl_.context = EGL_NO_CONTEXT;  // terminated with the display
  egl_.surface = EGL_NO_SURFACE;
}

}  // namespace
