// A window surface's swap chain: two colour buffers (EGL_BUFFER_DESTROYED lets the back buffer
// change at every swap) and a thread that puts each swapped frame into the X11 window once the
// GPU has drawn it. eglSwapBuffers hands the frame over and returns, so the application records
// the next frame into the other buffer while the GPU model still draws this one, as with a
// real swap chain. The thread talks to the X server on a connection of its own.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "api/egl/x11_presenter.h"
#include "gpu/mem/gpu_memory.h"
#include "kmd/fence.h"
#include "pipe/state.h"

namespace tessera::egl {

class WindowPresenter final {
 public:
  struct Frame {
    kmd::Fence fence;             // signalled when the frame's last batch has retired
    gpu::GpuAddress address = 0;  // its colour buffer's (resolved) image
    pipe::ColorFormat format = pipe::ColorFormat::RGBA8;
    uint32_t width = 0, height = 0;
  };

  // Null when no second connection to the window's X server can be opened: the caller then
  // presents on its own thread, after waiting for the frame.
  static std::unique_ptr<WindowPresenter> open(const X11Window& window, gpu::GpuMemory& memory);
  // Presents the frame still pending, then stops.
  ~WindowPresenter();
  WindowPresenter(const WindowPresenter&) = delete;
  WindowPresenter& operator=(const WindowPresenter&) = delete;

  // Waits until the previous frame is in the window (its colour buffer may be drawn into
  // again), then queues this one.
  void present(Frame frame);
  // Waits until the queued frame is in the window.
  void waitIdle();

 private:
  WindowPresenter(void* connection, unsigned long window, gpu::GpuMemory& memory);
  void run();

  void* connection_;  // Display*: the thread's own
  unsigned long window_;
  gpu::GpuMemory& memory_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<Frame> queued_;
  bool busy_ = false;  // a frame is queued or being presented
  bool stop_ = false;
  std::thread thread_;  // last: starts once the rest exists
};

}  // namespace tessera::egl
