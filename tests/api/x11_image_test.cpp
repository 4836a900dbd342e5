// Frames put into an X11 window: through a MIT-SHM segment on a connection whose errors are
// counted (Xvfb shares memory with this host), through XPutImage on any other, the window shows
// the same pixels either way, in the visual's layout, top row first; a new size gets a new
// segment.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "api/egl/x11_presenter.h"
#include "glmark2/xvfb.h"

#include <X11/Xutil.h>

namespace tessera::test {
namespace {

class X11ImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(xvfb_.display().empty()) << "Xvfb did not start";
    x_ = XOpenDisplay(xvfb_.display().c_str());
    ASSERT_NE(x_, nullptr) << "cannot open " << xvfb_.display();
    window_ = XCreateSimpleWindow(x_, DefaultRootWindow(x_), 0, 0, 40, 30, 0, 0, 0);
    XMapWindow(x_, window_);
    XSync(x_, False);
  }
  void TearDown() override {
    if (x_) {
      egl::x11ForgetErrors(x_);
      XCloseDisplay(x_);
    }
  }

  // An RGBA8 frame, bottom row first, with a different colour at every pixel.
  static std::vector<uint8_t> frame(uint32_t w, uint32_t h, uint8_t seed) {
    std::vector<uint8_t> rgba(size_t{w} * h * 4);
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        uint8_t* p = &rgba[(size_t{y} * w + x) * 4];
        p[0] = uint8_t(x * 7 + seed);
        p[1] = uint8_t(y * 5 + seed * 3);
        p[2] = uint8_t(x ^ y ^ seed);
        p[3] = 255;
      }
    return rgba;
  }
  // Every pixel of the window's top-left w x h against the frame (bottom row first).
  void expectWindowShows(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h) {
    XImage* image = XGetImage(x_, window_, 0, 0, w, h, AllPlanes, ZPixmap);
    ASSERT_NE(image, nullptr);
    int wrong = 0;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const uint8_t* p = &rgba[(size_t{h - 1 - y} * w + x) * 4];
        const uint32_t want = uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2];
        const auto got = static_cast<uint32_t>(XGetPixel(image, int(x), int(y)) & 0xffffff);
        if (got != want && wrong++ < 3)
          ADD_FAILURE() << "pixel " << x << "," << y << ": " << std::hex << got << " not " << want;
      }
    XDestroyImage(image);
    EXPECT_EQ(wrong, 0);
  }

  Xvfb xvfb_;
  ::Display* x_ = nullptr;
  Window window_ = 0;
};

TEST_F(X11ImageTest, AWatchedConnectionSharesMemoryAndTheWindowShowsTheFrame) {
  egl::x11WatchErrors(x_);
  egl::X11Image image;
  const egl::X11Window w{x_, window_};
  // An odd width leaves pixels for the scalar tail of the conversion.
  for (uint8_t k = 0; k < 3; ++k) {
    const std::vector<uint8_t> rgba = frame(37, 29, k);
    ASSERT_TRUE(image.put(w, rgba, 37, 29));
    EXPECT_TRUE(image.shared());
    expectWindowShows(rgba, 37, 29);
  }
  // A new size: a new segment.
  const std::vector<uint8_t> small = frame(16, 8, 9);
  ASSERT_TRUE(image.put(w, small, 16, 8));
  EXPECT_TRUE(image.shared());
  expectWindowShows(small, 16, 8);
}

TEST_F(X11ImageTest, AnyOtherConnectionSendsTheFrameAndTheWindowShowsTheSame) {
  egl::X11Image image;
  const std::vector<uint8_t> rgba = frame(37, 29, 4);
  ASSERT_TRUE(image.put({x_, window_}, rgba, 37, 29));
  EXPECT_FALSE(image.shared());
  expectWindowShows(rgba, 37, 29);
  EXPECT_TRUE(egl::x11Present({x_, window_}, frame(37, 29, 5), 37, 29));
  expectWindowShows(frame(37, 29, 5), 37, 29);
}

TEST_F(X11ImageTest, AFrameTooSmallForItsSizeOrNoWindowIsRefused) {
  egl::X11Image image;
  EXPECT_FALSE(image.put({x_, window_}, std::vector<uint8_t>(10), 37, 29));
  EXPECT_FALSE(image.put({x_, 0}, frame(4, 4, 0), 4, 4));
  EXPECT_FALSE(image.put({nullptr, window_}, frame(4, 4, 0), 4, 4));
}

}  // namespace
}  // namespace tessera::test
