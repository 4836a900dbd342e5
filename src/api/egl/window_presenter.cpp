#include "api/egl/window_presenter.h"

#include <X11/Xlib.h>

#include <chrono>
#include <vector>

#include "gpu/rb/color_format.h"
#include "gpu/rb/rb_state.h"

namespace tessera::egl {

std::unique_ptr<WindowPresenter> WindowPresenter::open(const X11Window& window,
                                                       gpu::GpuMemory& memory) {
  auto* app = static_cast<::Display*>(window.display);
  if (!app || !window.window) return nullptr;
  // A connection of the thread's own: Xlib connections are not shared between threads.
  ::Display* own = XOpenDisplay(DisplayString(app));
  if (!own) return nullptr;
  x11WatchErrors(own);
  return std::unique_ptr<WindowPresenter>(new WindowPresenter(own, window.window, memory));
}

WindowPresenter::WindowPresenter(void* connection, unsigned long window, gpu::GpuMemory& memory)
    : connection_(connection), window_(window), memory_(memory), thread_([this] { run(); }) {}

WindowPresenter::~WindowPresenter() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return !busy_; });
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  auto* d = static_cast<::Display*>(connection_);
  XCloseDisplay(d);
  x11ForgetErrors(d);
}

void WindowPresenter::present(Frame frame) {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return !busy_; });
  queued_ = std::move(frame);
  busy_ = true;
  cv_.notify_all();
}

void WindowPresenter::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [&] { return !busy_; });
}

void WindowPresenter::run() {
  std::vector<uint8_t> rgba;
  X11Image image;  // goes before the connection closes (the destructor joins this thread first)
  for (;;) {
    Frame f;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] { return stop_ || queued_; });
      if (!queued_) return;
      f = std::move(*queued_);
      queued_.reset();
    }
    // A lost context's frame is shown as it is: the window must not keep waiting for it.
    f.fence.wait(std::chrono::hours(1));
    const size_t pixels = size_t{f.width} * f.height;
    const size_t bytes = pixels * gpu::rb::bytesPerPixel(f.format);
    try {
      // The buffer cannot go while the frame is queued (its context waits for this thread
      // before freeing it); the pin keeps the read off the table the application changes.
      // The pixels are read in place: RGBA8 goes to the window as it is stored.
      gpu::GpuMemory::ViewScope pin(memory_, memory_.view());
      const std::span<const uint8_t> stored = memory_.span(gpu::BusClient::Host, f.address, bytes);
      memory_.countRead(gpu::BusClient::Host, bytes);
      std::span<const uint8_t> frame = stored;
      if (f.format != gpu::rb::ColorFormat::RGBA8) {
        rgba.resize(pixels * 4);
        gpu::rb::toRgba8(f.format, stored.data(), pixels, rgba.data());
        frame = rgba;
      }
      image.put({connection_, window_}, frame, f.width, f.height);
      // Done means in the window: whoever looks next, on any connection, sees the frame.
      XSync(static_cast<::Display*>(connection_), False);
    } catch (const std::exception&) {
      // A buffer that is gone has nothing to show.
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
    }
    cv_.notify_all();
  }
}

}  // namespace tessera::egl
